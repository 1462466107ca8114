"""Re-running a check whenever the student saves a file, by polling (standard library only).

File-event APIs differ on Windows, macOS and Linux and need a third-party
package; polling a handful of small files twice a second costs nothing and
works everywhere, including network and synced folders where events get lost.
:func:`clear_screen` clears the terminal between checks on every system.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Callable, TextIO

PATTERNS = ("*.py", "*.yaml")
#: the kit's packages, never dropped by :func:`forget_modules`
KIT_PACKAGES = frozenset({"abkit", "studentloop", "grader", "handouts", "stepthrough", "authoring", "solutions"})


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    """``path -> (mtime_ns, size)`` of the Python and YAML files under ``folder``."""
    found = {}
    for pattern in PATTERNS:
        for path in folder.rglob(pattern):
            if "__pycache__" in path.parts:
                continue
            try:
                stat = path.stat()
            except OSError:  # pragma: no cover - deleted between listing and stat
                continue
            found[str(path)] = (stat.st_mtime_ns, stat.st_size)
    return found


def watch(folder: Path, action: Callable[[], None], interval: float = 0.5,
          sleep: Callable[[float], None] = time.sleep) -> None:
    """Call ``action`` now and again after every change under ``folder``; returns only by an exception
    (Ctrl-C is ``KeyboardInterrupt``). The files are looked at before each call, so a file saved while ``action``
    runs is checked again once it is over."""
    seen = snapshot(folder)
    action()
    while True:
        sleep(interval)
        now = snapshot(folder)
        if now != seen:
            seen = now
            action()


def forget_modules(folder: Path) -> list[str]:
    """Drop from ``sys.modules`` every module loaded from a file under ``folder`` (a helper the student's file
    imports), so that the next check in this process imports it again as saved; the names dropped. The kit's own
    modules stay, wherever ``folder`` is."""
    root = os.path.realpath(folder) + os.sep
    dropped = [name for name, module in list(sys.modules.items())
               if name.partition(".")[0] not in KIT_PACKAGES and isinstance(getattr(module, "__file__", None), str)
               and os.path.realpath(module.__file__).startswith(root)]
    for name in dropped:
        del sys.modules[name]
    return dropped


#: clear the screen and go to its top-left corner (ANSI: every terminal of Linux and macOS, Windows 10+ consoles)
CLEAR = "\033[2J\033[H"


def clear_screen(stream: TextIO | None = None) -> None:
    """Clear the terminal before a new check; nothing when ``stream`` (default stdout) is not a terminal.

    On Windows the console understands ANSI sequences only once virtual-terminal processing is on: it is turned
    on here (Windows 10 and later); where it cannot be, ``cls`` clears the console instead.
    """
    stream = stream or sys.stdout
    if not stream.isatty():
        return
    if os.name == "nt" and not _windows_ansi():
        stream.flush()
        subprocess.run("cls", shell=True, check=False)  # noqa: S602,S607 - a fixed builtin of cmd.exe
        return
    stream.write(CLEAR)
    stream.flush()


def _windows_ansi() -> bool:
    """Turn on virtual-terminal processing of the Windows console on stdout; whether it is on."""
    try:
        import ctypes

        kernel32 = ctypes.windll.kernel32
        handle = kernel32.GetStdHandle(-11)  # STD_OUTPUT_HANDLE
        mode = ctypes.c_uint32()
        if not kernel32.GetConsoleMode(handle, ctypes.byref(mode)):
            return False
        return bool(kernel32.SetConsoleMode(handle, mode.value | 0x0004))  # ENABLE_VIRTUAL_TERMINAL_PROCESSING
    except (AttributeError, OSError, ImportError):
        return False
