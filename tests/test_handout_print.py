"""What print needs of the handouts' figures (issue 33): every label at least 7 pt as printed, whatever the
figure's scale on the page (the handouts' trees, the paper trees of the sheets and keys, the ordering plot)."""

from __future__ import annotations

import re

import pytest

from abkit.handouts.content import build_document
from abkit.stepthrough.svgtree import natural_width

TEXT = re.compile(r'<(?:text|tspan)[^>]*font-size="([\d.]+)"[^>]*>([^<]+)<')


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("edition,student", [("handout", ""), ("answer_key", ""), ("student_sheet", "kim-01"),
                                             ("variant_key", "kim-01")])
def test_every_label_of_every_figure_prints_at_7_pt_or_more(lang, edition, student):
    document = build_document(lang, edition, student)
    small = []
    for block in document.blocks("figure"):
        svg = block.get("svg")
        if not svg:
            continue
        scale = block["width_pt"] / natural_width(svg)  # SVG units to printed points
        small += [(block["id"], text, round(float(size) * scale, 2)) for size, text in TEXT.findall(svg)
                  if text.strip() and float(size) * scale < 7]
    assert not small, small[:10]


def test_korean_is_set_ragged_right_and_english_justified():
    """Korean lines break between words only, so justifying them leaves wide gaps before a long token."""
    from abkit.handouts.render import render_typst

    for lang, justified in (("ko", "false"), ("en", "true")):
        source = render_typst(build_document(lang, "handout"), None)
        assert f"#set par(justify: {justified}, leading" in source


def test_edges_leave_a_min_triangle_below_its_apex():
    """A MIN triangle's two sides meeting at its apex and two edges leaving from that point read as an X, the mark
    for a pruned edge: its edges start a little below the apex."""
    import math

    from abkit.stepthrough.svgtree import APEX_GAP, STYLE, layout, render_svg
    from abkit.tree import from_nested

    tree = from_nested([[3, 12], [2, 4]])
    svg = render_svg(tree, style=STYLE)
    at = layout(tree, STYLE)
    for parent in ("B", "C"):  # the MIN nodes
        apex = (at[parent][0], at[parent][1] + STYLE.r)
        for child in tree.children[parent]:
            edge = re.search(rf'<line class="edge" data-node="{child}" x1="([\d.]+)" y1="([\d.]+)"', svg)
            start = (float(edge.group(1)), float(edge.group(2)))
            assert start[1] > apex[1] and math.dist(start, apex) >= APEX_GAP - 0.1


def test_a_table_broken_across_pages_repeats_its_header():
    from abkit.handouts.render import render_typst

    source = render_typst(build_document("en", "answer_key"), None)
    assert source.count("table.header(repeat: true,") == source.count("#table(") > 0
