"""What ``abkit check`` and ``abkit watch`` print: per-test feedback, a progress line, the hidden-test notice.

:func:`check` runs every exercise (progress covers them all) and returns the
lines to print for the ones asked about, and whether all their public tests pass.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from abkit.i18n import t
from abkit.coursefolder import current_course

from .check import course_fixtures, hidden_count, run_exercise
from .errors import UsageError
from .feedback import TestResult, render_result
from .info import Course, load_info
from .textree import UNICODE, Glyphs

#: statuses every test of an exercise gets alike when the file itself is the problem
COLLAPSIBLE = ("not_started", "missing", "crashed")
BAR = 20


@dataclass
class Outcome:
    """The public tests of one exercise and how they went."""

    name: str
    title: str
    results: list[TestResult]

    @property
    def passed(self) -> int:
        return sum(r.passed for r in self.results)

    @property
    def done(self) -> bool:
        return bool(self.results) and self.passed == len(self.results)


def find_course(folder: Path | None) -> tuple[Course, Path]:
    """The course's ``info.yaml`` (in ``folder``, else the kit's) and the folder of the student's files."""
    exercises = current_course().exercises
    folder = Path(folder) if folder is not None else exercises
    if not folder.is_dir():
        raise UsageError("check.no_folder", path=str(folder))
    info = folder / "info.yaml" if (folder / "info.yaml").is_file() else exercises / "info.yaml"
    return load_info(info), folder


def chosen(course: Course, name: str | None) -> list[str]:
    """The exercises to report on: ``name``, or all; an unknown name is a usage error."""
    if name is None:
        return course.names()
    if course.get(name) is None:
        raise UsageError("check.unknown", name=name, names=", ".join(course.names()))
    return [name]


def check(folder: Path | None, name: str | None, lang: str, g: Glyphs = UNICODE,
          keep: list | None = None) -> tuple[list[str], bool]:
    """Run the public tests; the lines to print and whether every test of the chosen exercises passed.
    ``keep``: a list that receives the chosen exercises' results (``abkit check --html`` writes pages from them)."""
    course, folder = find_course(folder)
    names = chosen(course, name)
    fixtures = course_fixtures(course, current_course().public_fixtures)
    outcomes = [Outcome(e.name, e.label(lang), run_exercise(course, e, folder, fixtures)) for e in course.exercises]
    lines: list[str] = []
    for outcome in outcomes:
        if outcome.name in names:
            lines += exercise_lines(outcome, lang, g) + [""]
    lines.append(progress_line(outcomes, lang))
    lines.append(hidden_line(course, names, lang))
    shown = [o for o in outcomes if o.name in names]
    if keep is not None:
        keep.extend(r for o in shown for r in o.results)
    return lines, all(o.done for o in shown)


def exercise_lines(outcome: Outcome, lang: str, g: Glyphs = UNICODE) -> list[str]:
    """Each test's feedback; the tree only for the first failure, a file-level status only once."""
    lines = [t("check.exercise", lang, name=outcome.name, title=outcome.title)]
    tree_shown, collapsed, seen = False, 0, set()
    for result in outcome.results:
        if result.status in COLLAPSIBLE and result.status in seen:
            collapsed += 1
            continue
        seen.add(result.status)
        if result.traceback and result.traceback[-1] in seen:  # the same error again: its traceback once is enough
            result = replace(result, traceback=[])
        seen.add(result.traceback[-1] if result.traceback else None)
        lines.append(render_result(result, lang, g=g, show_tree=not tree_shown))
        tree_shown = tree_shown or (not result.passed and result.student is not None)
    if collapsed:
        lines.append(t("check.collapsed", lang, count=collapsed))
    if not outcome.results:
        lines.append(t("check.no_tests", lang))
    total = len(outcome.results)
    key = "check.summary.done" if outcome.done else "check.summary.todo"
    lines.append(t(key, lang, name=outcome.name, passed=outcome.passed, total=total))
    return lines


def progress_line(outcomes: list[Outcome], lang: str) -> str:
    """One line over all exercises: a bar of passed tests, each exercise's count, exercises done."""
    total = sum(len(o.results) for o in outcomes)
    passed = sum(o.passed for o in outcomes)
    filled = round(BAR * passed / total) if total else 0
    parts = " · ".join(f"{o.name} {o.passed}/{len(o.results)}" for o in outcomes)
    return t("check.progress", lang, bar="#" * filled + "-" * (BAR - filled), parts=parts,
             done=sum(o.done for o in outcomes), count=len(outcomes))


def hidden_line(course: Course, names: list[str], lang: str) -> str:
    """How many hidden trees grading adds, and that passing here is not a grade."""
    items = ", ".join(t("check.hidden_item", lang, name=n, count=hidden_count(course, course.get(n))) for n in names)
    return t("check.hidden", lang, items=items)
