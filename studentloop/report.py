"""What ``abkit check`` and ``abkit watch`` print: the current exercise in full, one line for each other, progress.

With no exercise named, the check works on the *current* exercise: the first in the
course's order (``exercises/info.yaml``) that does not pass all its public tests. That
one is shown in full; every other exercise gets one line (passed, not started,
failing) from a run that stops at the first test that decides it; then
``Progress: 2/5 exercises`` and the hidden-test notice. ``--all`` shows every exercise
in full; a named exercise is shown in full, with the progress line.

:func:`check` hands each line to ``emit`` as soon as it is known (a search that does
not end is reported before the exercises after it have run) and returns them all,
with whether the exercises it was about pass.

The one-line status of an exercise not shown in full is reused from an earlier check when nothing it depends on
changed (:func:`remembered`): the student's Python files in the folder, ``info.yaml``, the public fixtures, the kit's
code and Python's version. An exercise shown in full (the named one, the current one) always runs.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from abkit.cache import Entry, entry
from abkit.compare import Finding
from abkit.coursefolder import current_course
from abkit.errors import UsageError
from abkit.feedback import TestResult, render_result
from abkit.fixture import fixture_paths
from abkit.i18n import LANGS, Message, t
from abkit.info import Course, Exercise, load_info
from abkit.textree import UNICODE, Glyphs

from abkit.studentloop.check import course_fixtures, hidden_count, test_cases
from abkit.studentloop.isolated import exercise_results
from abkit.studentloop.limits import MemoryGuard

if TYPE_CHECKING:
    from typing import Callable, Iterator

#: statuses every test of an exercise gets alike when the file itself is the problem
COLLAPSIBLE = ("not_started", "missing", "crashed")
BAR = 20
#: a first difference that points at the traceback below it -> the same said on one line
BRIEF = {"compare.error": "compare.error_brief", "compare.error_again": "compare.error_brief",
         "judge.root_value_error": "judge.root_value_error_brief",
         "judge.root_value_error_again": "judge.root_value_error_brief"}
#: how many tests a line of failing tests alike names before "…"
MAX_NAMED = 3
#: the most lines of other failing tests one screen gives (the last of them counts the rest when there are more)
MAX_GROUPS = 2
#: the most lines the first failing test's tree takes on one screen (a bigger one is cut around the first ⚠)
MAX_TREE_LINES = 13
#: an exercise's state as its one line says it
PASSED, NOT_STARTED, FAILING = "passed", "not_started", "failing"


class ExerciseRun:
    """One exercise's public tests, run only as far as a question needs: its status, or every result."""

    def __init__(self, course: Course, exercise: Exercise, folder: Path, fixtures: list,
                 langs: tuple[str, ...] = LANGS) -> None:
        self.exercise = exercise
        self.name = exercise.name
        self.cases = test_cases(exercise, fixtures)
        self.total = len(self.cases)
        self.results: list[TestResult] = []
        self._pending: Iterator[TestResult] | None = exercise_results(course, exercise, folder, fixtures, langs)
        #: (status, index of the first failing test) from an earlier check of the same files; None: run the tests
        self.known: tuple[str, int | None] | None = None

    def title(self, lang: str) -> str:
        return self.exercise.label(lang)

    def _more(self) -> bool:
        """Run one more test; False when there is none (or the exercise was stopped)."""
        if self._pending is None:
            return False
        result = next(self._pending, None)
        if result is None:
            self._pending = None
            return False
        self.results.append(result)
        return True

    def run_all(self) -> list[TestResult]:
        while self._more():
            pass
        self.known = None  # what the tests said now
        return self.results

    @property
    def status(self) -> str:
        """passed (every public test passes), not_started (every test meets a TODO) or failing; the tests run up
        to the first that decides it."""
        if self.known is not None:
            return self.known[0]
        k = 0
        while True:
            while k < len(self.results):
                seen = {r.status for r in self.results[:k + 1]}
                if seen - {"passed", "not_started"} or seen == {"passed", "not_started"}:
                    return FAILING
                k += 1
            if not self._more():
                break
        seen = {r.status for r in self.results}
        return NOT_STARTED if seen == {"not_started"} else PASSED if seen <= {"passed"} else FAILING

    def first_failure(self, lang: str) -> str:
        """The title of the first test that does not pass (the status is failing)."""
        if self.known is not None:
            case = self.cases[self.known[1]]
            return TestResult(case.exercise.name, case.name, case.title((lang,))).label(lang)
        return next(r for r in self.results if not r.passed).label(lang)

    def summary(self) -> tuple[str, int | None] | None:
        """What a later check of the same files may reuse (:attr:`known`), or None when the outcome depended on time
        or memory (a search stopped by its time limit or the memory watchdog, or out of memory)."""
        if self.known is not None:
            return self.known
        status = self.status
        if any(r.status == "timeout" or "memory" in r.detail for r in self.results):
            return None
        return status, next(k for k, r in enumerate(self.results) if not r.passed) if status == FAILING else None

    def reuse(self, known: object) -> None:
        """Take ``known`` (from the cache) as this run's status when it is one this exercise can have."""
        if isinstance(known, tuple) and len(known) == 2 and known[0] in (PASSED, NOT_STARTED, FAILING) and \
                (known[1] is None if known[0] != FAILING else isinstance(known[1], int) and
                 0 <= known[1] < self.total):
            self.known = known

    @property
    def passed(self) -> int:
        return sum(r.passed for r in self.results)

    @property
    def done(self) -> bool:
        return self.status == PASSED


def find_course(folder: Path | None) -> tuple[Course, Path]:
    """The course's ``info.yaml`` (in ``folder``, else the kit's) and the folder of the student's files."""
    folder = Path(folder) if folder is not None else current_course().exercises
    return load_info(info_path(folder)), folder


def info_path(folder: Path) -> Path:
    """The ``info.yaml`` that describes the student's files in ``folder`` (theirs, else the course's)."""
    if not folder.is_dir():
        raise UsageError("check.no_folder", path=str(folder))
    return folder / "info.yaml" if (folder / "info.yaml").is_file() else current_course().exercises / "info.yaml"


def chosen(course: Course, name: str | None) -> list[str]:
    """The exercises to report on: ``name``, or all; an unknown name is a usage error. An exercise's file stands
    for it (``exercises/alphabeta.py``, ``alphabeta.py``: what a student may type or paste)."""
    if name is None:
        return course.names()
    stem = name.replace("\\", "/").rsplit("/", 1)[-1][:-3] if name.endswith(".py") else name
    name = stem if course.get(stem) is not None else name
    if course.get(name) is None:
        raise UsageError("check.unknown", name=name, names=", ".join(course.names()))
    return [name]


def exercise_runs(course: Course, folder: Path, langs: tuple[str, ...] = LANGS) -> list[ExerciseRun]:
    """A lazy run of every exercise of the course on the student's files, in the course's order; the results'
    titles in ``langs`` (a check shows one language: the others are not rendered)."""
    fixtures = course_fixtures(course, current_course().public_fixtures)
    return [ExerciseRun(course, e, folder, fixtures, langs) for e in course.exercises]


def python_files(folder: Path) -> list[Path]:
    """Every Python file an exercise in ``folder`` may import from there: ``*.py`` in it and in its packages
    (sub-folders named as Python names), in a fixed order."""
    found = []
    for root, folders, files in os.walk(folder):
        folders[:] = sorted(f for f in folders if f.isidentifier() and f != "__pycache__")
        found += [Path(root, f) for f in sorted(files) if f.endswith(".py")]
    return found


def remembered(folder: Path, info: Path) -> Entry:
    """The cache's entry (:mod:`abkit.cache`) of the exercises' statuses on the student's files in ``folder``: a
    dict name -> :attr:`ExerciseRun.known`, made from those files, ``info``, the public fixtures and this module's
    and the test runner's code (with the kit's core, its version and Python's, as every entry)."""
    here = os.path.dirname(os.path.abspath(__file__))
    sources = [*python_files(folder), info, *fixture_paths([current_course().public_fixtures])]
    return entry("statuses", sources, code=[os.path.join(here, name) for name in ("report.py", "check.py", "limits.py")])


def current(runs: list[ExerciseRun]) -> ExerciseRun | None:
    """The exercise the student is on: the first that does not pass all its public tests (None: all pass)."""
    return next((run for run in runs if run.status != PASSED), None)


def working_on(course: Course, folder: Path) -> ExerciseRun | None:
    """:func:`current` of the student's files in ``folder``, their searches held to the course's memory limit (as
    ``hint`` and ``trace --mine`` find the exercise to speak of)."""
    from abkit.studentloop.limits import MemoryGuard

    with MemoryGuard(course.memory_limit):
        return current(exercise_runs(course, folder))


def first_failure(course: Course, exercise: Exercise, folder: Path) -> TestResult | None:
    """The first public test of ``exercise`` the student's files in ``folder`` fail (the tests run up to it, held to
    the course's memory limit), or None when every one passes."""
    with MemoryGuard(course.memory_limit):
        fixtures = course_fixtures(course, current_course().public_fixtures)
        run = ExerciseRun(course, exercise, folder, fixtures)
        if run.status == PASSED:
            return None
        return next((r for r in run.results if not r.passed), None)


def seen_kind(result: TestResult) -> str:
    """What went wrong first in a failing test, as the hints name it: its first finding's kind
    (:data:`abkit.compare.KINDS`), else its status (``timeout``, ``crashed``, ...)."""
    return result.findings[0].kind if result.findings else result.status


def check(folder: Path | None, name: str | None, lang: str, g: Glyphs = UNICODE, every: bool = False,
          emit: Callable[[str], None] | None = None, keep: list | None = None,
          verbose: bool = False) -> tuple[list[str], bool]:
    """Run the public tests: ``name`` in full, or (``name`` None) the current exercise in full and one line for
    each other, or (``every``) all in full. Returns the lines (each also given to ``emit`` when it is ready) and
    whether the exercises asked about pass (all of them, when none is named). ``keep``: a list that receives the
    results of the exercises shown in full (``abkit check --html`` writes pages from them). ``verbose``: every
    test of an exercise shown in full, not one screen (:func:`exercise_lines`)."""
    folder = Path(folder) if folder is not None else current_course().exercises
    info = info_path(folder)
    course = load_info(info)
    names = chosen(course, name)
    lines: list[str] = []

    def put(*new: str) -> None:
        for line in new:
            lines.append(line)
            if emit is not None:
                emit(line)

    with MemoryGuard(course.memory_limit) as guard:
        runs = exercise_runs(course, folder, (lang,))
        memo = remembered(folder, info)
        reused = isinstance(memo.value, dict) and set(memo.value) == {r.name for r in runs}
        for run in runs if reused and not every else ():
            if name is None or run.name not in names:  # the named exercise always runs
                run.reuse(memo.value[run.name])
        if name is not None or every:
            for run in runs:
                if run.name in names:
                    put(*exercise_lines(run, lang, g, verbose), "")
            shown = [r.name for r in runs if r.name in names]
        else:
            now = current(runs)
            for run in runs:
                if run is now:
                    put(*(["", *exercise_lines(run, lang, g, verbose), ""] if run is not runs[0] else
                          [*exercise_lines(run, lang, g, verbose), ""]))
                else:
                    put(status_line(run, lang, g))
            if now is not runs[-1]:
                put("")
            shown = [now.name] if now is not None else names
        put(progress_line(runs, lang))
        if guard.notice is not None:
            put(guard.notice.render(lang))
        put(hidden_line(course, shown, lang))
        if keep is not None:
            keep.extend(result for run in runs if run.name in shown for result in run.results)
        if not reused:
            _remember(memo, runs)
    ok = all(run.done for run in runs if run.name in (names if name is not None else course.names()))
    return lines, ok


def _remember(memo: Entry, runs: list[ExerciseRun]) -> None:
    """Keep every exercise's status for the next check of the same files, unless one depended on time or memory."""
    summaries = {run.name: run.summary() for run in runs}
    if None not in summaries.values():
        memo.store(summaries)


def exercise_lines(run: ExerciseRun, lang: str, g: Glyphs = UNICODE, verbose: bool = False) -> list[str]:
    """An exercise in full: one screen by default (:func:`_one_screen`), every test's feedback with ``verbose``;
    then how many of its tests pass."""
    lines = [t("check.exercise", lang, name=run.name, title=run.title(lang))]
    results = run.run_all()
    shown, briefer = (_every_test(results, lang, g), False) if verbose else _one_screen(results, lang, g)
    lines += shown
    if not run.total:
        lines.append(t("check.no_tests", lang))
    key = "check.summary.done" if run.done else "check.summary.one_screen" if briefer else "check.summary.todo"
    lines.append(t(key, lang, name=run.name, passed=run.passed, total=run.total))
    return lines


def _every_test(results: list[TestResult], lang: str, g: Glyphs) -> list[str]:
    """Each test's feedback; the tree only for the first failure, a file-level status only once."""
    lines: list[str] = []
    tree_shown, collapsed, seen, shown_in = False, 0, set(), {}
    for result in results:
        if result.status in COLLAPSIBLE and result.status in seen:
            collapsed += 1
            continue
        seen.add(result.status)
        if result.traceback and result.traceback[-1] in shown_in:  # the same error again: its traceback once is enough
            where = shown_in[result.traceback[-1]]
            result = replace(result, traceback=[], findings=[_again(f, where) for f in result.findings])
        elif result.traceback:
            shown_in[result.traceback[-1]] = result.name
        lines.append(render_result(result, lang, g=g, show_tree=not tree_shown))
        tree_shown = tree_shown or (not result.passed and result.student is not None)
    if collapsed:
        lines.append(t("check.collapsed", lang, count=collapsed))
    return lines


def _one_screen(results: list[TestResult], lang: str, g: Glyphs) -> tuple[list[str], bool]:
    """The passing tests counted, not listed (the summary line counts them); the first failing test in full (its
    tree, its first difference); every other failing test on one line, and the tests whose first difference is of
    the same kind on one line together, said once with their count. A file-level status (not started, missing,
    crashed) is said once for all. Also whether anything was said briefer than ``--verbose`` says it."""
    failing = [r for r in results if not r.passed]
    if not failing:
        return [], False
    if all(r.status in COLLAPSIBLE and r.status == failing[0].status for r in failing):
        return _every_test(failing, lang, g), False
    first = failing[0]  # its first difference in full; the tree unless an error's traceback says where
    lines = [fit_tree(render_result(replace(first, findings=first.findings[:1]), lang, g=g,
                                    show_tree=not first.traceback), lang, g)]
    groups: dict[tuple, list[TestResult]] = {}
    for result in failing[1:]:
        groups.setdefault(_kind(result), []).append(result)
    kinds = list(groups.values())
    shown = kinds if len(kinds) <= MAX_GROUPS else kinds[:MAX_GROUPS - 1]
    for alike in shown:
        sentence = headline(alike[0], lang)
        if len(alike) == 1:
            lines.append(t("check.other_failing", lang, mark=g.bad, test=alike[0].label(lang), sentence=sentence))
        else:
            named = [r.label(lang) for r in alike[:MAX_NAMED]]
            tests = ", ".join(named) + (", …" if len(alike) > MAX_NAMED else "")
            lines.append(t("check.alike_failing", lang, mark=g.bad, count=len(alike), tests=tests, sentence=sentence))
    rest = sum(len(alike) for alike in kinds[len(shown):])
    if rest:
        lines.append(t("check.other_kinds", lang, mark=g.bad, count=rest))
    return lines, True


def fit_tree(text: str, lang: str, g: Glyphs, most: int = MAX_TREE_LINES) -> str:
    """``text`` (a test's feedback) with its drawn tree cut to ``most`` lines: the lines around the first place the
    search leaves the pseudocode's path (⚠), else the first ones, and a line saying how many are left out above and
    below."""
    lines = text.split("\n")
    heading = next((k for k, line in enumerate(lines) if line.strip() == t("feedback.tree", lang)), None)
    if heading is None or len(lines) - heading - 1 <= most:
        return text
    tree = lines[heading + 1:]
    marked = next((k for k, line in enumerate(tree) if g.warn in line), 0)
    room = most - 1  # one line says what is left out
    start = max(0, min(marked - room // 2, len(tree) - room))
    if 0 < start < len(tree) - room:  # left out at both ends: a line for each
        room -= 1
    kept = tree[start:start + room]
    above, below = start, len(tree) - start - len(kept)
    indent = tree[0][:len(tree[0]) - len(tree[0].lstrip())]
    kept = ([indent + t("check.tree_cut", lang, count=above)] if above else []) + kept + \
        ([indent + t("check.tree_cut", lang, count=below)] if below else [])
    return "\n".join(lines[:heading + 1] + kept)


def _kind(result: TestResult) -> tuple:
    """What a failing test's first difference is, for grouping: its status and the first finding's message."""
    first = result.findings[0].message.key if result.findings else None
    return result.status, first, bool(result.detail.get("call"))


def headline(result: TestResult, lang: str) -> str:
    """The first thing a failing test's feedback says: its first difference (an error's without the words
    pointing at a traceback: a line of its own shows none), else its status in words."""
    if result.findings:
        message = result.findings[0].message
        if message.key in BRIEF:
            message = Message(BRIEF[message.key], **message.params)
        return message.render(lang)
    lines = render_result(result, lang).splitlines()
    return lines[1].strip() if len(lines) > 1 else ""


def _again(finding: Finding, where: str) -> Finding:
    """An error finding of a test whose traceback is left out (the test ``where`` showed the same error): it says
    where the traceback is."""
    again = {"compare.error": "compare.error_again", "judge.root_value_error": "judge.root_value_error_again"}
    if finding.message.key not in again:
        return finding
    return replace(finding, message=Message(again[finding.message.key], **finding.message.params, test=where))


def status_line(run: ExerciseRun, lang: str, g: Glyphs = UNICODE) -> str:
    """One line for an exercise not shown in full: passed, not started, or failing with its first failing test."""
    status = run.status
    mark = {PASSED: g.ok, NOT_STARTED: g.todo}.get(status, g.bad)
    params = {"mark": mark, "name": run.name, "title": run.title(lang), "total": run.total}
    if status == FAILING:
        params["test"] = run.first_failure(lang)
    return t(f"check.line.{status}", lang, **params)


def progress_line(runs: list[ExerciseRun], lang: str) -> str:
    """``Progress: 2/5 exercises`` and a bar of the exercises done."""
    done = sum(run.done for run in runs)
    filled = round(BAR * done / len(runs)) if runs else 0
    return t("check.progress.exercises", lang, done=done, count=len(runs), bar="#" * filled + "-" * (BAR - filled))


def hidden_line(course: Course, names: list[str], lang: str) -> str:
    """How many hidden trees grading adds, and that passing here is not a grade."""
    items = ", ".join(t("check.hidden_item", lang, name=n, count=hidden_count(course, course.get(n))) for n in names)
    return t("check.hidden", lang, items=items)

