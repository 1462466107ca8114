"""The paper exercises: their trees (one variant per student, all equally hard) and what their answers hold.

An exercise of ``handouts/outline.yaml`` either draws a random tree (``branching``,
``depth``, a value range) or uses a public fixture (``fixture:``). A random
exercise fixes its difficulty in the outline and every variant honours it:

- ``evaluated``: how many leaves alpha-beta evaluates;
- ``equality_cuts``: how many cut tests fire on equality (v = β at MAX, v = α at MIN);
- ``root_tie``: whether two or more of the root's moves share the root's minimax value.

Kinds (``kind:``, the questions asked and the figure drawn): ``alphabeta`` (values,
windows, visit order, cut-offs), ``minimax`` (backed-up values only), ``horizon``
(a depth-limited search beside the complete one), ``expectimax`` (chance nodes) and
``board`` (tic-tac-toe positions searched to a depth with Nilsson's e(p)).
"""

from __future__ import annotations

import hashlib
from typing import Any

from abkit.algorithms import Algorithm
from abkit.coursefolder import per_course
from abkit.errors import UsageError
from abkit.game import MAX
from abkit.randomtree import random_tree
from abkit.tictactoe import nilsson_eval
from abkit.tree import Tree, backed_up_values, child_name

from abkit.handouts.trees import cut_fires, fixture, outline, step_events, trace_of

KINDS = ("alphabeta", "minimax", "horizon", "expectimax", "board")
SEED_TRIES = 20000


def spec(exercise: str) -> dict[str, Any]:
    """The outline's entry for ``exercise``, with its kind (default ``alphabeta``)."""
    entry = dict(outline()["exercises"][exercise])
    entry.setdefault("kind", "alphabeta")
    return entry


def number(exercise: str) -> int:
    """An exercise's number: its place in the outline's ``exercises:`` (1-based), the same in every document."""
    return list(outline()["exercises"]).index(exercise) + 1


def seed_for(student: str, exercise: str) -> int:
    """A stable seed for one student's variant of one exercise (the same on every machine).

    >>> seed_for("", "ex1") == seed_for("", "ex1") != seed_for("s1", "ex1")
    True
    """
    return int(hashlib.sha256(f"{student}\0{exercise}".encode("utf-8")).hexdigest()[:12], 16)


def equality_cuts(tree: Tree) -> int:
    """How many cut tests fire on equality when alpha-beta (AIMA rule) searches ``tree``: v = β at MAX, v = α at MIN."""
    return sum(1 for key, params in step_events(trace_of(tree, Algorithm.ALPHABETA), tree)
               if key.startswith("steps.cut") and params["rel"] in ("≥", "≤"))


def root_tie(tree: Tree) -> bool:
    """Whether two or more of the root's children have the root's minimax value."""
    values = backed_up_values(tree)
    return sum(1 for child in tree.children.get(tree.root, ()) if values[child] == values[tree.root]) >= 2


def difficulty(tree: Tree) -> dict[str, Any]:
    """What the outline fixes of a random exercise, measured on ``tree``."""
    return {"evaluated": len(trace_of(tree, Algorithm.ALPHABETA).evaluated), "equality_cuts": equality_cuts(tree),
            "root_tie": root_tie(tree)}


@per_course
def exercise_tree(exercise: str, student: str = "") -> Tree:
    """The tree of ``exercise`` for ``student`` (``""``: the shared handout's).

    A fixture exercise has its fixture's tree (the same for everyone). A random
    one draws trees of the outline's shape and value range with seeds
    ``seed_for(student, exercise)``, ``+1``, ... until the tree has the
    outline's difficulty (see :func:`difficulty`; a key the outline leaves
    out is not fixed), so every variant is as hard as the others.
    """
    entry = spec(exercise)
    if "fixture" in entry:
        return board_tree(entry["fixture"])[0] if entry["kind"] == "board" else fixture(entry["fixture"]).tree
    wanted = {key: entry[key] for key in ("evaluated", "equality_cuts", "root_tie") if key in entry}
    root = MAX if entry.get("root", "max") == "max" else "MIN"
    start = seed_for(student, exercise)
    for k in range(SEED_TRIES):
        tree = random_tree(entry["branching"], entry["depth"], entry["low"], entry["high"], root_player=root,
                           distinct=entry.get("distinct", False), seed=start + k)
        measured = difficulty(tree)
        if all(measured[key] == value for key, value in wanted.items()):
            return tree
    raise UsageError("handouts.no_variant", exercise=exercise)  # pragma: no cover - outline misconfigured


def limited_values(tree: Tree, limit: int) -> dict[str, float]:
    """Minimax values of the nodes above and at depth ``limit``, the nodes at the limit valued by EVAL
    (their heuristic value; a leaf its utility): what a depth-limited minimax search backs up."""
    depth = tree.depths()
    players = tree.players()
    values: dict[str, float] = {}
    for node in reversed(list(tree.preorder())):
        if depth[node] > limit:
            continue
        if tree.is_leaf(node):
            values[node] = tree.utilities[node]
        elif depth[node] == limit:
            values[node] = tree.heuristics[node]
        else:
            values[node] = (max if players[node] == MAX else min)(values[c] for c in tree.children[node])
    return values


@per_course
def board_tree(fixture_id: str) -> tuple[Tree, dict[str, str]]:
    """A tic-tac-toe fixture's search to its depth as a drawn tree: nodes named as the compact form names
    them (A, B, C, B1, ...), leaves valued by Nilsson's e(p); and node -> board.

    The tree's moves are the fixture game's ACTIONS (symmetric positions merged
    when the fixture asks), so alpha-beta on the tree makes the same search as the
    depth-limited alpha-beta on the game.
    """
    fx = fixture(fixture_id)
    game = fx.game()
    children: dict[str, tuple[str, ...]] = {}
    utilities: dict[str, float] = {}
    boards: dict[str, str] = {}

    def grow(name: str, board: str, depth: int) -> None:
        boards[name] = board
        if depth == fx.depth or game.terminal_test(board):
            utilities[name] = nilsson_eval(board)
            return
        moves = game.actions(board)
        kids = [child_name(name, i, len(moves), name == "A") for i in range(len(moves))]
        children[name] = tuple(kids)
        for kid, move in zip(kids, moves):
            grow(kid, game.result(board, move), depth + 1)

    grow("A", fx.root, 0)
    return Tree("A", children, utilities, game.to_move(fx.root)), boards


def square_of(before: str, after: str) -> int:
    """The square (0-8) where ``after`` has a mark that ``before`` lacks."""
    return next(i for i, (a, b) in enumerate(zip(before, after)) if a != b)


__all__ = ["KINDS", "board_tree", "cut_fires", "difficulty", "equality_cuts", "exercise_tree", "fixture",
           "limited_values", "number", "root_tie", "seed_for", "spec", "square_of"]
