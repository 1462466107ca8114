"""Reading the geometry of the kit's SVG figures back, for tests: shapes, edges, and whether they touch.

Coordinates are SVG user units; a figure printed ``width_pt`` points wide is
scaled by ``width_pt / svg width`` (``mm`` converts).
"""

from __future__ import annotations

import math
import re

MM_PER_PT = 25.4 / 72
ATTR = re.compile(r'([\w-]+)="([^"]*)"')


def elements(svg: str, tag: str, klass: str | None = None) -> list[dict[str, str]]:
    """Every ``<tag ...>`` of ``svg`` as its attributes (only those whose class list has ``klass``)."""
    found = []
    for match in re.finditer(rf"<{tag}\s([^>]*)/?>", svg):
        attrs = dict(ATTR.findall(match.group(1)))
        if klass is None or klass in attrs.get("class", "").split():
            found.append(attrs)
    return found


def size(svg: str) -> tuple[float, float]:
    """The SVG's width and height attributes."""
    top = elements(svg, "svg")[0]
    return float(top["width"]), float(top["height"])


def mm(units: float, svg: str, width_pt: float) -> float:
    """``units`` of ``svg`` in millimetres when the figure is printed ``width_pt`` points wide."""
    return units * width_pt / size(svg)[0] * MM_PER_PT


def segments(svg: str) -> list[tuple[str, tuple[float, float, float, float]]]:
    """The edges of a figure as (child, segment) pairs: ``<line class="edge">`` and the parts of
    ``<polyline class="edge">``."""
    out = []
    for line in elements(svg, "line", "edge"):
        out.append((line.get("data-node", ""), tuple(float(line[k]) for k in ("x1", "y1", "x2", "y2"))))
    for poly in elements(svg, "polyline", "edge"):
        points = [tuple(map(float, p.split(","))) for p in poly["points"].split()]
        out += [(poly.get("data-node", ""), (*a, *b)) for a, b in zip(points, points[1:])]
    return out


def point_segment_distance(px: float, py: float, seg: tuple[float, float, float, float]) -> float:
    x1, y1, x2, y2 = seg
    dx, dy = x2 - x1, y2 - y1
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((px - x1) * dx + (py - y1) * dy) / length))
    return math.hypot(px - (x1 + t * dx), py - (y1 + t * dy))


def segment_hits_rect(seg: tuple[float, float, float, float], rect: tuple[float, float, float, float]) -> bool:
    """Whether the segment passes through the inside of the rectangle (x, y, width, height), by clipping."""
    x1, y1, x2, y2 = seg
    rx, ry, rw, rh = rect
    t0, t1 = 0.0, 1.0
    dx, dy = x2 - x1, y2 - y1
    for p, q in ((-dx, x1 - rx), (dx, rx + rw - x1), (-dy, y1 - ry), (dy, ry + rh - y1)):
        if p == 0:
            if q <= 0:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 >= t1:
            return False
    return True
