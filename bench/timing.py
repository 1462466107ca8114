"""What the benchmarks share: timing one piece of work a few times."""

from __future__ import annotations

import statistics
import time
from typing import Callable


def timed(work: Callable[[], object], repeat: int) -> tuple[float, float]:
    """``work`` run ``repeat`` times: (the best wall-clock seconds, the median)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def machine() -> str:
    """The machine a figure comes from: cores, processor, system, Python, date."""
    import os
    import platform
    from datetime import date

    model = platform.processor()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            model = next((line.split(":", 1)[1].strip() for line in info if line.startswith("model name")), model)
    except OSError:
        pass
    return (f"{os.cpu_count()} cores ({model or 'processor unknown'}), {platform.system()} {platform.release()}, "
            f"Python {platform.python_version()}, {date.today().isoformat()}")


def system_pythons() -> list[str]:
    """The system's python3 interpreters outside the running virtual environment: its base interpreter
    (``sys.base_prefix``), /usr/bin's, /usr/local/bin's and the first on PATH; compiled programs only (not launcher
    scripts such as pyenv's shims)."""
    import os
    import shutil
    import sys
    from pathlib import Path

    found = [str(Path(sys.base_prefix) / "bin" / "python3"), "/usr/bin/python3", "/usr/local/bin/python3"]
    path = [p for p in os.environ.get("PATH", "").split(os.pathsep) if not p.startswith(sys.prefix)]
    which = shutil.which("python3", path=os.pathsep.join(path))
    found += [which] if which else []
    real = {}
    for python in found:
        if os.access(python, os.X_OK) and not python.startswith(sys.prefix) and _is_program(python):
            real.setdefault(os.path.realpath(python), python)
    return list(real.values())


def _is_program(path: str) -> bool:
    try:
        with open(path, "rb") as handle:
            return handle.read(4) in (b"\x7fELF", b"\xcf\xfa\xed\xfe", b"MZ\x90\x00")
    except OSError:
        return False


def site_hooks(python: str) -> list[str]:
    """The ``.pth`` files the interpreter ``python`` runs at start (its site-packages'), by name."""
    import subprocess

    code = ("import site, glob, os; print('\\n'.join(sorted(os.path.basename(p) for d in site.getsitepackages() "
            "for p in glob.glob(os.path.join(d, '*.pth')))))")
    proc = subprocess.run([python, "-I", "-c", code], capture_output=True, text=True)
    return proc.stdout.split()
