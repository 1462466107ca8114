"""A trace as a list of plain steps: what a step-through page shows, one search event at a time.

Everything a page displays comes from here (the page's script only shows these records), and the
tests hold the records against the trace they come from. Two readings of a trace:

- **calls** (:meth:`Trace.windows_complete`: one recorded MAX-VALUE/MIN-VALUE/CHANCE-VALUE call per generated
  node): a step per call entered (its window, as entered), per leaf evaluated, per child's value coming back to
  its parent, per return and per cut-off. For a *trusted* trace (the reference, or the fixture's expected one),
  the parent's running ``v`` and its updated α/β are the pseudocode's (``v ← MAX(v, child)``,
  ``α ← MAX(α, v)``); for a student's trace only what was recorded is shown: the windows entered, the values
  returned, which children were generated. A cut-off's relation (``v = 2 ≤ α = 3``) is stated only where it
  holds on the values shown.
- **observed** (anything else, or a student's search whose calls were not all recorded): a step per generated
  state and per evaluated state, the evaluated ones valued from the tree; never a window or a backed-up value
  the search did not report.

Each step carries ``changes``: what the drawing shows differently from the step before, per node
(``o`` visit number, ``wa``/``wb`` window, ``v`` value, ``s`` state: ``open``, ``done``, ``pruned``,
``eval``, ``faint``; ``x`` the cut mark on the edge into it; ``w`` a warning), and ``reset`` when the drawing
starts again (a new iteration of iterative deepening).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from abkit.compare import Finding
from abkit.game import CHANCE, MAX, MIN
from abkit.i18n import Message
from abkit.textree import cut_holds, cut_test, fmt, is_number, key
from abkit.trace import Call, Trace, error_name
from abkit.tree import Tree

from abkit.stepthrough.svgtree import short

#: the kinds of step, in the words of the page's legend
KINDS = ("start", "iteration", "enter", "leaf", "eval", "back", "cut", "return", "gen", "evaluated", "stray", "done")
#: a step after which the node has returned its value
RETURNS = ("leaf", "eval", "cut", "return")
#: the kinds that generate a node (each is one position of ``Trace.visited``)
GENERATES = ("enter", "leaf", "eval", "gen", "stray")


@dataclass
class Step:
    """One step of a search as a page shows it.

    kind: one of :data:`KINDS`; node: the node highlighted; call: its index in ``Trace.calls`` (calls reading);
    visit: the node's visit number (its 1-based position in ``visited``); window: ``(α, β)`` the node was entered
    with (``None``: not recorded, or a search without windows); v: the value shown at the node now (``shown``
    says whether there is one: a function may return ``None``); bounds: the node's α, β after the pseudocode's
    updates (trusted traces only); t: how many states had been generated after this step; say: the sentence;
    cut: the cut-off's test when it holds (``v = 2 ≤ α = 3``); pruned: the children a cut-off skipped.
    """

    kind: str
    node: Any
    t: int
    say: Message
    call: int | None = None
    visit: int | None = None
    window: tuple | None = None
    v: Any = None
    shown: bool = False
    bounds: tuple | None = None
    cut: Message | None = None
    pruned: list = field(default_factory=list)
    changes: list[tuple[Any, str, str]] = field(default_factory=list)
    reset: bool = False
    mark: str | None = None

    def window_text(self) -> str:
        """The window as the page writes it (``α = 3, β = +∞``), or ``""``."""
        return "" if self.window is None else f"α = {fmt(self.window[0])}, β = {fmt(self.window[1])}"

    def value_text(self) -> str:
        """The value as the page writes it (``3``, ``None``), or ``""`` when none is shown."""
        return ("None" if self.v is None else fmt(self.v)) if self.shown else ""


def reading(trace: Trace) -> str:
    """``"calls"`` when every generated node has its recorded call and the calls carry values, else ``"observed"``."""
    if not trace.windows_complete():
        return "observed"
    known = [c for c in trace.calls if not c.synthetic]
    return "calls" if any(c.value is not None or c.returned_at is not None for c in known) or not known else "observed"


def steps_of(trace: Trace, tree: Tree, rule: bool = True, trusted: bool = True) -> list[Step]:
    """The steps of ``trace`` on ``tree`` under the cut-off rule (``rule``: AIMA's ``v ≥ β``), see the module.

    ``trusted``: the trace is the pseudocode's (the reference's, or a fixture's expectation), so the parent's
    running value and bounds may be stated; a student's trace is read as recorded only.
    """
    if reading(trace) == "calls":
        steps = _Calls(trace, tree, rule, trusted).steps()
    else:
        steps = _observed(trace, tree, trusted)
    return steps


# -- the calls reading ------------------------------------------------------------

class _Calls:
    """The sweep over ``trace.calls`` in the order they began, closing each call when the next one is not its child."""

    def __init__(self, trace: Trace, tree: Tree, rule: bool, trusted: bool) -> None:
        self.trace, self.tree, self.rule, self.trusted = trace, tree, rule, trusted
        self.players = tree.players()
        self.out: list[Step] = []
        self.t = 1
        self.evaluated = [key(n) for n in trace.evaluated]
        self.made: dict[int, list[int]] = {}   # call -> its children's calls so far
        self.v: dict[int, Any] = {}            # call -> running v (trusted)
        self.bounds: dict[int, list] = {}      # call -> [alpha, beta] now (trusted)
        self.best: dict[int, Any] = {}         # synthetic root -> best action so far
        self.leafy: set[int] = set()           # calls that evaluated their node (UTILITY, or EVAL at the limit)

    def steps(self) -> list[Step]:
        calls, stack = self.trace.calls, []
        tops = [i for i, c in enumerate(calls) if c.parent is None]
        for i, call in enumerate(calls):
            while stack and stack[-1] != call.parent:
                self.finish(stack.pop())
            if call.parent is None and len(tops) > 1:
                self.iteration(tops.index(i) + 1)
            elif i == 0:
                self.out.append(Step("start", call.node, 0, _start(self.trusted), reset=True))
            self.enter(i)
            stack.append(i)
        while stack:
            self.finish(stack.pop())
        self.done()
        return self.out

    # the value a call shows once it returned: the trace's
    def _returned(self, i: int) -> tuple[Any, bool]:
        call = self.trace.calls[i]
        return call.value, call.value is not None or call.returned_at is not None or self.trusted

    def iteration(self, k: int) -> None:
        self.out.append(Step("iteration", self.trace.root, self.t, Message("steps.iteration", k=k), reset=True))

    def enter(self, i: int) -> None:
        call, tree = self.trace.calls[i], self.tree
        node = key(call.node)
        parent = call.parent
        if parent is not None:
            self.made.setdefault(parent, []).append(i)
        visit = 1 if call.parent is None and node == key(self.trace.root) else max(call.visited_at, 1)
        self.t = max(self.t, visit if call.parent is not None else self.t)
        window = (call.alpha, call.beta) if call.alpha is not None or call.beta is not None else None
        if call.synthetic and not self.trusted:  # no call on the root was seen: no window either
            window = None
        changes = [(node, "o", str(visit)), (node, "s", "open")]
        if window is not None and not (node in tree and tree.is_leaf(node)):
            changes += [(node, "wa", f"α={fmt(window[0])}"), (node, "wb", f"β={fmt(window[1])}")]
        state = {"call": i, "visit": visit, "window": window, "t": self.t}
        if self._evaluates(i):  # a terminal state, or a state at the depth limit: valued at once
            self._valued_at_once(i, changes, state)
            return
        v, shown = None, False
        if self.trusted:
            player = call.player
            self.v[i] = v = -math.inf if player == MAX else math.inf if player == MIN else 0
            self.bounds[i] = [call.alpha, call.beta]
            shown = True
        bounds = tuple(self.bounds[i]) if self.trusted else None
        self.out.append(Step("enter", node, say=_entering(call, window, self.trusted), v=v, shown=shown, bounds=bounds,
                             changes=changes, **state))

    def _valued_at_once(self, i: int, changes: list, state: dict) -> None:
        """Call ``i`` valued its node with UTILITY (a leaf) or EVAL (at the depth limit): one step, its value."""
        call, tree = self.trace.calls[i], self.tree
        node = key(call.node)
        self.leafy.add(i)
        value, shown = self._returned(i)
        leaf = node in tree and tree.terminal(node)
        kind = "leaf" if leaf else "eval"
        changes += [(node, "s", "done" if leaf else "eval"), (node, "v", _short(value) if shown else "")]
        if not leaf and node in tree:  # the subtree below a node valued by EVAL is never searched
            changes += [(n, "s", "faint") for n in tree.preorder(node) if n != node]
        say = Message(f"steps.{kind}", node=call.node, value=_text(value))
        self.out.append(Step(kind, node, say=say, v=value, shown=shown, changes=changes, **state))

    def _evaluates(self, i: int) -> bool:
        """Whether call ``i`` valued its own node with UTILITY or EVAL (the next state evaluated is its node, and it
        made no call below it)."""
        call = self.trace.calls[i]
        nxt = i + 1
        has_child = nxt < len(self.trace.calls) and self.trace.calls[nxt].parent == i
        at = call.evaluated_at
        return not has_child and at < len(self.evaluated) and self.evaluated[at] == key(call.node)

    def finish(self, i: int) -> None:
        """Call ``i`` returns (a return or a cut-off step unless it was valued at once), then its parent gets its value."""
        call = self.trace.calls[i]
        if i not in self.leafy and not (call.synthetic and not self.trusted):  # (the root's value: the last step)
            self.close(i)
        if call.parent is not None:
            self.back(call.parent, i)

    def close(self, i: int) -> None:
        call, tree = self.trace.calls[i], self.tree
        node = key(call.node)
        made = {key(self.trace.calls[k].node) for k in self.made.get(i, [])}
        rest = [c for c in tree.children.get(node, ()) if c not in made] if node in tree else []
        value, shown = self._returned(i)
        window = (call.alpha, call.beta) if call.alpha is not None or call.beta is not None else None
        changes = [(node, "s", "done"), (node, "v", _short(value) if shown else "")]
        common = {"call": i, "visit": self._visit(i), "window": window, "t": self.t, "v": value, "shown": shown,
                  "bounds": tuple(self.bounds[i]) if i in self.bounds else None}
        if rest and self.made.get(i):
            for child in rest:
                changes.append((child, "x", "1"))
                changes += [(n, "s", "pruned") for n in tree.preorder(child)]
            relation = self._relation(call.player, value, window)
            say = _cutting(call, value, ", ".join(map(str, rest)), relation, self.trusted)
            self.out.append(Step("cut", node, say=say, cut=relation, pruned=list(rest), changes=changes, **common))
            return
        key_ = "steps.return" if self.trusted else "steps.your_return"
        if not self.made.get(i) and node in tree and not tree.is_leaf(node):
            key_ = "steps.your_return_early" if not self.trusted else key_
        self.out.append(Step("return", node, say=Message(key_, node=call.node, v=_text(value)), changes=changes,
                             **common))

    def _relation(self, player: str, value: Any, window: tuple | None) -> Message | None:
        """``v = 2 ≤ α = 3`` when the cut-off test holds on ``value`` and the window entered, else ``None``."""
        if window is None or not cut_holds(player, value, window[0], window[1], self.rule):
            return None
        rel, bound, at = cut_test(player, self.rule)
        return Message("steps.test", v=fmt(value), rel=rel, bound=bound, value=fmt(window[at]))

    def _visit(self, i: int) -> int:
        call = self.trace.calls[i]
        return 1 if call.parent is None and key(call.node) == key(self.trace.root) else max(call.visited_at, 1)

    def back(self, parent: int, i: int) -> None:
        """The value of call ``i`` comes back to ``parent``: the parent's running value (trusted) or the bare fact."""
        p, child = self.trace.calls[parent], self.trace.calls[i]
        node = key(p.node)
        value, shown = self._returned(i)
        window = (p.alpha, p.beta) if p.alpha is not None or p.beta is not None else None
        common = {"call": parent, "visit": self._visit(parent), "window": window, "t": self.t}
        if not self.trusted or not is_number(value) or not is_number(self.v.get(parent)):
            say = Message("steps.your_back" if not self.trusted else "steps.back_plain", child=child.node, node=p.node, value=_text(value))
            self.out.append(Step("back", node, say=say, changes=[(node, "s", "open")], **common))
            return
        v, bounds = self.v[parent], self.bounds[parent]
        params = {"child": child.node, "node": p.node, "value": _text(value)}
        if p.player == CHANCE:
            probability = self.tree.probabilities.get(key(child.node), 0)
            v = v + probability * value
            say = Message("steps.back_chance", p=fmt(round(probability, 4)), v=fmt(v), **params)
        elif p.player == MAX:
            better = value > v
            v = max(v, value)
            say = self._bound(parent, v, better, "max", params)
        else:
            better = value < v
            v = min(v, value)
            say = self._bound(parent, v, better, "min", params)
        self.v[parent] = v
        changes = [(node, "v", _short(v)), (node, "s", "open")]
        self.out.append(Step("back", node, say=say, v=v, shown=True, bounds=tuple(bounds), changes=changes, **common))

    def _bound(self, parent: int, v: Any, better: bool, side: str, params: dict) -> Message:
        """Update the parent's α (MAX) or β (MIN) unless the cut-off test holds; the sentence saying so."""
        p, bounds = self.trace.calls[parent], self.bounds[parent]
        if p.alpha is None and p.beta is None:  # minimax, expectiminimax: no window
            return Message(f"steps.back_{side}_plain", v=fmt(v), **params)
        if cut_holds(p.player, v, bounds[0], bounds[1], self.rule):
            return Message(f"steps.back_{side}_cut", v=fmt(v), **params)
        if p.synthetic:  # ALPHA-BETA-SEARCH's own loop: the first action, or a better one, becomes the best
            if self.best.get(parent) is None or better:
                self.best[parent] = params["child"]
        if side == "max":
            bounds[0] = max(bounds[0], v)
        else:
            bounds[1] = min(bounds[1], v)
        bound = fmt(bounds[0] if side == "max" else bounds[1])
        if p.synthetic:
            return Message(f"steps.back_root_{side}", v=fmt(v), bound=bound, action=self.best[parent], **params)
        return Message(f"steps.back_{side}", v=fmt(v), bound=bound, **params)

    def done(self) -> None:
        self.out.append(_done(self.trace, self.tree, self.t, self.trusted))


def _entering(call: Call, window: tuple | None, trusted: bool) -> Message:
    """What a step entering an internal node says: the pseudocode's call and its window (trusted), or what the
    student's search was seen to do (their function's call, or their own loop over the root's actions)."""
    player = call.player
    if trusted:
        start = {MAX: "steps.enter_max", MIN: "steps.enter_min", CHANCE: "steps.enter_chance"}.get(player,
                                                                                               "steps.enter_max")
        if window is None and player != CHANCE:
            start += "_plain"
        return Message(start, node=call.node, alpha=fmt(call.alpha), beta=fmt(call.beta))
    if call.synthetic:  # the search loops over the root's actions itself (or its call was not recorded)
        return Message("steps.your_root", node=call.node)
    function = {MAX: "MAX-VALUE", MIN: "MIN-VALUE", CHANCE: "CHANCE-VALUE"}.get(player, "?")
    return Message("steps.your_enter" if window is not None else "steps.your_enter_plain", function=function,
                   node=call.node, alpha=fmt(call.alpha), beta=fmt(call.beta))


def _cutting(call: Call, value: Any, pruned: str, relation: Message | None, trusted: bool) -> Message:
    """What a step says where a call returns before its last child: the cut-off test that held (trusted: the
    pseudocode's), or, for the student's search, the test seen to hold, or only that it stopped early."""
    if trusted:
        return Message("steps.cut", node=call.node, v=_text(value), pruned=pruned,
                       test=relation or Message("steps.no_test"))
    if relation is not None:
        return Message("steps.your_cut", node=call.node, v=_text(value), pruned=pruned, test=relation)
    return Message("steps.your_stop", node=call.node, v=_text(value), pruned=pruned)


def _done(trace: Trace, tree: Tree, t: int, trusted: bool, changes: list | None = None) -> Step:
    """The last step: the root's value (and action), or the error that stopped the search."""
    root = key(trace.root)
    changes = list(changes or [])
    if trace.error is not None:
        say = Message("steps.your_error", error=error_name(trace.error))
    elif trace.action is None and trace.root != tree.root:  # a direct call on an inner node
        say = Message("steps.done_call" if trusted else "steps.your_done_call", node=trace.root,
                      value=_text(trace.value))
    else:
        say = Message("steps.done" if trusted else "steps.your_done", value=_text(trace.value),
                      action="None" if trace.action is None else str(trace.action))
    shown = trace.error is None
    if shown:
        changes += [(root, "v", _short(trace.value)), (root, "s", "done")]
    return Step("done", root, t, say, v=trace.value if shown else None, shown=shown, changes=changes,
                visit=1)


# -- the observed reading ---------------------------------------------------------

def _start(trusted: bool) -> Message:
    """The first step's sentence: the pseudocode's search, or the student's as recorded."""
    return Message("steps.start" if trusted else "steps.your_start")


def _observed(trace: Trace, tree: Tree, trusted: bool) -> list[Step]:
    """A step per generated state and per evaluated state (valued from the tree); the children never generated
    shown pruned at the end, without a reason (none was observed)."""
    from abkit.textree import drawing

    parents = tree.parents()
    out = [Step("start", key(trace.root), 0, _start(trusted), reset=True)]
    evaluated = [key(n) for n in trace.evaluated]
    seen: set = set()
    e = 0
    prefix = "steps." if trusted else "steps.your_"
    for i, raw in enumerate(trace.visited):
        node = key(raw)
        visit = i + 1
        if i > 0 and (node not in tree or key(parents.get(node)) not in seen):
            out.append(Step("stray", node, visit, Message("steps.stray", node=raw), visit=visit,
                            changes=[(node, "o", str(visit)), (node, "s", "open")] if node in tree else []))
        else:
            key_ = "steps.root" if i == 0 else f"{prefix}gen"
            out.append(Step("gen", node, visit, Message(key_, node=raw, visit=visit), visit=visit,
                            changes=[(node, "o", str(visit)), (node, "s", "open")]))
        seen.add(node)
        while e < len(evaluated) and evaluated[e] in seen:
            out.append(_evaluated_step(evaluated[e], trace, tree, visit, prefix))
            e += 1
    while e < len(evaluated):
        out.append(_evaluated_step(evaluated[e], trace, tree, len(trace.visited), prefix))
        e += 1
    changes = []
    for d in drawing(trace, tree).nodes():
        if d.kind in ("pruned", "skipped", "not_reached") and d.node in tree:
            if d.kind != "skipped":  # a child a minimax search skipped was not cut off: greyed, not crossed out
                changes.append((d.node, "x", "1"))
            changes += [(n, "s", "pruned") for n in tree.preorder(d.node)]
    out.append(_done(trace, tree, len(trace.visited), trusted, changes))
    return out


def _evaluated_step(node: Any, trace: Trace, tree: Tree, t: int, prefix: str) -> Step:
    """UTILITY (a terminal state) or EVAL (a state at the depth limit) on ``node``, valued from the tree."""
    leaf = node in tree and tree.terminal(node)
    value = tree.utilities.get(node, tree.heuristics.get(node)) if node in tree else None
    changes = [(node, "s", "done" if leaf else "eval")]
    if not leaf and node in tree:
        changes += [(node, "v", _short(value))] + [(n, "s", "faint") for n in tree.preorder(node) if n != node]
    function = "UTILITY" if leaf or node not in tree else "EVAL"
    return Step("evaluated", node, t, Message(f"{prefix}evaluated", function=function, node=node,
                                              value=_text(value)),
                v=value, shown=value is not None, changes=changes)


# -- reading steps --------------------------------------------------------------------

def divergence(steps: list[Step], finding: Finding | None) -> int | None:
    """The index of the step where ``finding`` (the first difference, :func:`abkit.compare.compare`) happens."""
    if finding is None or not steps:
        return None
    kind, node, time = finding.kind, key(finding.node), finding.time
    if kind in ("missed_cut", "extra_cut", "order", "duplicate"):  # the state generated at position ``time``
        return next((k for k, s in enumerate(steps) if s.kind in GENERATES and s.visit == time + 1), len(steps) - 1)
    if kind == "window":
        return next((k for k, s in enumerate(steps) if s.kind in GENERATES and s.node == node and s.visit == time),
                    _first_at(steps, time))
    if kind == "return":
        found = [k for k, s in enumerate(steps) if s.node == node and s.kind in RETURNS and s.t <= time]
        return found[-1] if found else _first_at(steps, time)
    if kind == "evaluated":
        return next((k for k, s in enumerate(steps) if s.node == node and s.kind in ("leaf", "eval", "evaluated")),
                    _first_at(steps, time))
    return len(steps) - 1  # the root's value or action, an error: the end of the search


def _first_at(steps: list[Step], time: int) -> int:
    return next((k for k, s in enumerate(steps) if s.t >= time), len(steps) - 1)


def aligned(steps: list[Step], other: list[Step]) -> list[int]:
    """For each step of ``steps``, the last step of ``other`` taken by the time as many states had been generated."""
    out, j = [], 0
    for step in steps:
        while j + 1 < len(other) and other[j + 1].t <= step.t:
            j += 1
        out.append(j)
    return out


def final_bounds(steps: list[Step]) -> dict[Any, tuple]:
    """Node -> its α, β when it returned (after the pseudocode's last update), for a trusted trace's steps."""
    out = {}
    for step in steps:
        if step.kind in ("cut", "return") and step.bounds is not None:
            out.setdefault(step.node, step.bounds)
    return out


def _text(value: Any) -> str:
    return "None" if value is None else fmt(value)


def _short(value: Any) -> str:
    return "None" if value is None else short(value) if isinstance(value, (int, float)) else str(value)
