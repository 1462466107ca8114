"""Harmless habits are not tampering (tests/habits/): a search that keeps a debug counter or a cache on the game
object it is given gets full marks from ``abkit grade`` and passes every public test of ``abkit check``; a search
that changes the game's answers scores 0 for tampering in both, under the one rule of :mod:`abkit.tampering`."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from abkit.loading import SOLUTIONS
from abkit.tampering import changed, fingerprint
from abkit.trace import TracingGame, Trace
from abkit.tree import TreeGame, from_nested

HABITS = Path(__file__).with_name("habits")
#: students whose searches are correct and only keep something of their own on the game object
HARMLESS = ("counter_module", "counter_class", "cache_attribute")
RUBRIC = """\
fixtures: [public, hidden]
random_trees: {count: 2, branching: 3, depth: 3}
direct_tests: 12
exercises:
  minimax: {values: 6, nodes: 1, direct: 3}
  alphabeta: {values: 3, pruning: 4, nodes: 1, direct: 2, games: 1}
"""
TAMPERED = "changed the game object"


def _folder(root: Path, student: str) -> Path:
    """``student``'s files of tests/habits, with the reference for every exercise it does not write."""
    folder = root / student
    folder.mkdir(parents=True)
    for solution in SOLUTIONS.glob("*.py"):
        shutil.copy(solution, folder / solution.name)
    for own in (HABITS / student).glob("*.py"):
        shutil.copy(own, folder / own.name)
    return folder


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The harmless students and the reference graded as one class; the output folder."""
    from abkit.cli.main import main

    root = tmp_path_factory.mktemp("habits")
    for student in (*HARMLESS, "replaces_utility"):
        _folder(root / "class", student)
    shutil.copytree(SOLUTIONS, root / "class" / "reference")
    (root / "rubric.yaml").write_text(RUBRIC, encoding="utf-8")
    assert main(["grade", str(root / "class"), "--out", str(root / "out"), "--rubric", str(root / "rubric.yaml"),
                 "--lang", "en", "-j", "2"]) == 0
    return root / "out"


def _rows(out: Path) -> dict[str, dict]:
    with open(out / "grades.csv", encoding="utf-8", newline="") as handle:
        return {row["student"]: row for row in csv.DictReader(handle)}


@pytest.mark.parametrize("student", HARMLESS)
def test_a_debug_counter_or_cache_on_the_game_gets_full_marks(graded, student):
    row = _rows(graded)[student]
    assert row["status"] == "ok" and row["score"] == row["max_score"], row
    feedback = (graded / "students" / student / "feedback.md").read_text(encoding="utf-8")
    assert TAMPERED not in feedback
    results = json.loads((graded / "students" / student / "results.json").read_text(encoding="utf-8"))
    assert all(test["score"] == test["max_score"] for test in results["tests"])


def test_the_class_summary_counts_no_habit_as_an_exception(graded):
    summary = (graded / "summary.md").read_text(encoding="utf-8")
    row = next((line for line in summary.splitlines() if "raised an exception" in line), "| | 0 |")
    assert int(row.split("|")[-2]) <= 1  # replaces_utility's at most, no habit's


def test_a_search_that_changes_the_games_answers_scores_0_for_tampering(graded):
    """Every alpha-beta test on a tree scores 0 and says so, but the terminal root's, where the search calls nothing
    (the played games are judged by their moves alone)."""
    results = json.loads((graded / "students" / "replaces_utility" / "results.json").read_text(encoding="utf-8"))
    searched = [test for test in results["tests"] if test["name"].startswith("alphabeta: ")
                and "terminal root" not in test["name"] and "Tic-tac-toe" not in test["name"]]
    assert len(searched) > 10 and all(test["score"] == 0 and TAMPERED in test["output"] for test in searched)


@pytest.mark.parametrize("student", HARMLESS)
def test_check_passes_every_public_test_of_a_habit(abkit, tmp_path, student):
    folder = _folder(tmp_path, student)
    run = abkit("check", "--all", "--exercises", folder, "--lang", "en")
    assert run.status == 0 and "✗" not in run.out and TAMPERED not in run.out, run.out


def test_check_says_a_search_that_changes_the_games_answers_changed_it(abkit, tmp_path):
    folder = _folder(tmp_path, "replaces_utility")
    run = abkit("check", "alphabeta", "--exercises", folder, "--lang", "en")
    assert run.status == 1 and TAMPERED in run.out


def test_the_rule_allows_a_new_name_and_refuses_a_changed_answer():
    """New attributes of other names are a habit; shadowing a method, rebinding or removing an attribute, or a
    special name is tampering; on the game and on the wrapper alike."""
    for make in (lambda: TreeGame(from_nested([[3, 12], [2, 4]])),
                 lambda: TracingGame(TreeGame(from_nested([[3, 12], [2, 4]])), Trace("alphabeta", "A"))):
        game = make()
        before = fingerprint(game)
        game.expanded, game.cache = 3, {}
        assert not changed(game, before)
        for name in ("utility", "result", "actions", "terminal_test", "to_move", "__getattr__"):
            other = make()
            held = fingerprint(other)
            setattr(other, name, lambda *args: 0)
            assert changed(other, held), name
        game = make()
        before = fingerprint(game)
        first = next(iter(vars(game)))
        setattr(game, first, getattr(game, first))  # the very object: no change
        assert not changed(game, before)
        delattr(game, first)
        game.expanded = 1
        assert changed(game, before)
