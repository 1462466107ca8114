"""A class's submissions as the LMS hands them over (contract §4): one folder or ``.zip`` per student.

:func:`find_submissions` lists the students (an LMS's own layouts: :mod:`abkit.grader.intake`); :func:`unpack` copies
one student's Python files and Jupyter notebooks (and only those) into a fresh working folder, opening the archives
among them (a zip in the folder, a zip in a zip: :data:`MAX_NESTING` deep, the caps shared by the whole entry),
skipping archive entries that would land outside it (:mod:`abkit.grader.picking` then finds each exercise's file).
Nothing that is not a regular file or a folder (a link, a FIFO, a device, a
socket) is ever opened, and nothing an archive's bytes make zipfile raise
escapes: the student is ``invalid`` or the entry skipped, with the reason.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import re
import stat
import unicodedata
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Iterator

from abkit.i18n import Message, os_problem

MAX_FILE_BYTES = 1_000_000      # one Python file
MAX_NOTEBOOK_BYTES = 10_000_000  # one Jupyter notebook (its outputs, plots included, are read and left out)
#: the files of a submission that are read: Python files and Jupyter notebooks (grader.picking reads their code)
READ_SUFFIXES = (".py", ".ipynb")
MAX_INNER_ZIP_BYTES = 20_000_000  # a .zip inside a student's folder or archive (read into memory to be opened)
MAX_NESTING = 3                 # archives inside archives opened this many levels deep (a zip in a zip: 2)
MAX_ARCHIVES = 50               # archives opened inside one student's entry
MAX_TOTAL_BYTES = 20_000_000    # all of one student's Python files
#: what breaks a line in text (str.splitlines): kept out of student ids
LINE_BREAKS = re.compile("[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
#: the longest name of a folder in bytes on the systems the kit runs on (a student's feedback folder is its id)
NAME_BYTES = 255
#: the deepest folder of a submission that is read (a folder's depth below the submission's own)
MAX_DEPTH = 32
MAX_FILES = 2000
MAX_ENTRIES = 20_000            # entries in one archive, of any kind: more is a bomb of names
MAX_RATIO = 100                 # uncompressed / compressed size of one archive entry (text deflates ~4-10x)
MAX_ARCHIVE_BYTES = 200_000_000  # one student's .zip (an LMS download with a PDF or two fits many times over)
MAX_DIRECTORY_BYTES = 8_000_000  # an archive's central directory: MAX_ENTRIES entries with long names
SHOWN_NAME = 200                # characters of a path shown in a message (over-long paths are cut)
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


class SubmissionsError(ValueError):
    """The submissions folder cannot be read (an instructor error); carries a :class:`Message`."""

    def __init__(self, key: str, /, **params: object) -> None:
        self.message = Message(key, **params)
        super().__init__(str(self.message))


class NotRegular(OSError):
    """A path that is not a regular file (a FIFO, a device, a socket, a link) where one was to be read."""


@dataclass(frozen=True)
class Submission:
    """One student's entry: ``path`` is a folder or a ``.zip``; ``student`` its name without ``.zip``.

    problem: why the entry is not opened at all (a link, a FIFO, a device, a socket): the student gets an
    ``invalid`` row saying so. folder: the name of the student's feedback folder when it is not the id (the batch
    sets it: :func:`abkit.grader.reports.folder_names`).
    """

    student: str
    path: Path
    problem: Message | None = field(default=None, compare=False)
    #: loose files of an LMS download that make this entry (``path`` is then the download's folder): (the name
    #: the file is graded as, its path), the LMS's prefixes already stripped (:mod:`abkit.grader.intake`)
    files: tuple[tuple[str, str], ...] = ()
    #: what the student's feedback says of how the entry was read (which copy was graded, a late mark)
    notes: tuple[Message, ...] = field(default=(), compare=False)
    #: other names of the student a hand-in's manifest may give (the LMS's id, name or e-mail)
    aliases: tuple[str, ...] = field(default=(), compare=False)
    #: whether a hand-in's manifest must name this student (``student`` or an alias): False where the LMS's
    #: identity is not the course's and no roster maps it
    verify: bool = field(default=True, compare=False)
    folder: str = field(default="", compare=False)

    @property
    def is_zip(self) -> bool:
        return self.problem is None and not self.files and self.path.suffix.lower() == ".zip" \
            and not self.path.is_dir()


@dataclass
class Unpacked:
    """A student's Python files copied into ``root``.

    files: relative paths (POSIX) of the Python files copied; notebooks: of the Jupyter notebooks copied (``.ipynb``,
    read by :mod:`abkit.grader.picking`); skipped: archive entries or files left out, each with a :class:`Message` saying
    why; unreadable: the entry could not be read at all (a broken archive, a link, a FIFO), with the reason.
    written: the bytes written so far and archives: the archives opened inside the entry (the caps hold for the
    whole entry, however its archives nest).
    """

    root: Path
    files: list[str] = field(default_factory=list)
    notebooks: list[str] = field(default_factory=list)
    skipped: list[Message] = field(default_factory=list)
    unreadable: Message | None = None
    written: int = 0
    archives: int = 0


def find_submissions(folder: str | Path) -> list[Submission]:
    """Every student entry of ``folder``, sorted by student id: each folder and ``.zip``, and each entry that is
    neither a regular file nor a folder (a link, a FIFO, a device, a socket), which is never opened and gets a
    ``problem``. Hidden entries and other regular files are ignored."""
    folder = Path(folder)
    if folder.is_file() and folder.name.lower().endswith(".zip"):  # the LMS's download of the whole class
        raise SubmissionsError("grade.class_zip", path=folder)
    if not folder.is_dir():
        raise SubmissionsError("grade.no_folder", path=folder)
    entries = []
    for path in folder.iterdir():
        if path.name.startswith((".", "__MACOSX")):
            continue
        try:
            mode = path.lstat().st_mode
        except OSError:  # pragma: no cover - vanished while listing
            continue
        student = student_id(path.name[: -len(".zip")] if path.name.lower().endswith(".zip") else path.name)
        if stat.S_ISDIR(mode):  # a folder's id is its whole name, even one ending in .zip
            entries.append(Submission(student_id(path.name), path))
        elif stat.S_ISLNK(mode):
            entries.append(Submission(student, path, _link_problem(folder, path)))
        elif not stat.S_ISREG(mode):
            entries.append(Submission(student, path, Message("grade.entry.special", name=path.name)))
        elif path.name.lower().endswith(".zip"):
            entries.append(Submission(student, path))
    return sorted(entries, key=lambda s: (s.student, s.path.name))


def student_id(name: str) -> str:
    """The student id of an entry named ``name``: its bytes that are not UTF-8 written as ``\\xNN``, its letters in
    Unicode's composed form (NFC: a name from an archive made on macOS, decomposed, is the same student).

    >>> student_id("caf\\udce9"), student_id("김민준")
    ('caf\\\\xe9', '김민준')
    >>> student_id(unicodedata.normalize("NFD", "김민준")) == "김민준"
    True
    """
    if name.isascii() and not LINE_BREAKS.search(name) and "![" not in name:
        return name
    found = unicodedata.normalize("NFC", os.fsencode(name).decode("utf-8", "backslashreplace"))
    # on one line, as every list and progress line shows it (a line break in a folder's name could start a section
    # of the summary), and no Markdown image a viewer of the summary would fetch (other control characters are
    # the terminal's and the summary's to strip: they are kept, as the folder has them)
    found = LINE_BREAKS.sub(lambda m: f"\\x{ord(m[0]):02x}" if ord(m[0]) < 256 else f"\\u{ord(m[0]):04x}",
                            found).replace("![", "! [")
    if len(found.encode()) <= NAME_BYTES:
        return found
    # composed or escaped, the name is longer than a folder's name may be (its feedback folder could not be made):
    # as much of it as fits, and a digest of the whole that keeps it apart from any other
    digest = hashlib.sha256(os.fsencode(name)).hexdigest()[:12]
    while len(found.encode()) > NAME_BYTES - len(digest) - 4:
        found = found[:-1]
    return f"{found}…{digest}"


def _link_problem(folder: Path, link: Path) -> Message:
    """Why the link ``link`` in the class folder is not followed: it leaves the folder, or it names another
    entry (graded under that entry's own id, not twice)."""
    try:
        inside = link.resolve(strict=True).is_relative_to(folder.resolve())
    except (OSError, RuntimeError):  # a dangling link or a loop
        inside = False
    return Message("grade.entry.link_inside" if inside else "grade.entry.link_outside", name=link.name)


def read_regular(path: Path, limit: int) -> bytes:
    """At most ``limit`` bytes of ``path`` if it is a regular file; :class:`NotRegular` (an ``OSError``) if it is
    anything else. Checked before opening (a FIFO is never opened), opened without following a link or
    blocking, and checked again on the open file."""
    with _open_regular(path) as handle:
        return handle.read(limit)


def _open_regular(path: Path):
    """``path`` opened for reading (binary) if it is a regular file; :class:`NotRegular` otherwise."""
    if not stat.S_ISREG(os.lstat(path).st_mode):
        raise NotRegular(errno.EINVAL, "not a regular file", str(path))
    descriptor = os.open(path, _OPEN_FLAGS)
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):  # pragma: no cover - replaced after the check
            raise NotRegular(errno.EINVAL, "not a regular file", str(path))
        return os.fdopen(descriptor, "rb")
    except BaseException:  # pragma: no cover - only after the file was replaced
        os.close(descriptor)
        raise


def fingerprint(submission: Submission) -> str:
    """A hash of everything of the entry that grading reads (its Python files, or the archive's bytes)."""
    digest = hashlib.sha256()
    if submission.problem is not None:
        digest.update(f"problem/{submission.problem.key}".encode())
    elif submission.files:
        for name, path in submission.files:
            digest.update(name.encode("utf-8", "surrogateescape") + b"\0")
            try:
                digest.update(read_regular(Path(path), MAX_INNER_ZIP_BYTES + 1))
            except OSError as error:
                digest.update(f"\1unreadable {error.errno}".encode())
    elif submission.is_zip:
        try:
            with _open_regular(submission.path) as handle:
                for _ in range(MAX_ARCHIVE_BYTES // (1 << 20) + 1):
                    chunk = handle.read(1 << 20)
                    if not chunk:
                        break
                    digest.update(chunk)
        except OSError as error:
            digest.update(f"\1unreadable {error.errno}".encode())
    else:
        for relative, data in _folder_files(submission.path, []):
            digest.update(relative.encode("utf-8", "surrogateescape") + b"\0")
            digest.update(data if isinstance(data, bytes) else f"\1{data.key}".encode())
    return digest.hexdigest()


def _folder_files(folder: Path, skipped: list[Message]) -> Iterator[tuple[str, bytes | Message]]:
    """The Python files and notebooks under ``folder`` in a stable order, as (relative path, their bytes or why they
    are left out); links to folders and folders that cannot be listed go to ``skipped``. The caps on size and count
    apply."""
    total = count = 0
    for relative, path in _python_files(folder, skipped):
        try:
            info = path.lstat()
        except OSError as error:  # pragma: no cover - vanished while listing (a too long path is one of dirs)
            yield relative, Message("grade.skipped.unreadable", name=shown(relative), reason=os_problem(error))
            continue
        if stat.S_ISLNK(info.st_mode):
            yield relative, Message("grade.skipped.link", name=shown(relative))
        elif not stat.S_ISREG(info.st_mode):
            yield relative, Message("grade.skipped.special", name=shown(relative))
        elif relative.lower().endswith(".zip"):  # an archive inside the folder: opened by the caller
            if info.st_size > MAX_INNER_ZIP_BYTES:
                yield relative, Message("grade.skipped.archive", name=shown(relative), reason=Message(
                    "grade.zip_large", size=info.st_size // 1_000_000, limit=MAX_INNER_ZIP_BYTES // 1_000_000))
                continue
            try:
                yield relative, read_regular(path, MAX_INNER_ZIP_BYTES)
            except OSError as error:
                yield relative, Message("grade.skipped.unreadable", name=shown(relative), reason=os_problem(error))
        elif info.st_size > size_cap(relative) or total + info.st_size > MAX_TOTAL_BYTES or count >= MAX_FILES:
            yield relative, Message("grade.skipped.large", name=shown(relative))
        else:
            try:
                data = read_regular(path, size_cap(relative) + 1)
            except OSError as error:
                yield relative, Message("grade.skipped.unreadable", name=shown(relative), reason=os_problem(error))
                continue
            if len(data) > size_cap(relative):  # pragma: no cover - grew after the check
                yield relative, Message("grade.skipped.large", name=shown(relative))
                continue
            total += len(data)
            count += 1
            yield relative, data


def remove_tree(path: Path) -> None:
    """``shutil.rmtree(path, ignore_errors=True)`` at any depth: Python 3.10-3.11's rmtree recurses once a level, so
    a folder nested deeper than the recursion limit (a hostile hand-in, a stale batch's) raised RecursionError
    through ``ignore_errors``. Such a tree is removed from the bottom up without recursion; what cannot be is left."""
    import shutil

    try:
        shutil.rmtree(path, ignore_errors=True)
        return
    except RecursionError:
        pass
    stack, kept = [str(path)], set()
    while stack:
        try:
            entries = list(os.scandir(stack[-1]))
        except OSError:
            kept.add(stack.pop())
            continue
        below = [e.path for e in entries if e.is_dir(follow_symlinks=False) and e.path not in kept]
        for entry in entries:
            if not entry.is_dir(follow_symlinks=False):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)
        if below:
            stack.extend(below)
            continue
        try:
            os.rmdir(stack[-1])
        except OSError:
            kept.add(stack[-1])
        stack.pop()


def size_cap(name: str) -> int:
    """The most bytes the file ``name`` may have: a notebook's cap (its outputs are in it) or a Python file's."""
    return MAX_NOTEBOOK_BYTES if name.endswith(".ipynb") else MAX_FILE_BYTES


def _python_files(folder: Path, skipped: list[Message]) -> list[tuple[str, Path]]:
    """(relative POSIX path, path) of every ``.py`` and ``.ipynb`` entry under ``folder``, sorted; never follows a
    link. Links to folders and folders that cannot be listed (over-long paths, no permission) are added to
    ``skipped``."""
    found = []

    def unlistable(error: OSError) -> None:
        name = Path(error.filename or folder).relative_to(folder).as_posix() if error.filename else "."
        skipped.append(Message("grade.skipped.unreadable", name=shown(name), reason=os_problem(error)))

    for top, dirs, files in os.walk(folder, onerror=unlistable):  # os.walk does not follow links to folders
        here, kept = Path(top), []
        for d in sorted(dirs):
            if d.startswith((".", "__MACOSX", "__pycache__")):
                continue
            relative = (here / d).relative_to(folder).as_posix()
            if relative.count("/") >= MAX_DEPTH:  # Python 3.10-3.11's os.walk recurses once a level
                skipped.append(Message("grade.skipped.deep", name=shown(relative), depth=MAX_DEPTH))
                continue
            try:
                mode = (here / d).lstat().st_mode
            except OSError as error:  # a path longer than the system allows
                skipped.append(Message("grade.skipped.unreadable", name=shown(relative), reason=os_problem(error)))
                continue
            if stat.S_ISLNK(mode):
                skipped.append(Message("grade.skipped.link", name=shown(relative)))
            else:
                kept.append(d)
        dirs[:] = kept
        found.extend(((here / f).relative_to(folder).as_posix(), here / f)
                     for f in sorted(files) if (f.endswith(READ_SUFFIXES) or f.lower().endswith(".zip"))
                     and not f.startswith("."))
    return found


def shown(name: str) -> str:
    """A path (or a manifest's field) as a message shows it: on one line (a line break in a hand-in's text could start
    a section of the instructor's summary) and with no Markdown image in it, cut to ``SHOWN_NAME`` characters (an
    over-long path is not worth reading whole).

    >>> shown("a/" * 150 + "x.py")[-12:]
    '…(304 chars)'
    >>> shown("0.1.0\\n## Grader faults ![x](http://x)")
    '0.1.0 ## Grader faults ! [x](http://x)'
    """
    if not name.isprintable():
        name = " ".join("".join(c if c.isprintable() else " " for c in name).split())
    name = name.replace("![", "! [")  # Markdown's image: a viewer of the summary would fetch it
    return name if len(name) <= SHOWN_NAME else f"{name[:SHOWN_NAME]}…({len(name)} chars)"


def unpack(submission: Submission, root: Path) -> Unpacked:
    """Copy the entry's Python files and notebooks into the empty folder ``root``; the rest of the entry is ignored.
    An entry with a ``problem`` is not opened: it is ``unreadable`` for that reason."""
    root.mkdir(parents=True, exist_ok=True)
    result = Unpacked(root)
    if submission.problem is not None:
        result.unreadable = submission.problem
    elif submission.files:
        _copy_loose(submission.files, result)
    elif submission.is_zip:
        _unzip(submission.path, result)
    else:
        _copy(submission.path, result)
    return result


def _copy(folder: Path, result: Unpacked) -> None:
    for relative, data in _folder_files(folder, result.skipped):
        if isinstance(data, Message):
            result.skipped.append(data)
        elif relative.lower().endswith(".zip"):
            _inner_zip(result, relative, data, 1)
        elif result.written + len(data) > MAX_TOTAL_BYTES or len(result.files) + len(result.notebooks) >= MAX_FILES:
            result.skipped.append(Message("grade.skipped.large", name=shown(relative)))
        else:
            _write(result, relative, data)


def _copy_loose(files: tuple[tuple[str, str], ...], result: Unpacked) -> None:
    """Copy an LMS's loose files of one student (each under the name it is graded as): Python files as they are,
    archives opened into a folder named as the archive; the same caps as a folder's files."""
    for name, path in files:
        archive = name.lower().endswith(".zip")
        if not (archive or name.endswith(READ_SUFFIXES)):  # (a PDF, a text file: ignored, as in a folder)
            continue
        limit = MAX_INNER_ZIP_BYTES if archive else size_cap(name)
        try:
            data = read_regular(Path(path), limit + 1)
        except OSError as error:
            result.skipped.append(Message("grade.skipped.unreadable", name=shown(name), reason=os_problem(error)))
            continue
        if archive and len(data) <= limit:
            _inner_zip(result, name, data, 1)
        elif len(data) > limit or result.written + len(data) > MAX_TOTAL_BYTES \
                or len(result.files) + len(result.notebooks) >= MAX_FILES:
            result.skipped.append(Message("grade.skipped.large", name=shown(name)))
        else:
            _write(result, name, data)


def _inner_zip(result: Unpacked, relative: str, data: bytes, level: int) -> None:
    """Open the archive ``data`` found at ``relative`` (in a folder, among loose files or inside another archive,
    ``level`` archives deep) into the folder ``relative`` of the work folder, under :func:`_unzip`'s checks and the
    entry's caps (shared with everything else it holds); one that is too deep, one too many, or cannot be read is
    named in ``result.skipped`` with why, and nothing of it is graded."""
    import io

    if level > MAX_NESTING:
        result.skipped.append(Message("grade.skipped.nested", name=shown(relative), depth=MAX_NESTING))
        return
    if result.archives >= MAX_ARCHIVES:
        result.skipped.append(Message("grade.skipped.archives", name=shown(relative), limit=MAX_ARCHIVES))
        return
    result.archives += 1
    files, skipped, written, before = len(result.files), len(result.skipped), result.written, result.unreadable
    try:
        handle = io.BytesIO(data)
        result.unreadable = _directory_problem(handle)
        if result.unreadable is None:
            with zipfile.ZipFile(handle) as archive:
                _extract(archive, result, prefix=f"{relative}/", level=level)
    except Exception as error:  # noqa: BLE001 - zipfile raises anything on hostile bytes
        result.unreadable = Message("grade.unreadable_zip", reason=_zip_problem(error))
    problem, result.unreadable = result.unreadable, before
    if problem is not None:  # nothing of it is graded: what it wrote is removed
        for name in result.files[files:]:
            with contextlib.suppress(OSError):
                (result.root / name).unlink()
        del result.files[files:], result.skipped[skipped:]
        result.written = written
        result.skipped.append(Message("grade.skipped.archive", name=shown(relative), reason=problem))


def _unzip(path: Path, result: Unpacked) -> None:
    """Extract the archive's Python files: caps on the archive's size and its central directory before it is
    parsed, on each entry's size and compression ratio (zip bombs), no path leaving the folder (zip slip), the
    first of two entries with one name. An archive that cannot be read (corrupt, encrypted, truncated) is
    ``unreadable`` with the reason, whatever zipfile raised on its bytes."""
    try:
        with _open_regular(path) as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > MAX_ARCHIVE_BYTES:
                result.unreadable = Message("grade.zip_large", size=size // 1_000_000,
                                            limit=MAX_ARCHIVE_BYTES // 1_000_000)
                return
            result.unreadable = _directory_problem(handle)
            if result.unreadable is None:
                with zipfile.ZipFile(handle) as archive:
                    _extract(archive, result)
    except Exception as error:  # noqa: BLE001 - zipfile raises anything on hostile bytes (struct.error, zlib.error...)
        result.unreadable = Message("grade.unreadable_zip", reason=_zip_problem(error))  # never the instructor's paths
    if result.unreadable is not None:
        for name in result.files + result.notebooks:  # nothing of a broken archive is graded
            with contextlib.suppress(OSError):
                (result.root / name).unlink()
        result.files.clear()
        result.notebooks.clear()


def _zip_problem(error: BaseException) -> Message:
    """Why zipfile could not unpack an archive, in the kit's words (zipfile's own are English)."""
    import zlib

    if isinstance(error, OSError):
        return os_problem(error)
    if isinstance(error, zipfile.BadZipFile):
        return Message("zip.damaged")
    if isinstance(error, zlib.error):
        return Message("zip.data")
    if isinstance(error, NotImplementedError):
        return Message("zip.method")
    return Message("zip.other", kind=type(error).__name__)


def _directory_problem(handle) -> Message | None:
    """Why the archive on ``handle`` is not parsed, read from its end record alone: none is found, or its central
    directory declares more than ``MAX_ENTRIES`` entries or ``MAX_DIRECTORY_BYTES`` bytes."""
    end = zipfile._EndRecData(handle)  # the end record (zip64 too), as ZipFile itself finds it
    if end is None:
        return Message("grade.unreadable_zip", reason=Message("zip.damaged"))
    entries, size = end[zipfile._ECD_ENTRIES_TOTAL], end[zipfile._ECD_SIZE]
    if entries > MAX_ENTRIES:
        return Message("grade.zip_entries", count=entries, limit=MAX_ENTRIES)
    if size > MAX_DIRECTORY_BYTES:
        return Message("grade.zip_directory", size=size // 1000, limit=MAX_DIRECTORY_BYTES // 1000)
    return None


def _extract(archive: zipfile.ZipFile, result: Unpacked, prefix: str = "", level: int = 0) -> None:
    """Write the Python entries of the open ``archive`` into ``result`` (see :func:`_unzip`), each under ``prefix``;
    an archive among them is opened in turn (:func:`_inner_zip`: ``level`` is how deep ``archive`` is)."""
    entries = archive.infolist()
    if len(entries) > MAX_ENTRIES:  # pragma: no cover - the end record declared fewer
        result.unreadable = Message("grade.zip_entries", count=len(entries), limit=MAX_ENTRIES)
        return
    for info in entries:
        name = info.filename
        inner = name.lower().endswith(".zip")
        if info.is_dir() or not (name.endswith(READ_SUFFIXES) or inner) or "__MACOSX" in name:
            continue
        if info.flag_bits & 0x1:
            result.unreadable = Message("grade.zip_encrypted", name=shown(name))
            return
        safe = _safe_name(name)
        if safe is None or stat.S_ISLNK(info.external_attr >> 16):
            result.skipped.append(Message("grade.skipped.outside", name=shown(name)))
            continue
        safe = prefix + safe
        if safe.count("/") > MAX_DEPTH:  # in a folder deeper than a folder's may be: skipped, never made
            result.skipped.append(Message("grade.skipped.deep", name=shown(safe.rsplit("/", 1)[0]), depth=MAX_DEPTH))
            continue
        if inner:
            _extract_inner(archive, info, result, safe, level)
            continue
        if safe in result.files or safe in result.notebooks:
            result.skipped.append(Message("grade.skipped.duplicate", name=shown(name)))
            continue
        if info.file_size > size_cap(safe) or result.written + info.file_size > MAX_TOTAL_BYTES \
                or len(result.files) + len(result.notebooks) >= MAX_FILES:
            result.skipped.append(Message("grade.skipped.large", name=shown(name)))
            continue
        if info.file_size > MAX_RATIO * max(info.compress_size, 1) and info.file_size > 64 * 1024:
            result.skipped.append(Message("grade.skipped.ratio", name=shown(name), ratio=MAX_RATIO))
            continue
        with archive.open(info) as entry:
            data = entry.read(size_cap(safe) + 1)
        if len(data) > size_cap(safe):  # pragma: no cover - a header that lies about the size
            result.skipped.append(Message("grade.skipped.large", name=shown(name)))
            continue
        _write(result, safe, data)


def _extract_inner(archive: zipfile.ZipFile, info: zipfile.ZipInfo, result: Unpacked, safe: str, level: int) -> None:
    """The archive entry ``info``, itself an archive, opened into the folder ``safe`` (:func:`_inner_zip`)."""
    if info.file_size > MAX_INNER_ZIP_BYTES or (info.file_size > MAX_RATIO * max(info.compress_size, 1)
                                                and info.file_size > 64 * 1024):
        reason = Message("grade.zip_large", size=info.file_size // 1_000_000, limit=MAX_INNER_ZIP_BYTES // 1_000_000)
        result.skipped.append(Message("grade.skipped.archive", name=shown(safe), reason=reason))
        return
    with archive.open(info) as entry:
        data = entry.read(MAX_INNER_ZIP_BYTES + 1)
    if len(data) > MAX_INNER_ZIP_BYTES:  # pragma: no cover - a header that lies about the size
        reason = Message("grade.zip_large", size=len(data) // 1_000_000, limit=MAX_INNER_ZIP_BYTES // 1_000_000)
        result.skipped.append(Message("grade.skipped.archive", name=shown(safe), reason=reason))
        return
    _inner_zip(result, safe, data, level + 1)


def _safe_name(name: str) -> str | None:
    """``name`` as a relative POSIX path inside the extraction folder, or ``None`` if it would leave it."""
    name = name.replace("\\", "/")
    parts = PurePosixPath(name).parts
    if not parts or name.startswith("/") or (parts[0].endswith(":")) or any(p in ("..", "") for p in parts) \
            or "\0" in name:
        return None
    return "/".join(p for p in parts if p != ".")


def _write(result: Unpacked, relative: str, data: bytes) -> None:
    """Write ``data`` to ``relative`` under the work folder; a path the system refuses (too long, a name that
    is also a folder) is skipped with the reason."""
    target = result.root / relative
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    except OSError as error:
        result.skipped.append(Message("grade.skipped.unreadable", name=shown(relative), reason=os_problem(error)))
        return
    (result.notebooks if relative.endswith(".ipynb") else result.files).append(relative)
    result.written += len(data)
