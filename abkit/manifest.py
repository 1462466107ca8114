"""The hand-in manifest: the file ``abkit pack`` puts at the top of a hand-in zip and ``abkit grade`` reads.

Both ends of the hand-in share this format: the student's loop writes it (:func:`manifest`,
:mod:`abkit.studentloop.pack`), the grader reads and checks it (:func:`parse_manifest`, :mod:`abkit.grader.handin`).
It records the kit version, the course id, the student id, when it was made, each file's SHA-256 and the
public tests' results.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import re

from . import __version__
from .coursefolder import course_id, current_course

#: the manifest's name, at the top of the zip, and its format
MANIFEST = "abkit-handin.json"
FORMAT = 1
MAX_MANIFEST_BYTES = 1_000_000
MAX_LISTED = 2000
_SHA256 = re.compile(r"[0-9a-f]{64}\Z")


class BadManifest(ValueError):
    """A manifest that is not one ``abkit pack`` writes; the message says what is wrong."""


def file_hash(data: bytes) -> str:
    """A file's SHA-256, as the manifest lists it."""
    return hashlib.sha256(data).hexdigest()


def manifest(student: str, files: dict[str, bytes], results: dict[str, tuple[int, int]], rule: str,
             created: datetime.datetime | None = None) -> dict:
    """The manifest of a hand-in: format, kit version, course id, student id, when, each file's SHA-256, the public
    tests' results."""
    created = created or datetime.datetime.now(datetime.timezone.utc).astimezone()
    return {"format": FORMAT, "kit_version": __version__, "course": course_id(current_course().root),
            "student": student, "created": created.isoformat(timespec="seconds"),
            "files": {name: file_hash(data) for name, data in files.items()},
            "check": {"rule": rule, "exercises": {name: {"passed": p, "total": n} for name, (p, n) in results.items()}}}


def parse_manifest(data: bytes) -> dict:
    """The manifest in ``data``, checked: a JSON object with the fields :func:`manifest` writes;
    :class:`BadManifest` otherwise."""
    if len(data) > MAX_MANIFEST_BYTES:
        raise BadManifest(f"larger than {MAX_MANIFEST_BYTES // 1000} kB")
    try:
        manifest = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:  # [[[[… nested past the parser's depth
        raise BadManifest(f"not JSON ({type(error).__name__})") from None
    if not isinstance(manifest, dict):
        raise BadManifest("not a JSON object")
    for name in ("kit_version", "student", "created"):
        if not isinstance(manifest.get(name), str):
            raise BadManifest(f"no text field {name!r}")
    if manifest.get("course") is not None and not isinstance(manifest["course"], str):
        raise BadManifest("'course' is not text")
    files = manifest.get("files")
    if not isinstance(files, dict) or len(files) > MAX_LISTED or not all(
            isinstance(k, str) and isinstance(v, str) and _SHA256.match(v) for k, v in files.items()):
        raise BadManifest("'files' is not a mapping of paths to SHA-256 hashes")
    return manifest
