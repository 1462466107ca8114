"""The printed pages, read back from the PDFs: pseudocode whole on one page, no heading left at the foot of a
page, no page 30 % empty or more unless a new part starts on the next one, one exercise per page."""

from __future__ import annotations

import re
import shutil
import subprocess
from html import unescape

import pytest

from abkit.handouts import build
from abkit.handouts.content import build_document, outline
from abkit.handouts.words import words

pytestmark = pytest.mark.slow  # every test here reads the handouts rendered to PDF

MARGIN_TOP, MARGIN_BOTTOM = 57, 62  # points: typst's 2 cm top and 2.2 cm bottom margins


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


@pytest.fixture(scope="module")
def printed(tmp_path_factory):
    out = tmp_path_factory.mktemp("layout")
    build(["ko", "en"], out, formats=("pdf",))
    return {(lang, doc): pages(out / lang / f"{doc}.pdf") for lang in ("ko", "en")
            for doc in ("handout", "answer-key")}


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
        first, last = page_of(printed[lang, "handout"], lines[0][:30]), page_of(printed[lang, "handout"], lines[-1][:24])
        assert first and last and set(first) & set(last), lines[0]


def headings(lang: str) -> list[str]:
    document = build_document(lang, "handout")
    out = [f"{n}. {s.title}" for n, s in enumerate(document.sections, 1)]
    return out + [b["text"] for b in document.blocks("subhead")]


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("doc", ["handout", "answer-key"])
def test_no_heading_is_left_at_the_foot_of_a_page(printed, lang, doc):
    titles = {flat(t) for t in headings(lang)}
    key = build_document(lang, "answer_key")
    titles |= {flat(f"{n}. {s.title}") for n, s in enumerate(key.sections, 1)} | {flat(b["text"]) for b in key.blocks("subhead")}
    for number, (_, lines) in enumerate(printed[lang, doc], 1):
        assert lines and flat(lines[-1][2]) not in titles, (doc, number, lines[-1][2])


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
    all_pages = printed[lang, "handout"]
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
    for _, lines in printed[lang, "handout"]:
        on_page = [l for l in lines if flat(l[2]).startswith(prefix) and re.match(r"\D*\d+:", l[2])]
        assert len(on_page) <= 1, on_page
        counted += len(on_page)
    assert counted == len(outline()["exercises"])
