"""A student's own traceback lines: the standard library only, so the sandboxed child can use it."""

from __future__ import annotations

import traceback
from pathlib import Path


def student_traceback(error: BaseException, roots: list[Path]) -> list[str]:
    """The lines of ``error``'s traceback that point into the student's files (under ``roots``), then the error."""
    roots = [Path(r).resolve() for r in roots]
    frames = [f for f in traceback.extract_tb(error.__traceback__) if _under(Path(f.filename), roots)]
    lines = [line.rstrip("\n") for line in traceback.format_list(frames)]
    lines += [line.rstrip("\n") for line in traceback.format_exception_only(type(error), error)]
    return [part for line in lines for part in line.split("\n")]


def _under(path: Path, roots: list[Path]) -> bool:
    """Whether the frame's file is one of the student's: a pseudo-file (``<frozen importlib._bootstrap>``,
    ``<string>``) never is, though its name, taken as relative, would resolve under the working folder."""
    if str(path).startswith("<"):
        return False
    try:
        resolved = path.resolve()
    except OSError:  # pragma: no cover - a frame from a file that is gone
        return False
    return any(resolved == r or r in resolved.parents for r in roots)
