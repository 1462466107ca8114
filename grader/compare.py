"""A student's trace held against the expected one: findings that name the node, the window, the cut.

Both ``abkit check`` and ``abkit grade`` turn these findings into feedback. The
expected trace comes from the reference (grading) or from the fixture alone
(:func:`abkit.expected.expected_trace`, in the student edition). Findings are
sorted by when they happen in the search, so the first one is where the
student's search first leaves the pseudocode's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from abkit.game import CHANCE, MAX
from abkit.i18n import Message
from abkit.trace import Trace, error_name
from abkit.tree import Tree

from .textree import fmt

KINDS = ("error", "window", "missed_cut", "extra_cut", "order", "duplicate", "evaluated", "return", "value", "action",
         "nodes", "leaves", "orders", "game")


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


def same_number(a: object, b: object) -> bool:
    if isinstance(a, bool) or isinstance(b, bool) or not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
        return a == b
    if math.isnan(a) or math.isnan(b):
        return False
    return a == b or math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def compare(student: Trace, expected: Trace, tree: Tree, prune_on_equality: bool = True) -> list[Finding]:
    """Every difference between the two traces, earliest first (empty: the student's search is exact)."""
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
    findings.extend(_calls(student, expected, tree, limit=divergence.time if divergence else None))
    if not divergence:
        evaluated = _evaluated(student, expected, tree)
        if evaluated:
            findings.append(evaluated)
    end = len(student.visited) + 1
    if student.error is None and not same_number(student.value, expected.value):
        findings.append(Finding("value", None, end, Message("compare.value", got=fmt(student.value), want=fmt(expected.value))))
    if student.error is None and student.action != expected.action:
        findings.append(Finding("action", None, end, Message("compare.action", got=_name(student.action),
                                                               want=_name(expected.action))))
    order = {kind: k for k, kind in enumerate(KINDS)}
    return sorted(findings, key=lambda f: (f.time, order[f.kind]))


def compare_counts(student: Trace, expected: Trace) -> list[Finding]:
    """Differences in what a search on a whole game (tic-tac-toe) is judged by: value, action, node and leaf counts.

    ``expected`` may be a :class:`~abkit.trace.CountedTrace`; a count it does not know (``None``) is not compared.
    """
    end = student.nodes or 0
    if student.error is not None:
        return [Finding("error", None, end, Message("compare.error", error=error_name(student.error)))]
    findings = []
    if not same_number(student.value, expected.value):
        findings.append(Finding("value", None, end, Message("compare.value", got=fmt(student.value), want=fmt(expected.value))))
    if student.action != expected.action:
        findings.append(Finding("action", None, end, Message("compare.action", got=_name(student.action),
                                                               want=_name(expected.action))))
    if expected.nodes is not None and student.nodes != expected.nodes:
        findings.append(Finding("nodes", None, end, Message("compare.nodes", got=student.nodes, want=expected.nodes)))
    if expected.leaves is not None and student.leaves != expected.leaves:
        findings.append(Finding("leaves", None, end, Message("compare.leaves", got=student.leaves, want=expected.leaves)))
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


# -- where the sequence of generated nodes first differs ----------------------

def _generation(student: Trace, expected: Trace, tree: Tree, rule: bool) -> Finding | None:
    s, e = student.visited, expected.visited
    i = next((k for k, (a, b) in enumerate(zip(s, e)) if a != b), min(len(s), len(e)))
    if i == len(s) == len(e):
        return None
    got = s[i] if i < len(s) else None
    want = e[i] if i < len(e) else None
    parents = tree.parents()
    if got is not None and got in s[:i] and s[:i + 1].count(got) > e.count(got):  # deepening: once per depth
        return Finding("duplicate", got, i, Message("compare.duplicate", node=got))
    if got is not None and got not in set(e):
        parent = parents.get(got)
        call = _call_on(expected, parent)
        if call is not None and parent in set(expected.evaluated):  # EVAL at the depth limit, not a cut-off
            return Finding("missed_cut", parent, i, Message("compare.depth_limit", node=parent,
                                                             value=fmt(expected.calls[call].value), next=got),
                           {"generated": got})
        if call is None:  # pragma: no cover - the student's earlier path equals the expected one
            return Finding("missed_cut", got, i, Message("compare.extra_node", node=got))
        return Finding("missed_cut", parent, i, Message("compare.missed_cut", state=_state(expected, call),
                                                         why=_cut_reason(expected, call, tree, rule),
                                                         next=got), {"generated": got})
    if got is not None and want is not None and parents.get(got) == parents.get(want):
        key = "compare.order_best_first" if expected.algorithm == "ordering" else "compare.order"
        return Finding("order", parents.get(want), i, Message(key, node=parents.get(want), want=want, got=got))
    parent = parents.get(want)
    call = _call_on(expected, parent)
    did = Message("compare.you_went", node=got) if got is not None else Message("compare.you_stopped")
    return Finding("extra_cut", parent, i, Message("compare.extra_cut", state=_state(expected, call),
                                                   why=_continue_reason(expected, call, want, rule), next=want, did=did),
                   {"skipped": want})


def _call_on(trace: Trace, node: object) -> int | None:
    return next((k for k, c in enumerate(trace.calls) if c.node == node), None)


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
    """Why the expected search stopped at call ``index``: v reached the bound after its last child."""
    call = trace.calls[index]
    kids = _children_so_far(trace, index)
    last = kids[-1] if kids else None
    rest = [c for c in tree.children.get(call.node, ()) if c not in {k.node for k in kids}]
    if call.player == MAX:
        relation, bound_name, bound = ("≥" if rule else ">"), "β", call.beta
    else:
        relation, bound_name, bound = ("≤" if rule else "<"), "α", call.alpha
    return Message("compare.cut_reason", node=call.node, child=last.node if last else "?",
                   value=fmt(last.value if last else None), v=fmt(call.value), rel=relation, bound_name=bound_name,
                   bound=fmt(bound), rest=", ".join(map(str, rest)))


def _continue_reason(trace: Trace, index: int | None, want: object, rule: bool) -> Message:
    """Why the expected search went on to ``want`` at call ``index``."""
    if index is None:  # pragma: no cover - want's parent is always on the expected path
        return Message("compare.first_child", next=want)
    call = trace.calls[index]
    kids = _children_so_far(trace, index, before=want)
    if not kids:
        return Message("compare.first_child", next=want)
    values = [k.value for k in kids]
    v = max(values) if call.player == MAX else min(values)
    if call.alpha is None:
        return Message("compare.minimax_continues", child=kids[-1].node, value=fmt(kids[-1].value), next=want)
    if call.player == MAX:
        relation, bound_name, bound = ("≥" if rule else ">"), "β", call.beta
    else:
        relation, bound_name, bound = ("≤" if rule else "<"), "α", call.alpha
    return Message("compare.no_cut_reason", child=kids[-1].node, value=fmt(kids[-1].value), v=fmt(v), rel=relation,
                   bound_name=bound_name, bound=fmt(bound), next=want)


# -- windows and returned values of the calls both searches made ---------------

def _calls(student: Trace, expected: Trace, tree: Tree, limit: int | None) -> list[Finding]:
    """The first call entered with another window, and the first returning another value (same path only)."""
    found: list[Finding] = []
    window_done = return_done = False
    parents = tree.parents()
    for s, e in zip(student.calls, expected.calls):
        if s.node != e.node or (limit is not None and s.visited_at > limit):
            break
        if s.synthetic or e.synthetic:
            continue
        if not window_done and e.alpha is not None and not (same_number(s.alpha, e.alpha) and same_number(s.beta, e.beta)):
            window_done = True
            hint = _window_hint(s, e, parents.get(s.node) == tree.root)
            found.append(Finding("window", s.node, s.visited_at,
                                 Message("compare.window", node=s.node, sa=fmt(s.alpha), sb=fmt(s.beta),
                                         ea=fmt(e.alpha), eb=fmt(e.beta), hint=hint)))
        if not return_done and s.value is not None and e.value is not None and not same_number(s.value, e.value):
            return_done = True
            key = "compare.return_chance" if e.player == CHANCE else "compare.return"
            found.append(Finding("return", s.node, s.returned_at if s.returned_at is not None else s.visited_at,
                                 Message(key, node=s.node, got=fmt(s.value), want=fmt(e.value))))
    return found


def _window_hint(s, e, child_of_root: bool) -> Message:
    full = (-math.inf, math.inf)
    if child_of_root and (s.alpha, s.beta) == full and (e.alpha, e.beta) != full:
        return Message("compare.hint.root_passes")
    if (s.alpha, s.beta) == full:
        return Message("compare.hint.pass_down")
    return Message("compare.hint.window")


def _evaluated(student: Trace, expected: Trace, tree: Tree) -> Finding | None:
    s, e = list(student.evaluated), expected.evaluated
    if tree.is_leaf(tree.root) and s == [tree.root] and e == []:
        return None  # UTILITY on a terminal root is allowed (contract §1)
    if s == e:
        return None
    i = next((k for k, (a, b) in enumerate(zip(s, e)) if a != b), min(len(s), len(e)))
    got = s[i] if i < len(s) else None
    want = e[i] if i < len(e) else None
    time = student.visited.index(got) if got in student.visited else len(student.visited)
    return Finding("evaluated", got if got is not None else want, time,
                   Message("compare.evaluated", got=_name(got), want=_name(want)))
