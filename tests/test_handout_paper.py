"""Paper exercises a student can do on the paper: sizes measured in mm at print size (A4), from the SVG and
the typst source; one exercise per page with a ruled answer area; a template for the reordering; keys that
keep the students' node names."""

from __future__ import annotations

import re

import pytest

from abkit.randomtree import order
from abkit.handouts.content import build_document, exercise_tree, outline
from abkit.handouts.exercises import tree_exercises
from abkit.handouts.render import render_typst
from figure_geometry import elements, mm, point_segment_distance, segment_hits_rect, segments, size

A4_WIDTH_MM = 210
DOCUMENTS = [("en", "handout", ""), ("ko", "handout", ""), ("en", "student_sheet", "kim-01"),
             ("ko", "answer_key", ""), ("en", "variant_key", "lee-02")]


@pytest.fixture(scope="module", params=DOCUMENTS, ids=lambda d: "-".join(x for x in d if x))
def document(request):
    return build_document(*request.param)


def text_width_mm(typst_source: str) -> float:
    """The text width the typst page setup leaves on A4."""
    margin = re.search(r"#set page\(paper: \"a4\", margin: \(x: ([\d.]+)cm", typst_source)
    return A4_WIDTH_MM - 2 * float(margin.group(1)) * 10


def paper_figures(document):
    return [f for f in document.figures() if f.get("paper")]


@pytest.mark.slow
def test_every_exercise_tree_is_printed_across_the_text_width(document):
    source = render_typst(document, None)
    width = text_width_mm(source)
    figures = paper_figures(document)
    if document.edition in ("handout", "student_sheet"):
        assert len([f for f in figures if f["id"].endswith("-blank")]) == len(tree_exercises())
    for figure in figures:
        svg = figure["svg"]
        assert mm(size(svg)[0], svg, figure["width_pt"]) == pytest.approx(width, abs=0.05), figure["id"]
        assert f'width: {figure["width_pt"]}pt' in source  # printed at that width
    if document.edition in ("answer_key", "variant_key"):
        assert not figures  # keys are drawn smaller: nobody writes on them


def test_boxes_and_blanks_are_ten_mm_wide_and_circles_six_mm_across(document):
    if document.edition in ("answer_key", "variant_key"):
        return  # keys are not written on (see above)
    checked = {"value": 0, "window": 0, "visit": 0}
    for figure in paper_figures(document):
        svg, width = figure["svg"], figure["width_pt"]
        for rect in elements(svg, "rect", "blank"):
            assert mm(float(rect["width"]), svg, width) >= 10, (figure["id"], rect)
            assert mm(float(rect["height"]), svg, width) >= 5.5, (figure["id"], rect)
            checked[rect["class"].split()[1]] += 1
        for circle in elements(svg, "circle", "visit"):
            assert mm(2 * float(circle["r"]), svg, width) >= 6, (figure["id"], circle)
            checked["visit"] += 1
    assert all(checked.values()), checked  # value boxes, α/β blanks and circles were all measured


def test_no_edge_crosses_a_box_or_a_circle(document):
    for figure in document.figures():
        svg = figure["svg"]
        edges = segments(svg)
        boxes = [tuple(float(r[k]) for k in ("x", "y", "width", "height")) for r in elements(svg, "rect", "blank")]
        circles = [(float(c["cx"]), float(c["cy"]), float(c["r"])) for c in elements(svg, "circle", "visit")
                   + elements(svg, "circle", "order")]
        for child, seg in edges:
            assert not any(segment_hits_rect(seg, box) for box in boxes), (figure["id"], child)
            assert all(point_segment_distance(x, y, seg) > r + 0.3 for x, y, r in circles), (figure["id"], child)


def test_one_exercise_per_page_with_a_ruled_answer_area():
    for lang in ("en", "ko"):
        document = build_document(lang, "handout")
        section = next(s for s in document.sections if s.id == "exercises")
        kinds = [b["kind"] for b in section.blocks]
        starts = [i for i, b in enumerate(section.blocks) if b["kind"] == "subhead"]
        assert len(starts) == len(outline()["exercises"])
        for k, i in enumerate(starts):
            assert (kinds[i - 1] == "pagebreak") == (k > 0)  # the first shares the section's first page
            end = starts[k + 1] - 1 if k + 1 < len(starts) else len(kinds)
            assert kinds[i:end].count("ruled") == 1 and kinds[end - 1] == "ruled"
        source = render_typst(document, None)
        assert source.count("#pagebreak(weak: true)") >= len(starts) - 1
        assert source.count("height: 1fr") == len(starts)  # the ruled area takes the rest of its page


def test_the_reordering_exercise_has_an_empty_tree_of_the_same_shape():
    reorder = [ex for ex, spec in outline()["exercises"].items() if spec.get("reorder")]
    assert reorder
    document = build_document("en", "handout")
    for ex in reorder:
        blank = next(f for f in document.figures() if f["id"] == f"fig-{ex}-blank")
        template = next(f for f in document.figures() if f["id"] == f"fig-{ex}-template")
        tree = exercise_tree(ex)
        nodes = re.compile(r'<g class="node" data-node="([^"]+)"')
        assert len(nodes.findall(template["svg"])) == len(nodes.findall(blank["svg"])) == len(tree)
        assert len(segments(template["svg"])) == len(segments(blank["svg"]))
        assert len(elements(template["svg"], "rect", "value")) == len(tree.leaves())  # leaf values to write
        assert len(elements(template["svg"], "line", "name")) == len(tree)  # and every node's name
        written = re.findall(r">([^<]+)</text>", template["svg"])
        assert written == []  # empty: no value, no name, no label


def test_the_key_to_the_reordering_keeps_the_students_node_names():
    ex = next(ex for ex, spec in outline()["exercises"].items() if spec.get("reorder"))
    for student in ("", "kim-01"):
        tree = exercise_tree(ex, student)
        key = build_document("en", "variant_key" if student else "answer_key", student)
        best = next(f for f in key.figures() if f["id"] == f"fig-{ex}-best")
        leaves = dict(re.findall(r'<g class="node" data-node="([^"]+)"><rect class="leaf"[^>]*/><text[^>]*>([^<]+)</text>',
                                 best["svg"]))
        assert leaves and set(leaves) == set(tree.leaves())
        assert {name: float(v.replace("−", "-")) for name, v in leaves.items()} == tree.utilities
        reordered = order(tree, "best", rename=False)
        assert [n for n in re.findall(r'<g class="node" data-node="([^"]+)"', best["svg"])] == list(reordered.preorder())
        text = " ".join(b.get("text", "") for b in key.blocks("p"))
        moved = [n for n in reordered.children if reordered.children[n] != tree.children[n]]
        assert moved and all(f"{n}: {', '.join(reordered.children[n])}" in text for n in moved)
