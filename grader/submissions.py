"""A class's submissions as the LMS hands them over (contract §4): one folder or ``.zip`` per student.

:func:`find_submissions` lists the students; :func:`unpack` copies one student's
Python files (and only those) into a fresh working folder, skipping archive
entries that would land outside it, and :func:`pick_files` finds each exercise
file by name at any depth: the shallowest wins, then the first in sorted order.
"""

from __future__ import annotations

import hashlib
import os
import stat
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from abkit.i18n import Message

MAX_FILE_BYTES = 1_000_000      # one Python file
MAX_TOTAL_BYTES = 20_000_000    # all of one student's Python files
MAX_FILES = 2000
MAX_ENTRIES = 20_000            # entries in one archive, of any kind: more is a bomb of names
MAX_RATIO = 100                 # uncompressed / compressed size of one archive entry (text deflates ~4-10x)


class SubmissionsError(ValueError):
    """The submissions folder cannot be read (an instructor error); carries a :class:`Message`."""

    def __init__(self, key: str, /, **params: object) -> None:
        self.message = Message(key, **params)
        super().__init__(str(self.message))


@dataclass(frozen=True)
class Submission:
    """One student's entry: ``path`` is a folder or a ``.zip``; ``student`` its name without ``.zip``."""

    student: str
    path: Path

    @property
    def is_zip(self) -> bool:
        return self.path.suffix.lower() == ".zip" and self.path.is_file()


@dataclass
class Unpacked:
    """A student's Python files copied into ``root``.

    files: relative paths (POSIX) of the files copied; skipped: archive entries or
    files left out, each with a :class:`Message` saying why; unreadable: the
    entry could not be read at all (a broken archive), with the reason.
    """

    root: Path
    files: list[str] = field(default_factory=list)
    skipped: list[Message] = field(default_factory=list)
    unreadable: Message | None = None


def find_submissions(folder: str | Path) -> list[Submission]:
    """Every student entry of ``folder``, sorted by student id (hidden entries and other files are ignored)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise SubmissionsError("grade.no_folder", path=folder)
    entries = []
    for path in folder.iterdir():
        if path.name.startswith((".", "__MACOSX")):
            continue
        if path.is_dir() and not path.is_symlink():
            entries.append(Submission(path.name, path))
        elif path.suffix.lower() == ".zip" and path.is_file():
            entries.append(Submission(path.name[: -len(".zip")], path))
    return sorted(entries, key=lambda s: (s.student, s.path.name))


def fingerprint(submission: Submission) -> str:
    """A hash of everything of the entry that grading reads (its Python files, or the archive's bytes)."""
    digest = hashlib.sha256()
    if submission.is_zip:
        digest.update(submission.path.read_bytes())
    else:
        for path in sorted(_python_files(submission.path)):
            digest.update(path.relative_to(submission.path).as_posix().encode() + b"\0")
            try:
                digest.update(path.read_bytes())
            except OSError:
                digest.update(b"\1unreadable")
    return digest.hexdigest()


def _python_files(folder: Path) -> list[Path]:
    found = []
    for top, dirs, files in os.walk(folder):  # os.walk does not follow links to folders
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__MACOSX", "__pycache__")))
        found.extend(Path(top) / f for f in sorted(files) if f.endswith(".py") and not f.startswith("."))
    return found


def unpack(submission: Submission, root: Path) -> Unpacked:
    """Copy the entry's Python files into the empty folder ``root``; the rest of the entry is ignored."""
    root.mkdir(parents=True, exist_ok=True)
    result = Unpacked(root)
    if submission.is_zip:
        _unzip(submission.path, result)
    else:
        _copy(submission.path, result)
    return result


def _copy(folder: Path, result: Unpacked) -> None:
    total = 0
    for path in _python_files(folder):
        relative = path.relative_to(folder).as_posix()
        try:
            info = path.lstat()
        except OSError:  # pragma: no cover - vanished while listing
            continue
        if stat.S_ISLNK(info.st_mode):
            result.skipped.append(Message("grade.skipped.link", name=relative))
            continue
        if info.st_size > MAX_FILE_BYTES or total + info.st_size > MAX_TOTAL_BYTES or len(result.files) >= MAX_FILES:
            result.skipped.append(Message("grade.skipped.large", name=relative))
            continue
        try:
            data = path.read_bytes()
        except OSError as error:
            result.skipped.append(Message("grade.skipped.unreadable", name=relative, reason=error.strerror or ""))
            continue
        total += len(data)
        _write(result, relative, data)


def _unzip(path: Path, result: Unpacked) -> None:
    """Extract the archive's Python files: caps on size, count and compression ratio (zip bombs), no path
    leaving the folder (zip slip), the first of two entries with one name; a broken archive is ``unreadable``."""
    try:
        with zipfile.ZipFile(path) as archive:
            entries = archive.infolist()
            if len(entries) > MAX_ENTRIES:
                result.unreadable = Message("grade.zip_entries", count=len(entries), limit=MAX_ENTRIES)
                return
            total = 0
            for info in entries:
                name = info.filename
                if info.is_dir() or not name.endswith(".py") or "__MACOSX" in name:
                    continue
                safe = _safe_name(name)
                if safe is None or stat.S_ISLNK(info.external_attr >> 16):
                    result.skipped.append(Message("grade.skipped.outside", name=name))
                    continue
                if safe in result.files:
                    result.skipped.append(Message("grade.skipped.duplicate", name=name))
                    continue
                if info.file_size > MAX_FILE_BYTES or total + info.file_size > MAX_TOTAL_BYTES \
                        or len(result.files) >= MAX_FILES:
                    result.skipped.append(Message("grade.skipped.large", name=name))
                    continue
                if info.file_size > MAX_RATIO * max(info.compress_size, 1) and info.file_size > 64 * 1024:
                    result.skipped.append(Message("grade.skipped.ratio", name=name, ratio=MAX_RATIO))
                    continue
                data = archive.open(info).read(MAX_FILE_BYTES + 1)
                if len(data) > MAX_FILE_BYTES:  # pragma: no cover - a header that lies about the size
                    result.skipped.append(Message("grade.skipped.large", name=name))
                    continue
                total += len(data)
                _write(result, safe, data)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, NotImplementedError, ValueError) as error:
        result.unreadable = Message("grade.unreadable_zip", reason=str(error) or type(error).__name__)


def _safe_name(name: str) -> str | None:
    """``name`` as a relative POSIX path inside the extraction folder, or ``None`` if it would leave it."""
    name = name.replace("\\", "/")
    parts = PurePosixPath(name).parts
    if not parts or name.startswith("/") or (parts[0].endswith(":")) or any(p in ("..", "") for p in parts):
        return None
    return "/".join(p for p in parts if p != ".")


def _write(result: Unpacked, relative: str, data: bytes) -> None:
    target = result.root / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    result.files.append(relative)


def pick_files(files: list[str], names: list[str]) -> tuple[dict[str, str], list[str]]:
    """For each file name in ``names``, the chosen path among ``files`` and the paths ignored.

    The shallowest path wins, then the first in sorted order (contract §4).

    >>> pick_files(["b/alphabeta.py", "a/x/alphabeta.py", "alphabeta.py", "util.py"], ["alphabeta.py", "minimax.py"])
    ({'alphabeta.py': 'alphabeta.py'}, ['b/alphabeta.py', 'a/x/alphabeta.py'])
    """
    chosen: dict[str, str] = {}
    ignored: list[str] = []
    for name in names:
        matches = sorted((f for f in files if PurePosixPath(f).name == name), key=lambda f: (f.count("/"), f))
        if matches:
            chosen[name] = matches[0]
            ignored.extend(matches[1:])
    return chosen, ignored
