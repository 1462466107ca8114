"""The step tables follow the alpha-beta pseudocode of seed 000 line by line.

The expected rows come from an interpretation of that pseudocode written here,
independently of the handout builder: MAX-VALUE / MIN-VALUE run on the tree
itself (not on a trace), and every line that changes something becomes a row:
entering a node, ``v ← MAX(v, MIN-VALUE(...))`` with the cut test ``v ≥ β`` that
either returns at once or is followed by ``α ← MAX(α, v)``, and the return.
"""

from __future__ import annotations

import pytest

from abkit.fixture import load_fixture
from abkit.game import CHANCE
from abkit.loading import FIXTURES, PUBLIC_FIXTURES
from abkit.handouts import content
from abkit.handouts.content import build_document, exercise_tree, outline, step_events, trace_of
from pseudocode import gfg_search, pseudocode_rows

STUDENTS = [""] + [f"student-{n:02d}" for n in range(1, 40)]


def tree_fixtures():
    """Every fixture tree (public and hidden) alpha-beta runs on: MAX and MIN levels only, not a lone leaf."""
    found = []
    for path in sorted(FIXTURES.glob("*/*.yaml")):
        fixture = load_fixture(path)
        tree = fixture.tree
        if tree is not None and tree.children and CHANCE not in tree.players().values():
            found.append(pytest.param(fixture, id=fixture.id))
    return found


def test_row_15_of_figure_5_2_returns_before_beta_is_updated():
    fixture = load_fixture(PUBLIC_FIXTURES / "aima-fig-5-2.yaml")
    rows = step_events(trace_of(fixture.tree, "alphabeta"), fixture.tree)
    assert rows[14] == ("steps.cut_min_last", {"node": "D", "child": "D3", "value": "2", "v": "2", "rel": "<",
                                               "alpha": "3"})
    assert rows[15] == ("steps.return", {"node": "D", "v": "2"})
    table = next(b for s in build_document("en", "handout").sections if s.id == "worked_aima"
                 for b in s.blocks if b["kind"] == "table")
    assert "β = 2" not in table["rows"][14][1] and "nothing is left to cut" in table["rows"][14][1]


@pytest.mark.parametrize("fixture", tree_fixtures())
@pytest.mark.parametrize("rule", [True, False], ids=["aima", "cs188"])
def test_every_fixtures_steps_are_the_pseudocodes_lines(fixture, rule):
    tree = fixture.tree
    assert step_events(trace_of(tree, "alphabeta", rule), tree, rule) == pseudocode_rows(tree, rule)


def test_the_fixtures_include_cuts_on_the_last_child_and_on_equality():
    kinds = {key for param in tree_fixtures() for key, params in pseudocode_rows(param.values[0].tree)}
    assert {"steps.cut_min_last", "steps.cut_max_last", "steps.cut_min", "steps.cut_max"} <= kinds


@pytest.mark.slow
@pytest.mark.parametrize("exercise", [ex for ex, spec in outline()["exercises"].items() if "branching" in spec])
def test_every_variants_steps_are_the_pseudocodes_lines(exercise):
    for student in STUDENTS:
        tree = exercise_tree(exercise, student)
        assert step_events(trace_of(tree, "alphabeta"), tree) == pseudocode_rows(tree), (exercise, student)


def test_a_trace_that_goes_on_after_its_test_fired_is_refused():
    fixture = load_fixture(PUBLIC_FIXTURES / "aima-fig-5-2.yaml")
    cs188 = trace_of(fixture.tree, "alphabeta", rule=False)
    equal = load_fixture(PUBLIC_FIXTURES / "rule-split-min.yaml").tree
    with pytest.raises(ValueError, match="after its cut test fired"):
        step_events(trace_of(equal, "alphabeta", rule=False), equal, rule=True)
    assert step_events(cs188, fixture.tree, rule=False) == pseudocode_rows(fixture.tree, rule=False)
    assert content.cut_fires(3, 3, True) and not content.cut_fires(3, 3, True, rule=False)


@pytest.mark.parametrize("fixture", tree_fixtures())
def test_the_geeksforgeeks_form_makes_the_same_cuts_as_aimas(fixture):
    """Section "another notation" says both forms cut the same nodes and return the same value (AIMA rule)."""
    trace = trace_of(fixture.tree, "alphabeta")
    visited, value = gfg_search(fixture.tree)
    assert visited == trace.visited and value == trace.value
