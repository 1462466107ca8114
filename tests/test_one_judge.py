"""One test planner and one judge for ``check`` and ``grade``: on every public test, the same verdict.

For every submission of the kit's style corpus (tests/styles/: each correct style, and each catalogued mistake in
its two styles), ``abkit check``'s verdict (pass/fail) on each public test equals ``abkit grade``'s on the same test,
graded with the course's rubric on its public fixtures (no random trees; the played games from the batch seed 0,
check's games). A test's names on the two sides:

- a search: check's ``<exercise>/<fixture>``, grade's ``<exercise>/public/<fixture>``;
- the direct calls: check's ``<exercise>/<fixture>/direct`` (every call the expected search makes with a narrow
  window, one line: passed when every call passes), grade's ``<exercise>/public/<fixture>/<function>(<node>, α, β)``,
  one test a call: check's verdict is that every one of grade's passes;
- the orders: check's ``<exercise>/<fixture>/orders``, grade's ``<exercise>/public/<fixture>/ordered_actions``;
- the played games: check's ``<exercise>/plays-full-games``, grade's ``<exercise>/random/games``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from abkit.coursefolder import current_course
from abkit.loading import EXERCISES
from abkit.grader.grading import Grader
from abkit.grader.rubric import load_rubric
from abkit.grader.sandbox import Limits
from abkit.grader.submissions import Submission
from abkit.studentloop.check import course_fixtures
from abkit.studentloop.isolated import run_exercise
from abkit.studentloop.report import find_course
from abkit.grader.mistakes import CATALOGUE
from tests.styles_harness import STYLES, correct_styles, mistake_styles

EXERCISE_FILES = ("minimax", "alphabeta", "alphabeta_cutoff", "expectimax", "ordering")
GENEROUS = Limits(test_seconds=10.0, student_seconds=180.0)


def corpus() -> list[tuple[str, Path]]:
    """(name, folder) of every submission: the correct styles, then each mistake in each of its styles."""
    found = [(f"style-{style}", STYLES / style) for style in correct_styles("alphabeta")]
    found += [(f"mistake-{m.id}-{style}", folder) for m in CATALOGUE for style, folder in mistake_styles(m.id).items()]
    return found


@pytest.fixture(scope="module")
def grader(tmp_path_factory) -> Grader:
    """The course's rubric on its public fixtures alone, without random trees."""
    text = current_course().rubric.read_text(encoding="utf-8")
    assert "fixtures: [public, hidden]" in text and "count: 2" in text
    path = tmp_path_factory.mktemp("rubric") / "rubric.yaml"
    path.write_text(text.replace("fixtures: [public, hidden]", "fixtures: [public]").replace("count: 2", "count: 0"),
                    encoding="utf-8")
    return Grader(load_rubric(path), seed=0, limits=GENEROUS)


def check_verdicts(folder: Path) -> dict[str, bool]:
    """check's verdict per public test of every exercise ``folder`` holds."""
    course, _ = find_course(folder)
    fixtures = course_fixtures(course, current_course().public_fixtures)
    verdicts = {}
    for exercise in course.exercises:
        if (folder / exercise.file).is_file():
            verdicts.update({r.name: r.passed for r in run_exercise(course, exercise, folder, fixtures)})
    return verdicts


def grade_verdicts(grader: Grader, name: str, folder: Path) -> dict[str, bool]:
    """grade's verdict per public test (and the played games) of every exercise, under check's names."""
    graded = grader.grade(Submission(name, folder))
    verdicts: dict[str, list[bool]] = {}
    for exercise, grade in graded.exercises.items():
        for tg in grade.tests:
            verdicts.setdefault(check_name(tg.test), []).append(tg.result.passed)
    return {name: all(v) for name, v in verdicts.items() if name is not None}


def check_name(test) -> str | None:
    """The name check gives the public test ``test`` is (or is a call of); None: not a public test."""
    if test.kind == "play":
        return f"{test.exercise}/plays-full-games"
    if test.source != "public":
        return None
    fixture = test.id.split("/")[2]
    if test.repeats:  # the first public tree searched again (state kept between calls)
        return f"{test.exercise}/{fixture}/again"
    if test.function:
        return f"{test.exercise}/{fixture}/direct"
    if test.kind == "orders":
        return f"{test.exercise}/{fixture}/orders"
    return f"{test.exercise}/{fixture}"


@pytest.mark.slow
@pytest.mark.parametrize("name,folder", corpus(), ids=[name for name, _ in corpus()])
def test_check_and_grade_give_every_public_test_the_same_verdict(grader, tmp_path, name, folder):
    for path in folder.glob("*.py"):
        shutil.copy(path, tmp_path / path.name)
    shutil.copy(EXERCISES / "info.yaml", tmp_path / "info.yaml")
    checked, graded = check_verdicts(tmp_path), grade_verdicts(grader, name, tmp_path)
    assert set(checked) == set(graded)  # the same public tests
    differ = {test: (checked[test], graded[test]) for test in checked if checked[test] != graded[test]}
    assert differ == {}, differ
