"""A search trace drawn as an SVG game tree, the way the textbook draws one.

MAX nodes are upward triangles, MIN nodes downward triangles, leaves squares
holding their utility. From the trace come the visit-order numbers, the α/β
window each node was entered with, each node's returned value, and the cut-offs:
an edge to a child that was never generated is crossed with an X and the
subtree below it is greyed. Because the drawing reads the same :class:`Trace`
the grader compares against, a figure cannot disagree with the grader.

Pure Python, no graphviz; the same SVG text goes into the HTML and the PDF.

>>> from abkit.tree import from_nested
>>> svg = render_svg(from_nested([[3, 12], [2, 4]]))    # a blank tree to fill in
>>> svg.startswith("<svg") and 'class="cut"' not in svg
True
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from abkit.game import MAX
from abkit.trace import Trace
from abkit.tree import Tree, TreeGame

from .textree import fmt


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


STYLE = Style()


@dataclass(frozen=True)
class Show:
    """What a figure shows.

    values: the returned value inside each internal node (leaves always show theirs).
    windows: the α/β window each internal node was entered with.
    order: the visit-order number of each generated node.
    cuts: pruned edges crossed out and skipped subtrees greyed.
    best_path: the principal variation drawn thick.
    blank: empty slots to fill in instead of values, windows and numbers.
    """

    values: bool = True
    windows: bool = True
    order: bool = True
    cuts: bool = True
    best_path: bool = False
    blank: bool = False


ANSWER = Show(best_path=True)
MINIMAX = Show(windows=False, cuts=False, best_path=True)
BLANK = Show(values=False, windows=False, order=False, cuts=False, blank=True)


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
    players = TreeGame(tree)._players
    calls = first_calls(trace)
    pruned, grey = skipped(tree, trace) if show.cuts else ([], set())
    path = best_path(tree, trace) if show.best_path else []
    on_path = set(zip(path, path[1:]))
    width = max(x for x, _ in xy.values()) + style.label_room + style.margin + 10
    height = max(y for _, y in xy.values()) + style.r + style.margin + 6
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="tree" id="{escape(figure_id)}" '
             f'width="{width:.0f}" height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" '
             f'font-family="{style.font}" font-size="12">']
    for parent, kids in tree.children.items():
        for child in kids:
            parts.append(_edge(xy, parent, child, players, style, child in grey,
                               (parent, child) in on_path, child in pruned))
    for node in tree.preorder():
        call = trace.calls[calls[node]] if node in calls else None
        parts.append(_node(tree, node, xy[node], players[node], call, show, style, node in grey))
    parts.append("</svg>")
    return "\n".join(parts)


def _anchor(xy, node: str, players: dict[str, str], style: Style, top: bool) -> tuple[float, float]:
    """Where an edge meets ``node``'s shape (its top when ``top``, else its bottom)."""
    x, y = xy[node]
    return x, y + (-style.r if top else style.r * (0.8 if players[node] == MAX else 1.0))


def _edge(xy, parent: str, child: str, players, style: Style, greyed: bool, best: bool, cut: bool) -> str:
    """One edge; a pruned one carries an X at its middle (class ``cut``, ``data-node`` = the child)."""
    x1, y1 = _anchor(xy, parent, players, style, top=False)
    x2, y2 = _anchor(xy, child, players, style, top=True)
    colour = style.grey if greyed else (style.best if best else style.ink)
    width = 2.6 if best else 1.1
    dash = ' stroke-dasharray="4 3"' if greyed else ""
    out = [f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colour}" '
           f'stroke-width="{width}"{dash}/>']
    if cut:
        mx, my, s = (x1 + x2) / 2, (y1 + y2) / 2, 6
        out.append(f'<g class="cut" data-node="{escape(child)}" stroke="{style.best}" stroke-width="2.2">'
                   f'<line x1="{mx - s:.1f}" y1="{my - s:.1f}" x2="{mx + s:.1f}" y2="{my + s:.1f}"/>'
                   f'<line x1="{mx - s:.1f}" y1="{my + s:.1f}" x2="{mx + s:.1f}" y2="{my - s:.1f}"/></g>')
    return "".join(out)


def _node(tree: Tree, node: str, at: tuple[float, float], player: str, call, show: Show, style: Style,
          greyed: bool) -> str:
    """One node: its shape, name, value, and (internal nodes) window and visit number."""
    x, y = at
    r = style.r
    ink = style.grey if greyed else style.ink
    fill = style.grey_fill if greyed else "white"
    out = [f'<g class="node" data-node="{escape(node)}">']
    if tree.is_leaf(node):
        out.append(f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r}" height="{2 * r}" fill="{fill}" '
                   f'stroke="{ink}"/>')
        out.append(_text(x, y + 4.5, fmt(tree.utilities[node]), ink, "middle", 12))
    else:
        w = r * 1.2
        if player == MAX:
            points, ty = f"{x:.1f},{y - r:.1f} {x - w:.1f},{y + r * 0.8:.1f} {x + w:.1f},{y + r * 0.8:.1f}", y + 6
        else:
            points, ty = f"{x - w:.1f},{y - r * 0.8:.1f} {x + w:.1f},{y - r * 0.8:.1f} {x:.1f},{y + r:.1f}", y + 1
        out.append(f'<polygon class="{player.lower()}" points="{points}" fill="{fill}" stroke="{ink}" '
                   f'stroke-width="1.3"/>')
        if show.values and call is not None and call.value is not None:
            out.append(_text(x, ty, fmt(call.value), ink, "middle", 10.5, bold=True))
        out.append(_window(x + w + 3, y, call, show, ink))
    name_colour = style.grey if greyed else "#666"
    if tree.is_leaf(node):
        out.append(_text(x, y + r + 11, node, name_colour, "middle", 9, italic=True))
    else:
        out.append(_text(x - r * 1.2 - 3, y - r + 2, node, name_colour, "end", 9, italic=True))
    out.append(_order(x + r * 1.2 + 1, y - r - 3, call, show, style))
    out.append("</g>")
    return "".join(out)


def _window(x: float, y: float, call, show: Show, ink: str) -> str:
    """The α/β label right of an internal node, or blanks to fill in."""
    if show.blank:
        return _text(x, y + 1, "α=____", "#777", "start", 8.5) + _text(x, y + 11, "β=____", "#777", "start", 8.5)
    if not show.windows or call is None or call.alpha is None:
        return ""
    return (_text(x, y + 1, f"α={fmt(call.alpha)}", ink, "start", 8.5)
            + _text(x, y + 11, f"β={fmt(call.beta)}", ink, "start", 8.5))


def _order(x: float, y: float, call, show: Show, style: Style) -> str:
    """The visit-order number (the node's position in ``visited``) in a small circle, or an empty circle."""
    if show.blank:
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="6.5" fill="white" stroke="#888" stroke-width="0.8"/>'
    if not show.order or call is None:
        return ""
    number = max(1, call.visited_at)
    return (f'<circle class="order" cx="{x:.1f}" cy="{y:.1f}" r="6.5" fill="{style.order_fill}"/>'
            + _text(x, y + 2.8, str(number), "white", "middle", 7.5))


def _text(x: float, y: float, text: str, colour: str, anchor: str, size: float, bold: bool = False,
          italic: bool = False) -> str:
    weight = ' font-weight="bold"' if bold else ""
    style = ' font-style="italic"' if italic else ""
    return (f'<text x="{x:.1f}" y="{y:.1f}" fill="{colour}" text-anchor="{anchor}" font-size="{size}"'
            f'{weight}{style}>{escape(text)}</text>')


def natural_width(svg: str) -> float:
    """The width attribute of an SVG made by :func:`render_svg`.

    >>> natural_width('<svg xmlns="x" width="120" height="40">')
    120.0
    """
    start = svg.index(' width="') + len(' width="')
    return float(svg[start:svg.index('"', start)])


__all__ = ["ANSWER", "BLANK", "MINIMAX", "Show", "Style", "best_path", "layout", "natural_width",
           "render_svg"]
