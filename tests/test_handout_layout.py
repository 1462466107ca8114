"""The printed pages, read back from the PDFs: pseudocode whole on one page, no heading left at the foot of a
page, no page 30 % empty or more unless a new part starts on the next one, one exercise per page; in the answer
keys (both languages, one student's variant key, and the keys under CS188's rule) answers that flow, each heading
on the page of its figure, and no table broken with 2 rows or fewer alone on a page."""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import subprocess
from collections import Counter
from dataclasses import dataclass
from html import unescape
from pathlib import Path

import pytest

from abkit.handouts import build, fonts_for, jobs
from abkit.handouts.content import Document, build_document, outline
from abkit.handouts.fonts import font_folder
from abkit.handouts.render import render_typst
from abkit.handouts.words import words
from helpers import course_under

pytestmark = pytest.mark.slow  # every test here reads the handouts rendered to PDF

MARGIN_TOP, MARGIN_BOTTOM = 57, 62  # points: typst's 2 cm top and 2.2 cm bottom margins
#: points: the space a level-2 heading keeps above it (1.3em of 11.5 pt), which it needs where it starts
HEADING_ABOVE = 15
STUDENT = "kim-01"  # whose variant key is checked
#: the answer keys checked for the two print rules: (language, edition, student, the course's cut-off rule)
KEYS = ([(lang, "answer_key", "", "aima") for lang in ("en", "ko")]
        + [(lang, "variant_key", STUDENT, "aima") for lang in ("en", "ko")]
        + [(lang, "answer_key", "", "cs188") for lang in ("en", "ko")])
NOTES = [(lang, "handout", "", "aima") for lang in ("en", "ko")]


def pages(pdf) -> list[tuple[float, list[tuple[float, float, str]]]]:
    """Each page's height and its text lines (top, bottom, text) in reading order, header and footer left out."""
    tool = shutil.which("pdftotext")
    if tool is None:
        pytest.skip("pdftotext is not installed (poppler-utils)")
    xml = subprocess.run([tool, "-bbox-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    out = []
    for page in re.findall(r"<page (.*?)</page>", xml, re.S):
        height = float(re.search(r'height="([\d.]+)"', page).group(1))
        lines = []
        for m in re.finditer(r'<line xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">(.*?)</line>', page, re.S):
            text = " ".join(unescape(w) for w in re.findall(r">([^<]*)</word>", m.group(3)))
            top, bottom = float(m.group(1)), float(m.group(2))
            if MARGIN_TOP - 10 < top and bottom < height - MARGIN_BOTTOM + 10:
                lines.append((top, bottom, text))
        out.append((height, sorted(lines)))
    return out


@dataclass
class Printed:
    """One document as printed: its pages read back (:func:`pages`), its model, and where typst put each table row
    (:func:`table_rows`)."""

    pages: list[tuple[float, list[tuple[float, float, str]]]]
    document: Document
    rows: list[dict]


def table_rows(document: Document, fonts: Path) -> list[dict]:
    """Each table row's marker, in document order: ``{"table": id, "row": n, "page": p}``. The template puts an
    invisible ``metadata`` labelled ``<table-row>`` in every row's first cell, holding ``here().page()``;
    ``typst.query`` lays out the same source the PDF was compiled from (same fonts) and lists them."""
    import typst

    source = render_typst(document, fonts_for(["ko", "en"]))
    found = typst.query(source.encode("utf-8"), "<table-row>", field="value", font_paths=[str(fonts)],
                        ignore_system_fonts=True)
    return json.loads(found)


@pytest.fixture(scope="module")
def printed(tmp_path_factory) -> dict[tuple[str, str, str, str], Printed]:
    """(language, edition, student, rule) -> :class:`Printed`: the notes, the keys and one student's variant key of
    the kit's course (AIMA's rule), and the answer keys of a copy of it switched to CS188's rule."""
    out = {}
    fonts = font_folder(fonts_for(["ko", "en"]), tmp_path_factory.mktemp("fonts"))
    for rule, students in (("aima", [STUDENT]), ("cs188", None)):
        folder = tmp_path_factory.mktemp(rule)
        with contextlib.nullcontext() if rule == "aima" else course_under(rule, folder / "course"):
            build(["ko", "en"], folder, students, formats=("pdf",))
            for job in jobs(["ko", "en"], students):
                if job.edition == "student_sheet" or (rule == "cs188" and job.edition != "answer_key"):
                    continue
                document = build_document(job.lang, job.edition, job.student, job.roster)
                out[job.lang, job.edition, job.student, rule] = Printed(pages(job.path(folder, "pdf")), document,
                                                                       table_rows(document, fonts))
    return out


def notes(printed, lang: str) -> list:
    return printed[lang, "handout", "", "aima"].pages


def doc_id(doc: tuple[str, str, str, str]) -> str:
    return "-".join(x for x in doc if x and x != "aima")


def flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


def page_of(document_pages, needle: str) -> list[int]:
    return [n for n, (_, lines) in enumerate(document_pages) if flat(needle) in flat(" ".join(l[2] for l in lines))]


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_every_pseudocode_is_whole_on_one_page(printed, lang):
    document = build_document(lang, "handout")
    codes = [b["text"] for b in document.blocks("code")] + [t for b in document.blocks("code_pair") for t in b["texts"]]
    assert len(codes) >= 6
    for code in codes:
        lines = [re.split(r"\s{2,}", l.strip())[0] for l in code.splitlines() if l.strip()]  # code, not its comment
        first, last = page_of(notes(printed, lang), lines[0][:30]), page_of(notes(printed, lang), lines[-1][:24])
        assert first and last and set(first) & set(last), lines[0]


def headings(document: Document) -> set[str]:
    """The document's section titles (as numbered) and subheads, flattened."""
    out = {flat(f"{n}. {s.title}") for n, s in enumerate(document.sections, 1)}
    return out | {flat(b["text"]) for b in document.blocks("subhead")}


@pytest.mark.parametrize("doc", NOTES + KEYS, ids=doc_id)
def test_no_heading_is_left_at_the_foot_of_a_page(printed, doc):
    titles = headings(printed[doc].document)
    for number, (_, lines) in enumerate(printed[doc].pages, 1):
        assert lines and flat(lines[-1][2]) not in titles, (doc, number, lines[-1][2])


@pytest.mark.parametrize("key", KEYS, ids=doc_id)
def test_every_answer_heading_is_on_the_page_of_its_figure(printed, key):
    """An answer's heading sticks to its figure (a table exercise's: to its table), which is never split: both on
    one page."""
    blocks, all_pages = printed[key].document.blocks(), printed[key].pages
    pairs = [(b["text"], next(f for f in blocks[i:] if f["kind"] in ("figure", "table"))["caption"])
             for i, b in enumerate(blocks) if b["kind"] == "subhead"]
    assert len(pairs) == sum("answer" in b for s in outline()["answer_key"] for b in s["blocks"])
    for heading, caption in pairs:
        assert set(page_of(all_pages, heading)) & set(page_of(all_pages, caption[:24])), heading


def text_of(block: dict) -> str:
    """What a block prints, flattened (a figure: its caption; a table: its rows)."""
    if block["kind"] == "table":
        return flat("".join(cell for row in block["rows"] for cell in row))
    return flat(block.get("caption") or block.get("text") or " ".join(block.get("items", ())))


def kept_whole(document: Document, lang: str, last_line: str, following: list) -> float | None:
    """The height (points) of the figure that opens the page ``following`` together with its heading, if it has
    one, when that is what follows a page ending with ``last_line``: the figure found by its caption, the first on
    that page, and the block before it (before its heading) the one that ends the page before. Else None."""
    label = flat(words(lang)["label.figure"].split("{")[0])
    at = next((k for k, line in enumerate(following) if flat(line[2]).startswith(label)), None)
    blocks = document.blocks()
    figure = next((k for k, b in enumerate(blocks) if at is not None and b["kind"] == "figure"
                   and flat(following[at][2]) in flat(b["caption"])), None)
    if figure is None:
        return None
    first = figure - 1 if blocks[figure - 1]["kind"] == "subhead" else figure
    if first == 0 or flat(last_line) not in text_of(blocks[first - 1]):
        return None
    bottom = following[at][1]
    for line in following[at + 1:]:  # a caption set on two lines
        if flat(line[2]) not in flat(blocks[figure]["caption"]):
            break
        bottom = line[1]
    return bottom - following[0][0]


@pytest.mark.parametrize("key", KEYS, ids=doc_id)
def test_no_key_page_is_a_third_empty_unless_what_follows_could_not_fit(printed, key):
    """Rule 1 on an answer key. Answers flow one after another, so a page may end early only where the document
    ends, before a section that starts a page, or before a figure (with the heading that sticks to it) taller than
    the space left: a figure is never split. Measured on the next page, from its first line's top to the bottom of
    the figure's caption, plus the space a heading keeps above it (a figure keeps less); :func:`kept_whole` also
    checks that nothing else lies between that figure and the end of the page before. An answer's tree alone can
    take 40 % of a page, so that is a gap flowing cannot fill. A page break before every answer fails here: a short
    answer leaves more room than the next heading and figure need."""
    document, all_pages = printed[key].document, printed[key].pages
    starts = {flat(f"{n}. {s.title}") for n, s in enumerate(document.sections, 1) if s.page_break}
    for number, (height, lines) in enumerate(all_pages[:-1], 1):
        space = height - MARGIN_BOTTOM - lines[-1][1]
        empty = space / (height - MARGIN_TOP - MARGIN_BOTTOM)
        following = all_pages[number][1]
        if empty < 0.3 or flat(following[0][2]) in starts:
            continue
        figure = kept_whole(document, key[0], lines[-1][2], following)
        assert figure is not None and figure + HEADING_ABOVE > space, \
            (number, f"{empty:.0%} empty", lines[-1][2], following[0][2], figure)


#: inline markup in the model's texts, which the PDF does not print: **bold**, `code`, ^{sup}, _{sub}
MARKUP = re.compile(r"\*\*|`|[\^_]\{([^{}]*)\}")


def row_start(row: list[str]) -> str:
    """The first 12 printed characters (spaces left out) of a row's longest cell."""
    return flat(MARKUP.sub(lambda m: m.group(1) or "", max(row, key=len)))[:12]


@pytest.mark.parametrize("doc", NOTES + KEYS, ids=doc_id)
def test_no_table_leaves_two_rows_or_fewer_alone_on_a_page(printed, doc):
    """Rule 2: a table broken across pages has 3 rows or more on each of them (its repeated header not counted).

    Where the rows fall comes from typst itself (:func:`table_rows`): each row's first cell holds an invisible
    ``metadata`` labelled ``<table-row>`` with its table's id, its number and the page typst put it on. The markers
    are checked against the model (every row of every table marked once, in order) and against the PDF (each row's
    text is on the page its marker names), so a marker that went astray, or a layout that differs from the
    printed one, fails rather than passes unseen."""
    document, all_pages, rows = printed[doc].document, printed[doc].pages, printed[doc].rows
    tables = document.blocks("table")
    assert tables and len(rows) == sum(len(t["rows"]) for t in tables)
    for table in tables:
        marks = [r for r in rows if r["table"] == table["id"]]
        assert [m["row"] for m in marks] == list(range(1, len(table["rows"]) + 1)), table["id"]
        for mark, row in zip(marks, table["rows"]):
            assert row_start(row) and mark["page"] - 1 in page_of(all_pages, row_start(row)), (table["id"], mark, row)
        on_page = Counter(m["page"] for m in marks)
        assert len(on_page) == 1 or min(on_page.values()) >= 3, (table["id"], dict(on_page))


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_no_page_is_a_third_empty_unless_a_new_part_starts_on_the_next(printed, lang):
    """A page may end early before a section that starts a page, before an exercise (one per page) and on
    an exercise's own page (its ruled answer area, which has no text, fills it); nowhere else."""
    plan = outline()
    document = build_document(lang, "handout")
    starts = {flat(f"{n}. {s.title}") for n, s in enumerate(document.sections, 1)
              if any(spec["section"] == s.id and spec.get("break") for spec in plan["handout"])}
    starts |= {flat(b["text"]) for b in document.blocks("subhead") if b["text"].startswith(words(lang)["ex.heading"][:4])}
    answers = flat(words(lang)["ex.answer_area"])
    all_pages = notes(printed, lang)
    for number, (height, lines) in enumerate(all_pages[:-1], 1):
        empty = (height - MARGIN_BOTTOM - lines[-1][1]) / (height - MARGIN_TOP - MARGIN_BOTTOM)
        following = flat(all_pages[number][1][0][2])
        if any(flat(l[2]) == answers for l in lines) or following in starts:
            continue
        assert empty < 0.3, (number, f"{empty:.0%} empty", lines[-1][2])  # the complaint was a third


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_one_exercise_per_page(printed, lang):
    prefix = flat(words(lang)["ex.heading"].split("{")[0])
    counted = 0
    for _, lines in notes(printed, lang):
        on_page = [l for l in lines if flat(l[2]).startswith(prefix) and re.match(r"\D*\d+:", l[2])]
        assert len(on_page) <= 1, on_page
        counted += len(on_page)
    assert counted == len(outline()["exercises"])
