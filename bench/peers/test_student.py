"""The peer `bench/grade.py` measures abkit against: the pytest file an instructor usually writes, run once per student.

    ABKIT_PEER_STUDENT=class/s0001 python -m pytest -q -p no:cacheprovider bench/peers/test_student.py

One pytest process per submission (no sandbox, no limits: the student's code runs in the test process), on the
same tests abkit grades the tree exercises with (minimax and alphabeta of ``rubric.yaml``): every public and hidden
fixture each exercise is graded on (drawn trees and tic-tac-toe positions: value, action, generated and evaluated
states, node counts), the student's own seeded random trees (the same seed, shape and values as ``abkit grade``'s),
direct MAX-VALUE / MIN-VALUE calls on inner nodes (alpha-beta with a narrow window), and the tic-tac-toe games
alpha-beta plays against a seeded random player and itself. Expected outcomes come from the fixtures where they
were written under the course's rule, and from the reference solutions otherwise (the random trees, the other
rule's fixtures), computed in the same run, as a pytest file without the kit's grader would.
It uses the kit's core for what any such file needs (the fixture loader, the games, a recording game, the random
trees), never the grader.
"""

from __future__ import annotations

import hashlib
import os
import random
from functools import cache
from pathlib import Path

import pytest
import yaml

from abkit.coursefolder import current_course
from abkit.fixture import load_fixture
from abkit.game import MAX, MIN
from abkit.loading import load_module
from abkit.play import play_games, problems
from abkit.randomtree import random_tree
from abkit.tictactoe import TicTacToe
from abkit.tree import TreeGame
from abkit.trace import traced_search, traced_call

STUDENT = Path(os.environ.get("ABKIT_PEER_STUDENT", "."))
COURSE = current_course()
RUBRIC = yaml.safe_load(COURSE.rubric.read_text(encoding="utf-8"))
RULE = RUBRIC.get("rule", "aima") == "aima"
EXERCISES = {"minimax": "minimax", "alphabeta": "alphabeta"}
FIXTURES = [load_fixture(p) for folder in (COURSE.public_fixtures, COURSE.hidden_fixtures)
            for p in sorted(folder.glob("*.yaml"))]


def graded_on(algorithm: str, fx) -> bool:
    """A drawn tree of MAX and MIN searched to the leaves, or a tic-tac-toe position that expects the algorithm
    within 10,000 states (as the rubric says)."""
    if fx.tree is None:
        return algorithm in fx.expected and fx.position != "........."
    game = TreeGame(fx.tree)
    return fx.depth is None and all(game.to_move(n) in (MAX, MIN) for n in fx.tree.preorder())


@cache
def student(exercise: str):
    return load_module(STUDENT / f"{exercise}.py")


@cache
def reference(algorithm: str):
    module = load_module(COURSE.solutions / f"{algorithm}.py")
    if hasattr(module, "PRUNE_ON_EQUALITY"):
        module.PRUNE_ON_EQUALITY = RULE
    return module


def seed() -> int:
    return int(hashlib.sha256(f"0/{STUDENT.name}".encode()).hexdigest()[:12], 16)


def random_trees() -> list:
    spec = RUBRIC["random_trees"]
    return [random_tree(spec["branching"], spec["depth"], spec["min"], spec["max"], "random",
                        MAX if i % 2 == 0 else MIN, seed=seed() + i) for i in range(spec["count"])]


def inner(tree) -> list[str]:
    return [n for n in tree.preorder() if n != tree.root and not tree.is_leaf(n)]


SEARCHES = [(e, fx) for e in EXERCISES for fx in FIXTURES if graded_on(e, fx)]
TREES = [(e, i) for e in EXERCISES for i in range(RUBRIC["random_trees"]["count"])]
DIRECT = [(e, k) for e in EXERCISES for k in range(RUBRIC["direct_tests"])]


def check(got, want, tree: bool) -> None:
    assert got.error is None, got.error
    assert got.value == want.value and got.action == want.action
    assert got.nodes == want.nodes
    if tree:
        assert got.visited == want.visited and got.evaluated == want.evaluated


@pytest.mark.parametrize("exercise,fx", SEARCHES, ids=[f"{e}-{fx.id}" for e, fx in SEARCHES])
def test_fixture(exercise, fx):
    algorithm = EXERCISES[exercise]
    got = traced_search(student(exercise), fx.game(), fx.root, algorithm)
    written = fx.expected.get(algorithm, {})
    if fx.prune_on_equality == RULE and {"value", "action", "nodes"} <= set(written) and \
            (fx.tree is None or "visited" in written):
        assert got.error is None, got.error
        assert got.value == written["value"] and got.action == written["action"] and got.nodes == written["nodes"]
        if fx.tree is not None:
            assert got.visited == written["visited"] and got.evaluated == written["evaluated"]
        return
    check(got, traced_search(reference(algorithm), fx.game(), fx.root, algorithm), fx.tree is not None)


@pytest.mark.parametrize("exercise,i", TREES)
def test_random_tree(exercise, i):
    tree = random_trees()[i]
    algorithm = EXERCISES[exercise]
    check(traced_search(student(exercise), TreeGame(tree), tree.root, algorithm),
          traced_search(reference(algorithm), TreeGame(tree), tree.root, algorithm), True)


@pytest.mark.parametrize("exercise,k", DIRECT)
def test_direct_call(exercise, k):
    trees = [fx.tree for fx in FIXTURES if fx.tree is not None and graded_on(exercise, fx)] + random_trees()
    nodes = [(tree, node) for tree in trees for node in inner(tree)]
    tree, node = nodes[random.Random(f"{seed()}/{exercise}/{k}").randrange(len(nodes))]
    game = TreeGame(tree)
    function = "max_value" if game.to_move(node) == MAX else "min_value"
    window = (-3, 3) if exercise == "alphabeta" else ()
    got = traced_call(student(exercise), game, node, EXERCISES[exercise], function, window)
    want = traced_call(reference(EXERCISES[exercise]), TreeGame(tree), node, EXERCISES[exercise], function, window)
    assert got.error is None and got.value == want.value and got.visited == want.visited


def test_games():
    module = student("alphabeta")
    games = play_games(lambda state: module.alpha_beta_search(TicTacToe(), state), seed(), start="X........")
    assert not problems(games)
