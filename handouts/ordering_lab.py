"""The move-ordering lab: leaves alpha-beta evaluates under best, random and worst ordering.

Measured on seeded uniform trees with distinct leaf values, beside the three
textbook curves: b^ceil(d/2) + b^floor(d/2) - 1 (Knuth-Moore, perfect ordering),
b^(3d/4) (Pearl's trend for random ordering) and b^d (no cut-off at all).
"""

from __future__ import annotations

import functools
import math
import re
import statistics
from dataclasses import dataclass
from xml.sax.saxutils import escape

from abkit.algorithms import Algorithm
from abkit.i18n import t
from abkit.randomtree import random_tree
from abkit.reference import reference_trace
from abkit.tree import TreeGame

SPAN = 10 ** 6  # leaf values are drawn from -SPAN..SPAN, all different


def knuth_moore(b: int, d: int) -> int:
    """Leaves alpha-beta evaluates with perfect ordering: b^ceil(d/2) + b^floor(d/2) - 1."""
    return b ** ((d + 1) // 2) + b ** (d // 2) - 1


@dataclass(frozen=True)
class Row:
    """Leaves evaluated on trees of branching b and depth d (random: over ``seeds`` trees)."""

    b: int
    d: int
    best: int
    worst: int
    random_mean: float
    random_low: int
    random_high: int

    @property
    def formulas(self) -> tuple[int, float, int]:
        return knuth_moore(self.b, self.d), self.b ** (0.75 * self.d), self.b ** self.d


def leaves(b: int, d: int, ordering: str, seed: int) -> int:
    tree = random_tree(b, d, -SPAN, SPAN, ordering, distinct=ordering != "worst", seed=seed)
    return len(reference_trace(TreeGame(tree), tree.root, Algorithm.ALPHABETA).evaluated)


def measure(b: int, depths: range, seeds: int = 20) -> list[Row]:
    """One row per depth: best and worst on one tree each (they are exact), random over ``seeds`` trees."""
    rows = []
    for d in depths:
        sample = [leaves(b, d, "random", s) for s in range(seeds)]
        rows.append(Row(b, d, leaves(b, d, "best", 0), leaves(b, d, "worst", 0),
                        statistics.mean(sample), min(sample), max(sample)))
    return rows


@functools.lru_cache(maxsize=None)
def lab_rows(b: int, max_depth: int, seeds: int) -> tuple:
    """The move-ordering lab's rows, measured once per process for both languages and both passes."""
    return tuple(measure(b, range(1, max_depth + 1), seeds))


def table(rows: list[Row], lang: str = "en") -> list[str]:
    """The measurements as text lines, formulas beside them."""
    names = [t(f"lab.series.{k}", lang).split()[0] for k in ("best", "random", "worst")]
    lines = [f"{'b':>2} {'d':>3} {names[0]:>8} {'KM':>8} {names[1]:>10} {'b^(3d/4)':>10} {names[2]:>8} {'b^d':>8}"]
    for r in rows:
        km, pearl, full = r.formulas
        lines.append(f"{r.b:>2} {r.d:>3} {r.best:>8} {km:>8} {r.random_mean:>10.1f} {pearl:>10.1f} {r.worst:>8} {full:>8}")
    return lines


@dataclass(frozen=True)
class Series:
    """How one ordering is drawn, told apart in grey print by its dashes and its marker, not only its colour."""

    name: str
    formula: int  # index in Row.formulas
    colour: str
    dash: str  # "" for a solid line
    shape: str  # circle | square | triangle

    @property
    def dash_attr(self) -> str:
        return f' stroke-dasharray="{self.dash}"' if self.dash else ""

    def marker(self, cx: float, cy: float, r: float = 4.0) -> str:
        """The series' marker centred at (cx, cy)."""
        if self.shape == "square":
            return (f'<rect x="{cx - r:.1f}" y="{cy - r:.1f}" width="{2 * r:.1f}" height="{2 * r:.1f}" '
                    f'fill="white" stroke="{self.colour}" stroke-width="1.5"/>')
        if self.shape == "triangle":
            return (f'<polygon points="{cx:.1f},{cy - r * 1.2:.1f} {cx - r * 1.1:.1f},{cy + r * 0.8:.1f} '
                    f'{cx + r * 1.1:.1f},{cy + r * 0.8:.1f}" fill="{self.colour}"/>')
        return f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r}" fill="{self.colour}"/>'


#: dark solid with discs, mid dashed with open squares, light dotted with triangles: three lines apart in grey too
SERIES = (Series("best", 0, "#08306b", "", "circle"), Series("random", 1, "#238b45", "7 4", "square"),
          Series("worst", 2, "#e6550d", "2 3", "triangle"))
MEASURED = {"best": lambda r: r.best, "random": lambda r: r.random_mean, "worst": lambda r: r.worst}


def spread(items: list[tuple[float, Series]], low: float, high: float, gap: float) -> list[tuple[float, Series]]:
    """Label heights near the wanted ones (sorted top to bottom), at least ``gap`` apart, within ``low``..``high``."""
    out: list[float] = []
    for want, _ in items:
        out.append(max(want, low, out[-1] + gap if out else low))
    overflow = out[-1] - high if out else 0
    if overflow > 0:
        out = [max(low + k * gap, v - overflow) for k, v in enumerate(out)]
    return [(v, series) for v, (_, series) in zip(out, items)]


def _label(series: Series, x: float, y: float, lang: str) -> str:
    """A series named at the end of its line: a sample of the line with its marker, the name, the formula."""
    return (f'<line x1="{x}" x2="{x + 22}" y1="{y:.1f}" y2="{y:.1f}" stroke="{series.colour}" stroke-width="1.6"'
            f'{series.dash_attr}/>' + series.marker(x + 11, y)
            + f'<text x="{x + 28}" y="{y + 4:.1f}">{escape(t(f"lab.series.{series.name}", lang))}</text>'
            + f'<text x="{x + 28}" y="{y + 19:.1f}" fill="#444">{superscripts(t(f"lab.formula.{series.name}", lang))}'
            '</text>')


def superscripts(text: str) -> str:
    """A formula written ``b^(3d/4)`` or ``b^⌈d/2⌉+…`` as SVG text with its exponents raised (escaped)."""
    out, at = [], 0
    for m in re.finditer(r"\^(\([^)]*\)|[^+−\s]+)", text):
        out.append(escape(text[at:m.start()]))
        out.append(f'<tspan dy="-5" font-size="10">{escape(m.group(1).strip("()"))}</tspan><tspan dy="5">\u200b</tspan>')
        at = m.end()
    out.append(escape(text[at:]))
    return "".join(out)


def plot_svg(rows: list[Row], lang: str = "en", width: int = 600, height: int = 360) -> str:
    """A log-scale plot: the three curves as lines, the measurements as points (random with its range), each
    series named at the end of its line, in the lines' order."""
    left, right, top, bottom = 64, 190, 24, 44
    depths = [r.d for r in rows]
    top_value = max(max(r.formulas[2], r.worst) for r in rows)
    y_max = math.ceil(math.log10(top_value)) if top_value > 1 else 1

    def x(d: float) -> float:
        span = max(depths) - min(depths) or 1
        return left + (d - min(depths)) / span * (width - left - right)

    def y(v: float) -> float:
        return top + (1 - math.log10(max(v, 1)) / y_max) * (height - top - bottom)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
             f'<rect width="{width}" height="{height}" fill="white"/>']
    for k in range(y_max + 1):
        parts.append(f'<line x1="{left}" x2="{width - right}" y1="{y(10 ** k):.1f}" y2="{y(10 ** k):.1f}" stroke="#ddd"/>')
        parts.append(f'<text x="{left - 6}" y="{y(10 ** k) + 4:.1f}" text-anchor="end">{10 ** k:,}</text>')
    for d in depths:
        parts.append(f'<text x="{x(d):.1f}" y="{height - bottom + 16}" text-anchor="middle">{d}</text>')
    parts.append(f'<text x="{(left + width - right) / 2:.1f}" y="{height - 8}" text-anchor="middle">'
                 f'{escape(t("lab.axis.depth", lang, b=rows[0].b))}</text>')
    parts.append(f'<text x="14" y="{(top + height - bottom) / 2:.1f}" text-anchor="middle" '
                 f'transform="rotate(-90 14 {(top + height - bottom) / 2:.1f})">{escape(t("lab.axis.leaves", lang))}</text>')
    ends = []
    for series in SERIES:
        measured = MEASURED[series.name]
        points = " ".join(f"{x(r.d):.1f},{y(r.formulas[series.formula]):.1f}" for r in rows)
        parts.append(f'<polyline points="{points}" fill="none" stroke="{series.colour}" stroke-width="1.6"'
                     f'{series.dash_attr}/>')
        for r in rows:
            if series.name == "random":
                parts.append(f'<line x1="{x(r.d):.1f}" x2="{x(r.d):.1f}" y1="{y(r.random_low):.1f}" '
                             f'y2="{y(r.random_high):.1f}" stroke="{series.colour}"/>')
            parts.append(series.marker(x(r.d), y(measured(r))))
        ends.append((y(rows[-1].formulas[series.formula]), series))
    for label_y, series in spread(sorted(ends, key=lambda e: e[0]), top + 6, height - bottom - 20, 30):
        parts.append(_label(series, width - right + 12, label_y, lang))
    parts.append("</svg>")
    return "\n".join(parts)
