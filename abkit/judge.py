"""What a test is judged on: only what the contract makes observable, the same in grade, check and pytest.

A search is judged by the game's log (the states RESULT returned, the states
UTILITY / EVAL was called on, in order), the action its entry function returned
and the value its own MAX-VALUE / MIN-VALUE (or CHANCE-VALUE) returns when the
recorder calls it on the root (:func:`abkit.trace.root_value`); a direct call by
its log and what the call returned. The calls a search made to its module's
``max_value``/``min_value`` (and their windows) are never judged: whether they
are recorded depends on how the code is written, which the contract leaves open.
"""

from __future__ import annotations

import math
from dataclasses import replace

from abkit.algorithms import Algorithm
from abkit.compare import Finding, same_number
from abkit.i18n import Message
from abkit.textree import fmt
from abkit.trace import VALUE_FUNCTIONS, CountedTrace, Trace, error_name

#: the categories a kind of test is judged in: a search on a tree, on a board game, a direct call
SEARCH_CATEGORIES = ("values", "pruning", "nodes")
GAME_CATEGORIES = ("values", "nodes")
DIRECT_CATEGORIES = ("direct",)


def passes(category: str, student: Trace, expected: Trace) -> bool:
    """Whether ``student`` passes ``category`` against ``expected``, on observables only.

    values: the root's value and the action; nodes: how many states were generated (a board game's search:
    and evaluated); pruning: the generated and evaluated states, in order (UTILITY on a terminal root is
    allowed); direct: the generated and evaluated states and the call's returned value. A search that raised
    passes nothing.
    """
    if student.error is not None:
        return False
    same_value = student.value_error is None and same_number(student.value, expected.value)
    if category == "values":
        return same_value and student.action == expected.action
    if category == "nodes":
        return student.nodes == expected.nodes and (not isinstance(expected, CountedTrace)
                                                     or student.leaves == expected.leaves)
    evaluated = list(student.evaluated)
    if evaluated == [student.root] and not expected.evaluated:  # UTILITY on a terminal root is allowed
        evaluated = []
    same_path = student.visited == expected.visited and evaluated == list(expected.evaluated)
    return same_path if category == "pruning" else same_path and same_value


def all_pass(categories: tuple[str, ...], student: Trace, expected: Trace) -> bool:
    """Whether ``student`` passes every one of ``categories``."""
    return all(passes(c, student, expected) for c in categories)


def signature(trace: Trace | dict) -> tuple:
    """What a search did, as a comparable value, on observables only: generated and evaluated states, value,
    action, the errors of the search and of the root's value call (a board game's search: its counts; an orders
    test's ``{node: actions}``: its items). Named mistakes are matched on it."""
    if isinstance(trace, dict):
        return ("orders", tuple((k, tuple(v) if isinstance(v, (list, tuple)) else v) for k, v in trace.items()))
    errors = (error_name(trace.error), error_name(trace.value_error))
    if isinstance(trace, CountedTrace):
        return ("counts", trace.nodes, trace.leaves, _num(trace.value), trace.action, *errors)
    return (tuple(trace.visited), tuple(trace.evaluated), _num(trace.value), _num(trace.action), *errors)


def _num(x: object) -> object:
    """A number as a float rounded to 12 significant digits: one expectation summed in another order differs in its
    last bits only (Python 3.12's ``sum()`` of floats is compensated, a loop of ``+=`` is not)."""
    return float(f"{x:.12g}") if isinstance(x, (int, float)) and not isinstance(x, bool) else x


def with_root_value(findings: list[Finding], student: Trace, game_to_move, depth: int | None = None) -> list[Finding]:
    """``findings`` told true about the root's value, which no search returns: the recorder calls the student's
    MAX-VALUE/MIN-VALUE on the root after the search (:func:`abkit.trace.root_value`), and a finding on that value
    names the call. When the call raised, a finding saying so comes first, and none states a root value (there is
    none). ``game_to_move`` is PLAYER, to name the function called; ``depth``: a depth-limited search's limit."""
    if student.error is not None:
        return findings
    call = root_call(student, game_to_move, depth)
    if student.value_error is None:
        return [replace(f, message=Message("compare.value_call", call=call, **f.message.params))
                if f.kind == "value" and f.message.key == "compare.value" else f for f in findings]
    said = Message("judge.root_value_error", call=call, error=error_name(student.value_error))
    first = Finding("value_error", None, 0, said)
    return [first, *(f for f in findings if f.kind != "value")]


def root_call(student: Trace, game_to_move, depth: int | None = None) -> str:
    """The call :func:`abkit.trace.root_value` makes on ``student``'s root, as code: ``max_value(game, 'A', -∞, +∞)``,
    a depth-limited search's with its ``depth`` and EVAL (``max_value(game, 'A', -∞, +∞, 2, eval_fn)``; ``…`` for the
    depth when it is not given) and iterative deepening's empty dict of remembered best actions."""
    function = VALUE_FUNCTIONS.get(game_to_move(student.root), "max_value")
    spec = Algorithm.named(student.algorithm)
    window = (-math.inf, math.inf) if spec is not None and spec.prunes else ()
    more = ("…" if depth is None else depth, "eval_fn") if spec is not None and spec.params else ()
    return call_text(function, student.root, *window, *more, *(("{}",) if spec is not None and spec.iterative else ()))


def call_text(function: str, state: object, *args: object) -> str:
    """A call of a contract function as the grader makes it, as code: ``min_value(game, 'C', 5, +∞)`` (numbers as
    :func:`~abkit.textree.fmt` writes them, other arguments as they are)."""
    shown = "".join(f", {fmt(a) if isinstance(a, (int, float)) and not isinstance(a, bool) else a}" for a in args)
    return f"{function}(game, {state!r}{shown})"


def direct_findings(findings: list[Finding], node: object) -> list[Finding]:
    """The findings of a call made directly on ``node``: none on an action (a call returns none), and the node's
    return said once (not again as the call's value)."""
    returned = {f.node for f in findings if f.kind == "return"}
    return [f for f in findings if f.kind != "action" and not (f.kind == "value" and node in returned)]
