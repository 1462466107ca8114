"""The same slip costs every student the same.

Every student gets random trees of their own (grader/testplan.py's ``TestPlan.tests_for``), so a slip a random tree
happens to expose could cost one student more than another. For each catalogued slip (grader/mistakes.py) the mutant
is graded in-process for 20 student ids, with the course's rubric and scoring rule (grader/grades.py's
``category_shares``), and its score may vary by at most 1% of the exercise's points.
"""

from __future__ import annotations

import pytest

from abkit.play import play_games, problems
from abkit.game import Budgeted
from abkit.judge import passes
from abkit.tictactoe import TicTacToe
from abkit.grader.grades import category_shares
from abkit.grader.mistakes import CATALOGUE, mutant
from abkit.grader.rubric import load_rubric
from abkit.play import MOVE_BUDGET
from abkit.grader import testplan

STUDENTS = [f"student-{k:02d}" for k in range(20)]


@pytest.fixture(scope="module")
def plan():
    return testplan.TestPlan(load_rubric(), seed=0)


def passed(plan: testplan.TestPlan, module, test: testplan.Test) -> dict[str, bool]:
    """Which of ``test``'s categories ``module`` (a trusted mutant) passes, judged as grading judges a reply."""
    if test.kind == "play":
        entry = getattr(module, test.algorithm.entry)
        try:
            games = play_games(lambda state: entry(Budgeted(TicTacToe(), MOVE_BUDGET), state), test.seed,
                               start=test.state)
            ok = not problems(games)
        except Exception:  # noqa: BLE001 - a mutant that raises or searches too long loses the games
            ok = False
        return {c: ok for c in test.categories}
    try:
        got = test.run_in_process(module)
    except Exception:  # noqa: BLE001 - a mutant's ordered_actions may raise, as a student's does
        return {c: False for c in test.categories}
    expected = plan.expected(test, cache=test.source != "random")
    if test.kind == "orders":
        ok = isinstance(got, dict) and all(list(got.get(n) or ()) == list(want) for n, want in expected.items())
        return {c: ok for c in test.categories}
    return {c: passes(c, got, expected) for c in test.categories}


def score(plan: testplan.TestPlan, module, exercise: str, student: str) -> float:
    """The exercise's score for ``module`` as ``student``: each test's shares, summed where it passes."""
    tests = plan.tests_for(student)[exercise]
    shares = category_shares(tests, plan.rubric.points[exercise])
    return sum(share for test in tests for c, share in shares[test.id].items() if passed(plan, module, test)[c])


@pytest.mark.slow
@pytest.mark.parametrize("mistake", CATALOGUE, ids=lambda m: m.id)
def test_a_slip_costs_every_student_the_same(plan, mistake):
    module = mutant(mistake.id, plan.rule)
    scores = {student: score(plan, module, mistake.exercise, student) for student in STUDENTS}
    most = plan.rubric.max_score(mistake.exercise)
    assert max(scores.values()) - min(scores.values()) <= 0.01 * most, scores
    assert max(scores.values()) < most  # the slip costs something
