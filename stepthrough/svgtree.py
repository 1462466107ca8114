"""A search trace drawn as an SVG game tree, the way the textbook draws one.

MAX nodes are upward triangles, MIN nodes downward triangles, CHANCE nodes
circles (the edge into each outcome carries its probability), leaves squares
holding their utility. From the trace come the visit-order numbers, the α/β
window each node was entered with, each node's returned value (a chance node's
expected value), and the cut-offs: an edge to a child that was never generated
is crossed with an X and the subtree below it is greyed. A node a depth-limited
search estimated with EVAL is drawn with a dashed outline and ``EVAL = v``; what
lies below it, beyond the depth limit (a dashed line), is drawn faint and dotted,
never as pruned. Because the drawing reads the same :class:`Trace` the grader
compares against, a figure cannot disagree with the grader.

Pure Python, no graphviz; the same SVG text goes into the HTML and the PDF.

>>> from abkit.tree import from_nested
>>> svg = render_svg(from_nested([[3, 12], [2, 4]]))    # a blank tree to fill in
>>> svg.startswith("<svg") and 'class="cut"' not in svg
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from html import escape

from abkit.game import CHANCE, MAX, MIN
from abkit.textree import fmt
from abkit.trace import Trace
from abkit.tree import Tree

from abkit.stepthrough.typeset import typeset


#: the size of every label beside a node (names, windows, visit numbers, probabilities): printed at 3/4 of its
#: size (the handouts' figures), 9.5 is 7.1 pt, the least a label may print at; the visit number's circle holds it
LABEL, ORDER_R = 9.5, 7
#: how far below a MIN triangle's apex its edges start
APEX_GAP = 3.5


@dataclass(frozen=True)
class Style:
    """Sizes (SVG user units) and colours of a figure.

    leaf_gap: horizontal distance between neighbouring leaves.
    level: vertical distance between levels; r: half the size of a node shape.
    label_room: room kept right of the last leaf for α/β labels.
    """

    leaf_gap: float = 46
    level: float = 66
    r: float = 13
    margin: float = 22
    label_room: float = 34
    font: str = "Libertinus Serif, DejaVu Sans, serif"
    ink: str = "#222"
    grey: str = "#a8a8a8"
    grey_fill: str = "#eeeeee"
    best: str = "#c0392b"
    order_fill: str = "#2c5d8f"
    faint: str = "#c4c4c4"
    horizon: str = "#2c5d8f"


#: a narrower, taller figure for trees with many leaves (the default spacing would shrink it too much in
#: print); the taller levels make wide fans steep enough for labels on their edges
COMPACT = Style(leaf_gap=34, level=80)


STYLE = Style()
#: widest a figure may be printed, in points (A4 text width with 2 cm margins is about 482 pt)
MAX_FIGURE_PT = 480


@dataclass(frozen=True)
class Show:
    """What a figure shows.

    values: the returned value inside each internal node (leaves always show theirs).
    windows: the α/β window each internal node was entered with.
    order: the visit-order number of each generated node.
    cuts: pruned edges crossed out and skipped subtrees greyed.
    best_path: the principal variation drawn thick.
    blank: empty slots to fill in instead of values, windows and numbers.
    slots: empty, classed places for what a step-through page fills in as it steps (``stepthrough``):
        each internal node's value (``v``) and window (``wa``, ``wb``), each node's visit number (``o``), and
        every edge tagged with its child (``edge``) and carrying a hidden cut mark.
    """

    values: bool = True
    windows: bool = True
    order: bool = True
    cuts: bool = True
    best_path: bool = False
    blank: bool = False
    slots: bool = False


ANSWER = Show(best_path=True)
MINIMAX = Show(windows=False, cuts=False, best_path=True)
BLANK = Show(values=False, windows=False, order=False, cuts=False, blank=True)
#: values and the best path only (trees too large for visit numbers, such as expectiminimax's)
VALUES = Show(windows=False, order=False, cuts=False, best_path=True)
#: the bare tree with empty places that a step-through page fills in step by step
SLOTS = Show(values=False, windows=False, order=False, cuts=False, slots=True)


def layout(tree: Tree, style: Style = STYLE) -> dict[str, tuple[float, float]]:
    """Node name -> (x, y): leaves evenly spaced in move order, parents centred over their children."""
    depth = tree.depths()
    xy: dict[str, tuple[float, float]] = {}
    for slot, leaf in enumerate(tree.leaves()):
        xy[leaf] = (style.margin + 30 + slot * style.leaf_gap, style.margin + 14 + depth[leaf] * style.level)
    for node in reversed(list(tree.preorder())):  # children before their parent
        kids = tree.children.get(node, ())
        if kids:
            xy[node] = ((xy[kids[0]][0] + xy[kids[-1]][0]) / 2, style.margin + 14 + depth[node] * style.level)
    return xy


def first_calls(trace: Trace | None) -> dict[str, int]:
    """Node -> index of its first call in ``trace`` (a node generated twice is drawn once)."""
    found: dict[str, int] = {}
    for i, call in enumerate(trace.calls if trace else ()):
        found.setdefault(call.node, i)
    return found


def skipped(tree: Tree, trace: Trace | None) -> tuple[list[str], set[str]]:
    """The pruned subtree roots (as the trace says) and every node below them, roots included."""
    if trace is None:
        return [], set()
    roots = trace.pruned(tree)
    grey = {n for root in roots for n in tree.preorder(root)}
    return roots, grey


def estimated(tree: Tree, trace: Trace | None) -> set[str]:
    """Internal nodes the search valued with EVAL at its depth limit (evaluated, yet not leaves)."""
    if trace is None:
        return set()
    return {n for n in trace.evaluated if n in tree.children}


def beyond(tree: Tree, horizon: set[str]) -> set[str]:
    """Every node strictly below a node of ``horizon``: what a depth-limited search never meant to look at."""
    return {n for node in horizon for n in tree.preorder(node) if n != node}


def short(value: float | None) -> str:
    """A value short enough for a node shape: at most two decimals.

    >>> short(22 / 6), short(3.0), short(-math.inf)
    ('3.67', '3', '-∞')
    """
    if isinstance(value, float) and math.isfinite(value) and not value.is_integer():
        return fmt(round(value, 2))
    return fmt(value)


def probability_text(p: float) -> str:
    """A probability as the fraction a textbook writes.

    >>> probability_text(1 / 6), probability_text(0.5), probability_text(1.0)
    ('1/6', '1/2', '1')
    """
    return str(Fraction(p).limit_denominator(100))


def best_path(tree: Tree, trace: Trace | None) -> list[str]:
    """The principal variation: from the root, the first child whose returned value is its parent's."""
    if trace is None or trace.value is None:
        return []
    calls = first_calls(trace)
    path = [tree.root]
    while tree.children.get(path[-1]):
        value = trace.calls[calls[path[-1]]].value
        nxt = next((c for c in tree.children[path[-1]]
                    if c in calls and trace.calls[calls[c]].value == value), None)
        if nxt is None:
            break
        path.append(nxt)
    return path


def render_svg(tree: Tree, trace: Trace | None = None, show: Show = BLANK, style: Style = STYLE,
               figure_id: str = "tree") -> str:
    """The SVG text of ``tree`` drawn with what ``trace`` recorded (``None``: a blank tree)."""
    xy = layout(tree, style)
    players = tree.players()
    calls = first_calls(trace)
    pruned, grey = skipped(tree, trace) if show.cuts else ([], set())
    horizon = estimated(tree, trace)
    faint = beyond(tree, horizon) - grey
    path = best_path(tree, trace) if show.best_path else []
    on_path = set(zip(path, path[1:]))
    width = max(x for x, _ in xy.values()) + style.label_room + style.margin + 10
    height = max(y for _, y in xy.values()) + style.r + style.margin + 6
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="tree" id="{escape(figure_id)}" '
             f'width="{width:.0f}" height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" '
             f'font-family="{style.font}" font-size="12">']
    if horizon:
        parts.append(_horizon_line(max(xy[n][1] for n in horizon), width, style))
    for parent, kids in tree.children.items():
        for child in kids:
            parts.append(_edge(xy, parent, child, players, style, child in grey,
                               (parent, child) in on_path, child in pruned or show.slots, child in faint,
                               slot=show.slots))
            if players[parent] == CHANCE:
                parts.append(_probability(xy, parent, child, tree.probabilities.get(child), players, style,
                                          child in grey or child in faint))
    parents = tree.parents()
    for node in tree.preorder():
        call = trace.calls[calls[node]] if node in calls else None
        # the visit-order circle goes on the side away from the edge coming in from the parent
        side = -1 if node in parents and xy[parents[node]][0] > xy[node][0] + 0.5 else 1
        parts.append(_node(tree, node, xy[node], players[node], call, show, style, node in grey,
                           node in faint, node in horizon, side))
    parts.append("</svg>")
    return "\n".join(parts)


def _horizon_line(y_limit: float, width: float, style: Style) -> str:
    """The depth limit: a dashed line half a level below the nodes EVAL valued."""
    y = y_limit + style.level / 2
    return (f'<line class="horizon" x1="{style.margin / 2:.1f}" y1="{y:.1f}" x2="{width - style.margin / 2:.1f}" '
            f'y2="{y:.1f}" stroke="{style.horizon}" stroke-width="1" stroke-dasharray="7 4" opacity="0.7"/>')


def _probability(xy, parent: str, child: str, p: float | None, players, style: Style, faded: bool) -> str:
    """The probability of the outcome ``child`` of a CHANCE node, on the middle of the edge into it.

    Written on a white ground that hides the edge behind it; the neighbouring
    edges of a wide fan pass clear of it when levels are tall enough (see ``COMPACT``).
    """
    if p is None:
        return ""
    x1, y1 = _anchor(xy, parent, players, style, top=False)
    x2, y2 = _anchor(xy, child, players, style, top=True)
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    text = probability_text(p)
    half = len(text) * 2.9 + 2
    colour = style.grey if faded else style.order_fill
    return (f'<g class="probability" data-node="{escape(child)}">'
            f'<rect x="{mx - half:.1f}" y="{my - 7.5:.1f}" width="{2 * half:.1f}" height="13" fill="white"/>'
            + _text(mx, my + 3, text, colour, "middle", LABEL) + "</g>")


def _anchor(xy, node: str, players: dict[str, str], style: Style, top: bool) -> tuple[float, float]:
    """Where an edge meets ``node``'s shape (its top when ``top``, else its bottom)."""
    x, y = xy[node]
    if players[node] == CHANCE:
        return x, y + (-1 if top else 1) * _chance_radius(style)
    return x, y + (-style.r if top else style.r * (0.8 if players[node] == MAX else 1.0))


def _chance_radius(style: Style) -> float:
    return style.r * 1.15


def _edge(xy, parent: str, child: str, players, style: Style, greyed: bool, best: bool, cut: bool,
          faint: bool = False, slot: bool = False) -> str:
    """One edge (class ``edge``, ``data-node`` = the child); a pruned one carries an X at its middle (class ``cut``).

    ``faint``: the edge lies beyond a depth limit (dotted, never crossed out). ``slot``: the X (class
    ``cut slot``) is hidden until a step-through page shows it.
    """
    x1, y1 = _anchor(xy, parent, players, style, top=False)
    x2, y2 = _anchor(xy, child, players, style, top=True)
    if players.get(parent) == MIN:  # a gap below the apex: a MIN triangle's sides and its edges never read as an X
        length = math.hypot(x2 - x1, y2 - y1) or 1
        x1, y1 = x1 + (x2 - x1) / length * APEX_GAP, y1 + (y2 - y1) / length * APEX_GAP
    colour = style.grey if greyed else (style.faint if faint else (style.best if best else style.ink))
    width = 2.6 if best else 1.1
    dash = ' stroke-dasharray="4 3"' if greyed else (' stroke-dasharray="1.5 2.5"' if faint else "")
    out = [f'<line class="edge" data-node="{escape(child)}" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" '
           f'y2="{y2:.1f}" stroke="{colour}" stroke-width="{width}"{dash}/>']
    if cut:
        mx, my, s = (x1 + x2) / 2, (y1 + y2) / 2, 6
        out.append(f'<g class="cut{" slot" if slot else ""}" data-node="{escape(child)}" stroke="{style.best}" '
                   f'stroke-width="2.2">'
                   f'<line x1="{mx - s:.1f}" y1="{my - s:.1f}" x2="{mx + s:.1f}" y2="{my + s:.1f}"/>'
                   f'<line x1="{mx - s:.1f}" y1="{my + s:.1f}" x2="{mx + s:.1f}" y2="{my - s:.1f}"/></g>')
    return "".join(out)


def _node(tree: Tree, node: str, at: tuple[float, float], player: str, call, show: Show, style: Style,
          greyed: bool, faint: bool = False, eval_node: bool = False, side: int = 1) -> str:
    """One node: its shape, name, value, and (internal nodes) window and visit number.

    faint: the node lies beyond a depth limit; eval_node: the search valued it
    with EVAL at the depth limit (dashed outline, ``EVAL = v`` below it).
    side: where the visit-order circle goes, 1 right of the node's top, -1 left
    (away from the edge from its parent); an inner node's name then moves down
    beside the node so that the circle has the corner to itself.
    """
    x, y = at
    r = style.r
    ink = style.grey if greyed else (style.faint if faint else style.ink)
    fill = style.grey_fill if greyed else "white"
    out = [f'<g class="node" data-node="{escape(node)}">']
    if tree.is_leaf(node):
        dash = "" if tree.terminal(node) else ' stroke-dasharray="3 2"'  # a board valued by EVAL at a depth limit
        out.append(f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r}" height="{2 * r}" fill="{fill}" '
                   f'stroke="{ink}"{dash}/>')
        out.append(_text(x, y + 4.5, fmt(tree.utilities[node]), ink, "middle", 12))
    else:
        w = r * 1.2
        dash = ' stroke-dasharray="3 2"' if eval_node else ""
        if player == CHANCE:
            out.append(f'<circle class="chance" cx="{x:.1f}" cy="{y:.1f}" r="{_chance_radius(style):.2f}" '
                       f'fill="{fill}" stroke="{ink}" stroke-width="1.3"/>')
            ty = y + 3.8
        else:
            if player == MAX:
                points, ty = f"{x:.1f},{y - r:.1f} {x - w:.1f},{y + r * 0.8:.1f} {x + w:.1f},{y + r * 0.8:.1f}", y + 6
            else:
                points, ty = f"{x - w:.1f},{y - r * 0.8:.1f} {x + w:.1f},{y - r * 0.8:.1f} {x:.1f},{y + r:.1f}", y + 1
            out.append(f'<polygon class="{player.lower()}" points="{points}" fill="{fill}" stroke="{ink}" '
                       f'stroke-width="1.3"{dash}/>')
        if show.values and call is not None and call.value is not None:
            value = short(call.value)
            out.append(_text(x, ty, value, ink, "middle", 10.5 if len(value) <= 3 else LABEL, bold=True))
            if eval_node:
                out.append(_eval_label(x, y + r + 12, call.value, ink))
        out.append(_window(x + w + 3, y, call, show, ink))
        if show.slots:
            out.append(_text(x, ty, "", ink, "middle", 10.5, bold=True, cls="v") +
                       _text(x + w + 3, y + 1, "", ink, "start", LABEL, cls="wa") +
                       _text(x + w + 3, y + 11, "", ink, "start", LABEL, cls="wb"))
    name_colour = style.grey if greyed else (style.faint if faint else "#666")
    if tree.is_leaf(node):
        out.append(_text(x, y + r + 11, node, name_colour, "middle", LABEL, italic=True))
    else:
        out.append(_text(x - r * 1.2 - 3, y - r + 2 if side > 0 else y + 6, node, name_colour, "end", LABEL, italic=True))
    if tree.is_leaf(node):  # above the box's corner: the gap between two parents' leaves is too narrow beside it
        ox, oy = x + side * r * 0.9, y - r - ORDER_R
    else:
        ox, oy = x + side * (r * 1.2 + 1), y - r - 3
    out.append(_order(ox, oy, call, show, style))
    if show.slots:
        out.append(f'<g class="order slot"><circle cx="{ox:.1f}" cy="{oy:.1f}" r="{ORDER_R}" fill="{style.order_fill}"/>'
                   + _text(ox, oy + 3.3, "", "white", "middle", LABEL, cls="o") + "</g>")
    out.append("</g>")
    return "".join(out)


def _eval_label(x: float, y: float, value: float, ink: str) -> str:
    """``EVAL = v`` centred at (x, y) on a white ground, so the dotted edges below do not cross it."""
    text = f"EVAL = {short(value)}"
    half = len(text) * 2.6 + 3
    return (f'<g class="eval"><rect x="{x - half:.1f}" y="{y - 9.5:.1f}" width="{2 * half:.1f}" height="13" '
            f'rx="2" fill="white" stroke="{ink}" stroke-width="0.6" stroke-dasharray="2 1.5"/>'
            + _text(x, y, text, ink, "middle", LABEL) + "</g>")


def _window(x: float, y: float, call, show: Show, ink: str) -> str:
    """The α/β label right of an internal node, or blanks to fill in."""
    if show.blank:
        return _text(x, y + 1, "α=____", "#777", "start", LABEL) + _text(x, y + 11, "β=____", "#777", "start", LABEL)
    if not show.windows or call is None or call.alpha is None:
        return ""
    return (_text(x, y + 1, f"α={fmt(call.alpha)}", ink, "start", LABEL)
            + _text(x, y + 11, f"β={fmt(call.beta)}", ink, "start", LABEL))


def _order(x: float, y: float, call, show: Show, style: Style) -> str:
    """The visit-order number (the node's position in ``visited``) in a small circle, or an empty circle."""
    if show.blank:
        return (f'<circle class="order blank" cx="{x:.1f}" cy="{y:.1f}" r="{ORDER_R}" fill="white" stroke="#888" '
                f'stroke-width="0.8"/>')
    if not show.order or call is None:
        return ""
    number = max(1, call.visited_at)
    return (f'<circle class="order" cx="{x:.1f}" cy="{y:.1f}" r="{ORDER_R}" fill="{style.order_fill}"/>'
            + _text(x, y + 3.3, str(number), "white", "middle", LABEL))


def _text(x: float, y: float, text: str, colour: str, anchor: str, size: float, bold: bool = False,
          italic: bool = False, cls: str = "") -> str:
    weight = ' font-weight="bold"' if bold else ""
    style = ' font-style="italic"' if italic else ""
    tag = f' class="{cls}"' if cls else ""
    return (f'<text{tag} x="{x:.1f}" y="{y:.1f}" fill="{colour}" text-anchor="{anchor}" font-size="{size}"'
            f'{weight}{style}>{escape(typeset(text))}</text>')


def style_for(tree: Tree) -> Style:
    """The default figure style, or the compact one when the default would be shrunk below print size (the
    handouts' figures and the step-through pages draw a tree alike)."""
    xs = [x for x, _ in layout(tree, STYLE).values()]
    natural = max(xs) + STYLE.label_room + STYLE.margin + 10
    return COMPACT if natural * 0.75 > MAX_FIGURE_PT else STYLE


def natural_width(svg: str) -> float:
    """The width attribute of an SVG made by :func:`render_svg`.

    >>> natural_width('<svg xmlns="x" width="120" height="40">')
    120.0
    """
    start = svg.index(' width="') + len(' width="')
    return float(svg[start:svg.index('"', start)])


__all__ = ["ANSWER", "BLANK", "COMPACT", "MINIMAX", "SLOTS", "VALUES", "Show", "Style", "best_path", "beyond", "estimated",
           "layout", "natural_width", "probability_text", "render_svg", "short", "STYLE"]
