"""``abkit init``: write a new course folder from the default course, with a README for the instructor."""

from __future__ import annotations

from pathlib import Path

from abkit.coursefolder import copy_course, current_course, default_course, find_course
from abkit.i18n import os_problem

from .errors import UsageError

README = Path(__file__).with_name("course_readme.md")


def init_course(folder: Path) -> list[Path]:
    """Write the default course into ``folder`` (new or empty) with its README; returns the files written.

    UsageError when ``folder`` exists and is not an empty folder, or cannot be written.
    """
    folder = Path(folder)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise UsageError("release.not_empty", path=str(folder))
    try:
        copy_course(default_course(), folder)
        (folder / "README.md").write_text(README.read_text(encoding="utf-8"), encoding="utf-8")
    except OSError as error:
        raise UsageError("init.cannot_write", path=str(folder), reason=os_problem(error)) from None
    return sorted(p for p in folder.rglob("*") if p.is_file())


def same_course(paths: list[Path]) -> None:
    """UsageError when one of ``paths`` lies in another course folder than the one the command works on:
    its expectations would be checked with the other course's solutions."""
    course = current_course()
    for path in paths:
        other = find_course(Path(path).resolve().parent)
        if other is not None and other != course:
            raise UsageError("course.other", path=str(path), other=str(other.root), course=str(course.root))
