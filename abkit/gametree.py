"""Searches on a board position drawn as a game tree: the boards they generated, each below the board it came from.

A tic-tac-toe fixture has no tree: its searches generate boards. To step through them as through a textbook tree,
:func:`draw_game` builds the tree of exactly the boards the searches given generated (their union), children in
the game's ACTIONS order, and rewrites each search's record over that tree's names. The same board can be
reached by two move orders, so a node is named by the moves that lead to it from the root, not by its board:
``26`` is square 2, then square 6 (tic-tac-toe's squares are one digit each); the root keeps its board's text.
Each generated board hangs below the latest board before it one move of which gives it, as
:func:`abkit.compare.board_departure` reads a search. A leaf is valued by UTILITY when its board is terminal,
else by the search's EVAL (a depth-limited search: the tree's ``heuristics`` hold it too, so the leaf reads as
estimated, not terminal); a board that is neither finished nor expanded nor
estimated has no value to draw, and there is no drawing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .game import MAX
from .play import board_text
from .trace import Call, CountedTrace, Trace
from .tree import Tree

if TYPE_CHECKING:
    from typing import Any, Callable

    from .fixture import Fixture


@dataclass
class GameDrawing:
    """A board position's searches over one tree.

    tree: the boards the searches generated, named by their moves from the root.
    traces: the searches given, in order, their states replaced by the tree's names.
    boards: name -> the board it stands for.
    """

    tree: Tree
    traces: list[Trace] = field(default_factory=list)
    boards: dict[str, Any] = field(default_factory=dict)

    def name_at(self, index: int, visit: int) -> str | None:
        """The name of the state search ``index`` generated at position ``visit`` (None past its end)."""
        visited = self.traces[index].visited
        return visited[visit] if 0 <= visit < len(visited) else None


@dataclass(frozen=True)
class Placed:
    """Where one generated board goes: its node's name, its parent's (None at the root), the move, the depth."""

    name: str
    board: Any
    parent: str | None
    action: Any
    depth: int


def placed(game, trace: Trace) -> list[Placed] | None:
    """Each board ``trace`` generated, placed below the latest board before it that one move turns into it; None
    when a board cannot be placed (the first is not the root, or no earlier board leads to it)."""
    if not trace.visited or trace.visited[0] != trace.root:
        return None
    made: dict[Any, Placed] = {}  # board -> the latest node one move of which gives it (as its child)
    out: list[Placed] = []
    for k, board in enumerate(trace.visited):
        if k == 0:
            node = Placed(_board_name(board), board, None, None, 0)
        else:
            node = made.get(board)
            if node is None:
                return None
        out.append(node)
        try:
            for action in game.actions(board):
                child = game.result(board, action)
                made[child] = Placed(_child_name(node, action), child, node.name, action, node.depth + 1)
        except Exception:  # noqa: BLE001 - a state the game does not know: it cannot be drawn
            return None
    return out


def made_from(game, root, boards: list) -> tuple | None:
    """The board the last of ``boards`` (a search's generated boards from ``root``, in order) came from, and the
    move that made it, as :func:`placed` places it; None when it cannot be placed or is the root."""
    nodes = placed(game, Trace("", root, visited=list(boards)))
    if nodes is None or nodes[-1].parent is None:
        return None
    parent = next(n.board for n in reversed(nodes) if n.name == nodes[-1].parent)
    return parent, nodes[-1].action


def recorded_path(game, root, algorithm: str, boards: list, depth: int | None = None, value: Any = None,
                  action: Any = None) -> Trace | None:
    """The pseudocode's search as a fixture records it on a board position (its ``visited`` boards): what it
    evaluated follows from the boards (the terminal ones, and those at the depth limit); no windows are recorded.
    None when the boards do not make a search from ``root``."""
    trace = Trace(algorithm, root, visited=list(boards), action=action, value=value)
    nodes = placed(game, trace)
    if nodes is None:
        return None
    trace.evaluated = [n.board for n in nodes if game.terminal_test(n.board) or n.depth == depth]
    return trace


def recorded_boards(fixture: Fixture, algorithm: str) -> list | None:
    """The boards a board position's fixture records ``algorithm`` generating, in order (None when it records only
    the outcome and counts, or the fixture is a tree)."""
    return fixture.expected.get(algorithm, {}).get("visited") if fixture.tree is None else None


def fixture_drawing(fixture: Fixture, algorithm: str, game, searches: list[Trace], path: bool,
                    most: int = 2_000) -> GameDrawing | None:
    """``searches`` on a board position's fixture and, with ``path``, the pseudocode's search its recorded boards
    make (:func:`recorded_path`, drawn last) as one tree (:func:`draw_game`); None also when ``path`` is asked for
    and the fixture records no boards for ``algorithm``."""
    params = fixture.search_params(algorithm, game)
    if path:
        boards, block = recorded_boards(fixture, algorithm), fixture.expected.get(algorithm, {})
        recorded = recorded_path(game, fixture.root, algorithm, boards, params.get("depth"), block.get("value"),
                                 block.get("action")) if boards else None
        if recorded is None:
            return None
        searches = [*searches, recorded]
    return draw_game(game, searches, params.get("eval_fn"), most)


def draw_game(game, traces: list[Trace], eval_fn: Callable | None = None, most: int = 2_000) -> GameDrawing | None:
    """The searches ``traces`` (from the same root) drawn over one tree of at most ``most`` nodes; None when one
    knows only its counts, a board cannot be placed, the tree would be larger, or a leaf has no value."""
    if not traces or any(isinstance(t, CountedTrace) or len(t.visited) > 2 * most + 2 for t in traces):
        return None
    placements = [placed(game, t) for t in traces]
    if any(p is None for p in placements):
        return None
    nodes: dict[str, Placed] = {}
    for p in placements:
        for node in p:
            nodes.setdefault(node.name, node)
    if len(nodes) > most:
        return None
    tree = _tree(game, nodes, eval_fn, traces)
    if tree is None:
        return None
    boards = {name: node.board for name, node in nodes.items()}
    return GameDrawing(tree, [_renamed(t, p, nodes) for t, p in zip(traces, placements)], boards)


def _tree(game, nodes: dict[str, Placed], eval_fn: Callable | None, traces: list[Trace]) -> Tree | None:
    """The tree of ``nodes``: children in ACTIONS order, leaves valued (UTILITY or EVAL), EVAL of an inner node a
    search evaluated; None when a leaf has no value."""
    kids: dict[str, list[Placed]] = {}
    for node in nodes.values():
        if node.parent is not None:
            kids.setdefault(node.parent, []).append(node)
    root = next(n for n in nodes.values() if n.parent is None)
    children = {}
    for parent, below in kids.items():
        order = {a: k for k, a in enumerate(game.actions(nodes[parent].board))}
        children[parent] = tuple(n.name for n in sorted(below, key=lambda n: order.get(n.action, len(order))))
    evaluated = {b for t in traces for b in t.evaluated}
    utilities, heuristics = {}, {}
    for name, node in nodes.items():
        value = _value(game, node.board, eval_fn)
        if name not in children and value is None:
            return None
        if name not in children:
            utilities[name] = value
        estimated = value is not None and not game.terminal_test(node.board)
        if estimated and (name not in children or node.board in evaluated):
            heuristics[name] = value  # EVAL: at a leaf, a board drawn at the depth limit
    player = game.to_move(root.board)
    return Tree(root.name, children, utilities, player if player in ("MAX", "MIN") else MAX, heuristics)


def _value(game, board, eval_fn: Callable | None) -> float | None:
    """UTILITY of a finished board, else EVAL when the search has one, else None."""
    if game.terminal_test(board):
        return game.utility(board)
    return eval_fn(board) if eval_fn is not None else None


def _renamed(trace: Trace, nodes: list[Placed], named: dict[str, Placed]) -> Trace:
    """``trace`` over the tree's names: visited and evaluated states, the calls (dropped, so the search reads as
    observed, when one cannot be placed), the action as the root's child it leads to."""
    child = {(n.parent, n.board): n.name for n in named.values()}
    root = nodes[0].name
    moves = {n.action: n.name for n in named.values() if n.parent == root}
    return Trace(trace.algorithm, root, visited=[n.name for n in nodes], evaluated=_evaluated(trace, nodes),
                 calls=_calls(trace, root, child), action=moves.get(trace.action, trace.action),
                 value=trace.value, error=trace.error, value_error=trace.value_error)


def _evaluated(trace: Trace, nodes: list[Placed]) -> list[str]:
    """The names of the states ``trace`` evaluated: each evaluation goes to the earliest node with its board not
    generated before the previous evaluation's node (a search evaluates a state after generating it, in order);
    one with no such node is left out."""
    out, last = [], 0
    for board in trace.evaluated:
        k = next((k for k in range(last, len(nodes)) if nodes[k].board == board), None)
        if k is not None:
            out.append(nodes[k].name)
            last = k
    return out


def _calls(trace: Trace, root: str, child: dict) -> list[Call]:
    """The MAX-VALUE/MIN-VALUE calls over the tree's names, each on its caller's child; none when one cannot be
    placed (a call on the root from outside, or on a board no generated one is)."""
    names: list[str] = []
    out: list[Call] = []
    for call in trace.calls:
        if call.parent is None:
            name = root if call.node == trace.root else None
        else:
            name = child.get((names[call.parent], call.node)) if call.parent < len(names) else None
        if name is None:
            return []
        names.append(name)
        out.append(Call(name, call.player, call.alpha, call.beta, call.value, call.parent, call.visited_at,
                        call.evaluated_at, call.synthetic, call.returned_at))
    return out


def _board_name(board) -> str:
    """The root's name: its board as written in fixtures (``XX./.O./...``)."""
    return board_text(board) if isinstance(board, str) else str(board)


def _child_name(parent: Placed, action) -> str:
    """A child's name: its parent's moves, then its own (the root's children are named by their move alone)."""
    return str(action) if parent.parent is None else parent.name + str(action)
