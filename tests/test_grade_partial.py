"""Partial credit worked by hand: a few submissions with known bugs, graded, and their points per category asserted.

The course is the kit's, cut down so every test of the plan can be listed by hand: its public fixtures are only
``aima-fig-5-2``, ``min-root`` and ``root-ties`` (no hidden ones), and the rubric grades minimax alone on them, with
no random trees (grader/rubric.yaml's rules: "a category's points are shared equally by its tests on the shared
fixtures"; minimax's points there are values 6, nodes 1, direct 3, ten in all):

- values (6 points) and nodes (1 point): one search test per fixture, and aima-fig-5-2's searched again in the same
  process after the three (grader/testplan.py's ``with_repeat``: a search that keeps state between calls does
  something else the second time), so 4 tests: 1.5 points / 1/4 point each; the second run of a search that keeps
  no state passes or fails as its first did;
- direct (3 points): the calls ``abkit check`` makes on the public trees (abkit/expected.py's direct_tests: for
  minimax, MAX-VALUE / MIN-VALUE on every inner node below the root, in preorder; grader/testplan.py makes the same
  calls, and picks its ``direct_tests`` others on hidden trees, of which there are none here): aima-fig-5-2's B C D
  (MIN nodes: ``min_value``), min-root's B C D (MAX: ``max_value``), root-ties' B C D (MIN): 9 calls, 1/3 point each.

The trees, by hand (minimax):
- aima-fig-5-2, MAX root: B = min(3, 12, 8) = 3, C = 2, D = 2: value 3, action B (no tie for the best);
- min-root, MIN root: B = max(2, 7) = 7, C = max(9, 1) = 9, D = max(6, 4) = 6: value 6, action D;
- root-ties, MAX root: B = min(5, 6) = 5, C = min(5, 7) = 5, D = min(4, 9) = 4: value 5, B and C tie, B (first).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from abkit.loading import SOLUTIONS
from abkit.grader.batch import grade_batch
from abkit.grader.rubric import load_rubric
from abkit.grader.sandbox import Limits
from tests.helpers import course_under, edited

KEPT = ("aima-fig-5-2.yaml", "min-root.yaml", "root-ties.yaml")
RUBRIC = """fixtures: [public]
random_trees: {count: 0, branching: 2, depth: 2, min: -9, max: 9}
direct_tests: 3
exercises:
  minimax: {values: 6, nodes: 1, direct: 3}
"""

#: MINIMAX-DECISION keeps the last of equal best values at a MAX root (>= for >)
TIES_LAST = [("v = min_value(game, game.result(state, a))\n            if best_action is None or v > best_value",
              "v = min_value(game, game.result(state, a))\n            if best_action is None or v >= best_value")]
#: MINIMAX-DECISION at a MIN root takes the highest MAX-VALUE (> for <)
MIN_ROOT_MAXIMIZES = [("if best_action is None or v < best_value", "if best_action is None or v > best_value")]
#: MAX-VALUE takes the minimum of its children (max for min in its loop)
MAX_VALUE_MINIMIZES = [("v = max(v, min_value(game, game.result(state, a)))",
                        "v = min(v, min_value(game, game.result(state, a)))")]
#: MINIMAX-DECISION asks RESULT twice for each of the root's actions (the first answer thrown away)
ROOT_RESULT_TWICE = [("v = min_value(game, game.result(state, a))\n",
                      "game.result(state, a)\n            v = min_value(game, game.result(state, a))\n"),
                     ("v = max_value(game, game.result(state, a))\n",
                      "game.result(state, a)\n            v = max_value(game, game.result(state, a))\n")]

STUDENTS = {
    "ties-last": TIES_LAST,
    "min-root-maximizes": MIN_ROOT_MAXIMIZES,
    "both-root-mistakes": TIES_LAST + MIN_ROOT_MAXIMIZES,
    "max-value-minimizes": MAX_VALUE_MINIMIZES,
    "root-result-twice": ROOT_RESULT_TWICE,
    "correct": [],
}


#: the thirteen tests' names as results.json gives them: the three searches and aima-fig-5-2's again, then the nine
#: direct calls
SEARCHES = ("minimax: AIMA Figure 5.2", "minimax: MIN moves at the root", "minimax: Ties at the root")
AGAIN = "minimax: AIMA Figure 5.2, searched again in the same program after the other public trees"
DIRECT = tuple(f"minimax: {function}({node}) called directly on a subtree of {tree}"
               for function, tree in (("min_value", "AIMA Figure 5.2"), ("max_value", "MIN moves at the root"),
                                      ("min_value", "Ties at the root")) for node in "BCD")


def points(values: str, nodes: str, direct: str) -> dict:
    """Each test's points by hand from which tests pass ("1" passes, "0" fails; values and nodes: one character per
    fixture in the order aima-fig-5-2, min-root, root-ties; direct: one per call, B C D of each in that order): a
    search test is worth values 6/4 = 1.5 plus nodes 1/4 (aima-fig-5-2's second run as its first), a direct call
    3/9 = 1/3."""
    scores = {name: 1.5 * int(v) + int(n) / 4 for name, v, n in zip((*SEARCHES, AGAIN), values + values[0],
                                                                    nodes + nodes[0])}
    scores.update({name: int(d) / 3 for name, d in zip(DIRECT, direct)})
    return scores


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """Each student of :data:`STUDENTS` (minimax.py: the reference with the edits) graded in one batch in the cut-down
    course; per student, the minimax exercise's grade and each test's points (results.json)."""
    root = tmp_path_factory.mktemp("partial")
    reference = (SOLUTIONS / "minimax.py").read_text(encoding="utf-8")
    for student, edits in STUDENTS.items():
        (root / "class" / student).mkdir(parents=True)
        (root / "class" / student / "minimax.py").write_text(edited(reference, edits), encoding="utf-8")
    return {student: (grade, {t["name"]: t["score"] for t in tests})
            for student, (grade, tests) in grade_cut_down(root).items()}


def grade_cut_down(root: Path, limits: Limits | None = None, rubric: str = RUBRIC) -> dict[str, tuple[dict, list[dict]]]:
    """Grade the class in ``root / "class"`` in the cut-down course (made in ``root / "course"``, graded with
    ``rubric``); per student, the minimax exercise's grade and its tests as results.json holds them."""
    with course_under("aima", root / "course") as course:
        for folder in ("public", "hidden"):
            for path in (course / "fixtures" / folder).glob("*.yaml"):
                if folder == "hidden" or path.name not in KEPT:
                    path.unlink()
        (root / "rubric.yaml").write_text(rubric, encoding="utf-8")
        result = grade_batch(root / "class", root / "out", load_rubric(root / "rubric.yaml"), jobs=2, limits=limits)
    graded = {}
    for row in result.rows:
        student = row["extra_data"]["student"]
        saved = json.loads((root / "out" / "students" / student / "results.json").read_text(encoding="utf-8"))
        graded[student] = (row["extra_data"]["exercises"]["minimax"], saved["tests"])
    return graded


def assert_graded(graded, student: str, total: float, values: str, nodes: str, direct: str) -> None:
    grade, tests = graded[student]
    assert grade["status"] == "ok" and grade["max_score"] == 10
    assert grade["score"] == pytest.approx(total)
    assert tests == pytest.approx(points(values, nodes, direct), abs=1e-4)  # results.json rounds to 4 places


def test_the_plan_is_the_one_worked_by_hand(graded):
    # every test passes: 6 + 1 + 3 = 10; a search test 1.5 + 1/4, a direct call 1/3
    assert_graded(graded, "correct", 10, values="111", nodes="111", direct="111111111")
    assert graded["correct"][0]["mistakes"] == []


def test_a_tie_at_the_root_resolved_to_the_last(graded):
    # root-ties picks C instead of B: values fails there only (aima-fig-5-2 has no tie for the best, min-root's MIN
    # branch is untouched); the value (MAX-VALUE on the root) and every node count are right, and MAX-VALUE /
    # MIN-VALUE are the reference's
    # values 6 * 3/4 = 4.5 (aima-fig-5-2 passes twice), nodes 1 * 4/4 = 1, direct 3 * 9/9 = 3: 8.5 of 10
    assert_graded(graded, "ties-last", 8.5, values="110", nodes="111", direct="111111111")


def test_a_min_root_that_maximizes(graded):
    # min-root picks C (9, the highest) instead of D: values fails there only; the rest is the reference's
    # values 6 * 3/4 = 4.5, nodes 1, direct 3: 8.5 of 10
    assert_graded(graded, "min-root-maximizes", 8.5, values="101", nodes="111", direct="111111111")


def test_both_root_mistakes_lose_two_value_tests(graded):
    # root-ties (C) and min-root (C) fail values, aima-fig-5-2 passes (twice): values 6 * 2/4 = 3, nodes 1, direct 3:
    # 7 of 10
    assert_graded(graded, "both-root-mistakes", 7, values="100", nodes="111", direct="111111111")


def test_max_value_that_minimizes_loses_every_value_and_one_direct_call(graded):
    # MAX-VALUE starts at v = -inf and keeps min(v, ...): it returns -inf whenever it is not on a leaf. The root's
    # value is MAX-VALUE / MIN-VALUE called on the root after the search (abkit/trace.py's root_value): -inf at the
    # MAX roots (aima-fig-5-2, root-ties), and at min-root MIN-VALUE over three -inf children: all three values
    # fail. Every state is still generated once: nodes pass. Direct: max_value(min-root's B) returns -inf, not 7:
    # fails, and so do max_value(C) and max_value(D) there; min_value on B, C and D of the two MAX-root trees calls
    # MAX-VALUE on leaves only (their utilities): passes.
    # values 6 * 0/4 = 0, nodes 1 * 4/4 = 1, direct 3 * 6/9 = 2: 3 of 10
    assert_graded(graded, "max-value-minimizes", 3, values="000", nodes="111", direct="111000111")


def test_result_asked_twice_at_the_root_loses_every_node_count_only(graded):
    # 3 extra RESULT calls at each root (3 actions each): 13 + 3, 10 + 3, 10 + 3 states: nodes fails on all four tests;
    # the value and action are right; the direct calls start below the root and are untouched
    # values 6 * 4/4 = 6, nodes 1 * 0/4 = 0, direct 3 * 9/9 = 3: 9 of 10
    assert_graded(graded, "root-result-twice", 9, values="111", nodes="000", direct="111111111")


# -- random trees score nothing: the same slip costs every student the same ----------------------------------------

#: the cut-down rubric with two random trees per student (the first with a MAX root, the second with a MIN root)
RANDOM_RUBRIC = RUBRIC.replace("count: 0", "count: 2")
RANDOM_STUDENTS = [f"r{k}" for k in range(6)]


def test_random_trees_are_judged_but_score_nothing_so_a_slip_costs_everyone_the_same(tmp_path):
    """min-root-maximizes, by hand, with two random trees each: the shared tests are the three searches and the nine
    direct calls on the public trees (no hidden tree to pick others on), and aima-fig-5-2 searched again; the
    3 // 2 = 1 other direct call is on a random tree. Only shared tests score (grader/grades.py's category_shares):
    values 6 / 4 = 1.5 a search, nodes 1 / 4, direct 3 / 9 = 1/3 a call. The slip fails min-root's value only:
    values 6 * 3/4 = 4.5, nodes 1, direct 3: 8.5 of 10 for every student, whatever their random trees do (the second, with a MIN root, fails its value unless its
    children tie)."""
    reference = (SOLUTIONS / "minimax.py").read_text(encoding="utf-8")
    for student in RANDOM_STUDENTS:
        (tmp_path / "class" / student).mkdir(parents=True)
        (tmp_path / "class" / student / "minimax.py").write_text(edited(reference, MIN_ROOT_MAXIMIZES), encoding="utf-8")
    graded = grade_cut_down(tmp_path, rubric=RANDOM_RUBRIC)
    shared = points(values="101", nodes="111", direct="111111111")
    failed_random = 0
    for student in RANDOM_STUDENTS:
        grade, tests = graded[student]
        assert (grade["status"], grade["max_score"]) == ("ok", 10) and grade["score"] == pytest.approx(8.5)
        scores = {t["name"]: t["score"] for t in tests}
        assert {name: scores[name] for name in shared} == pytest.approx(shared, abs=1e-4)
        random = [t for t in tests if t["name"] not in shared]
        assert len(random) == 3 and all(t["score"] == 0 and t["max_score"] == 0 for t in random)
        failed_random += sum(t["status"] == "failed" for t in random)
    assert failed_random  # the random trees still find the slip, and say so
