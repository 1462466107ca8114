"""The step tables follow the alpha-beta pseudocode of seed 000 line by line.

The expected rows come from an interpretation of that pseudocode written here,
independently of the handout builder: MAX-VALUE / MIN-VALUE run on the tree
itself (not on a trace), and every line that changes something becomes a row:
entering a node, ``v ← MAX(v, MIN-VALUE(...))`` with the cut test ``v ≥ β`` that
either returns at once or is followed by ``α ← MAX(α, v)``, and the return.
"""

from __future__ import annotations

import math

import pytest

from abkit.fixture import load_fixture
from abkit.game import CHANCE, MAX
from abkit.loading import FIXTURES, PUBLIC_FIXTURES
from grader.handouts import content
from grader.handouts.content import build_document, exercise_tree, outline, step_events, trace_of
from grader.textree import fmt

STUDENTS = [""] + [f"student-{n:02d}" for n in range(1, 40)]


def pseudocode_rows(tree, rule: bool = True) -> list[tuple[str, dict]]:
    """ALPHA-BETA-SEARCH of seed 000 on ``tree``, one row per line that acts (``rule=False``: v > β, v < α)."""
    rows: list[tuple[str, dict]] = []
    players = tree.players()

    def value(state, alpha, beta):
        if state in tree.utilities:                      # if TERMINAL-TEST(state) then return UTILITY(state)
            return tree.utilities[state]
        return (max_value if players[state] == MAX else min_value)(state, alpha, beta)

    def max_value(state, alpha, beta):
        v = -math.inf                                    # v ← −∞
        rows.append(("steps.enter", {"node": state, "player": "MAX", "alpha": fmt(alpha), "beta": fmt(beta),
                                     "v": fmt(v)}))
        kids = list(tree.children[state])
        for i, a in enumerate(kids):                     # for each a in ACTIONS(state) do
            got = value(a, alpha, beta)
            v = max(v, got)                              #   v ← MAX(v, MIN-VALUE(RESULT(s, a), α, β))
            line = {"node": state, "child": a, "value": fmt(got), "v": fmt(v)}
            if v > beta or (rule and v == beta):         #   if v ≥ β then return v
                line.update(rel="≥" if v == beta else ">", beta=fmt(beta))
                if kids[i + 1:]:
                    rows.append(("steps.cut_max", {**line, "pruned": ", ".join(kids[i + 1:])}))
                else:
                    rows.append(("steps.cut_max_last", line))
                rows.append(("steps.return", {"node": state, "v": fmt(v)}))
                return v
            alpha = max(alpha, v)                        #   α ← MAX(α, v)
            rows.append(("steps.back_max", {**line, "rel": "<" if rule else "≤", "alpha": fmt(alpha),
                                            "beta": fmt(beta)}))
        rows.append(("steps.return", {"node": state, "v": fmt(v)}))
        return v                                         # return v

    def min_value(state, alpha, beta):
        v = math.inf
        rows.append(("steps.enter", {"node": state, "player": "MIN", "alpha": fmt(alpha), "beta": fmt(beta),
                                     "v": fmt(v)}))
        kids = list(tree.children[state])
        for i, a in enumerate(kids):
            got = value(a, alpha, beta)
            v = min(v, got)
            line = {"node": state, "child": a, "value": fmt(got), "v": fmt(v)}
            if v < alpha or (rule and v == alpha):       #   if v ≤ α then return v
                line.update(rel="≤" if v == alpha else "<", alpha=fmt(alpha))
                if kids[i + 1:]:
                    rows.append(("steps.cut_min", {**line, "pruned": ", ".join(kids[i + 1:])}))
                else:
                    rows.append(("steps.cut_min_last", line))
                rows.append(("steps.return", {"node": state, "v": fmt(v)}))
                return v
            beta = min(beta, v)                          #   β ← MIN(β, v)
            rows.append(("steps.back_min", {**line, "rel": ">" if rule else "≥", "alpha": fmt(alpha),
                                            "beta": fmt(beta)}))
        rows.append(("steps.return", {"node": state, "v": fmt(v)}))
        return v

    v = value(tree.root, -math.inf, math.inf)          # v ← MAX-VALUE(state, −∞, +∞)
    returned = {row[1]["child"]: row[1]["value"] for row in rows
                if row[0] != "steps.enter" and row[1].get("node") == tree.root and "child" in row[1]}
    action = next(a for a in tree.children[tree.root] if returned.get(a) == fmt(v))  # the action with value v
    rows.append(("steps.done", {"value": fmt(v), "action": action}))
    return rows


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
