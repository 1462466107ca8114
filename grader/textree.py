"""A search trace drawn as a text tree: visit numbers, windows, values and cut-offs.

Used by ``abkit trace`` and by the student feedback. It draws from the trace's
calls, so what it shows is what the search did: a node generated twice shows
twice, a skipped child shows where it sits in the tree, marked as pruned.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass

from abkit.game import CHANCE, MAX
from abkit.i18n import t
from abkit.trace import Trace
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


UNICODE = Glyphs()
ASCII = Glyphs("|- ", "`- ", "|  ", "   ", "inf", "alpha", "beta", ">=", "<=", "->", "x", "!!", "ok", "XX")


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


def cutoff(trace: Trace, index: int, tree: Tree, prune_on_equality: bool, lang: str, g: Glyphs) -> str:
    """Why call ``index`` stopped before its last child, or "" if it did not."""
    call = trace.calls[index]
    kids = tree.children.get(call.node, ())
    done = [trace.calls[i].node for i in trace.children_of(index)]
    if not kids or len(done) >= len(kids) or call.alpha is None or call.value is None:
        return ""
    v = fmt(call.value, g)
    if call.player == MAX:
        relation = g.ge if prune_on_equality else ">"
        return t("trace.cut_max", lang, cut=g.cut, v=v, rel=relation, beta=g.beta, bound=fmt(call.beta, g))
    relation = g.le if prune_on_equality else "<"
    return t("trace.cut_min", lang, cut=g.cut, v=v, rel=relation, alpha=g.alpha, bound=fmt(call.alpha, g))


def render_tree(trace: Trace, tree: Tree, prune_on_equality: bool = True, lang: str = "en",
                g: Glyphs = UNICODE, expected: Trace | None = None) -> list[str]:
    """The trace as lines of a text tree, the root first.

    With ``expected``, nodes this search generated but the expected one did not
    are marked "should be cut", and children it skipped that the expected one
    searched are marked "not searched".
    """
    wanted = set(expected.visited) if expected is not None else None
    estimated = {n for n in trace.evaluated if not tree.is_leaf(n)}  # cut off by depth and estimated by EVAL
    width = len(str(max(1, len(trace.visited))))
    lines: list[str] = []

    def number(i: int) -> str:
        call = trace.calls[i]
        visit = 1 if call.parent is None else max(1, call.visited_at)  # the root is generated once, searched per iteration
        return f"#{visit:<{width}}"

    def draw(i: int, prefix: str, branch: str) -> None:
        call = trace.calls[i]
        label = f"{call.node}"
        player = t({MAX: "trace.max", CHANCE: "trace.chance"}.get(call.player, "trace.min"), lang)
        win = f"  {window(call.alpha, call.beta, g)}" if call.alpha is not None else ""
        if tree.is_leaf(call.node):
            text = f"{label} = {fmt(call.value, g)}"
        elif not trace.children_of(i) and call.node in estimated:
            text = f"{label}  {player}{win}  {t('trace.eval', lang)} = {fmt(call.value, g)}"
        else:
            text = f"{label}  {player}{win}  {g.arrow} {fmt(call.value, g)}"
            if call.player == CHANCE:
                text += "   " + t("trace.expectation", lang)
            cut = cutoff(trace, i, tree, prune_on_equality, lang, g)
            text += f"   {cut}" if cut else ""
        if wanted is not None and call.node not in wanted:
            text += f"   {g.warn} {t('trace.mark.extra', lang)}"
        lines.append(f"{number(i)} {prefix}{branch}{text}")
        below = prefix + ("" if not branch else (g.gap if branch == g.last else g.bar))
        entries = _entries(trace, i, tree)
        for k, (kind, value) in enumerate(entries):
            twig = g.last if k == len(entries) - 1 else g.tee
            if kind == "call":
                draw(value, below, twig)
            else:
                size = sum(1 for _ in tree.preorder(value))
                extra = t("trace.subtree", lang, count=size) if size > 1 else ""
                if wanted is not None and value in wanted and trace.error is None:
                    extra += f"   {g.warn} {t('trace.mark.missing', lang)}"
                skipped = f"{g.cut} {t('trace.pruned', lang)}" if trace.error is None else t("trace.not_reached", lang)
                lines.append(f"{' ' * (width + 1)} {below}{twig}{value}  {skipped}{extra}")

    roots = [i for i, c in enumerate(trace.calls) if c.parent is None]
    for k, i in enumerate(roots):
        if len(roots) > 1:  # iterative deepening: one search of the root per depth
            lines.append(t("trace.iteration", lang, depth=k + 1))
        draw(i, "", "")
    return lines


def _entries(trace: Trace, index: int, tree: Tree) -> list[tuple[str, object]]:
    """The children of call ``index`` to draw: calls made, then never-generated children in tree order."""
    calls = trace.children_of(index)
    if not calls and trace.calls[index].node in trace.evaluated:
        return []  # estimated by EVAL at the depth limit: nothing below was meant to be searched
    made = {trace.calls[i].node for i in calls}
    skipped = [c for c in tree.children.get(trace.calls[index].node, ()) if c not in made]
    if not skipped:
        return [("call", i) for i in calls]
    order = {name: k for k, name in enumerate(tree.children.get(trace.calls[index].node, ()))}
    entries = [("call", i) for i in calls] + [("pruned", c) for c in skipped]
    key = lambda e: (order.get(trace.calls[e[1]].node if e[0] == "call" else e[1], len(order)),)
    return sorted(entries, key=key)


def render_summary(trace: Trace, tree: Tree, lang: str = "en", g: Glyphs = UNICODE) -> str:
    """One line: value, action, node count, leaves evaluated, pruned subtrees."""
    pruned = trace.pruned(tree) if tree is not None else []
    return t("trace.summary", lang, value=fmt(trace.value, g), action=trace.action if trace.action is not None else "-",
             nodes=trace.nodes, leaves=len(trace.evaluated),
             pruned=", ".join(pruned) if pruned else t("trace.none", lang))
