"""``abkit fixtures adequacy``: every mutant of the references is killed by the course's fixtures, or equivalent.

Issue 31: the kit's own course has no survivor under either cut-off rule; a course without its hidden trees has
survivors, each with a small tree that tells it apart, and ``--add`` writes those trees so that they are killed.
"""

from __future__ import annotations

import json
import shutil

import pytest

from abkit.algorithms import Algorithm
from abkit.grader.mistakes import fresh_mutant, mutants_of
from abkit.authoring.redraw import redraw_hidden
from abkit.authoring.adequacy import SmallTrees, add_tree, analyse, course_rubric, shapes
from helpers import course_under


def test_every_exercise_has_ten_mutants_and_alpha_beta_thirty():
    for algorithm in Algorithm:
        assert len(mutants_of(algorithm.exercise)) >= (30 if algorithm == Algorithm.ALPHABETA else 10), algorithm


def test_small_shapes_are_every_shape_of_the_stated_size():
    assert shapes(1) == [[0, 0], [0, 0, 0]]
    two = shapes(2)
    assert len(two) == len({str(s) for s in two}) == 24 and [0, [0, 0]] in two and [[0, 0, 0], [0, 0, 0]] in two


def test_a_slip_at_a_min_root_is_told_apart_on_a_tree_of_two_leaves(alphabeta_small_trees):
    tree, depth = alphabeta_small_trees.difference(fresh_mutant("root_last_best_min", True))
    assert (tree.root_player, len(tree.utilities), depth) == ("MIN", 2, None)


@pytest.fixture(scope="module")
def alphabeta_small_trees():
    """One checker for the module: its trees and the reference's outcomes on them are computed once."""
    return SmallTrees("alphabeta", True)


@pytest.mark.slow
@pytest.mark.parametrize("mistake", ["cut_break", "update_before_test", "max_cut_loose"])
def test_an_equivalent_mutant_differs_on_no_small_tree(alphabeta_small_trees, mistake):
    checker = alphabeta_small_trees
    assert checker.difference(fresh_mutant(mistake, True)) is None and checker.tried > 10_000


@pytest.mark.slow
@pytest.mark.parametrize("rule", ["aima", "cs188"])
def test_the_kits_course_has_no_survivor_under_either_rule(abkit, tmp_path, rule):
    with course_under(rule, tmp_path / "course"):
        run = abkit("fixtures", "adequacy", "--json")
    assert run.status == 0, run.out
    report = json.loads(run.out)
    assert set(report) == {"exercises"} and set(report["exercises"]) == {a.exercise for a in Algorithm}
    for exercise, counts in report["exercises"].items():
        assert list(counts) == ["mutants", "killed", "equivalent", "survived", "survivors"]
        assert counts["survived"] == 0 and counts["survivors"] == []
        assert counts["mutants"] == counts["killed"] + counts["equivalent"] >= 10, exercise


@pytest.mark.slow
def test_a_new_courses_own_hidden_trees_keep_every_slip_killed(abkit, tmp_path):
    """A course grades with hidden trees drawn from its seed, not the kit's (``abkit init``, ``redraw-hidden``):
    every tree added to tell a slip apart, drawn again, still does. One rule here: the draw checks both rules, and
    CI runs the command in a course ``abkit init`` made under the other."""
    with course_under("cs188", tmp_path / "course") as course:
        done = redraw_hidden(7, course / "fixtures" / "hidden")
        assert sum(d.how == "slip" for d in done) == len(list(course.glob("fixtures/hidden/adequacy-*.yaml"))) >= 10
        run = abkit("fixtures", "adequacy", "--json")
    assert run.status == 0, run.out
    assert all(counts["survived"] == 0 for counts in json.loads(run.out)["exercises"].values())


@pytest.mark.slow
def test_a_course_without_hidden_trees_has_survivors_and_add_kills_them(abkit, tmp_path):
    with course_under("aima", tmp_path / "course") as course:
        shutil.rmtree(course / "fixtures" / "hidden")
        (course / "fixtures" / "hidden").mkdir()
        run = abkit("fixtures", "adequacy", "--exercise", "minimax", "--json")
        assert run.status == 1
        survivors = json.loads(run.out)["exercises"]["minimax"]["survivors"]
        assert "minimax_root_zero_none" in survivors
        human = abkit("fixtures", "adequacy", "--exercise", "minimax", "--lang", "en")
        assert "minimax_root_zero_none: SURVIVED" in human.out and "smallest tree found" in human.out
        [report] = analyse(course_rubric(), ["minimax"])
        for outcome in report.outcomes:
            if outcome.status == "survived":
                assert len(outcome.tree) <= 7  # a small tree: at most 6 leaves under the root
                add_tree(outcome, True)
        assert abkit("fixtures", "verify").status == 0
        again = abkit("fixtures", "adequacy", "--exercise", "minimax", "--json")
        assert again.status == 0 and json.loads(again.out)["exercises"]["minimax"]["survived"] == 0


def test_a_bad_exercise_is_a_usage_error(abkit):
    run = abkit("fixtures", "adequacy", "--exercise", "nonesuch", "--lang", "en")
    assert run.status == 2 and "nonesuch" in run.err


def killers_at_risk(folder=None) -> dict[str, list[str]]:
    """Mutants the course's fixtures kill only through trees added to tell another slip apart: a new course redraws
    such a tree until it tells its own slip apart, so these kills would depend on the seed."""
    from abkit.authoring.adequacy import STUDENT, _run, _signature
    from abkit.coursefolder import current_course
    from abkit.fixture import load_fixture
    from abkit.grader.mistakes import fresh_mutant, mutants_of, same_slip, told_slip
    from abkit.grader.testplan import TestPlan
    from abkit.judge import signature

    slip_of = {f.id: told_slip(f.source) for f in map(load_fixture, (current_course().root / "fixtures" / "hidden")
                                                      .glob("*.yaml"))}
    rubric = course_rubric()
    plan = TestPlan(rubric)
    risky = {}
    for exercise, tests in plan.tests_for(STUDENT).items():
        tests = [t for t in tests if t.nameable and t.source != "random"]
        for mistake in mutants_of(exercise):
            module = fresh_mutant(mistake.id, plan.rule)
            killers = [t.id for t in tests if _signature(_run(t, module)) != signature(plan.expected(t, cache=True))]
            own = {mistake.id} | {m.id for m in same_slip(mistake.id)}
            safe = [k for k in killers if k.split("/")[1] != "hidden" or slip_of.get(k.split("/")[2]) in (None, *own)]
            if killers and not safe:
                risky[mistake.id] = killers
    return risky


@pytest.mark.slow
def test_no_kill_depends_on_another_slips_tree(tmp_path):
    """Every mutant the kit's course kills (under its rule, AIMA's: the one `abkit init` gives) is killed by a public
    fixture, a hand-made hidden tree (redrawn keeping every kill) or a tree added for its own slip (redrawn keeping
    that one): so a course drawn from any seed keeps it killed (one drawn from seed 939268626 lost
    ordering_best_last_min before it had a tree of its own)."""
    with course_under("aima", tmp_path / "course"):
        assert killers_at_risk() == {}
