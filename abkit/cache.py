"""A cache on disk for what the kit parses on every command and rarely changes: the message catalogues, a course's
``info.yaml``, its public fixtures, and how many hidden trees each exercise has.

An entry is a value made from some files by a pure function (:func:`cached`). It lives in a file named by its kind,
the files' paths and the kit's code (its *slot*) and is stored with the digest of everything it was made from: the
files' paths and contents, the kit's version and its core's source files (``abkit/*.py`` by size and modification
time, as Python checks their bytecode: a changed class or loader is never answered with an old object), Python's
version and the cache's format. An entry is used only when its digest is the one computed now from the files as they
are, so an edited fixture is read again at once and an entry of another kit version is never trusted; else the value
is made again and written over the slot (a temporary file, renamed). The files are hashed on every use (a few
hundred kilobytes at most: well under a millisecond).

Nothing about the cache can make a command fail or answer differently: no cache folder, an entry that cannot be
read or unpickled, a full or read-only disk: the value is made from the files, as without a cache. A folder other
users may write to is not used (unpickling an entry runs code, as importing a ``.pyc`` does). A value is
cached only when the files did not change while it was made. Errors (a bad fixture) are never cached: the next
command reports them again. The cache holds nothing a student must not see (the hidden trees only as counts).

Where: ``ABKIT_CACHE_DIR`` (``off`` or empty: no cache), else the user's cache folder: ``$XDG_CACHE_HOME/abkit``
or ``~/.cache/abkit``; ``~/Library/Caches/abkit`` on macOS; ``%LOCALAPPDATA%\\abkit\\cache`` on Windows.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

try:
    from _blake2 import blake2b  # hashlib's own (importing hashlib costs more than a check's whole cache)
except ImportError:  # pragma: no cover - a Python built without it
    from hashlib import blake2b

from . import __version__

if TYPE_CHECKING:
    from typing import Callable, Sequence, TypeVar
    T = TypeVar("T")

#: the layout of an entry: bump it when what an entry holds changes shape
FORMAT = 1
#: the most entries the cache folder keeps; writing one more removes the oldest half (each slot is one course
#: folder's file set: a user has a few, a test run or a benchmark many short-lived ones)
MAX_ENTRIES = 256
ENV = "ABKIT_CACHE_DIR"
_MISSING = object()


def cache_dir() -> Path | None:
    """The folder the cache lives in (made when the first entry is written), or None when it is turned off."""
    chosen = os.environ.get(ENV)
    if chosen is not None:
        return None if chosen.strip().lower() in ("", "off", "0", "no", "none") else Path(chosen)
    home = Path.home
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA")
        return Path(base) / "abkit" / "cache" if base else None
    if sys.platform == "darwin":
        return home() / "Library" / "Caches" / "abkit"
    base = os.environ.get("XDG_CACHE_HOME")
    return Path(base) / "abkit" if base and os.path.isabs(base) else home() / ".cache" / "abkit"


def cached(kind: str, sources: Sequence[Path], build: Callable[[], T], key: str = "",
           code: Sequence[str] = ()) -> T:
    """``build()``, a value made from the files ``sources`` (and ``key``: anything else it depends on), from the
    cache when an entry made from the same files, contents, key and kit is there; else made and cached.

    ``kind`` names what is cached (a word: ``fixtures``, ``catalogue``). ``build`` must read ``sources`` only and
    return something :mod:`pickle` can store; what it raises is raised (and nothing is cached). ``code``: source
    files outside the core whose code ``build`` runs (their contents are part of the digest too).
    """
    found = entry(kind, sources, key, code)
    value = found.value
    if value is not _MISSING:
        return value
    value = build()
    found.store(value)
    return value


class Entry:
    """The cache's entry for a value made from some files (:func:`entry`): ``value`` (:data:`MISSING` when there
    is none made from the files as they are now) and :meth:`store`, for a caller that makes the value bit by bit."""

    __slots__ = ("_slot", "_digest", "_again", "value")

    def __init__(self, slot: Path | None, digest: bytes | None, again: Callable[[], bytes | None]) -> None:
        self._slot, self._digest, self._again = slot, digest, again
        self.value = _read(slot, digest) if slot is not None else _MISSING

    def store(self, value: object) -> None:
        """Keep ``value`` as the one made from the files, unless they changed since the entry was looked up (the
        value may have been made from the new ones). Nothing happens without a cache."""
        if self._slot is not None and self._again() == self._digest:
            _write(self._slot, self._digest, value)


#: an entry's value when the cache holds none made from the files as they are
MISSING = _MISSING


def entry(kind: str, sources: Sequence[Path], key: str = "", code: Sequence[str] = ()) -> Entry:
    """The entry of ``kind`` for ``sources``, ``key`` and ``code`` (as for :func:`cached`), read now; its value is
    :data:`MISSING` when it is absent, stale, corrupt or the cache is off."""
    try:
        folder = cache_dir()
        folder = folder if folder is not None and _private(folder) else None
    except (OSError, RuntimeError, ValueError):  # no home folder to put it in
        folder = None
    files = [*map(Path, code), *sources]
    digest = _digest(kind, files, key) if folder is not None else None
    if digest is None:
        return Entry(None, None, lambda: None)
    slot = folder / f"{kind}-{_slot(kind, files, key)}.pickle"  # made after _digest: the core's code was read
    return Entry(slot, digest, lambda: _digest(kind, files, key))


def _private(folder: Path) -> bool:
    """Whether ``folder`` can hold entries this user unpickles: not there yet (it is made for this user alone), or,
    on a POSIX system, this user's and writable by no one else (an entry is code run at load, as a ``.pyc`` is)."""
    try:
        status = os.stat(folder)
    except FileNotFoundError:
        return True
    if not hasattr(os, "getuid"):  # pragma: no cover - Windows: the user's own profile folder
        return True
    return status.st_uid == os.getuid() and not status.st_mode & 0o022


def _digest(kind: str, files: Sequence[Path], key: str) -> bytes | None:
    """The digest of everything an entry is made from, or None when a file cannot be read (``build`` then says
    why, in the kit's words)."""
    h = blake2b(digest_size=20)
    h.update(f"{FORMAT}\0{__version__}\0{sys.version}\0{kind}\0{key}\0".encode("utf-8", "surrogateescape"))
    try:
        h.update(_code_digest())
        for path in files:
            data = _contents(path)
            h.update(f"\0{path}\0{len(data)}\0".encode("utf-8", "surrogateescape"))
            h.update(data)
    except (OSError, ValueError):  # a file gone or refused (a confined process may read nothing new)
        return None
    return h.digest()


def _contents(path: Path | str) -> bytes:
    """The bytes of the file at ``path``, read with the system's calls alone (``open()`` adds a buffer, a terminal
    check and seeks to each of the hundred files a check hashes: 5 microseconds a file)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    try:
        want = os.fstat(fd).st_size + 1  # the whole file in one read, one byte more to meet its end
        chunks = []
        while chunk := os.read(fd, want):  # (never a buffer much bigger than the file: memory may be scarce)
            chunks.append(chunk)
            want = 4096  # the end, or a file that grew meanwhile
        return b"".join(chunks)
    finally:
        os.close(fd)


_code: list[bytes] = []


def _code_digest() -> bytes:
    """The digest of the core's source files (once per process): an entry made by other code is not used.

    Each file counts by its name, size and modification time, as Python checks a ``.pyc`` against its source: an
    edit, a checkout or a reinstall changes them, and code changed without changing them would run from its old
    bytecode too. (Reading the files' contents cost every command 0.7 ms.)
    """
    if not _code:
        _code.append(sources_digest(os.path.dirname(os.path.abspath(__file__))))
    return _code[0]


def sources_digest(folder: str) -> bytes:
    """The digest of the ``.py`` files in ``folder``: their names, sizes and modification times."""
    h = blake2b(digest_size=20)
    for name in sorted(os.listdir(folder)):
        if name.endswith(".py"):
            status = os.stat(os.path.join(folder, name))
            h.update(f"{name}\0{status.st_size}\0{status.st_mtime_ns}\0".encode("utf-8", "surrogateescape"))
    return h.digest()


def _slot(kind: str, sources: Sequence[Path], key: str) -> str:
    """The entry's file name: the same files (by absolute path: the sources and the code outside the core), key and
    kit, the same slot (two kits, two copies of one kit's code, or one file named from two folders, never take turns
    writing over one entry)."""
    names = "\0".join(os.path.abspath(p) for p in sources)
    text = f"{kind}\0{key}\0{names}\0".encode("utf-8", "surrogateescape") + _code_digest()
    return blake2b(text, digest_size=12).hexdigest()


def _pickle():
    """pickle's own accelerator (``_pickle``: the ``load`` and ``dumps`` of :mod:`pickle`, without importing the
    pure-Python module around them, 2 ms of every command), or :mod:`pickle` where there is none."""
    try:
        import _pickle as module
    except ImportError:  # pragma: no cover - a Python without the accelerator (PyPy)
        import pickle as module
    return module


def _read(slot: Path, digest: bytes) -> object:
    """The value in ``slot`` when it was made from ``digest``; else :data:`_MISSING` (absent, stale, unreadable)."""
    try:
        with open(slot, "rb") as file:
            if file.read(len(digest)) != digest:
                return _MISSING
            value = _pickle().load(file)
            _used(file.fileno(), slot)
            return value
    except Exception:  # noqa: BLE001 - anything wrong with an entry (truncated, foreign, old classes): made again
        return _MISSING


def _used(fd: int, slot: Path) -> None:
    """Mark an entry as just used (its modification time: :func:`_prune` keeps the entries used last, so one read
    at every check is never the one dropped for being written long ago)."""
    try:
        os.utime(fd if os.utime in os.supports_fd else slot)
    except OSError:  # a read-only cache: the entry is still good
        pass


def _write(slot: Path, digest: bytes, value: object) -> None:
    """Store ``value`` in ``slot``: written whole to a temporary file, then renamed over the slot (a reader sees
    the old entry or the new one, never half of one). Failing to write is not an error."""
    temporary = slot.with_name(f".{slot.name}.{os.getpid()}.tmp")
    try:
        data = digest + _pickle().dumps(value, protocol=-1)  # -1: the highest protocol
        slot.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        with open(temporary, "wb") as file:
            file.write(data)
        os.replace(temporary, slot)
        _prune(slot.parent)
    except Exception:  # noqa: BLE001 - a read-only or full disk, a value pickle refuses: no cache, same answer
        try:
            os.unlink(temporary)
        except OSError:
            pass


def _prune(folder: Path) -> None:
    """Keep at most :data:`MAX_ENTRIES` entries: past that, the half used longest ago goes (written or read:
    :func:`_used`)."""
    entries = [e for e in os.scandir(folder) if e.name.endswith(".pickle")]
    if len(entries) <= MAX_ENTRIES:
        return
    entries.sort(key=lambda e: e.stat().st_mtime_ns)
    for entry in entries[: len(entries) - MAX_ENTRIES // 2]:
        try:
            os.unlink(entry.path)
        except OSError:
            pass
