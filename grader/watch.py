"""Re-running a check whenever the student saves a file, by polling (standard library only).

File-event APIs differ on Windows, macOS and Linux and need a third-party
package; polling a handful of small files twice a second costs nothing and
works everywhere, including network and synced folders where events get lost.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

PATTERNS = ("*.py", "*.yaml")


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
    (Ctrl-C is ``KeyboardInterrupt``)."""
    action()
    seen = snapshot(folder)
    while True:
        sleep(interval)
        now = snapshot(folder)
        if now != seen:
            seen = now
            action()
