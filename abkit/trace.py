"""What a search did, recorded as plain data that checks, feedback and figures read.

A search module (a reference solution, a student's exercise) is run on a game
wrapped in :class:`TracingGame`, which records every state RESULT generates and
every state UTILITY evaluates, in order: the primary record, whatever code calls
the game. The root's value is what the module's own MAX-VALUE / MIN-VALUE (or
CHANCE-VALUE) returns when called on the root after the search, with the full
window (:func:`root_value`), never a value pieced together from the search.

While the search runs, its module's ``max_value``/``min_value`` are wrapped so
that each call's window (alpha, beta) and returned value are recorded too. Those
calls show only when the student's recursion looks the functions up on the
module: they may enrich feedback (:meth:`Trace.windows_complete` says when they
can be trusted) but nothing is judged on them. Nothing here knows the right answers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from types import CodeType, ModuleType
from typing import TYPE_CHECKING

from .algorithms import Algorithm
from .game import CHANCE, MAX, MIN, Budgeted, Game, State
from .tampering import changed, fingerprint
from .tree import Tree

if TYPE_CHECKING:
    from typing import Any, Callable


def prunes(algorithm: str) -> bool:
    """Whether ``algorithm`` cuts off (:attr:`Algorithm.prunes`); a name no algorithm has (a trace of nothing) is
    read as one that does."""
    spec = Algorithm.named(algorithm)
    return spec is None or spec.prunes


FUNCTIONS = {"max_value": MAX, "min_value": MIN, "chance_value": CHANCE}
VALUE_FUNCTIONS = {player: name for name, player in FUNCTIONS.items()}
#: the functions the kit's tests call by name (a search's entry, MAX-VALUE and MIN-VALUE, the ordering exercise's
#: ``ordered_actions``): an exercise's other functions (the stubs' helpers, such as ``cutoff_test``, and
#: CHANCE-VALUE, which only the student's own search calls) are the student's to keep, rename or write inline
CALLED = frozenset({a.entry for a in Algorithm} | {"max_value", "min_value", "ordered_actions"})


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
    action: what the search returned (``None`` for a direct call).
    value: what the module's MAX-VALUE / MIN-VALUE returned when the recorder called it on the root
        after the search (:func:`root_value`; UTILITY at a terminal root); for a direct call, what that
        call returned. ``None`` when it raised, or the search raised.
    error: the exception the search raised, if any (the record stops there); after
        :meth:`from_dict`, its text ``"ValueError: message"``.
    value_error: the exception the root's value call raised (the search itself went well), or its text.
    tampered: the search changed the wrapper it was given so that the game's answers or the record change
        (:mod:`abkit.tampering`'s rule: a new attribute of another name, a debug counter, is not a change);
        not part of :meth:`to_dict` (the grader's process sends it as the reply's ``tampered``).
    eval_calls: how many of the ``evaluated`` states the search's ``eval_fn`` was called on (a depth-limited search;
        the rest were UTILITY's); not part of :meth:`to_dict`.
    """

    algorithm: str
    root: State
    visited: list = field(default_factory=list)
    evaluated: list = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)
    action: Any = None
    value: float | None = None
    error: BaseException | str | None = None
    value_error: BaseException | str | None = None
    tampered: bool = field(default=False, compare=False)
    eval_calls: int = field(default=0, compare=False)
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
            "calls": [[c.node if type(c.node) is str else _plain(c.node), c.player, _plain(c.alpha), _plain(c.beta),
                       _plain(c.value), c.parent, c.visited_at, c.evaluated_at, c.synthetic, c.returned_at]
                      for c in self.calls],
            "error": None if self.error is None else _error_text(self.error),
            "value_error": None if self.value_error is None else _error_text(self.value_error),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Trace":
        """The trace :meth:`to_dict` described; ``error`` comes back as text (``"ValueError: ..."``)."""
        if "counts" in data:
            return CountedTrace.from_dict(data)
        trace = cls(data["algorithm"], data["root"], visited=list(data["visited"]), evaluated=list(data["evaluated"]),
                    action=data["action"], value=data["value"], error=data["error"],
                    value_error=data.get("value_error"))
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
                 nodes: int | None = None, leaves: int | None = None, error: BaseException | str | None = None,
                 value_error: BaseException | str | None = None) -> None:
        super().__init__(algorithm, root, action=action, value=value, error=error, value_error=value_error)
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
        counted = cls(trace.algorithm, trace.root, value=trace.value, action=trace.action, nodes=trace.nodes,
                      leaves=trace.leaves, error=trace.error, value_error=trace.value_error)
        counted.tampered, counted.eval_calls = trace.tampered, trace.eval_calls
        return counted

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "counts": [self.node_count, self.leaf_count]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "CountedTrace":
        nodes, leaves = data["counts"]
        return cls(data["algorithm"], data["root"], value=data["value"], action=data["action"], nodes=nodes,
                   leaves=leaves, error=data["error"], value_error=data.get("value_error"))


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
        # RESULT and UTILITY are the hottest calls of all: the game's and the record's, bound once
        self._result, self._visited = game.result, trace.visited.append
        self._utility, self._evaluated = game.utility, trace.evaluated.append

    def result(self, state: State, action: Any) -> State:
        successor = self._result(state, action)
        self._visited(successor)
        return successor

    def utility(self, state: State) -> float:
        self._evaluated(state)
        return self._utility(state)


def traced_search(module: ModuleType, game: Game, state: State, algorithm: str, **params: Any) -> Trace:
    """Run ``module``'s search for ``algorithm`` from ``state``, record what it does, and value the root.

    ``module`` has the contract's functions (``alpha_beta_search``, ``max_value``,
    ``min_value`` or their minimax twins). ``params`` are the algorithm's extra
    arguments (``depth``, ``eval_fn`` for the depth-limited search); calls of
    ``eval_fn`` are recorded in ``evaluated`` like UTILITY's. After the search,
    ``Trace.value`` is :func:`root_value`: the module's own MAX-VALUE/MIN-VALUE
    called on the root, on a wrapper of its own (nothing of it is recorded). While
    the search runs, ``max_value``/``min_value`` (and ``chance_value``) are
    wrapped to record ``calls`` (enrichment only). An exception raised by the
    search is stored in ``Trace.error``, one raised by the root's value call in
    ``Trace.value_error``; neither is raised.
    """
    spec = Algorithm(algorithm)
    trace = Trace(algorithm, state, visited=[state])
    arguments = _entry_arguments(spec, params, trace)
    trace.action = _record(module, trace, spec.prunes,
                           lambda traced: getattr(module, spec.entry)(traced, state, *arguments), game,
                           then=lambda: _value_root(trace, module, game, algorithm, params))
    _add_root(trace, game, spec.prunes)
    return trace


def traced_call(module: ModuleType, game: Game, state: State, algorithm: str, function: str,
                args: tuple | list = ()) -> Trace:
    """``module.<function>(game, state, *args)`` called directly (MAX-VALUE or MIN-VALUE on a subtree), recorded
    as a search whose root is ``state``: ``Trace.value`` is what the call returned, ``action`` is ``None``.

    The function is looked up on the module when it is called, so its own call is recorded with its window
    like the calls below it; an exception it raises is stored in ``Trace.error``.
    """
    spec = Algorithm(algorithm)
    trace = Trace(algorithm, state, visited=[state])
    trace.value = _record(module, trace, spec.prunes, lambda traced: getattr(module, function)(traced, state, *args),
                          game)
    trace.action = None
    _add_root(trace, game, spec.prunes)
    return trace


def counted_search(module: ModuleType, game: Game, state: State, algorithm: str, **params: Any) -> "CountedTrace":
    """:func:`traced_search` reduced to its outcome and counts, made without recording any MAX-VALUE/MIN-VALUE
    call (a whole game's search): the game's log is counted and the root is valued as :func:`traced_search` does."""
    spec = Algorithm(algorithm)
    trace = Trace(algorithm, state, visited=[state])
    arguments = _entry_arguments(spec, params, trace)
    traced = TracingGame(game, trace)
    before = fingerprint(traced)
    try:
        trace.action = getattr(module, spec.entry)(traced, state, *arguments)
    except Exception as error:  # noqa: BLE001 - the search is untrusted; callers read trace.error
        trace.error = error
    trace.tampered = changed(traced, before)
    if trace.error is None:
        _value_root(trace, module, game, algorithm, params)
    return CountedTrace.of(trace)


def root_value(module: ModuleType, game: Game, state: State, algorithm: str, **params: Any) -> Any:
    """The value of ``state`` by ``module``'s own contract functions, called as the grader calls them.

    UTILITY(state) at a terminal state; otherwise MAX-VALUE, MIN-VALUE or CHANCE-VALUE by PLAYER(state),
    with the algorithm's arguments: alpha-beta the full window (-inf, +inf), the depth-limited searches
    also ``depth`` and ``eval_fn``, iterative deepening a fresh, empty dict of remembered best actions.
    Whatever the module raises propagates.
    """
    if game.terminal_test(state):
        return game.utility(state)
    spec = Algorithm(algorithm)
    arguments = ((-math.inf, math.inf) if spec.prunes else ()) + tuple(params[p] for p in spec.params)
    if spec.iterative:
        arguments += ({},)
    return getattr(module, VALUE_FUNCTIONS[game.to_move(state)])(game, state, *arguments)


def _entry_arguments(spec: Algorithm, params: dict, trace: Trace) -> tuple:
    """The search entry's extra arguments, its EVAL recording into ``trace``."""
    recorded = dict(params)
    if "eval_fn" in recorded:
        recorded["eval_fn"] = _recording(recorded["eval_fn"], trace)
    return tuple(recorded[p] for p in spec.params)


def _value_root(trace: Trace, module: ModuleType, game: Game, algorithm: str, params: dict) -> None:
    """Set ``trace.value`` by :func:`root_value` on a fresh copy of ``game`` (a budget starts again), or
    ``trace.value_error`` to what it raised. The root's call is given the same wrapper the search and a direct
    call are given (a :class:`TracingGame`, its record thrown away), never the game itself: whatever the student's
    functions do to the object they are handed (a debug counter, a cache) they do to a wrapper in every call."""
    fresh = Budgeted(game.game, game.limit) if isinstance(game, Budgeted) else game
    traced = TracingGame(fresh, Trace(algorithm, trace.root))
    before = fingerprint(traced)
    try:
        trace.value = root_value(module, traced, trace.root, algorithm, **params)
    except Exception as error:  # noqa: BLE001 - the student's code; the values category reads value_error
        trace.value, trace.value_error = None, error
    trace.tampered = trace.tampered or changed(traced, before)


def _record(module: ModuleType, trace: Trace, windowed: bool, run: Callable[[TracingGame], Any], game: Game,
            then: Callable[[], None] | None = None) -> Any:
    """``run(traced game)`` with the module's MAX-VALUE/MIN-VALUE/CHANCE-VALUE wrapped to add each call to
    ``trace.calls`` (:func:`_recorder`); what ``run`` returned (``trace.error`` set and ``None`` if it raised).
    ``trace.tampered`` says whether ``run`` changed the wrapper it was given (:func:`abkit.tampering.changed`).
    Then, if it did not raise, ``then()`` with the wrappers still in place but recording nothing: code called after
    the search runs the way the search ran (a runaway recursion fails there as it would in the search). The
    module's own functions are put back in every case.
    """
    stack: list[int] = []
    recording = [True]
    originals = {name: function for name in FUNCTIONS if callable(function := getattr(module, name, None))}
    for name, function in originals.items():
        setattr(module, name, _recorder(name, function, trace, windowed, stack, recording))
    traced = TracingGame(game, trace)
    before = fingerprint(traced)
    try:
        try:
            result = run(traced)
        except Exception as error:  # noqa: BLE001 - the search is untrusted; callers read trace.error
            trace.error = error
            return None
        finally:
            trace.tampered = changed(traced, before)
        if then is not None:
            recording[0] = False
            then()
        return result
    finally:
        for name, function in originals.items():
            setattr(module, name, function)


def _recorder(name: str, function: Callable, trace: Trace, windowed: bool, stack: list[int],
              recording: list[bool]) -> Callable:
    """``function`` (the module's ``name``: MAX-VALUE, MIN-VALUE or CHANCE-VALUE) wrapped to add each of its calls
    to ``trace.calls``, with its window when ``windowed``, its parent (the innermost call still on ``stack``) and
    what it returned; while ``recording[0]`` is false, a plain pass-through.

    The wrapper takes any arguments and passes them on unchanged; when a call's arguments cannot be read
    (or anything in the recording goes wrong) the call is still made, only not recorded (:func:`_begin`).
    """
    player = FUNCTIONS[name]
    calls, visited, evaluated = trace.calls, trace.visited, trace.evaluated
    shape: list = []  # the function's parameters (:func:`_parameters`), read at the first call that needs them

    def recorded(*args: Any, **kwargs: Any) -> Any:
        if not recording[0]:
            return function(*args, **kwargs)
        if kwargs or len(args) < (4 if windowed else 2) or type(args[1]) is not str:  # the usual call: inline below
            if not shape:
                shape.append(_parameters(function))
            call = _begin(trace, stack, player, windowed, args, kwargs, shape[0])
            if call is None:
                return function(*args, **kwargs)
        else:
            call = Call(args[1], player, None, None, None, stack[-1] if stack else None, len(visited),
                        len(evaluated))
            if windowed and len(args) >= 4:
                call.alpha, call.beta = args[2], args[3]
            calls.append(call)
            stack.append(len(calls) - 1)
        try:
            value = function(*args, **kwargs)
        finally:
            del stack[-1:]
        call.value, call.returned_at = value, len(visited)
        return value
    recorded.__wrapped__ = function
    recorded.__name__ = name
    return recorded


def _begin(trace: Trace, stack: list[int], player: str, windowed: bool, args: tuple, kwargs: dict,
           shape: tuple[list[str], dict]) -> Call | None:
    """Add a :class:`Call` for a wrapped call with these arguments, of a function of this ``shape`` (its parameters'
    names and defaults, :func:`_parameters`), and push its index; the call, or
    ``None`` when the arguments do not show the state (and, for alpha-beta, the window) it was entered with: the
    call then passes through unrecorded, so the record is incomplete and no window is told. The contract fixes the
    parameters' order (game, state, alpha, beta), not their names: one passed by keyword is read by the function's
    own name for it (``α=...``) unless passed by the contract's name (``alpha=...``), one left out is its default.
    Never raises."""
    try:
        names, defaults = shape
        wanted = 4 if windowed else 2
        given = list(args[1:wanted])
        for k in range(1 + len(given), wanted):
            contract, own = CONTRACT_PARAMETERS[k], names[k] if k < len(names) else None
            if contract in kwargs:
                given.append(kwargs[contract])
            elif own in kwargs:
                given.append(kwargs[own])
            elif own in defaults:
                given.append(defaults[own])
            else:
                return None
        hash(given[0])
        call = Call(given[0], player, parent=stack[-1] if stack else None,
                    visited_at=len(trace.visited), evaluated_at=len(trace.evaluated))
        if windowed:
            call.alpha, call.beta = given[1], given[2]
        trace.calls.append(call)
        stack.append(len(trace.calls) - 1)
        return call
    except Exception:  # noqa: BLE001 - odd arguments are the search's business, never the recorder's
        return None


#: the contract's parameters of MAX-VALUE/MIN-VALUE, in its order
CONTRACT_PARAMETERS = ("game", "state", "alpha", "beta")
#: a code object's flags for ``*args`` and ``**kwargs`` (``inspect.CO_VARARGS | inspect.CO_VARKEYWORDS``)
VARIADIC = 0x04 | 0x08


def _parameters(function: Callable) -> tuple[list[str], dict]:
    """The names of ``function``'s positional parameters (a decorated function's own, through ``__wrapped__``; an
    object's ``__call__`` without ``self``) and their defaults; ``game, state, alpha, beta`` when it shows none (or
    will not say: it is the student's object). Never raises."""
    try:
        return _signature(function)
    except Exception:  # noqa: BLE001 - a student's object whose attributes raise
        return list(CONTRACT_PARAMETERS), {}


def _signature(function: Callable) -> tuple[list[str], dict]:
    """:func:`_parameters`, which may raise."""
    for _ in range(8):
        inner = getattr(function, "__wrapped__", None)
        if inner is None:
            break
        function = inner
    code, skip = getattr(function, "__code__", None), 0
    if code is None:
        function, skip = getattr(type(function), "__call__", None), 1
        code = getattr(function, "__code__", None)
    if not isinstance(code, CodeType):
        return list(CONTRACT_PARAMETERS), {}
    params = list(code.co_varnames[:code.co_argcount])
    given = getattr(function, "__defaults__", None) or ()
    defaults = dict(zip(params[len(params) - len(given):], given)) if isinstance(given, tuple) else {}
    names = params[skip:]
    if code.co_flags & VARIADIC:  # (*args, **kwargs), as a decorator's wrapper takes them: the contract's names
        names += CONTRACT_PARAMETERS[len(names):]
    return names, defaults


def _recording(eval_fn: Callable, trace: Trace) -> Callable:
    def evaluated(state: State) -> float:
        trace.evaluated.append(state)
        trace.eval_calls += 1
        return eval_fn(state)
    return evaluated


def _add_root(trace: Trace, game: Game, windowed: bool) -> None:
    """Give the trace a root call whichever way the search treated the root (figures and feedback draw from it).

    When the search called MAX-VALUE/MIN-VALUE on the root itself (once, or once per iteration), those calls
    are the root's. Otherwise (the kit's searches loop over the root's actions themselves, AIMA 4e) a synthetic
    root call is added, entered with the full window, whose value is ``trace.value``: the value the root's own
    function returned when called on it (:func:`root_value`), never one pieced together from the calls.
    """
    root = trace.root
    top = [c for c in trace.calls if c.parent is None]
    if top and all(c.node == root for c in top):
        return
    window = (-math.inf, math.inf) if windowed else (None, None)
    trace.calls.insert(0, Call(root, game.to_move(root), *window, value=trace.value, synthetic=True))
    for call in trace.calls[1:]:
        call.parent = 0 if call.parent is None else call.parent + 1
