"""The corpus of correct styles (tests/styles/<style>/): many ways students and textbooks write the same search.

Each style must be observably the reference (contract §1): the same generated and evaluated states in the same
order, the same action, and the same values from MAX-VALUE/MIN-VALUE called directly on the root and on inner nodes
with the full window and narrow ones, on every fixture the exercise is graded on and on seeded random trees.
"""

from __future__ import annotations

import functools

import pytest

from grader.reference import reference
from styles_harness import ALGORITHM_OF, STYLES, all_cases, correct_styles, first_difference, load


@functools.lru_cache(maxsize=None)
def cases(algorithm: str):
    return all_cases(algorithm)


EQUIVALENCE = [(exercise, style) for exercise in ALGORITHM_OF for style in correct_styles(exercise)]


def test_the_corpus_has_the_styles_the_issue_names():
    assert len(correct_styles("alphabeta")) >= 15 and len(correct_styles("minimax")) >= 15
    for style in correct_styles("alphabeta"):
        for exercise in ALGORITHM_OF:
            path = STYLES / style / f"{exercise}.py"
            if path.is_file():
                assert path.read_text(encoding="utf-8").startswith('"""Style: '), path


@pytest.mark.parametrize("exercise,style", EQUIVALENCE, ids=[f"{e}-{s}" for e, s in EQUIVALENCE])
def test_each_correct_style_is_observably_the_reference(exercise, style):
    algorithm = ALGORITHM_OF[exercise]
    module = load(STYLES / style / f"{exercise}.py")
    assert first_difference(module, reference(algorithm), algorithm, cases(algorithm)) is None
