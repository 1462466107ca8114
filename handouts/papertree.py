"""Game trees drawn for a pen: the paper exercises' blank trees and their answer keys.

A paper tree is printed across the whole text width of an A4 page, and every
place a student writes into has room for a hand: value boxes and α/β blanks at
least 10 mm wide, visit-order circles at least 6 mm across. Sizes are set in
millimetres (:class:`PaperStyle`); the SVG's user unit is the point and the
figure's natural width is the text width, so a figure printed at its natural
width (as the handouts do) has exactly these sizes on paper.

Each node's furniture (its visit circle and name on the left, its shape, the
column of labelled boxes on the right) lies in a horizontal band around the
node; edges run between bands (a short vertical stem out of a node, a diagonal,
a stem into the child), so no edge crosses a box, a circle or a label. The
same layout serves the blank tree, its answer key (the boxes filled from the
reference trace, cut-offs crossed out) and an empty template of the same shape.

>>> from abkit.tree import from_nested
>>> svg = paper_svg(from_nested([[3, 12], [2, 4]]), "alphabeta")
>>> svg.count('class="blank window"'), svg.count('class="visit"')
(6, 7)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from typing import Any

from abkit.game import CHANCE
from abkit.trace import Trace
from abkit.tree import Tree

from abkit.stepthrough.svgtree import Style, best_path, first_calls, probability_text, short, skipped
from abkit.stepthrough.typeset import typeset

#: points per millimetre: the SVG's user unit is the point
MM = 72 / 25.4
#: names and long values: an answer key prints its trees at 0.8 of their size, so 9 is 7.2 pt there
KEY_LABEL = 9
#: what a paper tree asks for: alpha-beta's boxes and visit circles (``deepening``: the same, with the first
#: iteration's EVAL beside the root's moves), backed-up values (minimax, expectimax), a depth-limited search beside
#: the complete one (horizon), tic-tac-toe positions (board), or an empty tree to draw a reordering in (template)
KINDS = ("alphabeta", "minimax", "template", "expectimax", "horizon", "board", "deepening")


class TooWide(ValueError):
    """The tree cannot be printed at pen size within the text width."""


@dataclass(frozen=True)
class PaperStyle:
    """Sizes in millimetres (at print size on A4) and colours of a paper tree."""

    width: float = 170.0        # the text width of A4 with 2 cm margins
    box_w: float = 10.3         # a value box or an α/β blank
    box_h: float = 6.0
    box_gap: float = 1.0
    label_w: float = 2.9        # room for "v", "α", "β" left of a box
    circle_d: float = 6.3       # a visit-order circle
    tri_w: float = 10.0         # a MAX/MIN triangle
    tri_h: float = 8.5
    chance_d: float = 9.0       # a chance node
    leaf_w: float = 9.0         # a leaf holding its given value
    leaf_h: float = 7.0
    board: float = 12.0         # a tic-tac-toe board
    gap: float = 0.8            # between the parts of one node
    sibling_gap: float = 2.0    # between neighbouring subtrees, at least
    diagonal: float = 12.0      # vertical room between two levels' bands
    name_h: float = 3.0
    top: float = 2.0
    soft: str = "#666"          # the node names (the screen figures' palette otherwise, below)
    ink: str = Style.ink
    grey: str = Style.grey
    grey_fill: str = Style.grey_fill
    best: str = Style.best
    order_fill: str = Style.order_fill
    faint: str = Style.faint


PAPER = PaperStyle()


@dataclass
class Part:
    """One node's furniture: what is drawn where, before it is placed."""

    shape: str                                  # max | min | chance | leaf | board
    text: str | None = None                     # the leaf's value, or a value inside the shape
    board: str | None = None
    blank_leaf: bool = False                    # an empty leaf box to write a value into
    boxes: list[tuple[str, str | None, str]] = field(default_factory=list)  # (label, filled text, class)
    below: list[tuple[str, str | None, str]] = field(default_factory=list)  # boxes under a bottom-level leaf
    note: str | None = None                     # a given text above the boxes ("EVAL = 5")
    circle: bool = False
    circle_text: str | None = None
    name: str | None = None
    name_blank: bool = False
    name_below: bool = False                    # the name under the shape (leaves of the deepest level)
    grey: bool = False
    faint: bool = False
    dashed: bool = False


def _shape_size(part: Part, s: PaperStyle) -> tuple[float, float]:
    """(width, height) of a node's shape in mm."""
    if part.shape == "leaf":
        return (s.box_w, s.box_h) if part.blank_leaf else (s.leaf_w, s.leaf_h)
    if part.shape == "board":
        return s.board, s.board
    if part.shape == "chance":
        return s.chance_d, s.chance_d
    return s.tri_w, s.tri_h


def _column(part: Part, s: PaperStyle) -> tuple[float, float]:
    """(width, height) of the right-hand column: the note and the labelled boxes."""
    rows = len(part.boxes) + (1 if part.note else 0)
    if not rows:
        return 0.0, 0.0
    width = max([s.label_w + s.box_w] * bool(part.boxes) + [len(part.note or "") * 1.55])
    return s.gap + width, rows * s.box_h + (rows - 1) * s.box_gap


def _left(part: Part, s: PaperStyle) -> tuple[float, float]:
    """(width, height) of the left-hand column: the visit circle over the name, or a name blank."""
    if part.name_blank:
        return s.gap + s.box_w, s.box_h
    beside = part.name and not (part.below or part.name_below)
    name_w = len(part.name) * 2.2 if beside else 0.0  # room for wide fallback fonts too
    width = max(s.circle_d if part.circle else 0.0, name_w)
    height = (s.circle_d + 0.6 if part.circle else 0.0) + (s.name_h if beside else 0.0)
    return (s.gap + width if width else 0.0), height


def _extents(part: Part, s: PaperStyle) -> tuple[float, float, float]:
    """(left, right, height) of a node's furniture around its centre, in mm (boxes below a leaf: see ``place``)."""
    w, h = _shape_size(part, s)
    lw, lh = _left(part, s)
    cw, ch = _column(part, s)
    under = (s.label_w + s.box_w) / 2 if part.below else 0.0
    return max(w / 2, under) + lw, max(w / 2 + cw, under), max(h, lh, ch)


@dataclass
class Placed:
    """A laid-out paper tree: node -> centre (mm), the band height, each level's y."""

    x: dict[str, float]
    y: dict[str, float]
    band: float
    width: float
    height: float


def place(tree: Tree, parts: dict[str, Part], s: PaperStyle = PAPER, below: float = 0.0) -> Placed:
    """Centres for every node: subtrees side by side, parents over their children, spread to the text width.

    ``below``: room under the deepest level (a template's name blanks).
    Raises :class:`TooWide` when the tree does not fit at pen size.
    """
    ext = {n: _extents(parts[n], s) for n in parts}
    band = max(h for _, _, h in ext.values())
    offsets: dict[str, float] = {}
    span: dict[str, tuple[float, float]] = {}
    for node in reversed(list(tree.preorder())):
        left, right, _ = ext[node]
        kids = tree.children.get(node, ())
        if kids:
            pos = [0.0]
            for a, b in zip(kids, kids[1:]):
                pos.append(pos[-1] + span[a][1] + s.sibling_gap + span[b][0])
            centre = (pos[0] + pos[-1]) / 2
            for kid, p in zip(kids, pos):
                offsets[kid] = p - centre
            left = max(left, centre - pos[0] + span[kids[0]][0])
            right = max(right, pos[-1] - centre + span[kids[-1]][1])
        span[node] = (left, right)
    usable = s.width
    if sum(span[tree.root]) > usable + 1e-9:
        raise TooWide(f"the tree needs {sum(span[tree.root]):.0f} mm at pen size; the text is {usable:.0f} mm wide")
    depth = tree.depths()
    order = list(tree.preorder())

    def xs(k: float) -> dict[str, float]:
        x = {tree.root: 0.0}
        for node in order:
            for kid in tree.children.get(node, ()):
                x[kid] = x[node] + k * offsets[kid]
        return x

    def width(k: float) -> float:
        x = xs(k)
        return max(x[n] + ext[n][1] for n in x) - min(x[n] - ext[n][0] for n in x)

    low, high = 1.0, 1.0
    while width(high) < usable and high < 64:
        high *= 2
    for _ in range(50):
        mid = (low + high) / 2
        low, high = (mid, high) if width(mid) <= usable else (low, mid)
    x = xs(low)
    shift = -min(x[n] - ext[n][0] for n in x)
    level = band + s.diagonal
    ys = {n: s.top + band / 2 + depth[n] * level for n in x}
    height = max(ys.values()) + band / 2 + below + s.top
    return Placed({n: v + shift for n, v in x.items()}, ys, band, width(low), height)


def paper_svg(tree: Tree, kind: str, trace: Trace | None = None, *, style: PaperStyle = PAPER,
              figure_id: str = "paper", boards: dict[str, str] | None = None,
              values: dict[str, float] | None = None, limited: dict[str, float] | None = None,
              limit: int | None = None, cuts: bool = True) -> str:
    """The SVG of ``tree`` as a paper exercise of ``kind`` (see :data:`KINDS`), blank or filled.

    trace: the reference search whose record fills the boxes (``None``: blank).
    boards: node -> tic-tac-toe board (``kind="board"``).
    values: node -> value for the ``v`` boxes when they are not the trace's
        (minimax, expectimax: every node's backed-up value; horizon: the complete search's).
    limited: node -> the depth-limited search's value (``kind="horizon"``: the ``v₂`` boxes);
    limit: the depth limit (horizon: EVAL is given at that depth, a dashed line below it).
    """
    if kind not in KINDS:
        raise ValueError(f"unknown paper tree kind {kind!r}")
    parts, marked = _parts(tree, kind, trace, boards, values, limited, limit, cuts)
    below = 0.0
    if kind == "template":
        below = style.gap + style.box_h
    elif any(p.below for p in parts.values()):
        below = style.gap + style.box_h + style.name_h + 1.0
    elif any(p.name_below for p in parts.values()):
        below = style.name_h + 1.0
    placed = place(tree, parts, style, below)
    return _draw(tree, parts, placed, style, figure_id, marked, trace, kind, limit)


def _parts(tree: Tree, kind: str, trace: Trace | None, boards, values, limited, limit, cuts: bool):
    """Every node's :class:`Part`, and the pruned subtree roots to cross out."""
    players = tree.players()
    depth = tree.depths()
    deepest = max(depth.values())
    calls = first_calls(trace)
    filled = trace is not None or values is not None
    pruned, grey = skipped(tree, trace) if (cuts and trace is not None) else ([], set())
    parts: dict[str, Part] = {}
    for node in tree.preorder():
        call = trace.calls[calls[node]] if node in calls else None
        leaf = tree.is_leaf(node)
        shape = "board" if kind == "board" else ("leaf" if leaf else players[node].lower())
        part = Part(shape, board=(boards or {}).get(node), name=node, grey=node in grey)
        if kind == "template":
            part.name, part.name_blank = None, not leaf
            part.blank_leaf = leaf
        elif leaf and kind != "board":
            part.text = short(tree.utilities[node])
            part.name_below = depth[node] == deepest
        if kind == "deepening" and depth[node] == 1 and node in tree.heuristics:
            part.note = f"EVAL = {short(tree.heuristics[node])}"  # the first iteration's value of the move
        if kind in ("alphabeta", "deepening"):
            part.circle = True
            part.circle_text = str(max(1, call.visited_at)) if call is not None else None
            if not leaf:
                part.boxes = [("v", _value(call.value if call else None, filled), "value"),
                              ("α", _value(call.alpha if call else None, filled), "window"),
                              ("β", _value(call.beta if call else None, filled), "window")]
        elif kind in ("minimax", "expectimax") and not leaf:
            part.boxes = [("v", _value((values or {}).get(node), filled), "value")]
        elif kind == "board":
            given = _value((values or {}).get(node), filled)
            if leaf and depth[node] == deepest:
                part.below = [("e", given, "value")]
            else:
                part.boxes = [("e" if leaf else "v", given, "value")]
        elif kind == "horizon" and not leaf:
            if depth[node] < limit:
                part.boxes = [("v₂", _value((limited or {}).get(node), filled), "value")]
            elif depth[node] == limit:
                part.note = f"EVAL = {short(tree.heuristics[node])}"
                part.dashed = True
            part.boxes.append(("v", _value((values or {}).get(node), filled), "value"))
        parts[node] = part
    return parts, pruned


def _value(value: Any, filled: bool) -> str | None:
    if not filled:
        return None
    return short(value) if value is not None else ""


def _draw(tree: Tree, parts: dict[str, Part], placed: Placed, s: PaperStyle, figure_id: str,
          pruned: list[str], trace: Trace | None, kind: str, limit: int | None) -> str:
    width, height = s.width * MM, placed.height * MM
    players = tree.players()
    path = best_path(tree, trace) if trace is not None else []
    on_path = set(zip(path, path[1:]))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="tree paper" id="{escape(figure_id)}" '
           f'width="{width:.2f}" height="{height:.2f}" viewBox="0 0 {width:.2f} {height:.2f}" '
           f'data-mm="{MM:.6f}" font-family="Libertinus Serif, DejaVu Sans, serif" font-size="11">']
    if limit is not None:
        deeper = [placed.y[n] for n, d in tree.depths().items() if d == limit]
        y = (deeper[0] + placed.band / 2 + s.diagonal / 2) * MM
        out.append(f'<line class="horizon" x1="0" y1="{y:.1f}" x2="{width:.1f}" y2="{y:.1f}" stroke="{s.order_fill}" '
                   f'stroke-width="1" stroke-dasharray="7 4" opacity="0.7"/>')
    for parent, kids in tree.children.items():
        for child in kids:
            out.append(_edge(placed, parts, parent, child, s, (parent, child) in on_path, child in pruned))
            if players[parent] == CHANCE and child in tree.probabilities:
                out.append(_probability(placed, parent, child, tree.probabilities[child], s, parts[child].grey))
    for node in tree.preorder():
        out.append(_node(node, parts[node], placed.x[node], placed.y[node], placed.band, s))
    out.append("</svg>")
    return "\n".join(out)


def _bottom(part: Part, s: PaperStyle) -> float:
    return _shape_size(part, s)[1] / 2


def _edge(placed: Placed, parts, parent: str, child: str, s: PaperStyle, best: bool, cut: bool) -> str:
    """An edge: a stem out of the parent's band, a diagonal, a stem into the child; an X on the diagonal if cut."""
    px, py, cx, cy = placed.x[parent], placed.y[parent], placed.x[child], placed.y[child]
    half = placed.band / 2
    points = [(px, py + _bottom(parts[parent], s)), (px, py + half), (cx, cy - half), (cx, cy - _bottom(parts[child], s))]
    grey = parts[child].grey
    colour = s.grey if grey else (s.best if best else s.ink)
    dash = ' stroke-dasharray="4 3"' if grey else ""
    line = " ".join(f"{x * MM:.1f},{y * MM:.1f}" for x, y in points)
    out = [f'<polyline class="edge" data-node="{escape(child)}" points="{line}" fill="none" stroke="{colour}" '
           f'stroke-width="{2.6 if best else 1.1}"{dash}/>']
    if cut:
        mx, my, k = (px + cx) / 2 * MM, (py + half + cy - half) / 2 * MM, 7
        out.append(f'<g class="cut" data-node="{escape(child)}" stroke="{s.best}" stroke-width="2.4">'
                   f'<line x1="{mx - k:.1f}" y1="{my - k:.1f}" x2="{mx + k:.1f}" y2="{my + k:.1f}"/>'
                   f'<line x1="{mx - k:.1f}" y1="{my + k:.1f}" x2="{mx + k:.1f}" y2="{my - k:.1f}"/></g>')
    return "".join(out)


def _probability(placed: Placed, parent: str, child: str, p: float, s: PaperStyle, grey: bool) -> str:
    half = placed.band / 2
    mx = (placed.x[parent] + placed.x[child]) / 2 * MM
    my = (placed.y[parent] + half + placed.y[child] - half) / 2 * MM
    text = probability_text(p)
    w = len(text) * 5.4 + 4
    return (f'<g class="probability" data-node="{escape(child)}"><rect x="{mx - w / 2:.1f}" y="{my - 7:.1f}" '
            f'width="{w:.1f}" height="12" fill="white"/>'
            + _text(mx, my + 3, text, s.grey if grey else s.order_fill, "middle", 10) + "</g>")


def _node(node: str, part: Part, x: float, y: float, band: float, s: PaperStyle) -> str:
    ink = s.grey if part.grey else s.ink
    fill = s.grey_fill if part.grey else "white"
    w, h = _shape_size(part, s)
    out = [f'<g class="node" data-node="{escape(node)}">']
    out.append(_shape(part, x, y, w, h, ink, fill, s))
    lw, lh = _left(part, s)
    left_x = x - w / 2 - s.gap
    if part.name_blank:
        out.append(_line(left_x - s.box_w, y + s.box_h / 2, ink))
    else:
        top = y - lh / 2
        if part.circle:
            cx, cy = left_x - (lw - s.gap) / 2, top + s.circle_d / 2
            out.append(_circle(cx, cy, part, s))
            top += s.circle_d + 0.6
        if part.name and not part.below and not part.name_below:
            nx = left_x - (lw - s.gap) / 2
            out.append(_text(nx * MM, (top + s.name_h - 0.6) * MM, part.name, s.grey if part.grey else s.soft,
                             "middle", KEY_LABEL, italic=True))
    if part.name_below:
        out.append(_text(x * MM, (y + h / 2 + s.name_h + 0.4) * MM, part.name, s.grey if part.grey else s.soft,
                         "middle", KEY_LABEL, italic=True))
    if part.blank_leaf:
        out.append(_line(x - s.box_w / 2, y + band / 2 + s.gap + s.box_h, ink))
    for label, value, klass in part.below:
        left = x - (s.label_w + s.box_w) / 2
        top = y + band / 2 + s.gap
        out.append(_text((left + s.label_w - 0.6) * MM, (top + s.box_h - 1.6) * MM, label, s.soft, "end", 9.5))
        out.append(_box(left + s.label_w, top, klass, value, ink, label))
        if part.name:
            out.append(_text(x * MM, (top + s.box_h + s.name_h + 0.2) * MM, part.name, s.soft, "middle", KEY_LABEL,
                             italic=True))
    cw, ch = _column(part, s)
    top = y - ch / 2
    col_x = x + w / 2 + s.gap
    if part.note:
        out.append(_text(col_x * MM, (top + s.box_h - 1.6) * MM, part.note, ink, "start", 9))
        top += s.box_h + s.box_gap
    for label, value, klass in part.boxes:
        out.append(_text((col_x + s.label_w - 0.6) * MM, (top + s.box_h - 1.6) * MM, label, s.soft, "end", 9.5))
        out.append(_box(col_x + s.label_w, top, klass, value, ink, label))
        top += s.box_h + s.box_gap
    out.append("</g>")
    return "".join(out)


def _shape(part: Part, x: float, y: float, w: float, h: float, ink: str, fill: str, s: PaperStyle) -> str:
    X, Y, W, H = x * MM, y * MM, w * MM, h * MM
    dash = ' stroke-dasharray="3 2"' if part.dashed else ""
    if part.shape == "leaf":
        if part.blank_leaf:
            return _box(x - w / 2, y - h / 2, "value", None, ink)
        return (f'<rect class="leaf" x="{X - W / 2:.1f}" y="{Y - H / 2:.1f}" width="{W:.1f}" height="{H:.1f}" '
                f'fill="{fill}" stroke="{ink}"/>' + _text(X, Y + 4, part.text or "", ink, "middle", 11.5))
    if part.shape == "chance":
        return (f'<circle class="chance" cx="{X:.1f}" cy="{Y:.1f}" r="{W / 2:.1f}" fill="{fill}" stroke="{ink}" '
                f'stroke-width="1.3"/>')
    if part.shape == "board":
        return _board(part.board or "." * 9, X, Y, W, ink, fill)
    if part.shape == "max":
        points = f"{X:.1f},{Y - H / 2:.1f} {X - W / 2:.1f},{Y + H / 2:.1f} {X + W / 2:.1f},{Y + H / 2:.1f}"
    else:
        points = f"{X - W / 2:.1f},{Y - H / 2:.1f} {X + W / 2:.1f},{Y - H / 2:.1f} {X:.1f},{Y + H / 2:.1f}"
    return f'<polygon class="{part.shape}" points="{points}" fill="{fill}" stroke="{ink}" stroke-width="1.3"{dash}/>'


def _board(board: str, X: float, Y: float, W: float, ink: str, fill: str) -> str:
    cell = W / 3
    out = [f'<g class="board" data-board="{escape(board)}"><rect x="{X - W / 2:.1f}" y="{Y - W / 2:.1f}" '
           f'width="{W:.1f}" height="{W:.1f}" fill="{fill}" stroke="{ink}" stroke-width="1"/>']
    for k in (1, 2):
        out.append(f'<line x1="{X - W / 2 + k * cell:.1f}" y1="{Y - W / 2:.1f}" x2="{X - W / 2 + k * cell:.1f}" '
                   f'y2="{Y + W / 2:.1f}" stroke="{ink}" stroke-width="0.5"/>')
        out.append(f'<line x1="{X - W / 2:.1f}" y1="{Y - W / 2 + k * cell:.1f}" x2="{X + W / 2:.1f}" '
                   f'y2="{Y - W / 2 + k * cell:.1f}" stroke="{ink}" stroke-width="0.5"/>')
    for i, mark in enumerate(board):
        if mark in "XO":
            cx, cy = X - W / 2 + (i % 3 + 0.5) * cell, Y - W / 2 + (i // 3 + 0.5) * cell
            out.append(_text(cx, cy + 3.6, mark, "#c0392b" if mark == "X" else "#2c5d8f", "middle", 10.5, bold=True))
    out.append("</g>")
    return "".join(out)


def _box(x: float, y: float, klass: str, value: str | None, ink: str, label: str = "") -> str:
    """A box to write into (``class="blank KIND"``), with its answer when ``value`` is given."""
    X, Y = x * MM, y * MM
    W, H = PAPER.box_w * MM, PAPER.box_h * MM
    out = (f'<rect class="blank {klass}" data-label="{escape(label)}" x="{X:.2f}" y="{Y:.2f}" width="{W:.2f}" '
           f'height="{H:.2f}" rx="1.5" fill="white" stroke="{ink if value is not None else "#888"}" stroke-width="0.7"/>')
    if value:
        size = 10.5 if len(value) <= 3 else KEY_LABEL
        out += _text(X + W / 2, Y + H / 2 + 3.6, value, ink, "middle", size, bold=True)
    return out


def _line(x: float, y: float, ink: str) -> str:
    """A line to write a node's name on (``class="blank name"``), as wide as a box."""
    return (f'<line class="blank name" x1="{x * MM:.2f}" y1="{y * MM:.2f}" x2="{(x + PAPER.box_w) * MM:.2f}" '
            f'y2="{y * MM:.2f}" stroke="#888" stroke-width="0.7" stroke-dasharray="1.5 1.5"/>')


def _circle(x: float, y: float, part: Part, s: PaperStyle) -> str:
    X, Y, R = x * MM, y * MM, s.circle_d / 2 * MM
    if part.circle_text is None:
        return (f'<circle class="visit" cx="{X:.2f}" cy="{Y:.2f}" r="{R:.2f}" fill="white" stroke="#888" '
                f'stroke-width="0.7"/>')
    return (f'<circle class="visit" cx="{X:.2f}" cy="{Y:.2f}" r="{R:.2f}" fill="{s.order_fill}"/>'
            + _text(X, Y + 3.3, part.circle_text, "white", "middle", 9, bold=True))


def _text(x: float, y: float, text: str, colour: str, anchor: str, size: float, bold: bool = False,
          italic: bool = False) -> str:
    weight = ' font-weight="bold"' if bold else ""
    slant = ' font-style="italic"' if italic else ""
    return (f'<text x="{x:.1f}" y="{y:.1f}" fill="{colour}" text-anchor="{anchor}" font-size="{size}"{weight}{slant}>'
            f'{escape(typeset(text))}</text>')


__all__ = ["KINDS", "MM", "PAPER", "PaperStyle", "TooWide", "paper_svg", "place"]
