"""``abkit init``: write a new course folder from the default course, with a README for the instructor."""

from __future__ import annotations

import re
import secrets
from pathlib import Path

from abkit.coursefolder import (MARKER, CourseFolder, chosen_course, copy_course, course_rule, default_course,
                                marker_text)
from abkit.errors import UsageError, writable_folder
from abkit.i18n import LANGS, os_problem

#: the course README in each language: ``course_readme.md`` (English), ``course_readme.ko.md`` (Korean)
READMES = {lang: Path(__file__).with_name("course_readme.md" if lang == "en" else f"course_readme.{lang}.md")
           for lang in LANGS}


def course_readme(lang: str) -> str:
    """The course folder's README: the whole text in ``lang`` first, then, below a rule, the other languages' (so a
    colleague who reads another language loses nothing, and the first screen is in the language asked for)."""
    order = sorted(LANGS, key=lambda each: each != lang)
    return "\n---\n\n".join(READMES[each].read_text(encoding="utf-8").rstrip("\n") + "\n" for each in order)


def init_course(folder: Path, seed: int | None = None, lang: str = "en") -> list[Path]:
    """Write the default course into ``folder`` (new or empty) with its README (:func:`course_readme` in ``lang``),
    a course id of its own in its marker, and hidden trees of its own drawn from ``seed``
    (:mod:`abkit.authoring.redraw`; None keeps the kit's published ones); returns the files written.

    UsageError when ``folder`` exists and is not an empty folder, or cannot be written.
    """
    from abkit.authoring.redraw import redraw_hidden

    folder = Path(folder)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise UsageError("init.not_empty", path=str(folder))
    writable_folder(folder)
    try:
        copy_course(default_course(), folder)
        (folder / "README.md").write_text(course_readme(lang), encoding="utf-8")
        (folder / MARKER).write_text(marker_text(new_course_id(folder), course_rule(default_course())), encoding="utf-8")
        if seed is not None and CourseFolder(folder).hidden_fixtures.is_dir():
            with chosen_course(folder):
                redraw_hidden(seed, command=f"abkit init --seed {seed}")
            forget_modules()
    except OSError as error:
        raise UsageError("init.cannot_write", path=str(folder), reason=os_problem(error)) from None
    return sorted(p for p in folder.rglob("*") if p.is_file())


def forget_modules() -> None:
    """Forget the solutions and mutants drawing the trees loaded: they are the new course's as it was written, and
    this process may go on to work on that course after its files changed."""
    from abkit.grader.mistakes import mutant
    from abkit.reference import reference

    reference.cache_clear()
    mutant.cache_clear()


def new_course_id(folder: Path) -> str:
    """A course id for a new course folder: its name (letters, digits, ``._-``) and six random hex digits, so that
    two courses named alike still differ.

    >>> import re; bool(re.fullmatch(r"ai-2026-[0-9a-f]{6}", new_course_id(Path("AI 2026"))))
    True
    """
    name = re.sub(r"[^a-z0-9._-]+", "-", Path(folder).resolve().name.lower()).strip("-.")[:40] or "course"
    return f"{name}-{secrets.token_hex(3)}"
