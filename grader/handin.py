"""A hand-in's manifest (``abkit pack``): what it records, and whether a graded entry still matches it.

``abkit pack`` writes :data:`MANIFEST` at the top of the hand-in zip: the kit version, the course id, the student
id, when it was made, each file's SHA-256 and the public check's results. ``abkit grade`` reads such a zip as any
other entry; :func:`check_handin` then compares it with what was unpacked for grading and says, in words, each
way it differs (a file changed, missing or added after packing, another kit version or course, a student id other
than the entry's name). An entry without a manifest was not made by ``abkit pack``: nothing is said.

The manifest is a seal against accidents (a file edited after packing, an LMS that re-zips, a zip handed in under
another name), not a signature: whoever can edit a file can rewrite the manifest too. A manifest that cannot be
read is said so, and never stops the batch.
"""

from __future__ import annotations

import re

import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from abkit.i18n import Message, t
from abkit.manifest import MANIFEST, MAX_MANIFEST_BYTES, BadManifest, file_hash, parse_manifest

from abkit.grader.submissions import Submission, Unpacked, _directory_problem, _open_regular, _safe_name, read_regular, shown

PROBLEMS_SHOWN = 10  # differences named one by one; the rest are counted


@dataclass
class HandinCheck:
    """What the manifest of one entry says about it: ``problems`` (messages) when the entry differs from it."""

    student: str
    created: str = ""
    kit_version: str = ""
    problems: list[Message] = field(default_factory=list)

    @property
    def matches(self) -> bool:
        return not self.problems

    def to_dict(self, lang: str) -> dict:
        """As kept in ``results.json`` (``extra_data.handin``): the reports are rebuilt from it in ``lang``."""
        return {"status": "ok" if self.matches else "mismatch", "student": self.student, "created": self.created,
                "kit_version": self.kit_version, "problems": [m.render(lang) for m in self.problems]}


def find_manifest(submission: Submission) -> tuple[str, bytes] | None:
    """Where the entry's manifest is (the folder holding it, relative to the entry, ``""`` at its top) and its
    bytes; None when the entry has none. A zip's shallowest :data:`MANIFEST`; a folder's at its top or one folder
    down (an LMS may unpack the zip into a folder of its own). Only regular files are read."""
    if submission.problem is not None or submission.files:  # (an LMS's loose files: no hand-in zip among them)
        return None
    if submission.is_zip:
        return _zip_manifest(submission.path)
    for place in [submission.path, *sorted(_subfolders(submission.path))]:
        try:
            data = read_regular(place / MANIFEST, MAX_MANIFEST_BYTES + 1)
        except OSError:
            continue
        return ("" if place == submission.path else place.name), data
    return None


def _subfolders(folder: Path) -> list[Path]:
    try:
        return [p for p in folder.iterdir() if not p.is_symlink() and p.is_dir() and not p.name.startswith(".")]
    except OSError:  # pragma: no cover - the entry vanished while grading: unpacking says so
        return []


def _zip_manifest(path: Path) -> tuple[str, bytes] | None:
    """The shallowest :data:`MANIFEST` entry of the archive at ``path`` (its folder, its bytes), or None."""
    try:
        with _open_regular(path) as handle:
            if _directory_problem(handle) is not None:
                return None
            with zipfile.ZipFile(handle) as archive:
                found = [(safe, info) for info, safe in
                         ((i, _safe_name(i.filename)) for i in archive.infolist() if not i.is_dir())
                         if safe is not None and PurePosixPath(safe).name == MANIFEST]
                if not found:
                    return None
                safe, info = min(found, key=lambda item: (item[0].count("/"), item[0]))
                with archive.open(info) as entry:
                    data = entry.read(MAX_MANIFEST_BYTES + 1)
                return ("/".join(PurePosixPath(safe).parts[:-1]), data)
    except Exception:  # noqa: BLE001 - a broken archive: unpacking it already said so
        return None


def check_handin(submission: Submission, unpacked: Unpacked, course: str | None, kit_version: str,
                 names: bool = True) -> HandinCheck | None:
    """Whether the entry still matches its manifest: None when it has none; else each difference as a message.

    ``unpacked``: the entry's Python files as grading unpacked them; ``course``: the course id the batch grades in
    (:func:`abkit.coursefolder.course_id`); ``kit_version``: the grader's; ``names``: whether the entry's id is the
    student's id in the course (not on Gradescope, which names a submission by the student's e-mail, nor for an
    LMS's identity no roster maps); the manifest may name it or one of the entry's aliases (its LMS id or name). The files compared are the
    Python files below the manifest's folder, with those it lists."""
    found = find_manifest(submission)
    if found is None:
        return None
    where, data = found
    try:
        manifest = parse_manifest(data)
    except BadManifest as error:
        return HandinCheck("", problems=[Message("handin.unreadable", name=MANIFEST, reason=str(error))])
    check = HandinCheck(manifest["student"], manifest["created"], manifest["kit_version"])
    prefix = f"{where}/" if where else ""
    listed = {prefix + name: digest for name, digest in manifest["files"].items()}
    present = {name for name in unpacked.files if name.startswith(prefix)}
    for name in sorted(listed):
        if name not in present:
            check.problems.append(Message("handin.missing", file=shown(name)))
            continue
        try:
            data = (unpacked.root / name).read_bytes()
        except OSError:  # pragma: no cover - unpacking wrote it a moment ago
            check.problems.append(Message("handin.missing", file=shown(name)))
            continue
        if file_hash(data) != listed[name]:
            check.problems.append(Message("handin.changed", file=shown(name)))
    check.problems += [Message("handin.added", file=shown(name)) for name in sorted(present - set(listed))]
    if manifest["kit_version"] != kit_version:
        packed = manifest["kit_version"]  # shown if it is a version: the hand-in's text is the student's to write
        packed = packed if re.fullmatch(r"[\w.+-]{1,40}", packed, re.ASCII) else "?"
        check.problems.append(Message("handin.kit", packed=packed, grading=kit_version))
    if manifest.get("course") != course:
        check.problems.append(Message("handin.course", packed=shown(str(manifest.get("course"))),
                                      grading=str(course)))
    if names and manifest["student"] not in (submission.student, *submission.aliases):
        check.problems.append(Message("handin.student", packed=shown(manifest["student"]), entry=submission.student))
    if len(check.problems) > PROBLEMS_SHOWN:
        rest = len(check.problems) - PROBLEMS_SHOWN + 1
        check.problems[PROBLEMS_SHOWN - 1:] = [Message("handin.more", count=rest)]
    return check


def handin_notes(check: HandinCheck | None, lang: str) -> list[str]:
    """The note a student's feedback carries when their hand-in does not match its manifest (none otherwise)."""
    if check is None or check.matches:
        return []
    return [t("handin.note", lang, problems="; ".join(m.render(lang) for m in check.problems))]


def handin_cell(handin: dict | None) -> str:
    """``grades.csv``'s ``handin`` column: empty (not made by ``abkit pack``), ``ok``, or ``mismatch: `` and what
    differs (at most 300 characters).

    >>> handin_cell(None), handin_cell({"status": "ok"}), handin_cell({"status": "mismatch", "problems": ["a", "b"]})
    ('', 'ok', 'mismatch: a; b')
    """
    if not isinstance(handin, dict):
        return ""
    if handin.get("status") == "ok":
        return "ok"
    return f"mismatch: {'; '.join(map(str, handin.get('problems') or []))}"[:300]


def handin_summary(rows: list[dict], lang: str) -> list[str]:
    """The summary's lines on the hand-ins that do not match their manifest (none when every one does)."""
    bad = [(r["extra_data"]["student"], r["extra_data"]["handin"]) for r in rows
           if isinstance(r["extra_data"].get("handin"), dict) and r["extra_data"]["handin"].get("status") != "ok"]
    if not bad:
        return []
    return ["", f"## {t('handin.summary.title', lang)}", "", t("handin.summary.intro", lang), "",
            *(f"- {student}: {'; '.join(map(str, handin.get('problems') or []))}" for student, handin in bad)]
