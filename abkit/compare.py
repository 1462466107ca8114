"""A student's trace held against the expected one: findings that name the node, the window, the cut.

Both ``abkit check`` and ``abkit grade`` turn these findings into feedback. The
expected trace comes from the reference (grading) or from the fixture alone
(:func:`abkit.expected.expected_trace`, in the student edition). Findings are
sorted by when they happen in the search, so the first one is where the
student's search first leaves the pseudocode's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from abkit.algorithms import Algorithm
from abkit.game import CHANCE, MAX, MIN
from abkit.gametree import made_from
from abkit.i18n import Message
from abkit.play import board_text
from abkit.textree import cut_holds, cut_test, fmt, key, same_number
from abkit.trace import VALUE_FUNCTIONS, Trace, error_name, prunes
from abkit.tree import Tree

#: at the same time, the order events happen in: a call is entered (window), evaluates (evaluated), returns,
#: then the next node is generated (missed_cut, extra_cut, order, duplicate); the root's value and action last
KINDS = ("error", "tampered", "value_error", "function", "window", "evaluated", "return", "missed_cut", "extra_cut",
         "order", "duplicate", "value", "action", "nodes", "leaves", "orders", "game")


@dataclass
class Finding:
    """One way the student's search differs from the expected one.

    kind: one of ``KINDS``; node: where it happens (``None`` for the root's value/action);
    time: how many nodes had been generated when it happened (for ordering);
    message: what to tell the student, rendered later in their language.
    """

    kind: str
    node: object
    time: int
    message: Message
    details: dict = field(default_factory=dict)


def compare(student: Trace, expected: Trace, tree: Tree, prune_on_equality: bool = True) -> list[Finding]:
    """Every difference between the two traces, earliest first (empty: the student's search is exact).

    Judged on what the game recorded (generated, evaluated), the action and ``Trace.value``; the windows and
    values of the recorded MAX-VALUE/MIN-VALUE calls add findings only when both traces'
    :meth:`~abkit.trace.Trace.windows_complete`. States that cannot be set members are compared by their text.
    """
    student, expected = _hashable(student), _hashable(expected)
    findings: list[Finding] = []
    if student.error is not None:
        findings.append(Finding("error", None, len(student.visited),
                                Message("compare.error", error=error_name(student.error))))
    divergence = _generation(student, expected, tree, prune_on_equality)
    if divergence and student.error is not None and divergence.kind == "extra_cut" and \
            student.visited == expected.visited[:len(student.visited)]:
        divergence = None  # it stopped because it raised: the error finding says so
    if divergence:
        findings.append(divergence)
    if student.windows_complete() and expected.windows_complete():
        findings.extend(_calls(student, expected, tree, limit=divergence.time if divergence else None))
    if not divergence:
        evaluated = _evaluated(student, expected, tree)
        if evaluated and not (student.error is not None and evaluated.message.key == "compare.evaluated_missing"):
            findings.append(evaluated)  # (a search that raised evaluated nothing more: the error finding says why)
    end = len(student.visited) + 1
    if student.error is None and not same_number(student.value, expected.value):
        findings.append(Finding("value", None, end, _value_message(student, expected, tree)))
    if student.error is None and student.action != expected.action:
        actions = tree.children.get(tree.root, ())
        value = isinstance(student.action, (int, float)) and not isinstance(student.action, bool)
        key_ = "compare.action_value" if value and student.action not in actions else "compare.action"
        findings.append(Finding("action", None, end, Message(key_, got=_name(student.action), want=_name(expected.action),
                                                               root=tree.root, actions=", ".join(map(str, actions)))))
    return _in_search_order(findings)


def _in_search_order(findings: list[Finding]) -> list[Finding]:
    """Earliest first; at the same time, in the order of ``KINDS``, except that a node that skips its next child
    does so before it returns (an extra cut precedes the same node's return)."""
    order = {kind: k for k, kind in enumerate(KINDS)}
    ranked = sorted(findings, key=lambda f: (f.time, order[f.kind]))
    for k in range(len(ranked) - 1):
        a, b = ranked[k], ranked[k + 1]
        if a.kind == "return" and b.kind == "extra_cut" and a.time == b.time and a.node == b.node:
            ranked[k], ranked[k + 1] = b, a
    return ranked


def _value_message(student: Trace, expected: Trace, tree: Tree) -> Message:
    """The root's value against the expected one; a call made directly on an inner node is named by its node."""
    if student.root != tree.root and student.root in tree:
        key_ = "compare.return_chance" if tree.players().get(student.root) == CHANCE else "compare.return"
        return Message(key_, node=student.root, got=shown(student.value), want=shown(expected.value))
    return Message("compare.value", got=shown(student.value), want=shown(expected.value))


def compare_counts(student: Trace, expected: Trace) -> list[Finding]:
    """Differences in what a search on a whole game (tic-tac-toe) is judged by: value, action, node and leaf counts.

    ``expected`` may be a :class:`~abkit.trace.CountedTrace`; a count it does not know (``None``) is not compared.
    """
    end = student.nodes or 0
    if student.error is not None:
        return [Finding("error", None, end, Message("compare.error", error=error_name(student.error)))]
    findings = []
    if not same_number(student.value, expected.value):
        findings.append(Finding("value", None, end, Message("compare.value", got=shown(student.value),
                                                             want=shown(expected.value))))
    if student.action != expected.action:
        # a square is a number, as a value is: one equal to the root's value may be that value, returned instead
        is_value = student.value is not None and isinstance(student.action, (int, float)) and \
            same_number(student.action, student.value)
        findings.append(Finding("action", None, end, Message(
            "compare.action_or_value" if is_value else "compare.action", got=_name(student.action),
            want=_name(expected.action))))
    if expected.nodes is not None and student.nodes != expected.nodes:
        findings.append(Finding("nodes", None, end, Message("compare.nodes", got=student.nodes, want=expected.nodes)))
    if expected.leaves is not None and student.leaves != expected.leaves:
        findings.append(Finding("leaves", None, end, Message("compare.leaves", got=student.leaves, want=expected.leaves,
                                                             eval_or=_eval_words(student, "compare.eval_or"))))
    return findings


def compare_order(node: object, player: str, got: object, want: list) -> Finding | None:
    """``ordered_actions`` on ``node`` returned ``got``; the finding when it is not ``want`` (else ``None``)."""
    if isinstance(got, (list, tuple)) and list(got) == list(want):
        return None
    shown = ", ".join(map(str, got)) if isinstance(got, (list, tuple)) else _name(got)
    return Finding("orders", node, 0, Message("compare.orders", node=node, player=player, got=shown,
                                              want=", ".join(map(str, want)),
                                              rule=Message(f"compare.orders_{'max' if player == MAX else 'min'}")))


def _name(value: object) -> str:
    return "None" if value is None else str(value)


def shown(value: object) -> str:
    """A value a function returned, as a student writes it: ``None`` when it returned None (never ``?``)."""
    return "None" if value is None else fmt(value)


def _hashable(trace: Trace) -> Trace:
    """``trace`` itself, or a copy whose generated and evaluated states can be set members (odd data)."""
    visited, evaluated = [key(n) for n in trace.visited], [key(n) for n in trace.evaluated]
    if visited == list(trace.visited) and evaluated == list(trace.evaluated):
        return trace
    return replace(trace, visited=visited, evaluated=evaluated, _kids=None)


# -- where the sequence of generated nodes first differs ----------------------

def _generation(student: Trace, expected: Trace, tree: Tree, rule: bool) -> Finding | None:
    """Where the student's sequence of generated nodes first leaves the expected one, told in generated nodes.

    What the student's search did is said from its ``visited`` alone; why the pseudocode does otherwise comes
    from the expected trace (its windows and values), and a relation is stated only where it holds on them.
    """
    s, e = student.visited, expected.visited
    i = next((k for k, (a, b) in enumerate(zip(s, e)) if a != b), min(len(s), len(e)))
    if i == len(s) == len(e):
        return None
    got = s[i] if i < len(s) else None
    want = e[i] if i < len(e) else None
    parents = tree.parents()
    did = _did(s, i)
    if got is not None and got in s[:i] and s[:i + 1].count(got) > e.count(got):  # deepening: once per depth
        return Finding("duplicate", got, i, Message("compare.duplicate", node=got))
    if got is not None and want is not None and parents.get(got) == parents.get(want):
        key_ = "compare.order_best_first" if expected.algorithm == Algorithm.ORDERING else "compare.order"
        return Finding("order", parents.get(want), i, Message(key_, node=parents.get(want), want=want, got=got))
    if got is not None and got not in set(e):
        parent = parents.get(got)
        call = _call_before(expected, parent, i)
        if call is not None and parent in set(expected.evaluated):  # EVAL at the depth limit, not a cut-off
            return Finding("missed_cut", parent, i, Message("compare.depth_limit", did=did, node=parent,
                                                             value=fmt(expected.calls[call].value)),
                           {"generated": got})
        if call is None:  # the parent is not on the expected path: the student left it earlier (odd data)
            return Finding("missed_cut", got, i, Message("compare.extra_node", did=did, node=got))
        key_ = "compare.eager" if _searched_later(student, s[i - 1] if i else None, got, parents, i) \
            else "compare.missed_cut"
        return Finding("missed_cut", parent, i, Message(key_, did=did, state=_state(expected, call), prev=s[i - 1],
                                                         why=_cut_reason(expected, call, tree, rule)),
                       {"generated": got})
    parent = parents.get(want)
    call = _call_before(expected, parent, i)
    depth = _iteration(e[:i + 1], parents, tree.root) if expected.algorithm == Algorithm.ORDERING else 1
    if depth > 1 and parent == tree.root and depth > _iteration(e[:i], parents, tree.root):  # the next iteration
        return Finding("extra_cut", parent, i, Message("compare.next_iteration", did=did, next=want, depth=depth),
                       {"skipped": want})
    if call is None:  # want's parent is always on the expected path; odd data aside
        return Finding("extra_cut", parent, i, Message("compare.extra_cut_plain", did=did, next=want),
                       {"skipped": want})
    return Finding("extra_cut", parent, i, Message("compare.extra_cut", did=did, state=_state(expected, call),
                                                   why=_continue_reason(expected, call, want, rule), next=want),
                   {"skipped": want})


def _searched_later(student: Trace, prev: object, got: object, parents: dict, i: int) -> bool:
    """Whether the student generated ``got`` (at ``visited[i]``) before it searched its sibling ``prev``, generated
    just before it: its recorded call on ``prev`` began after ``got`` was generated (the children generated first,
    then searched)."""
    if prev is None or parents.get(prev) != parents.get(got):
        return False
    call = next((c for c in student.calls if c.node == prev and not c.synthetic), None)
    return call is not None and call.visited_at > i


def _iteration(visited: list, parents: dict, root: object) -> int:
    """Which iteration of iterative deepening generated the last of ``visited``: a new one begins where a child of
    the root is generated again within the current one (as the drawing tells them apart)."""
    depth, seen = 1, set()
    for node in visited[1:]:
        if parents.get(node) == root:
            if node in seen:
                depth, seen = depth + 1, set()
            seen.add(node)
    return depth


def _did(visited: list, i: int) -> Message:
    """What the student's search generated at position ``i`` of ``visited`` (nothing, past its end)."""
    if i >= len(visited):
        return Message("compare.did_stop", prev=visited[-1]) if visited else Message("compare.did_nothing")
    if i == 0:
        return Message("compare.did_first", next=visited[0])
    return Message("compare.did_after", prev=visited[i - 1], next=visited[i])


def _call_before(trace: Trace, node: object, position: int) -> int | None:
    """The latest call on ``node`` begun before ``visited[position]`` was generated (else its first call)."""
    if node is None:
        return None
    calls = [k for k, c in enumerate(trace.calls) if c.node == node]
    before = [k for k in calls if trace.calls[k].visited_at <= position]
    return before[-1] if before else calls[0] if calls else None


def _state(trace: Trace, index: int) -> Message:
    call = trace.calls[index]
    if call.alpha is None:
        return Message("compare.state_minimax", node=call.node, player=call.player)
    return Message("compare.state", node=call.node, player=call.player, alpha=fmt(call.alpha), beta=fmt(call.beta))


def _children_so_far(trace: Trace, index: int, before: object = None) -> list:
    kids = [trace.calls[k] for k in trace.children_of(index)]
    if before is not None:
        kids = kids[: next((j for j, c in enumerate(kids) if c.node == before), len(kids))]
    return kids


def _cut_reason(trace: Trace, index: int, tree: Tree, rule: bool) -> Message:
    """Why the expected search stopped at call ``index``: v reached the bound after its last child (when that holds)."""
    call = trace.calls[index]
    kids = _children_so_far(trace, index)
    rest = ", ".join(str(c) for c in tree.children.get(call.node, ()) if c not in {k.node for k in kids})
    if not kids or not cut_holds(call.player, call.value, call.alpha, call.beta, rule):
        return Message("compare.cut_reason_plain", rest=rest)
    relation, bound_name, at = cut_test(call.player, rule)
    return Message("compare.cut_reason", child=kids[-1].node, value=fmt(kids[-1].value), v=fmt(call.value),
                   rel=relation, bound_name=bound_name, bound=fmt((call.alpha, call.beta)[at]), rest=rest)


def _continue_reason(trace: Trace, index: int, want: object, rule: bool) -> Message:
    """Why the expected search went on to ``want`` at call ``index`` (no relation stated unless it holds)."""
    call = trace.calls[index]
    kids = _children_so_far(trace, index, before=want)
    if not kids:
        return Message("compare.first_child")
    if call.alpha is None:
        return Message("compare.goes_on" if prunes(trace.algorithm) else "compare.minimax_continues")
    values = [k.value for k in kids]
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values) or call.player not in (MAX, MIN):
        return Message("compare.goes_on")
    v = max(values) if call.player == MAX else min(values)
    if cut_holds(call.player, v, call.alpha, call.beta, rule):
        return Message("compare.goes_on")
    relation, bound_name, at = cut_test(call.player, rule)
    return Message("compare.no_cut_reason", child=kids[-1].node, value=fmt(kids[-1].value), v=fmt(v), rel=relation,
                   bound_name=bound_name, bound=fmt((call.alpha, call.beta)[at]))


# -- windows and returned values of the calls both searches made ---------------

def _calls(student: Trace, expected: Trace, tree: Tree, limit: int | None) -> list[Finding]:
    """The first call entered with another window, and the earliest call to return another value (same path only).

    Only for traces whose calls are complete (one per generated node): the calls then pair up in order.
    """
    found: list[Finding] = []
    wrong_returns: list[tuple[int, int, object, object]] = []
    parents = tree.parents()
    for k, (s, e) in enumerate(zip(student.calls, expected.calls)):
        if s.node != e.node or (limit is not None and s.visited_at > limit):
            break
        if s.synthetic or e.synthetic:
            continue
        if s.player != e.player and {s.player, e.player} <= {MAX, MIN} and not any(f.kind == "function" for f in found):
            found.append(Finding("function", s.node, s.visited_at, Message(
                "compare.function", node=s.node, fn=VALUE_FUNCTIONS[s.player], want=VALUE_FUNCTIONS[e.player],
                player=e.player)))
        if not any(f.kind == "window" for f in found) and e.alpha is not None \
                and not (same_number(s.alpha, e.alpha) and same_number(s.beta, e.beta)):
            caller = student.calls[s.parent] if s.parent is not None and 0 <= s.parent < k else None
            hint = _follows(student, k, caller, wrong_returns) or _window_hint(s, e, caller,
                                                                               parents.get(s.node) == tree.root)
            found.append(Finding("window", s.node, s.visited_at,
                                 Message("compare.window", node=s.node, sa=fmt(s.alpha), sb=fmt(s.beta),
                                         ea=fmt(e.alpha), eb=fmt(e.beta), hint=hint)))
        returned = s.returned_at is not None or s.value is not None
        if returned and e.value is not None and not same_number(s.value, e.value):
            wrong_returns.append((s.returned_at if s.returned_at is not None else s.visited_at, -k, s, e))
    if wrong_returns:  # the first to return: the one that returned when fewest nodes were generated, the deepest
        time, _, s, e = min(wrong_returns, key=lambda r: r[:2])
        key_ = "compare.return_chance" if e.player == CHANCE else \
            "compare.return_leaf" if s.node in tree and tree.is_leaf(s.node) else "compare.return"
        found.append(Finding("return", s.node, time, Message(key_, node=s.node, got=shown(s.value), want=fmt(e.value))))
    return found


def _follows(student: Trace, k: int, caller, wrong_returns: list) -> Message | None:
    """The words for a window that differs only because a value below it differed: the student's call ``k`` was
    entered with the window the pseudocode's updates give from its caller's window and the values the caller's
    earlier children returned in the student's own search (MAX: α = max(α, v), MIN: β = min(β, v)), and a call
    returned another value than the pseudocode's before it was entered. The earliest such value is named; ``None``
    when the window does not follow so (the caller's updates are then what differs)."""
    call = student.calls[k]
    earlier = [r for r in wrong_returns if r[0] <= call.visited_at]
    if caller is None or caller.player not in (MAX, MIN) or not earlier:
        return None
    values = [c.value for c in student.calls[:k] if c.parent == call.parent]
    window = [caller.alpha, caller.beta]
    if not all(_number(x) for x in (*window, *values)):
        return None
    at, pick = (0, max) if caller.player == MAX else (1, min)
    for value in values:
        window[at] = pick(window[at], value)
    if not (same_number(window[0], call.alpha) and same_number(window[1], call.beta)):
        return None
    _, _, first, expected = min(earlier, key=lambda r: r[:2])
    return Message("compare.hint.follows", node=first.node, got=shown(first.value), want=fmt(expected.value))


def _number(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _window_hint(s, e, parent, child_of_root: bool) -> Message:
    """What the window a node was entered with says, from the student's own calls: α above β (the two swapped in a
    call), the root that passes no updated
    bound, a parent that passes on the window it was entered with (its bound not updated after an earlier child, or
    -∞, +∞ passed afresh: the two look alike there), -∞, +∞ where the parent had a narrower window (passed afresh)."""
    full = (-math.inf, math.inf)
    window = (s.alpha, s.beta)
    swapped = all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in window) and s.alpha > s.beta
    if child_of_root and (e.alpha, e.beta) == full and not (same_number(s.alpha, -math.inf)
                                                         and same_number(s.beta, math.inf)):
        # the root's first child: the window the search started from, or (α above β) the order it passes them in
        return Message("compare.hint.root_swapped" if swapped else "compare.hint.root_start")
    if swapped:
        return Message("compare.hint.swapped")  # no search of the pseudocode enters a node with α above β
    if child_of_root and window == full and (e.alpha, e.beta) != full:
        return Message("compare.hint.root_passes")
    if parent is not None and parent.player in (MAX, MIN) and not child_of_root \
            and same_number(parent.alpha, s.alpha) and same_number(parent.beta, s.beta):
        return Message("compare.hint.not_updated", parent=parent.node, bound="α" if parent.player == MAX else "β",
                       player=parent.player)
    if window == full:
        return Message("compare.hint.pass_down")
    return Message("compare.hint.window")


def _evaluated(student: Trace, expected: Trace, tree: Tree) -> Finding | None:
    """The first state the two searches evaluate differently (UTILITY, or EVAL at a depth limit)."""
    s, e = list(student.evaluated), expected.evaluated
    if tree.is_leaf(tree.root) and s == [tree.root] and e == []:
        return None  # UTILITY on a terminal root is allowed (contract §1)
    if s == e:
        return None
    i = next((k for k, (a, b) in enumerate(zip(s, e)) if a != b), min(len(s), len(e)))
    node = s[i] if i < len(s) else e[i]
    time = student.visited.index(node) + 1 if node in student.visited else len(student.visited)
    note = _eval_words(student, "compare.eval_note")
    if i >= len(s):
        message = Message("compare.evaluated_missing", fn=_function(tree, e[i]), want=e[i], eval=note)
    elif s[i] in s[:i] and s[:i + 1].count(s[i]) > list(e).count(s[i]):  # more often than the pseudocode ever does
        message = Message("compare.evaluated_again", fn=_function(tree, s[i]), got=s[i], eval=note)
    elif i >= len(e):
        message = Message("compare.evaluated_extra", fn=_function(tree, s[i]), got=s[i], eval=note)
    else:
        message = Message("compare.evaluated", fn=_function(tree, s[i]), got=s[i], want_fn=_function(tree, e[i]),
                          want=e[i], eval=note)
    return Finding("evaluated", node, time, message)


def _eval_words(trace: Trace, key: str) -> Message | str:
    """The words on EVAL (``key``) for a search with a depth limit; nothing for one without (minimax, alpha-beta),
    whose student never meets EVAL."""
    spec = Algorithm.named(trace.algorithm)
    return Message(key) if spec is not None and spec.depth_limited else ""


def _function(tree: Tree, node: object) -> str:
    """UTILITY for a terminal state (or one not in the tree), EVAL for an inner node estimated at a depth limit."""
    return "EVAL" if node in tree and not tree.is_leaf(node) else "UTILITY"


def board_departure(student: Trace, visited: list, game) -> Finding | None:
    """The first place a search on a game (tic-tac-toe) leaves the pseudocode's path, ``visited`` being the boards
    the reference generates, in order: after the boards both generated alike, the board the student's search
    generated next and the pseudocode's, each with the move and the board it came from, and the window the
    student's search held at its board. None when the two generated the same boards."""
    same = next((k for k, (got, want) in enumerate(zip(student.visited, visited)) if got != want),
                min(len(student.visited), len(visited)))
    if same == len(student.visited) == len(visited):
        return None
    prefix = student.visited[:same]
    got = student.visited[same] if same < len(student.visited) else None
    want = visited[same] if same < len(visited) else None
    params: dict = {"same": same}
    made = {side: made_from(game, student.root, [*prefix, board]) if board is not None else None
            for side, board in (("got", got), ("want", want))}
    for side, board in (("got", got), ("want", want)):
        if made[side] is not None:
            params |= {side: board_text(board), f"{side}_move": made[side][1], f"{side}_from": board_text(made[side][0])}
    if "got" in params and "want" in params:
        key = "compare.board_departure"
    else:
        key = "compare.board_departure_short" if "want" in params else "compare.board_departure_long"
    if not ({"got", "want"} & set(params)):
        return None
    window = _window_at(student, made["got"][0] if made["got"] is not None else None)
    message = Message(key, **params)
    if window is not None:
        message = Message("compare.board_window", text=message, board=board_text(window[0]),
                          alpha=shown(window[1]), beta=shown(window[2]))
    return Finding("order", got if got is not None else want, same, message)


def _window_at(student: Trace, board: object) -> tuple | None:
    """``(board, alpha, beta)`` of the student's latest call on ``board`` (None: no such call, or no window)."""
    calls = [c for c in student.calls if c.node == board and c.alpha is not None]
    return (board, calls[-1].alpha, calls[-1].beta) if calls else None
