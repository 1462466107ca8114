"""Per-student variants are as hard as the outline says: every variant of 40 students measured independently.

What the outline fixes of a random exercise (leaves alpha-beta evaluates, cut
tests that fire on equality, whether the root has a tie) is measured here by the
tests' own reading of the pseudocode (``tests/pseudocode.py``), not by the
builder's.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from abkit.handouts.content import build_document, exercise_tree, outline, trace_of
from abkit.handouts.exercises import difficulty
from abkit.tree import Tree
from pseudocode import measures, visit_order

STUDENTS = [""] + [f"s{n:03d}" for n in range(1, 40)]
FIXED = ("evaluated", "equality_cuts", "root_tie", "cuts")
ROSTER = tuple(STUDENTS)


#: the exercises that ask for an alpha-beta search of their tree (``forms`` also in two other written forms,
#: ``deepening`` with the root's move of highest EVAL first)
ALPHABETA_KINDS = ("alphabeta", "forms", "deepening")


def best_first_at_root(tree: Tree) -> Tree:
    """``tree`` with the root's move of highest EVAL (the first iteration's best) moved first, names kept."""
    moves = tree.children[tree.root]
    best = max(moves, key=lambda m: tree.heuristics[m])
    return replace(tree, children={**tree.children, tree.root: (best, *(m for m in moves if m != best))})


def random_exercises() -> list[str]:
    return [ex for ex, spec in outline()["exercises"].items() if "branching" in spec]


def test_every_random_exercise_fixes_its_difficulty_in_the_outline():
    exercises = outline()["exercises"]
    for ex in random_exercises():
        spec = exercises[ex]
        assert "root_tie" in spec, ex
        if spec.get("kind", "alphabeta") in ("alphabeta", "forms"):
            assert {"cuts", "equality_cuts", "root_tie", "leaves"} <= set(spec), ex
    # some exercise asks for an equality cut and some for a tie at the root: both are taught, in every variant
    assert any(exercises[ex].get("equality_cuts") for ex in random_exercises())
    assert any(exercises[ex].get("root_tie") for ex in random_exercises())


@pytest.mark.slow
@pytest.mark.parametrize("exercise", random_exercises())
def test_every_variant_of_40_students_has_the_outlines_difficulty(exercise):
    spec = outline()["exercises"][exercise]
    wanted = {key: spec[key] for key in FIXED if key in spec}
    shapes = set()
    for k, student in enumerate(STUDENTS):
        tree = exercise_tree(exercise, student, ROSTER[:k])
        measured = measures(tree)
        if wanted.get("reorders"):  # the first iteration's best move is not first, and first it saves leaves
            best = best_first_at_root(tree)
            measured["reorders"] = best.children[tree.root] != tree.children[tree.root] \
                and measures(best)["evaluated"] < measured["evaluated"]
        assert {key: measured[key] for key in wanted} == wanted, (exercise, student)
        assert {key: difficulty(tree)[key] for key in wanted} == wanted, (exercise, student)
        least, most = spec["leaves"]
        assert least <= measured["leaves"] <= most and set(tree.depths().values()) == set(range(spec["depth"] + 1))
        depth = tree.depths()
        assert all(len(kids) in spec["branching"][depth[node]] for node, kids in tree.children.items())
        assert all(0 in spec["branching"][depth[leaf]] for leaf in tree.leaves() if depth[leaf] < spec["depth"])
        assert all(spec["low"] <= v <= spec["high"] for v in tree.utilities.values())
        assert tree.root_player == ("MIN" if spec.get("root") == "min" else "MAX")
        shapes.add(tuple(tree.utilities.values()))
    assert len(shapes) == len(STUDENTS)  # each student has a tree of their own


@pytest.mark.slow
def test_no_two_variants_on_a_40_student_roster_share_their_cuts_and_visit_order():
    """Copying a neighbour's marks does not work: on every alpha-beta exercise no two students of the roster have
    the same cut-offs and visit order (read from the pseudocode here), and the exercises that prune nothing by
    design (minimax, the ordering exercise) differ in shape from student to student."""
    for exercise in random_exercises():
        patterns, shapes = set(), set()
        for k, student in enumerate(STUDENTS):
            tree = exercise_tree(exercise, student, ROSTER[:k])
            order = visit_order(best_first_at_root(tree) if spec_kind(exercise) == "deepening" else tree)
            patterns.add((tuple(order), tuple(n for n in tree.preorder() if n not in order)))
            shapes.add(tuple(sorted((node, len(kids)) for node, kids in tree.children.items())))
        if spec_kind(exercise) in ALPHABETA_KINDS and not outline()["exercises"][exercise].get("reorder"):
            assert len(patterns) == len(STUDENTS), exercise
        else:
            assert len(shapes) >= 10, exercise


def spec_kind(exercise: str) -> str:
    return outline()["exercises"][exercise].get("kind", "alphabeta")


def test_fixture_exercises_are_the_same_for_every_student():
    for ex, spec in outline()["exercises"].items():
        if "fixture" in spec:
            assert len({repr(exercise_tree(ex, s)) for s in STUDENTS[:5]}) == 1, ex


def test_a_students_sheet_and_key_show_that_students_trees():
    sheet = build_document("en", "student_sheet", "s007")
    key = build_document("en", "variant_key", "s007")
    for ex in random_exercises():
        tree = exercise_tree(ex, "s007")
        blank = next(f for f in sheet.figures() if f["id"] == f"fig-{ex}-blank")
        answer = next(f for f in key.figures() if f["id"] == f"fig-{ex}-answer")
        for leaf, value in tree.utilities.items():
            assert f'data-node="{leaf}"' in blank["svg"] and f'data-node="{leaf}"' in answer["svg"]
        if spec_kind(ex) in ("alphabeta", "forms"):  # the deepening key prunes what its second iteration does
            assert answer["pruned"] == trace_of(tree, "alphabeta").pruned(tree)
