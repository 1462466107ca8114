"""The reference's trace as a fixture records it, rebuilt without running any search.

The student edition of the kit ships no solutions, so feedback compares a
student's trace with this one: ``visited``, ``evaluated`` and the per-node
``windows`` of the fixture's ``expected.alphabeta`` block (minimax: every node in
preorder, with the backed-up values).
"""

from __future__ import annotations

import math

from .algorithms import Algorithm
from .fixture import Fixture
from .trace import Call, CountedTrace, Trace
from .tree import TreeGame, backed_up_values


class IncompleteExpectation(ValueError):
    """The fixture lacks the expected fields needed to rebuild the trace."""


def expected_trace(fixture: Fixture, algorithm: str) -> Trace:
    """The trace the fixture's ``expected:`` block describes for ``algorithm`` (a tree fixture)."""
    tree, block = fixture.tree, fixture.expected.get(algorithm, {})
    if tree is None:
        raise IncompleteExpectation(f"{fixture.path}: a whole-game fixture records no trace, only counts")
    game, spec = TreeGame(tree), Algorithm(algorithm)
    if not spec.prunes:  # every node searched, its backed-up value
        values = backed_up_values(tree)
        visited = list(tree.preorder())
        windows = {n: [None, None, values[n]] for n in visited}
    elif spec.iterative:  # nodes are searched once per iteration: no single window per node
        if not {"visited", "evaluated"} <= set(block):
            raise IncompleteExpectation(f"{fixture.path}: expected.{algorithm} needs visited and evaluated")
        visited, windows = block["visited"], {}
    else:
        if not {"visited", "evaluated", "windows"} <= set(block):
            raise IncompleteExpectation(f"{fixture.path}: expected.{algorithm} needs visited, evaluated and windows")
        visited, windows = block["visited"], block["windows"]
    all_leaves = [n for n in tree.leaves() if n != tree.root]  # a terminal root is not evaluated
    trace = Trace(algorithm, tree.root, visited=list(visited),
                  evaluated=list(block.get("evaluated", [] if spec.prunes else all_leaves)),
                  action=block.get("action"), value=block.get("value"))
    parents = tree.parents()
    estimated = set(trace.evaluated)
    last_call: dict[str, int] = {}   # node -> index of its (latest) call: the parent of its children's calls
    leaves_before = 0
    for position, node in enumerate(trace.visited):
        alpha, beta, value = windows.get(node, [None, None, None])
        is_root = position == 0
        if is_root and spec.prunes and not spec.iterative and alpha is None:
            alpha, beta = -math.inf, math.inf
        trace.calls.append(Call(node, game.to_move(node), alpha, beta, value,
                                parent=None if is_root else last_call.get(parents.get(node)),
                                visited_at=0 if is_root else position + 1, evaluated_at=leaves_before,
                                synthetic=is_root))
        last_call[node] = len(trace.calls) - 1
        if node in estimated and not is_root:
            leaves_before += 1
    return trace


def expected_counts(fixture: Fixture, algorithm: str) -> CountedTrace:
    """What the ``expected:`` block of a whole-game fixture (tic-tac-toe) says for ``algorithm``: value, action,
    node and leaf counts (``None`` where the block is silent)."""
    block = fixture.expected.get(algorithm, {})
    return CountedTrace(algorithm, fixture.root, value=block.get("value"), action=block.get("action"),
                        nodes=block.get("nodes"), leaves=block.get("leaves"))


def direct_calls(fixture: Fixture) -> list[tuple[str, float, float]]:
    """``(node, alpha, beta)`` for each inner non-root node the expected alpha-beta search enters
    with a narrower window than (-inf, +inf), in the order it enters them: the direct calls of a fixture's public
    tests, the same in ``abkit check`` and in grading."""
    block = fixture.expected.get(Algorithm.ALPHABETA, {})
    windows = block.get("windows", {})
    calls = []
    for node in block.get("visited", []):
        alpha, beta, _ = windows.get(node, (None, None, None))
        if node == fixture.tree.root or fixture.tree.is_leaf(node) or alpha is None or not alpha < beta:
            continue
        if (alpha, beta) != (-math.inf, math.inf) and all(c[0] != node for c in calls):
            calls.append((node, alpha, beta))
    return calls


def direct_tests(fixture: Fixture, algorithm: str) -> list[tuple[str, tuple]]:
    """``(node, window)`` for each MAX-VALUE / MIN-VALUE call a fixture's public tests make directly, in order, the
    same in ``abkit check`` and in grading: alpha-beta's :func:`direct_calls` (their windows), minimax's every inner
    node below the root in preorder (no window)."""
    if Algorithm(algorithm).prunes:
        return [(node, (alpha, beta)) for node, alpha, beta in direct_calls(fixture)]
    tree = fixture.tree
    return [(node, ()) for node in tree.preorder() if node != tree.root and not tree.is_leaf(node)]
