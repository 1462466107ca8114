"""The trees the handouts draw: fixtures, reference traces (cached), and alpha-beta read line by line.

Every figure and every step table is drawn from the reference trace of its
tree, so a handout can never disagree with the grader.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import yaml

from abkit.algorithms import Algorithm
from abkit.coursefolder import current_course, per_course
from abkit.fixture import Fixture, load_fixture
from abkit.game import MAX
from abkit.reference import reference_trace
from abkit.textree import fmt
from abkit.tictactoe import LINES
from abkit.trace import Call, Trace
from abkit.tree import Tree, TreeGame

from abkit.handouts.words import handouts_folder
from abkit.stepthrough.svgtree import MAX_FIGURE_PT, style_for  # noqa: F401 - the handout's figures' width and style


@per_course
def outline(path: Path | None = None) -> dict[str, Any]:
    """The outline file as data (default: the course's ``handouts/outline.yaml``)."""
    path = path if path is not None else handouts_folder() / "outline.yaml"
    return yaml.safe_load(path.read_text(encoding="utf-8"))


@per_course
def fixture(fixture_id: str) -> Fixture:
    """A public fixture by id."""
    return load_fixture(current_course().public_fixtures / f"{fixture_id}.yaml")


def tree_key(tree: Tree) -> tuple:
    """A hashable identity of ``tree``'s shape, names, values, heuristics, levels and probabilities."""
    return (tree.root, tree.root_player, tuple(tree.children.items()), tuple(tree.utilities.items()),
            tuple(tree.heuristics.items()), tree.levels, tuple(tree.probabilities.items()))


_TRACES: dict[tuple, Trace] = {}


def trace_of(tree: Tree, algorithm: str, rule: bool = True, depth: int | None = None) -> Trace:
    """The reference trace of ``algorithm`` on ``tree`` (cached: figures and steps share it).

    ``depth``: the depth limit of a depth-limited algorithm (``cutoff``,
    ``ordering``), whose EVAL is the tree's heuristic values.
    """
    key = (tree_key(tree), algorithm, rule, depth)
    if key not in _TRACES:
        game = TreeGame(tree)
        params = {"depth": depth, "eval_fn": game.evaluate} if Algorithm(algorithm).depth_limited else {}
        _TRACES[key] = reference_trace(game, tree.root, algorithm, rule, **params)
    return _TRACES[key]


def final_iteration(trace: Trace) -> Trace:
    """The last iteration of an iterative-deepening trace, as a trace of its own.

    Each iteration starts with a call on the root (a call without a parent);
    the calls from the last such call on are kept, with their parents and
    visit positions renumbered so the root is visited first. A trace with one
    root call comes back equal to itself.
    """
    start = max(i for i, call in enumerate(trace.calls) if call.parent is None)
    first = trace.calls[start]
    shift = max(first.visited_at - 1, 0)
    calls = [Call(c.node, c.player, c.alpha, c.beta, c.value, None if c.parent is None else c.parent - start,
                  c.visited_at - shift, c.evaluated_at - first.evaluated_at, c.synthetic,
                  None if c.returned_at is None else c.returned_at - shift)
             for c in trace.calls[start:]]
    return Trace(trace.algorithm, trace.root, visited=[trace.root] + trace.visited[shift + 1:],
                 evaluated=trace.evaluated[first.evaluated_at:], calls=calls, action=trace.action,
                 value=trace.value, error=trace.error)


@per_course
def game_trace(fixture_id: str, algorithm: str) -> Trace:
    """The reference trace of ``algorithm`` on a public fixture of any game (tic-tac-toe included)."""
    fx = fixture(fixture_id)
    game = fx.game()
    return reference_trace(game, fx.root, algorithm, fx.prune_on_equality, **fx.search_params(algorithm, game))


def square_kind(square: int) -> str:
    """``"centre"``, ``"corner"`` or ``"edge"`` for a tic-tac-toe square 0-8.

    >>> [square_kind(i) for i in (0, 1, 4)]
    ['corner', 'edge', 'centre']
    """
    return "centre" if square == 4 else ("corner" if square % 2 == 0 else "edge")


def open_lines(board: str, against: str) -> int:
    """Lines of ``board`` with no mark of ``against``: the lines still open for the other player."""
    return sum(1 for line in LINES if all(board[i] != against for i in line))


def step_events(trace: Trace, tree: Tree, rule: bool = True) -> list[tuple[str, dict[str, Any]]]:
    """What alpha-beta did, line by line as MAX-VALUE / MIN-VALUE do it: one event per line of a table.

    Entering a node; then for each child, in the order the trace generated them,
    the pseudocode's three lines: ``v ← MAX(v, child)``, the cut test ``v ≥ β``
    (``v ≤ α`` at MIN; ``>``/``<`` under the CS188 rule, ``rule=False``) and,
    when it does not fire, ``α ← MAX(α, v)`` (``β ← MIN(β, v)``). A test that
    fires returns at once, also on the last child (where nothing is left to cut).
    Values and the windows a node was entered with are the trace's; a trace that
    goes on after a test fired is not the pseudocode's and raises ``ValueError``.
    """
    events: list[tuple[str, dict[str, Any]]] = []

    def walk(i: int) -> None:
        call = trace.calls[i]
        alpha, beta = call.alpha, call.beta
        maximizing = call.player == MAX
        v = -math.inf if maximizing else math.inf
        events.append(("steps.enter", {"node": call.node, "player": call.player, "alpha": fmt(alpha),
                                       "beta": fmt(beta), "v": fmt(v)}))
        kids = trace.children_of(i)
        order = list(tree.children[call.node])
        for n, k in enumerate(kids):
            child = trace.calls[k]
            if not tree.is_leaf(child.node):
                walk(k)
            v = max(v, child.value) if maximizing else min(v, child.value)
            bound = beta if maximizing else alpha
            params = {"node": call.node, "child": child.node, "value": fmt(child.value), "v": fmt(v)}
            side = "max" if maximizing else "min"
            if cut_fires(v, bound, maximizing, rule):
                if n != len(kids) - 1:
                    raise ValueError(f"the trace goes on at {call.node} after its cut test fired")
                rest = order[order.index(child.node) + 1:]
                params.update(rel=("≥" if maximizing else "≤") if v == bound else (">" if maximizing else "<"),
                              **({"beta": fmt(beta)} if maximizing else {"alpha": fmt(alpha)}))
                if rest:
                    events.append((f"steps.cut_{side}", {**params, "pruned": ", ".join(rest)}))
                else:
                    events.append((f"steps.cut_{side}_last", params))
                break
            params["rel"] = ("<" if rule else "≤") if maximizing else (">" if rule else "≥")
            if maximizing:
                alpha = max(alpha, v)
            else:
                beta = min(beta, v)
            events.append((f"steps.back_{side}", {**params, "alpha": fmt(alpha), "beta": fmt(beta)}))
        events.append(("steps.return", {"node": call.node, "v": fmt(v)}))

    if trace.calls and tree.players():
        walk(0)
        events.append(("steps.done", {"value": fmt(trace.value), "action": trace.action}))
    return events


def cut_fires(v: float, bound: float, maximizing: bool, rule: bool = True) -> bool:
    """The pseudocode's cut test: ``v ≥ β`` at MAX, ``v ≤ α`` at MIN (strict under the CS188 rule, ``rule=False``).

    >>> cut_fires(3, 3, True), cut_fires(3, 3, True, rule=False), cut_fires(2, 3, False)
    (True, False, True)
    """
    if v == bound:
        return rule
    return v > bound if maximizing else v < bound


