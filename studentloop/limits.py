"""The memory limit of ``abkit check``: the system's where it allows one, else a watchdog thread, said out loud.

``abkit check`` runs the student's code in its own process (fast, and the same on
every laptop); a search that keeps growing a list must not eat the laptop's memory.
Where the system takes an address-space limit (``RLIMIT_AS`` on Linux), the check
lowers it for the time of the run, and a runaway search meets ``MemoryError``. Where
it refuses (macOS) or has no resource limits at all (Windows: no ``resource``
module), :class:`MemoryGuard` says which limit it could not set
(:attr:`MemoryGuard.notice`) and watches instead: a thread reads the process's
memory while a test runs (the peak resident size from ``getrusage``, or, with no
``resource`` module, the Python allocations ``tracemalloc`` counts) and stops the test
through its :class:`~abkit.studentloop.check.Watchdog` once it has grown by more than the limit.
The watchdog sees growth a Python loop makes; one single huge allocation is beyond it.
Standard library only: the student edition ships this module.
"""

from __future__ import annotations

import sys
import threading
from typing import TYPE_CHECKING

from abkit.i18n import Message

if TYPE_CHECKING:
    from typing import Callable

#: how often the watchdog thread reads the memory, in seconds
POLL = 0.02
#: the guard of the check running now (at most one: a check runs in the main thread)
_ACTIVE: list["MemoryGuard"] = []


def active() -> "MemoryGuard | None":
    """The guard of the running check, if any (a :class:`~abkit.studentloop.check.Watchdog` registers with it)."""
    return _ACTIVE[-1] if _ACTIVE else None


def _resource():
    """The ``resource`` module, or ``None`` where the system has none (Windows); tests replace this."""
    try:
        import resource
    except ImportError:
        return None
    return resource


class MemoryGuard:
    """Limits the memory of the student's code to ``megabytes`` more than the process uses at the start.

    ``limit``: the system's limit was set (``RLIMIT_AS``); ``notice``: a :class:`~abkit.i18n.Message` saying
    which limit could not be set and that the watchdog took its place (``None`` when the system's limit holds).
    """

    def __init__(self, megabytes: float) -> None:
        self.megabytes = megabytes
        self.limit = False
        self.notice: Message | None = None
        self._resource = None
        self._saved: tuple[int, int] | None = None
        self._read: Callable[[], int] | None = None
        self._baseline = 0
        self._watched = None  # the Watchdog of the test running now
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def budget(self) -> int:
        return int(self.megabytes * 1024 * 1024)

    # -- the system's limit, or the watchdog -------------------------------------

    def __enter__(self) -> "MemoryGuard":
        resource = self._resource = _resource()
        if resource is None:
            self.notice = Message("check.memory.no_resource", limit=_mb(self.megabytes))
            self._start(_traced_memory())
        elif not self._set_limit(resource):
            self._start(_peak_memory(resource))
        _ACTIVE.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        if self in _ACTIVE:
            _ACTIVE.remove(self)
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        if self._read is not None and hasattr(self._read, "close"):
            self._read.close()
        if self._saved is not None:
            try:
                self._resource.setrlimit(self._resource.RLIMIT_AS, self._saved)
            except (ValueError, OSError):  # pragma: no cover - the hard limit was lowered meanwhile
                pass
            self._saved = None

    def _set_limit(self, resource) -> bool:
        """Lower the soft ``RLIMIT_AS`` to what the process maps now plus the budget (never raise it)."""
        which = getattr(resource, "RLIMIT_AS", None)
        if which is None:
            self.notice = Message("check.memory.refused", name="RLIMIT_AS", reason="AttributeError: resource.RLIMIT_AS",
                                  limit=_mb(self.megabytes))
            return False
        try:
            soft, hard = resource.getrlimit(which)
            wanted = _mapped() + self.budget
            caps = [v for v in (soft, hard) if v != resource.RLIM_INFINITY]
            if caps and min(caps) <= wanted:  # the user's own limit is lower already: keep it
                self.limit = True
                return True
            resource.setrlimit(which, (wanted, hard))
        except (ValueError, OSError) as error:
            self.notice = Message("check.memory.refused", name="RLIMIT_AS", reason=_reason(error),
                                  limit=_mb(self.megabytes))
            return False
        self._saved, self.limit = (soft, hard), True
        return True

    def _start(self, read: Callable[[], int]) -> None:
        self._read = read
        self._baseline = read()
        self._thread = threading.Thread(target=self._watch, name="abkit-memory-watchdog", daemon=True)
        self._thread.start()

    # -- the watchdog ---------------------------------------------------------------

    def watch(self, watchdog) -> None:
        """Stop ``watchdog``'s code (``watchdog.trip("memory")``) if memory grows past the budget while it runs."""
        if self._thread is not None:
            with self._lock:
                self._watched = watchdog

    def unwatch(self, watchdog) -> None:
        with self._lock:
            if self._watched is watchdog:
                self._watched = None

    def _watch(self) -> None:
        while not self._stop.wait(POLL):
            with self._lock:
                watched = self._watched
            if watched is None:
                continue
            used = self._read()
            if used - self._baseline > self.budget:
                self._baseline = used  # a peak stays a peak: count from here for the next test
                watched.trip("memory")


def _mb(megabytes: float) -> str:
    return f"{megabytes:g}"


def _reason(error: BaseException) -> str:
    text = str(error)
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _mapped() -> int:
    """Bytes of address space the process maps now (Linux), else 0: the limit is counted from here."""
    try:
        with open("/proc/self/statm", "rb") as statm:  # bytes: no text codec to import for one number
            pages = int(statm.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 0
    import os

    return pages * os.sysconf("SC_PAGE_SIZE")


def _peak_memory(resource) -> Callable[[], int]:
    """The process's peak resident size in bytes (``ru_maxrss``: bytes on macOS, kilobytes elsewhere)."""
    scale = 1 if sys.platform == "darwin" else 1024

    def read() -> int:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale

    return read


class _traced_memory:
    """The bytes of Python allocations live now, counted by ``tracemalloc`` (started here, stopped by ``close``)."""

    def __init__(self) -> None:
        import tracemalloc

        self._tracemalloc = tracemalloc
        self._started = not tracemalloc.is_tracing()
        if self._started:
            tracemalloc.start(1)

    def __call__(self) -> int:
        return self._tracemalloc.get_traced_memory()[0]

    def close(self) -> None:
        if self._started:
            self._tracemalloc.stop()
