"""The corpus of correct styles (tests/styles/<style>/): many ways students and textbooks write the same search.

Each style must be observably the reference (contract §1): the same generated and evaluated states in the same
order, the same action, and the same values from MAX-VALUE/MIN-VALUE called directly on the root and on inner nodes
with the full window and narrow ones, on every fixture the exercise is graded on and on seeded random trees.
"""

from __future__ import annotations

import functools

import pytest

from grader.mistakes import BY_ID, CATALOGUE, mutant
from grader.reference import reference
from styles_harness import (ALGORITHM_OF, STYLES, all_cases, correct_styles, first_difference, load,
                            mistake_styles)


@functools.lru_cache(maxsize=None)
def cases(algorithm: str):
    return all_cases(algorithm)


EQUIVALENCE = [(exercise, style) for exercise in ALGORITHM_OF for style in correct_styles(exercise)]


def test_the_corpus_has_the_styles_the_issue_names():
    assert len(correct_styles("alphabeta")) >= 15 and len(correct_styles("minimax")) >= 15
    for exercise in ("alphabeta_cutoff", "expectimax", "ordering"):
        assert len(correct_styles(exercise)) >= 4, exercise
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


MISTAKES = [(m.id, style) for m in CATALOGUE for style in mistake_styles(m.id)]


def test_every_catalogue_mistake_is_written_in_two_styles():
    for mistake in CATALOGUE:
        styles = mistake_styles(mistake.id)
        assert set(styles) >= {"module", "class"}, mistake.id
        for folder in styles.values():
            assert [p.name for p in folder.glob("*.py")] == [f"{mistake.exercise}.py"], folder


@pytest.mark.parametrize("mistake_id,style", MISTAKES, ids=[f"{m}-{s}" for m, s in MISTAKES])
def test_each_written_mistake_is_observably_the_catalogue_mutant(mistake_id, style):
    mistake = BY_ID[mistake_id]
    algorithm = ALGORITHM_OF[mistake.exercise]
    module = load(mistake_styles(mistake_id)[style] / f"{mistake.exercise}.py")
    assert first_difference(module, mutant(mistake_id, True), algorithm, cases(algorithm)) is None
    assert first_difference(module, reference(algorithm), algorithm, cases(algorithm)) is not None
