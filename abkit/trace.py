"""What a search did, recorded as plain data that checks, feedback and figures read.

A search module (a reference solution, a student's exercise) is run on a game
wrapped in :class:`TracingGame`, which records every state RESULT generates and
every state UTILITY evaluates, in order. Its ``max_value``/``min_value`` are
wrapped for the run so that each call's window (alpha, beta) and returned value
are recorded too. Nothing here knows the right answers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable

from .game import CHANCE, MAX, MIN, Game, State
from .tree import Tree

@dataclass(frozen=True)
class Algorithm:
    """How a search is called: entry(game, state, *params); windowed: MAX-VALUE/MIN-VALUE take (alpha, beta) first."""

    entry: str
    windowed: bool
    params: tuple[str, ...] = ()


ALGORITHMS: dict[str, Algorithm] = {
    "minimax": Algorithm("minimax_decision", False),
    "alphabeta": Algorithm("alpha_beta_search", True),
    "cutoff": Algorithm("alpha_beta_cutoff_search", True, ("depth", "eval_fn")),
    "expectimax": Algorithm("expectiminimax_decision", False),
    "ordering": Algorithm("iterative_deepening_search", True, ("depth", "eval_fn")),
}
FUNCTIONS = {"max_value": MAX, "min_value": MIN, "chance_value": CHANCE}


@dataclass(slots=True)
class Call:
    """One MAX-VALUE or MIN-VALUE call.

    node: the state it was called on.
    player: ``"MAX"`` for MAX-VALUE, ``"MIN"`` for MIN-VALUE.
    alpha, beta: the window it was entered with (``None`` for plain minimax).
    value: what it returned (``None`` if it raised, or has not returned).
    parent: index in ``Trace.calls`` of the call it was made from, or ``None``.
    visited_at, evaluated_at: how long ``visited``/``evaluated`` were when it began.
    returned_at: how long ``visited`` was when it returned (``None`` if it did not).
    synthetic: the recorder added it (the root, when the search loops over the
        root's actions itself instead of calling MAX-VALUE on the root).
    """

    node: State
    player: str
    alpha: float | None = None
    beta: float | None = None
    value: float | None = None
    parent: int | None = None
    visited_at: int = 0
    evaluated_at: int = 0
    synthetic: bool = False
    returned_at: int | None = None


@dataclass
class Trace:
    """The record of one search from ``root``.

    visited: the root, then every state RESULT returned, in order (contract §1).
    evaluated: every state UTILITY was called on, in order.
    calls: every MAX-VALUE/MIN-VALUE call in the order they began.
    action: what the search returned; value: the root's backed-up value.
    error: the exception the search raised, if any (the record stops there); after
        :meth:`from_dict`, its text ``"ValueError: message"``.
    """

    algorithm: str
    root: State
    visited: list = field(default_factory=list)
    evaluated: list = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)
    action: Any = None
    value: float | None = None
    error: BaseException | str | None = None
    _kids: tuple[int, int, dict[int | None, list[int]]] | None = field(default=None, repr=False, compare=False)

    @property
    def nodes(self) -> int:
        """States the search was called on, root and leaves included: ``len(visited)``."""
        return len(self.visited)

    @property
    def leaves(self) -> int:
        """States evaluated (UTILITY, or EVAL at a depth limit): ``len(evaluated)``."""
        return len(self.evaluated)

    def pruned(self, tree: Tree) -> list[str]:
        """Roots of the subtrees a cut-off skipped, in tree order (not what lies below a depth limit)."""
        return pruned_subtrees(tree, self.visited, self.evaluated)

    def summary(self, tree: Tree | None = None) -> dict[str, Any]:
        """The contract's keys: value, action, visited, evaluated, pruned, nodes."""
        return {
            "value": self.value,
            "action": self.action,
            "visited": list(self.visited),
            "evaluated": list(self.evaluated),
            "pruned": self.pruned(tree) if tree is not None else [],
            "nodes": self.nodes,
        }

    def to_dict(self) -> dict[str, Any]:
        """Plain data for a pipe or a file (JSON with Infinity allowed); see :meth:`from_dict`.

        Values a search returned that are not plain numbers, strings or None are
        kept as their ``repr`` (text), so nothing unpicklable crosses a process boundary.
        """
        return {
            "algorithm": self.algorithm, "root": self.root, "action": _plain(self.action), "value": _plain(self.value),
            "visited": list(self.visited), "evaluated": list(self.evaluated),
            "calls": [[c.node, c.player, _plain(c.alpha), _plain(c.beta), _plain(c.value), c.parent, c.visited_at,
                       c.evaluated_at, c.synthetic, c.returned_at] for c in self.calls],
            "error": None if self.error is None else _error_text(self.error),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Trace":
        """The trace :meth:`to_dict` described; ``error`` comes back as text (``"ValueError: ..."``)."""
        if "counts" in data:
            return CountedTrace.from_dict(data)
        trace = cls(data["algorithm"], data["root"], visited=list(data["visited"]), evaluated=list(data["evaluated"]),
                    action=data["action"], value=data["value"], error=data["error"])
        trace.calls = [Call(*row) for row in data["calls"]]
        return trace

    def windows(self) -> dict[State, list]:
        """Node -> ``[alpha, beta, value]`` of its first call, in call order (a fixture's ``windows:``)."""
        windows: dict[State, list] = {}
        for call in self.calls:
            windows.setdefault(call.node, [call.alpha, call.beta, call.value])
        return windows

    def windows_complete(self) -> bool:
        """Whether the recorded MAX-VALUE/MIN-VALUE calls can be trusted as a full record of the windows.

        True only when the non-synthetic calls are exactly one per generated node, in the order they
        were generated: their nodes equal ``visited[1:]`` when the root's call is synthetic (or, as in
        iterative deepening, when the root's calls are the outermost ones, once per iteration), else
        ``visited``. A search whose recursion does not go through the module's ``max_value``/``min_value``
        (helpers, nested functions, class methods, explicit stacks) records fewer calls: its windows
        may enrich feedback only when this is True, and nothing graded depends on them.
        """
        if not self.calls:
            return False
        root = self.root
        top_root = [c for c in self.calls if c.parent is None and c.node == root]
        if not top_root or any(c.parent is None and c.node != root for c in self.calls):
            return False
        nodes = [c.node for c in self.calls if not (c.parent is None and c.node == root)]
        return nodes == list(self.visited[1:]) and self.visited[:1] == [root]

    def children_of(self, index: int) -> list[int]:
        """Indices of the calls made directly from call ``index``, in order.

        The index is built once per ``calls`` list and length (calls are only
        ever added, or the list replaced), so drawing or comparing a trace
        stays linear in its size.
        """
        key = (id(self.calls), len(self.calls))
        if self._kids is None or self._kids[:2] != key:
            kids: dict[int | None, list[int]] = {}
            for i, call in enumerate(self.calls):
                kids.setdefault(call.parent, []).append(i)
            self._kids = (*key, kids)
        return list(self._kids[2].get(index, ()))


class CountedTrace(Trace):
    """A search known by its outcome and counts only: one on a whole game, whose states are too many to list.

    ``nodes`` and ``leaves`` are the counts (``None`` when unknown); ``visited``,
    ``evaluated`` and ``calls`` stay empty.
    """

    def __init__(self, algorithm: str, root: State, *, value: Any = None, action: Any = None,
                 nodes: int | None = None, leaves: int | None = None, error: BaseException | str | None = None) -> None:
        super().__init__(algorithm, root, action=action, value=value, error=error)
        self.node_count, self.leaf_count = nodes, leaves

    @property
    def nodes(self) -> int | None:  # type: ignore[override]
        return self.node_count

    @property
    def leaves(self) -> int | None:  # type: ignore[override]
        return self.leaf_count

    @classmethod
    def of(cls, trace: Trace) -> "CountedTrace":
        """``trace`` reduced to its outcome and counts."""
        return cls(trace.algorithm, trace.root, value=trace.value, action=trace.action, nodes=trace.nodes,
                   leaves=trace.leaves, error=trace.error)

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "counts": [self.node_count, self.leaf_count]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "CountedTrace":
        nodes, leaves = data["counts"]
        return cls(data["algorithm"], data["root"], value=data["value"], action=data["action"], nodes=nodes,
                   leaves=leaves, error=data["error"])


def _plain(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(value)


def _error_text(error: BaseException | str) -> str:
    if isinstance(error, str):
        return error
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def error_name(error: BaseException | str | None) -> str:
    """The exception's class name, whether the trace holds the exception or its text."""
    if error is None:
        return ""
    return error.split(":", 1)[0] if isinstance(error, str) else type(error).__name__


def pruned_subtrees(tree: Tree, visited: list, evaluated: list = ()) -> list[str]:
    """Children of visited internal nodes that were never generated, in tree order.

    Below an internal node that was ``evaluated`` (estimated by EVAL at a depth
    limit) nothing counts as pruned: the search never meant to look there.

    >>> t = Tree("A", {"A": ("B", "C"), "B": ("B1", "B2")}, {"B1": 1, "B2": 2, "C": 0})
    >>> pruned_subtrees(t, ["A", "B", "B1"])
    ['B2', 'C']
    """
    seen = set(visited)
    horizon = set(evaluated)
    if tree.root not in seen:
        return []
    pruned, stack = [], [tree.root]
    while stack:
        node = stack.pop()
        if node in seen:
            if node not in horizon:
                stack.extend(reversed(tree.children.get(node, ())))
        else:
            pruned.append(node)
    return pruned


class TracingGame:
    """A game that records what RESULT and UTILITY are asked, into a :class:`Trace`.

    ACTIONS, TERMINAL-TEST, TO-MOVE (and PROBABILITY, on a game of chance) are
    the game's own, bound to the instance unchanged: nothing to record there,
    so no extra call on a search's hottest path.
    """

    def __init__(self, game: Game, trace: Trace) -> None:
        self._game = game
        self._trace = trace
        for name in ("actions", "terminal_test", "to_move", "probability"):
            if hasattr(game, name):
                setattr(self, name, getattr(game, name))

    def result(self, state: State, action: Any) -> State:
        successor = self._game.result(state, action)
        self._trace.visited.append(successor)
        return successor

    def utility(self, state: State) -> float:
        self._trace.evaluated.append(state)
        return self._game.utility(state)


def traced_search(module: ModuleType, game: Game, state: State, algorithm: str, **params: Any) -> Trace:
    """Run ``module``'s search for ``algorithm`` from ``state`` and record what it does.

    ``module`` has the contract's functions (``alpha_beta_search``, ``max_value``,
    ``min_value`` or their minimax twins). Its ``max_value``/``min_value``
    (and ``chance_value``) are wrapped while the search runs and restored
    afterwards. ``params`` are the algorithm's extra arguments (``depth``,
    ``eval_fn`` for the depth-limited search); calls of ``eval_fn`` are recorded
    in ``evaluated`` like UTILITY's. An exception raised by the search is stored
    in ``Trace.error``, not raised.
    """
    return _search(module, game, state, algorithm, params, every_call=True)


def counted_search(module: ModuleType, game: Game, state: State, algorithm: str, **params: Any) -> "CountedTrace":
    """:func:`traced_search` reduced to its outcome and counts (``CountedTrace.of(traced_search(...))``), made
    without recording each MAX-VALUE/MIN-VALUE call below the root's children: a whole game's search."""
    return CountedTrace.of(_search(module, game, state, algorithm, params, every_call=False))


def _search(module: ModuleType, game: Game, state: State, algorithm: str, params: dict, every_call: bool) -> Trace:
    """:func:`traced_search`; with ``every_call`` False, only the outermost calls are kept in ``calls`` (what
    the root's value is made of): while one runs, the module's own functions are back in place, so the calls
    below it cost nothing extra (one that still reaches a wrapper, through a reference of its own, passes through)."""
    spec = ALGORITHMS[algorithm]
    entry, windowed = spec.entry, spec.windowed
    trace = Trace(algorithm, state, visited=[state])
    if "eval_fn" in params:
        params["eval_fn"] = _recording(params["eval_fn"], trace)
    stack: list[int] = []
    originals = {name: getattr(module, name) for name in FUNCTIONS if hasattr(module, name)}

    def install(functions: dict[str, Callable]) -> None:
        for name, function in functions.items():
            setattr(module, name, function)

    def wrap(name: str, function: Callable) -> Callable:
        def recorded(game_: Any, state_: State, *window: Any) -> Any:
            if stack and not every_call:
                return function(game_, state_, *window)
            call = Call(state_, FUNCTIONS[name], parent=stack[-1] if stack else None,
                        visited_at=len(trace.visited), evaluated_at=len(trace.evaluated))
            if windowed and len(window) >= 2:
                call.alpha, call.beta = window[:2]
            trace.calls.append(call)
            stack.append(len(trace.calls) - 1)
            if not every_call:  # below an outermost call nothing is recorded: the search calls its own functions
                install(originals)
            try:
                call.value = function(game_, state_, *window)
                call.returned_at = len(trace.visited)
            finally:
                stack.pop()
                if not every_call:
                    install(wrappers)
            return call.value
        recorded.__wrapped__ = function
        recorded.__name__ = name
        return recorded

    wrappers = {name: wrap(name, function) for name, function in originals.items()}
    install(wrappers)
    try:
        trace.action = getattr(module, entry)(TracingGame(game, trace), state, *(params[p] for p in spec.params))
    except Exception as error:  # noqa: BLE001 - the search is untrusted; callers read trace.error
        trace.error = error
    finally:
        install(originals)
    _add_root(trace, game, windowed)
    return trace


def _recording(eval_fn: Callable, trace: Trace) -> Callable:
    def evaluated(state: State) -> float:
        trace.evaluated.append(state)
        return eval_fn(state)
    return evaluated


def _add_root(trace: Trace, game: Game, windowed: bool) -> None:
    """Give the trace a root call and a value, whichever way the search treated the root.

    The kit's searches loop over the root's actions themselves (AIMA 4e), so
    there is no MAX-VALUE call on the root; one is added, entered with the full
    window, whose value is the best of the root's children's values.
    """
    root = trace.root
    top = [c for c in trace.calls if c.parent is None]
    if top and all(c.node == root for c in top):  # MAX-VALUE(root) itself, once or once per iteration
        trace.value = top[-1].value
        return
    player = game.to_move(root)
    values = [c.value for c in top if isinstance(c.value, (int, float))]
    if game.terminal_test(root):
        trace.value = game.utility(root)
    elif values and len(values) == len(top):
        trace.value = max(values) if player == MAX else min(values) if player == MIN else None
    window = (-math.inf, math.inf) if windowed else (None, None)
    trace.calls.insert(0, Call(root, player, *window, value=trace.value, synthetic=True))
    for call in trace.calls[1:]:
        call.parent = 0 if call.parent is None else call.parent + 1
