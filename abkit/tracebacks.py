"""A student's own traceback lines: the standard library only, so the sandboxed child can use it."""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from traceback import FrameSummary


def student_traceback(error: BaseException, roots: list[Path]) -> list[str]:
    """The lines of ``error``'s traceback that point into the student's files (under ``roots``), then the error."""
    import traceback  # only when the student's code raised: a check of passing code never needs it

    frames = [_unmarked(frame) for frame in student_frames(error, roots)]
    lines = [line.rstrip("\n") for line in traceback.format_list(frames)]
    lines += [line.rstrip("\n") for line in _exception_only(traceback, error)]
    lines = [part for line in lines for part in line.split("\n")]
    if lines and "Did you mean" not in lines[-1]:
        lines[-1] += _suggestion(error)
    return lines


def _unmarked(frame: FrameSummary) -> FrameSummary:
    """``frame`` without its columns, so that it is shown as Python 3.10 shows it: file, line, function and source
    line, and no line of ``^``/``~`` markers under it (3.11 marks operators and subscripts, 3.13 calls too). The
    feedback then reads the same on every Python the kit supports, and a marker line such as ``~~~~^^^^`` is never
    taken for a code fence by a reader of the Markdown feedback that is less careful than CommonMark."""
    import traceback

    return traceback.FrameSummary(frame.filename, frame.lineno, frame.name, line=frame.line)


def _exception_only(traceback, error: BaseException) -> list[str]:
    """``traceback.format_exception_only`` of ``error``; or, when that raises (Python 3.13 asks an AttributeError or
    a NameError for its ``name``: a student's may raise instead), the error's type and text as it would show them."""
    try:
        return traceback.format_exception_only(type(error), error)
    except Exception:  # noqa: BLE001 - a student's exception that will not describe itself
        kind = type(error).__qualname__
        if type(error).__module__ not in ("__main__", "builtins"):
            kind = f"{type(error).__module__}.{kind}"
        try:
            text = str(error)
        except Exception:  # noqa: BLE001
            text = "<exception str() failed>"
        return [f"{kind}: {text}\n" if text else f"{kind}\n"]


def _suggestion(error: BaseException) -> str:
    """Python 3.12's "Did you mean" for a missing attribute (``game.is_terminal`` → ``terminal_test``), which
    3.10 and 3.11 print only in their own traceback display; "" when nothing public is close."""
    if not isinstance(error, AttributeError):
        return ""
    try:
        import difflib  # imported once by the grading fork server (grader.forkserver._warm_up)

        name, obj = error.name, error.obj
        if not isinstance(name, str) or obj is None:
            return ""
        public = [n for n in dir(obj) if isinstance(n, str) and not n.startswith("_")]
        close = difflib.get_close_matches(name, public, n=1)
    except Exception:  # noqa: BLE001 - a student's error or object that will not say (a property, __dir__ raising)
        return ""
    return f". Did you mean: '{close[0]}'?" if close else ""


def student_frames(error: BaseException, roots: list[Path]) -> list[FrameSummary]:
    """The frames of ``error``'s traceback in the student's files (under ``roots``), outermost first."""
    import traceback

    folders = [_real(str(r)) for r in roots]
    return [f for f in traceback.extract_tb(error.__traceback__) if _under(f.filename, folders)]


def _under(filename: str, folders: list[str]) -> bool:
    """Whether the frame's file is one of the student's (``folders``: real paths): a pseudo-file
    (``<frozen importlib._bootstrap>``, ``<string>``) never is, though its name, taken as relative, would resolve
    under the working folder."""
    if filename.startswith("<"):
        return False
    try:
        real = _real(filename)
    except (OSError, ValueError):  # pragma: no cover - a frame from a file that is gone
        return False
    return any(real == folder or real.startswith(folder.rstrip(os.sep) + os.sep) for folder in folders)


@functools.lru_cache(maxsize=512)
def _real(path: str) -> str:
    """``path`` with its links and ``..`` resolved, in the system's case (``Path.resolve``, as a string); looked up
    once until :func:`forget_paths` (every test of a check meets the same few files)."""
    return os.path.normcase(os.path.realpath(path))


def forget_paths() -> None:
    """Resolve files afresh from now on (a check calls it as it starts on an exercise: links may have changed)."""
    _real.cache_clear()
