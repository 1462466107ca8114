"""``abkit rubric check``: a rubric whose every point some test can award.

What each exercise is tested on is the grading test planner's own answer (:class:`abkit.grader.testplan.TestPlan`, built
from the course's fixtures and the rubric's settings), never a table of its own: a category is awardable when the
plan holds at least one test of it for the exercise. A category worth points that no test awards would leave every
correct student short of full marks beside "all tests passed".
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from abkit.i18n import Message

from abkit.grader.rubric import CATEGORIES, Rubric, RubricError

#: the student id whose random tests stand in for every student's (their shapes depend on the rubric alone)
PROBE = "rubric-check"


def tested_categories(rubric: Rubric) -> dict[str, set[str]]:
    """Per exercise of ``rubric``, the categories the test planner makes at least one test of, under the rubric's
    settings (fixtures, random trees, direct tests), as if every category were worth a point."""
    from abkit.grader.testplan import TestPlan

    probe = dataclasses.replace(rubric, points={e: dict.fromkeys(CATEGORIES, 1) for e in rubric.points})
    tests = TestPlan(probe).tests_for(PROBE)
    return {e: {c for test in tests.get(e, []) for c in test.categories} for e in rubric.points}


def unawardable(rubric: Rubric) -> list[RubricError]:
    """A :class:`RubricError` (path:line) for each category worth points that no test of its exercise awards,
    saying what the exercise's tests do grade."""
    tested = tested_categories(rubric)
    problems = []
    for exercise, points in rubric.points.items():
        for category in points:
            if category in tested[exercise]:
                continue
            line = rubric.lines.get(f"{exercise}.{category}", rubric.lines.get(exercise, 1))
            graded = ", ".join(c for c in CATEGORIES if c in tested[exercise]) or "-"
            problems.append(RubricError(Path(rubric.path), line, Message(
                "rubric.no_test", exercise=exercise, category=category, graded=graded)))
    return problems


def summary(rubric: Rubric) -> dict[str, float]:
    """Each exercise's maximum score."""
    return {e: rubric.max_score(e) for e in rubric.points}
