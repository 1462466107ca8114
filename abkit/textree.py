"""A search trace drawn as a text tree: visit numbers, windows, values and cut-offs.

Used by ``abkit trace`` and by the student feedback. It draws from the states
the search generated and evaluated (the game's own record), so what it shows is
what the search did whatever way its code is written: a node generated twice
shows twice, a child never generated shows where it sits in the tree, marked as
pruned. Windows and the values inner nodes returned come from the recorded
MAX-VALUE/MIN-VALUE calls, and are drawn only when those are complete.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass, field

from abkit.algorithms import Algorithm
from abkit.game import CHANCE, MAX, MIN
from abkit.i18n import t
from abkit.trace import Trace, prunes
from abkit.tree import Tree


@dataclass(frozen=True)
class Glyphs:
    """The characters a tree is drawn with (Unicode, or ASCII for old consoles)."""

    tee: str = "├─ "
    last: str = "└─ "
    bar: str = "│  "
    gap: str = "   "
    inf: str = "∞"
    alpha: str = "α"
    beta: str = "β"
    ge: str = "≥"
    le: str = "≤"
    arrow: str = "→"
    cut: str = "✂"
    warn: str = "⚠"
    ok: str = "✓"
    bad: str = "✗"
    todo: str = "○"  # an exercise not started yet


UNICODE = Glyphs()
ASCII = Glyphs("|- ", "`- ", "|  ", "   ", "inf", "alpha", "beta", ">=", "<=", "->", "x", "!!", "ok", "XX", "--")


def glyphs_for(stream=None) -> Glyphs:
    """Unicode glyphs when ``stream`` (default stdout) can encode them, else ASCII."""
    encoding = getattr(stream or sys.stdout, "encoding", None) or "ascii"
    try:
        "".join(vars(UNICODE).values()).encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return ASCII
    return UNICODE


def fmt(value: object, g: Glyphs = UNICODE) -> str:
    """A number as a student writes it: 3, 2.5, -∞, +∞.

    >>> fmt(3.0), fmt(-math.inf), fmt(2.5), fmt(None), fmt(22 / 6)
    ('3', '-∞', '2.5', '?', '3.6667')
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return "?" if value is None else repr(value)
    if math.isinf(value):
        return ("+" if value > 0 else "-") + g.inf
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, float):
        text = repr(value)
        return text if len(text) <= 8 else f"{value:.4f}".rstrip("0")
    return str(value)


def window(alpha: object, beta: object, g: Glyphs = UNICODE) -> str:
    return f"[{g.alpha}={fmt(alpha, g)}, {g.beta}={fmt(beta, g)}]"


def cut_holds(player: object, value: object, alpha: object, beta: object, prune_on_equality: bool = True) -> bool:
    """Whether a MAX (MIN) node that returned ``value`` in the window (``alpha``, ``beta``) meets the cut-off test.

    >>> cut_holds("MIN", -3, -math.inf, 5), cut_holds("MIN", 3, 3, 5), cut_holds("MIN", 3, 3, 5, False)
    (False, True, False)
    """
    bound = beta if player == MAX else alpha if player == MIN else None
    if not (is_number(value) and is_number(bound)):
        return False
    if player == MAX:
        return value > bound or (prune_on_equality and value == bound)
    return value < bound or (prune_on_equality and value == bound)


def cut_test(player: object, prune_on_equality: bool = True) -> tuple[str, str, int]:
    """The cut-off test at a MAX (MIN) node: its relation, the bound's name, and the bound's place in (α, β).

    >>> cut_test("MAX"), cut_test("MIN", prune_on_equality=False)
    (('≥', 'β', 1), ('<', 'α', 0))
    """
    if player == MAX:
        return ("≥" if prune_on_equality else ">"), "β", 1
    return ("≤" if prune_on_equality else "<"), "α", 0


def is_number(x: object) -> bool:
    """Whether ``x`` is a number a search can compare (an int or float, not a bool, not NaN)."""
    return isinstance(x, (int, float)) and not isinstance(x, bool) and not (isinstance(x, float) and math.isnan(x))


def key(node: object) -> object:
    """``node`` itself when it can be a set member, else a stand-in made of its text (odd data never crashes)."""
    try:
        hash(node)
    except TypeError:
        return ("<unhashable>", repr(node))
    return node


@dataclass
class Drawn:
    """One node of a drawn search; the text is made from these.

    kind: ``"searched"`` (generated), ``"pruned"`` (a child of a searched inner node that was never generated
    there), ``"skipped"`` (the same, in a search without cut-offs), ``"not_reached"`` (the same, when the search
    raised) or ``"stray"`` (generated, but not below any
    node generated before it). visit: its 1-based position in ``visited`` (the root: 1). window: the (α, β)
    it was entered with and ``value`` what it returned, shown only where recorded (``known``); else a leaf's
    utility or an EVAL value from the tree when the search evaluated it. estimated: EVAL at a depth limit.
    cut: ``(v, bound)`` when a cut-off is drawn (only where it holds). leaf: a terminal state of the tree;
    recorded: a MAX-VALUE/MIN-VALUE call on it was matched to it (windows complete). mark: ``"extra"`` (the expected
    search does not generate it), ``"missing"`` (pruned, the expected one generates it), ``"below"`` (estimated,
    the expected one searches below it), ``"unevaluated"`` (a leaf the expected one evaluates) or ``"value"`` (its
    recorded call returned another value than the expected search's call on it, ``wanted``). size: nodes in a
    pruned subtree. chance: P(r) of an outcome of a chance node, as drawn (``1/6``), else ``""``.
    """

    node: object
    label: str
    kind: str = "searched"
    visit: int = 1
    player: str | None = None
    window: tuple | None = None
    value: object = None
    known: bool = False
    estimated: bool = False
    cut: tuple | None = None
    mark: str | None = None
    size: int = 1
    leaf: bool = False
    recorded: bool = False
    chance: str = ""
    wanted: object = None
    children: list["Drawn"] = field(default_factory=list)


@dataclass
class Drawing:
    """A search as drawn: one root per search of the root (iterative deepening searches it once per depth).

    iterations: the roots are the search's own top-level calls on the root, one per depth (else several
    roots are searches of the root told apart by its children being generated again). strays: generated
    states that are not below any node generated before them. width: of the widest visit number.
    """

    roots: list[Drawn]
    width: int = 1
    iterations: bool = False
    strays: list[Drawn] = field(default_factory=list)

    def nodes(self) -> list[Drawn]:
        """Every drawn node, roots and strays included, parents before children."""
        out, stack = [], list(reversed(self.roots + self.strays))
        while stack:
            d = stack.pop()
            out.append(d)
            stack.extend(reversed(d.children))
        return out


def drawable(trace: Trace | None, tree: Tree | None) -> bool:
    """Whether ``trace`` can be drawn on ``tree``: it generated something, at most about twice the tree (a drawing
    hangs each generated state below its tree parent, so it is never deeper than the tree; a board game has no tree)."""
    return trace is not None and tree is not None and 0 < len(trace.visited) <= 2 * len(tree) + 2


def drawing(trace: Trace, tree: Tree, prune_on_equality: bool = True, expected: Trace | None = None) -> Drawing:
    """What :func:`render_tree` draws, made from the states the search generated and evaluated.

    Each generated state hangs below the latest occurrence of its parent; the children of a searched inner
    node never generated there are pruned (nothing is below a state EVAL estimated, and in a single search
    a child generated elsewhere is not drawn as pruned). Windows and returned values are drawn only when
    :meth:`Trace.windows_complete` (one recorded MAX-VALUE/MIN-VALUE call per generated node); otherwise
    only the utilities and EVAL values, from the tree, of the states the search evaluated. A cut-off is
    drawn only where its test holds on the drawn values. With ``expected``, ``mark`` says where the two differ.
    """
    visited = [key(n) for n in trace.visited]
    if not visited or visited[0] not in tree:
        return Drawing([])
    roots, strays, occurrences = _occurrences(trace, tree, visited)
    evaluated = {key(n) for n in trace.evaluated}
    iterations = _add_values(trace, tree, roots, occurrences, evaluated)
    if expected is not None and trace.calls and trace.calls[0].synthetic:  # a student's search that loops over the
        root = roots[0]  # root itself: no call on it was observed (its value is a separate call's, told apart)
        root.window, root.value, root.known, root.recorded = None, None, False, False
    generated = set(visited) if len(roots) == 1 else None
    for d in [d for root in roots for d in _subtree(root)]:
        _add_skipped(d, tree, evaluated, generated, trace.error is not None, prune_on_equality,
                     not prunes(trace.algorithm))
    drawn = Drawing(roots, len(str(len(visited))), iterations, strays)
    if expected is not None:
        _add_marks(drawn, expected, evaluated)
    return drawn


def _add_marks(drawn: Drawing, expected: Trace, evaluated: set) -> None:
    """Where the drawn search leaves the expected one's generated and evaluated states."""
    wanted, estimated = {key(n) for n in expected.visited}, {key(n) for n in expected.evaluated}
    returned = _returned(expected)
    for d in drawn.nodes():
        if d.kind in ("searched", "stray") and d.node not in wanted:
            d.mark = "extra"
        elif d.kind in ("pruned", "skipped") and d.node in wanted:
            d.mark = "missing"
        elif d.kind == "searched" and d.estimated and d.node not in estimated:
            d.mark = "below"  # estimated by EVAL where the expected search goes on below
        elif d.kind == "searched" and d.leaf and d.node in estimated and d.node not in evaluated:
            d.mark = "unevaluated"
        elif d.kind == "searched" and d.recorded and d.known and d.node in returned \
                and not same_number(d.value, returned[d.node]):
            d.mark, d.wanted = "value", returned[d.node]


def _returned(expected: Trace) -> dict:
    """What the expected search's MAX-VALUE/MIN-VALUE call on each node returned, when its calls are a full record
    made once per node (a single search); else nothing."""
    if not expected.windows_complete():
        return {}
    calls = [c for c in expected.calls if not c.synthetic and c.value is not None]
    values = {key(c.node): c.value for c in calls}
    return values if len(values) == len(calls) else {}


def same_number(a: object, b: object) -> bool:
    """Whether two values are the same: numbers to rounding (an expectation is a sum of products; NaN is no number's
    equal), others by ``==``; never raises (a student's value may be an object whose ``==`` does, or an int too
    large for a float)."""
    try:
        if isinstance(a, bool) or isinstance(b, bool) or not isinstance(a, (int, float)) \
                or not isinstance(b, (int, float)):
            return bool(a == b)
        if math.isnan(a) or math.isnan(b):
            return False
        return a == b or math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    except Exception:  # noqa: BLE001 - OverflowError, or a student's __eq__/__bool__
        return False


def _occurrences(trace: Trace, tree: Tree, visited: list) -> tuple[list[Drawn], list[Drawn], list[Drawn | None]]:
    """The searches of the root, the strays, and the drawn node of each position of ``visited``.

    In iterative deepening a root's child generated again begins a new search of the root.
    """
    parents, players = tree.parents(), tree.players()
    deepening = trace.algorithm == Algorithm.ORDERING
    labels = [str(n) for n in trace.visited]
    root = Drawn(visited[0], labels[0], player=players.get(visited[0]), leaf=tree.is_leaf(visited[0]))
    roots, strays, occurrences, latest = [root], [], [root], {visited[0]: root}
    for i in range(1, len(visited)):
        node = visited[i]
        parent = latest.get(parents.get(node)) if node in tree else None
        d = Drawn(node, labels[i], visit=i + 1, player=players.get(node), leaf=node in tree and tree.is_leaf(node))
        if parent is None:
            d.kind = "stray"
            strays.append(d)
            occurrences.append(None)
            continue
        if deepening and parent is roots[-1] and any(c.node == node for c in parent.children):
            parent = Drawn(visited[0], labels[0], player=root.player, leaf=root.leaf)
            roots.append(parent)
            latest = {visited[0]: parent}
        if parent.player == CHANCE and node in tree.probabilities:
            d.chance = probability_text(tree.probabilities[node])
        parent.children.append(d)
        latest[node] = d
        occurrences.append(d)
    return roots, strays, occurrences


def probability_text(p: float) -> str:
    """A probability as a reader checks it: a simple fraction when it is one (``1/6``), else the number.

    >>> probability_text(1 / 6), probability_text(0.25), probability_text(0.123456)
    ('1/6', '1/4', '0.123456')
    """
    from fractions import Fraction

    near = Fraction(p).limit_denominator(100)
    return f"{near.numerator}/{near.denominator}" if abs(float(near) - p) < 1e-9 and near.denominator > 1 else fmt(p)


def _add_values(trace: Trace, tree: Tree, roots: list[Drawn], occurrences: list, evaluated: set) -> bool:
    """Fill in windows and values; whether the roots are the search's own calls on the root, one per depth."""
    complete = trace.windows_complete()
    if complete:
        top = [c for c in trace.calls if c.parent is None]
        inner = [c for c in trace.calls if not (c.parent is None and c.node == trace.root)]
        for d, call in zip(occurrences[1:], inner):
            if d is not None:
                _set_call(d, call)
        if len(top) == len(roots):
            for d, call in zip(roots, top):
                _set_call(d, call)
    for d in [d for root in roots for d in _subtree(root)]:
        d.estimated = not d.children and not tree.is_leaf(d.node) and d.node in evaluated
        if not complete and d.node in evaluated and (tree.is_leaf(d.node) or d.estimated):
            value = tree.utilities.get(d.node, tree.heuristics.get(d.node))
            d.value, d.known = value, value is not None
    return complete and len(roots) > 1 and len([c for c in trace.calls if c.parent is None]) == len(roots)


def _set_call(d: Drawn, call) -> None:
    if call.alpha is not None or call.beta is not None:
        d.window = (call.alpha, call.beta)
    d.value, d.known = call.value, call.value is not None or call.returned_at is not None
    d.recorded = True


def _subtree(d: Drawn) -> list[Drawn]:
    out, stack = [], [d]
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(reversed(node.children))
    return out


def _add_skipped(d: Drawn, tree: Tree, evaluated: set, generated: set | None, error: bool, rule: bool,
                 minimax: bool = False) -> None:
    """Draw the children of ``d`` it never generated as pruned (``not_reached`` after an error; ``skipped`` in a
    search without cut-offs, ``minimax``: nothing was pruned there, they were not searched), in tree order.

    ``generated``: every state the search generated (a single search), whose children are never drawn pruned.
    """
    if d.kind != "searched" or d.estimated or tree.is_leaf(d.node) or d.node not in tree.children:
        return
    kids = tree.children[d.node]
    made = {c.node for c in d.children}
    skipped = [c for c in kids if c not in made and (generated is None or c not in generated)]
    if not skipped:
        return
    kind = "not_reached" if error else "skipped" if minimax else "pruned"
    d.children += [Drawn(c, str(c), kind, 0, size=sum(1 for _ in tree.preorder(c))) for c in skipped]
    order = {name: k for k, name in enumerate(kids)}
    d.children.sort(key=lambda c: order.get(c.node, len(order)))
    if not error and d.window is not None and d.known and cut_holds(d.player, d.value, *d.window, rule):
        d.cut = (d.value, d.window[1] if d.player == MAX else d.window[0])


def render_tree(trace: Trace, tree: Tree, prune_on_equality: bool = True, lang: str = "en",
                g: Glyphs = UNICODE, expected: Trace | None = None) -> list[str]:
    """The search as lines of a text tree, the root first: :func:`drawing` in words.

    With ``expected``, nodes this search generated but the expected one did not
    are marked "should be cut", and children it skipped that the expected one
    searched are marked "not searched".
    """
    drawn = drawing(trace, tree, prune_on_equality, expected)
    lines: list[str] = []
    for k, root in enumerate(drawn.roots):
        if len(drawn.roots) > 1:  # iterative deepening: one search of the root per depth
            lines.append(t("trace.iteration", lang, depth=k + 1) if drawn.iterations else
                         t("trace.search_again", lang, count=k + 1))
        _draw(root, "", "", drawn.width, prune_on_equality, lang, g, lines)
    for d in drawn.strays:
        lines.append(f"#{d.visit:<{drawn.width}} {d.label}   {t('trace.stray', lang)}{_mark(d, lang, g)}")
    return lines


def _draw(d: Drawn, prefix: str, branch: str, width: int, rule: bool, lang: str, g: Glyphs, lines: list[str]) -> None:
    lines.append(f"#{d.visit:<{width}} {prefix}{branch}{_text(d, rule, lang, g)}")
    below = prefix + ("" if not branch else (g.gap if branch == g.last else g.bar))
    for k, child in enumerate(d.children):
        twig = g.last if k == len(d.children) - 1 else g.tee
        if child.kind == "searched":
            _draw(child, below, twig, width, rule, lang, g, lines)
            continue
        extra = t("trace.subtree", lang, count=child.size) if child.size > 1 else ""
        skipped = f"{g.cut} {t('trace.pruned', lang)}" if child.kind == "pruned" else t(f"trace.{child.kind}", lang)
        lines.append(f"{' ' * (width + 1)} {below}{twig}{child.label}  {skipped}{extra}{_mark(child, lang, g)}")


def _text(d: Drawn, rule: bool, lang: str, g: Glyphs) -> str:
    """A searched node's line after the tree's branches: name, player, window, value, cut-off, mark."""
    value = (fmt(d.value, g) if d.value is not None else "None") if d.known else "?"
    shown = d.known or d.recorded
    label = f"{d.label}  P={d.chance}" if d.chance else d.label  # an outcome of a chance node, with its probability
    if d.leaf or d.player is None:  # (a leaf's probability after its value: "B1 = 3  (P=1/6)", not "P=1/6 = 3")
        text = f"{d.label} = {value}" if shown else d.label
        text += f"  (P={d.chance})" if d.chance else ""
    else:
        player = t({MAX: "trace.max", CHANCE: "trace.chance"}.get(d.player, "trace.min"), lang)
        win = f"  {window(*d.window, g)}" if d.window is not None else ""
        text = f"{label}  {player}{win}"
        if d.estimated:
            text += f"  {t('trace.eval', lang)}" + (f" = {value}" if shown else "")
        elif shown:
            text += f"  {g.arrow} {value}"
            if d.player == CHANCE:
                text += "   " + t("trace.expectation", lang)
            if d.cut is not None:
                v, bound = (fmt(x, g) for x in d.cut)
                if d.player == MAX:
                    text += "   " + t("trace.cut_max", lang, cut=g.cut, v=v, rel=g.ge if rule else ">", beta=g.beta, bound=bound)
                else:
                    text += "   " + t("trace.cut_min", lang, cut=g.cut, v=v, rel=g.le if rule else "<", alpha=g.alpha, bound=bound)
    return text + _mark(d, lang, g)


def _mark(d: Drawn, lang: str, g: Glyphs) -> str:
    return f"   {g.warn} {t('trace.mark.' + d.mark, lang, value=fmt(d.wanted, g))}" if d.mark else ""


def render_summary(trace: Trace, tree: Tree, lang: str = "en", g: Glyphs = UNICODE) -> str:
    """One line: value, action, node count, states evaluated, pruned subtrees (a whole game, ``tree`` None, has no
    tree to name them in: the line says it is not drawn)."""
    words = dict(value=fmt(trace.value, g), action=trace.action if trace.action is not None else "-",
                 nodes=fmt(trace.nodes, g), leaves=fmt(trace.leaves, g))
    if tree is None:
        return t("trace.summary_game", lang, **words)
    pruned = trace.pruned(tree)  # minimax cuts nothing: what it did not reach, it did not search
    key = "trace.summary" if prunes(trace.algorithm) else "trace.summary_minimax"
    return t(key, lang, pruned=", ".join(pruned) if pruned else t("trace.none", lang), **words)
