"""Step-through pages: self-contained HTML (inline CSS, script and SVG; nothing fetched) that show steps.

:func:`trace_page` steps through one search (``abkit trace FILE --html``), :func:`student_page` a student's
search beside the expected one with the first difference marked (``abkit check --html``, ``abkit grade``),
:func:`widget` is the same stepper as a part of another page (the handouts' worked examples). The steps come
from :mod:`abkit.stepthrough.steps`; the words from the message catalogues. Every text that reaches the page is
escaped, and the data travels as JSON in a ``<script type="application/json">`` block with ``</`` written
``<\\/``, so a student's node names or messages cannot end the block or add markup.
"""

from __future__ import annotations

import functools
import json
from dataclasses import replace
from html import escape
from pathlib import Path
from typing import Any

from abkit import __version__
from abkit.errors import UsageError
from abkit.i18n import os_problem, t
from abkit.play import board_text
from abkit.textree import drawable, fmt, key
from abkit.trace import Trace
from abkit.tree import Tree

from abkit.stepthrough.steps import Step, aligned, divergence, reading, steps_of
from abkit.stepthrough.svgtree import SLOTS, STYLE, natural_width, render_svg, style_for

ASSETS = Path(__file__).with_name("assets")
#: a figure wider than this (SVG units) is drawn at its natural size in a box that scrolls, not shrunk
WIDE = 1100


@functools.lru_cache(maxsize=None)
def asset(name: str) -> str:
    """The text of an asset file (``stepper.css``, ``stepper.js``), read once."""
    return (ASSETS / name).read_text(encoding="utf-8")


def script_json(data: Any) -> str:
    """``data`` as JSON that is safe inside a ``<script>`` element: no ``</`` (so no ``</script>``), no ``<!--``.

    >>> script_json({"n": "</script><b>"})
    '{"n": "<\\\\/script><b>"}'
    """
    text = json.dumps(data, ensure_ascii=False, allow_nan=False)
    return text.replace("</", "<\\/").replace("<!--", "<\\u0021--").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def step_record(step: Step, lang: str, tree: Tree | None, boards: dict | None = None) -> dict[str, Any]:
    """One step as the page's script reads it (short keys; every text already in the page's language); with
    ``boards`` (a board position drawn as a tree, :mod:`abkit.gametree`), the step's board in three rows."""
    players = tree.players() if tree is not None else {}
    node = key(step.node)
    record: dict[str, Any] = {"k": step.kind, "n": str(step.node), "s": step.say.render(lang), "t": step.t}
    if boards and node in boards:
        record["g"] = board_text(boards[node]).replace("/", "\n")
    player = players.get(node) if node in players and not (tree.is_leaf(node)) else None
    if player:
        record["p"] = player
    if step.visit:
        record["o"] = step.visit
    if step.window is not None:
        record["w"] = step.window_text()
    if step.shown:
        record["v"] = step.value_text()
    if step.bounds is not None:
        record["b"] = f"α = {fmt(step.bounds[0])}, β = {fmt(step.bounds[1])}"
    if step.cut is not None:
        record["c"] = step.cut.render(lang)
    if step.changes:
        record["x"] = [[str(n), f, v] for n, f, v in step.changes]
    if step.reset:
        record["r"] = 1
    if step.mark:
        record["m"] = step.mark
    return record


def tree_svg(tree: Tree, figure_id: str, roomy: bool = False) -> tuple[str, float]:
    """The tree drawn as the handouts draw it (their style, compact for many leaves; ``roomy``: never compact, for
    the longer names of a board position's nodes), with empty places the steps fill in; its natural width."""
    svg = render_svg(tree, None, SLOTS, STYLE if roomy else style_for(tree), figure_id=figure_id)
    return svg, natural_width(svg)


# -- the parts of a page ----------------------------------------------------------

def _bar(lang: str, diff: bool) -> str:
    def button(go: str, glyph: str, label: str, extra: str = "") -> str:
        return (f'<button type="button" data-go="{go}" title="{escape(label)}" aria-label="{escape(label)}"'
                f'{extra}>{glyph}</button>')

    play, pause = "▶ " + t("page.play", lang), "❚❚ " + t("page.pause", lang)
    parts = [button("first", "|◀", t("page.first", lang)), button("prev", "◀", t("page.prev", lang)),
             f'<button type="button" data-go="play" aria-pressed="false" data-play="{escape(play)}" '
             f'data-pause="{escape(pause)}">{escape(play)}</button>',
             button("next", "▶", t("page.next", lang)), button("last", "▶|", t("page.last", lang))]
    if diff:
        label = t("page.diff", lang)
        parts.append(f'<button type="button" class="abk-diff" data-go="diff">⚠ {escape(label)}</button>')
    parts.append(f'<input type="range" data-go="slider" min="0" value="0" aria-label="{escape(t("page.step", lang))}">')
    return f'<div class="abk-bar" role="toolbar">{"".join(parts)}</div>'


def _pane(index: int, title: str, svg: str, width: float, lang: str, note: str = "", board: bool = False) -> str:
    """One pane: its tree, and the step's fields (``board``: the step's board, on a board position). Beside another
    pane the step is named as this pane's own (the two searches take different numbers of steps: 13 of 22 in one
    is 15 of 21 in the other)."""
    step = t("page.step_of", lang, title=title) if title else t("page.step", lang)
    rows = [("step", step), ("node", t("page.node", lang)), ("visit", t("page.visit", lang)),
            ("window", t("page.window", lang)), ("value", t("page.value", lang)), ("cut", t("page.cut", lang))]
    if board:
        rows.insert(2, ("board", t("page.board", lang)))
    panel = "".join(f'<dt>{escape(label)}</dt><dd data-field="{field}"></dd>' for field, label in rows)
    heading = f"<h3>{escape(title)}</h3>" if title else ""
    extra = f'<p class="abk-note">{escape(note)}</p>' if note else ""
    return (f'<section class="abk-pane" data-pane="{index}">{heading}{extra}'
            f'<div class="abk-tree{" abk-wide" if width > WIDE else ""}" style="--abk-w: {width:.0f}px">{svg}</div>'
            f'<dl class="abk-panel">{panel}</dl><p class="abk-say" data-field="say" aria-live="polite"></p></section>')


def widget(tree: Tree, panes: list[tuple[str, list[Step], str]], lang: str, widget_id: str,
           first: int | None = None, first_text: str = "", align: list[int] | None = None,
           boards: dict | None = None) -> str:
    """The stepper: controls, one pane per ``(title, steps, note)`` (the first drives the others, through
    ``align``), the first difference (step ``first``, told by ``first_text``), the list of steps and the data;
    ``boards``: the board each node stands for, on a board position."""
    html, data = [], {"panes": []}
    svg, width = tree_svg(tree, f"{widget_id}-tree", roomy=bool(boards))
    for index, (title, steps, note) in enumerate(panes):  # one drawing in the page: the script copies it per pane
        html.append(_pane(index, title, svg if index == 0 else "", width, lang, note, board=bool(boards)))
        data["panes"].append({"steps": [step_record(s, lang, tree, boards) for s in steps]})
    if align is not None:
        data["align"] = align
    if first is not None:
        data["first"] = first
    banner = ""
    if first is not None:
        banner = (f'<div class="abk-first"><b>{escape(t("page.first_at", lang, step=first + 1))}</b> '
                  f'{escape(first_text)}</div>')
    return (f'<div class="abk" data-abk id="{escape(widget_id)}" tabindex="0">'
            f'{_bar(lang, first is not None)}{banner}<div class="abk-panes">{"".join(html)}</div>'
            f'<p class="abk-note abk-keys">{escape(t("page.keys", lang))}</p>'
            f'<h3 class="abk-list-title">{escape(t("page.steps", lang))}</h3>'
            f'<noscript><p>{escape(t("page.no_script", lang))}</p><ol>'
            + "".join(f"<li>{escape(s.say.render(lang))}</li>" for s in panes[0][1]) +
            '</ol></noscript><ol class="abk-list"></ol>'
            f'<script type="application/json" class="abk-data">{script_json(data)}</script></div>')


def assets() -> str:
    """The stepper's style and script, once per page."""
    return f"<style>{asset('stepper.css')}</style>\n<script>{asset('stepper.js')}</script>"


def document(lang: str, title: str, body: str) -> str:
    """A whole page around ``body``: Korean pages say so (``lang="ko"``) and break lines between words only."""
    return (f'<!DOCTYPE html>\n<html lang="{escape(lang)}">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>{escape(title)}</title>\n'
            '<style>\nbody { font-family: "Noto Sans KR", "NanumGothic", "Apple SD Gothic Neo", "Malgun Gothic", '
            '"DejaVu Sans", sans-serif; color: #222; line-height: 1.5; max-width: 72rem; margin: 1.2rem auto; '
            'padding: 0 .8rem; }\nhtml[lang=ko] body { word-break: keep-all; overflow-wrap: anywhere; }\n'
            'h1 { font-size: 1.5em; margin: .2em 0; } .abk-sub { color: #666; margin: 0 0 .6em; }\n'
            'footer { color: #888; font-size: .85em; margin-top: 2em; }\n'
            '@media print { body { max-width: none; margin: 0; } }\n</style>\n'
            f'{assets()}\n</head>\n<body>\n{body}\n<footer>{escape(t("page.generated", lang, version=__version__))}'
            '</footer>\n</body>\n</html>\n')


def _header(title: str, subtitle: str) -> str:
    return f'<header><h1>{escape(title)}</h1><p class="abk-sub">{escape(subtitle)}</p></header>'


# -- the pages --------------------------------------------------------------------

def trace_page(tree: Tree, trace: Trace, lang: str, title: str, subtitle: str, rule: bool = True,
               boards: dict | None = None) -> str:
    """One search stepped through (the reference's, on a fixture): ``abkit trace FILE --html``; ``boards``: a board
    position's search drawn as a tree (:class:`abkit.gametree.GameDrawing`)."""
    steps = steps_of(trace, tree, rule, trusted=True)
    body = (_header(title, subtitle) + _legend(lang, boards)
            + widget(tree, [("", steps, "")], lang, "abk-trace", boards=boards))
    return document(lang, title, body)


def _legend(lang: str, boards: dict | None) -> str:
    """The page's key to the drawing, and on a board position how its nodes are named."""
    notes = [t("page.legend", lang)] + ([t("page.game_names", lang)] if boards else [])
    return "".join(f'<p class="abk-note">{escape(note)}</p>' for note in notes)


def student_panes(student: Trace, expected: Trace, tree: Tree, rule: bool, lang: str, findings: list
                  ) -> tuple[list[tuple[str, list[Step], str]], int | None, str, list[int]]:
    """The student's steps and the expected ones, the step of the first difference and its words, the alignment."""
    mine = steps_of(student, tree, rule, trusted=False)
    theirs = steps_of(expected, tree, rule, trusted=True)
    wanted = {key(n) for n in expected.visited}
    for step in mine:  # a state the pseudocode never generates
        if step.kind in ("enter", "leaf", "eval", "gen", "stray") and step.node not in wanted:
            step.mark = "extra"
            step.changes.append((step.node, "w", "1"))
    first = divergence(mine, findings[0]) if findings else None
    words = ""
    if first is not None:
        mine[first].mark = "first"
        words = findings[0].message.render(lang)
        node = key(findings[0].node)
        if node is not None and node in tree:
            mine[first].changes.append((node, "w", "1"))
    note = t("page.observed", lang) if reading(student) == "observed" else ""
    panes = [(t("page.yours", lang), mine, note), (t("page.reference", lang), theirs, t("page.aligned", lang))]
    return panes, first, words, aligned(mine, theirs)


#: the most steps a failing test's page shows of each search (a search of a tree of :data:`MAX_PAGE_NODES` nodes
#: takes about twice as many), and the most bytes the page may have: a search that loops over tens of thousands of
#: calls on a small tree (49,000 direct calls: 8.3 MB a page) is shown up to there, and the page says it was cut
MAX_PAGE_STEPS = 5_000
MAX_PAGE_BYTES = 2_000_000
FEWEST_STEPS = 50  # a page is never cut below this many steps, however long its steps are


def student_page(result, lang: str, most_bytes: int = MAX_PAGE_BYTES) -> str:
    """A failing test's page: the student's search beside the expected one, the first difference marked and
    told in the words of the text feedback (:func:`abkit.feedback.render_result`). A search of more than
    :data:`MAX_PAGE_STEPS` steps, or whose page would be longer than ``most_bytes``, shows its first steps (halved
    until the page fits, down to :data:`FEWEST_STEPS`) and says that the search was cut there."""
    tree, student, expected, findings, boards = _drawn(result)
    panes, first, words, align = student_panes(student, expected, tree, result.prune_on_equality, lang, findings)
    shown = MAX_PAGE_STEPS
    while True:
        page = _student_document(result, lang, tree, boards, cut_panes(panes, first, words, align, shown))
        if len(page.encode("utf-8")) <= most_bytes or shown <= FEWEST_STEPS:
            return page
        shown //= 2


def cut_panes(panes: list, first: int | None, words: str, align: list[int], shown: int) -> tuple:
    """``(panes, first, words, align, total)`` with each pane's steps cut to its first ``shown`` (the first
    difference kept only when it is among them), and ``total``, the student's steps before the cut (0: not cut)."""
    total = len(panes[0][1])
    if all(len(steps) <= shown for _, steps, _ in panes):
        return panes, first, words, align, 0
    cut = [(title, steps[:shown], note) for title, steps, note in panes]
    theirs = len(cut[1][1]) if len(cut) > 1 else 1
    align = [min(j, theirs - 1) for j in align[:shown]]
    if first is not None and first >= shown:
        first, words = None, ""
    return cut, first, words, align, total if total > shown else 0


def _student_document(result, lang: str, tree: Tree, boards: dict | None, parts: tuple) -> str:
    """The page of :func:`student_page` around its (perhaps cut) ``parts``: :func:`cut_panes`'s tuple."""
    from abkit.feedback import finding_lines

    panes, first, words, align, total = parts
    title = t("page.student_title", lang, title=result.label(lang))
    found = "".join(f"<li>{escape(line)}</li>" for line in finding_lines(result.findings, lang))
    detail = result.detail.get("call")
    subtitle = f"{result.name}" + (f" · {detail}" if detail else "")
    cut = (f'<p class="abk-note abk-cut"><b>{escape(t("gradebook.cut.page", lang, total=total, shown=len(panes[0][1])))}'
           "</b></p>") if total else ""
    body = (_header(title, subtitle) + (f'<ul class="abk-findings">{found}</ul>' if found else "") + cut
            + _legend(lang, boards) + widget(tree, panes, lang, "abk-student", first, words, align, boards))
    return document(lang, title, body)


def _drawn(result) -> tuple[Tree, Trace, Trace, list, dict | None]:
    """What a failing test's page draws: its tree and the two searches, or on a board position their drawing
    (:class:`abkit.gametree.GameDrawing`), the first finding's board named as its node there; the boards."""
    drawing = result.drawing if result.tree is None else None
    if drawing is None:
        return result.tree, result.student, result.expected, result.findings, None
    findings = list(result.findings)
    if findings and findings[0].kind == "order":  # a board the student's search (or else the pseudocode's) made
        first = findings[0]
        name = drawing.name_at(0, first.time) or drawing.name_at(1, first.time)
        findings[0] = replace(first, node=name)
    return drawing.tree, drawing.traces[0], drawing.traces[1], findings, drawing.boards




# -- pages of failing tests ---------------------------------------------------------

#: the largest tree a test's step-through page is made for: a page holds a drawing of the tree per step, so its size
#: and the time to make it grow with the tree's size times the steps (1,093 nodes: 0.5 s and 1.8 MB; 5,461: 10 s and
#: 8 MB; 9,841: 32 s and 16 MB), and a tree that big is read in its text drawing anyway
MAX_PAGE_NODES = 2_000


def wants_page(result) -> bool:
    """Whether a test's result gets a step-through page: it failed (or raised) on a game tree of at most
    :data:`MAX_PAGE_NODES` nodes after generating something, within about twice the tree (the drawing is the
    tree's), and there is an expected trace; or on a board position whose two searches were drawn as a tree."""
    if result.status not in ("failed", "error"):
        return False
    if result.tree is None:
        return result.drawing is not None
    return result.expected is not None and drawable(result.student, result.tree) and len(result.tree) <= MAX_PAGE_NODES


def page_names(names: list[str], prefix: str = "") -> dict[str, str]:
    """A file name per test name: its letters, digits, ``.``, ``_`` and ``-`` (others become ``-``), unique.

    >>> page_names(["alphabeta/aima-fig-5-2", "alphabeta/public/x/max_value(B, 1, 5)"], "steps-")
    {'alphabeta/aima-fig-5-2': 'steps-alphabeta-aima-fig-5-2.html', 'alphabeta/public/x/max_value(B, 1, 5)': 'steps-alphabeta-public-x-max_value-B-1-5.html'}
    """
    import re

    out: dict[str, str] = {}
    used: set[str] = set()
    for name in names:
        stem = prefix + (re.sub(r"[^\w.-]+", "-", name, flags=re.ASCII).strip("-.") or "test")[:120]
        candidate, k = stem, 1
        while candidate.lower() in used:
            k += 1
            candidate = f"{stem}-{k}"
        used.add(candidate.lower())
        out[name] = candidate + ".html"
    return out


def write_pages(results: list, folder: Path, lang: str, prefix: str = "") -> list[Path]:
    """A page per result that :func:`wants_page` into ``folder`` (made if missing); the files written.
    Pages of this kind left from an earlier run (named with ``prefix``) that no failing test names now are removed,
    so the folder never shows a test that passes now as failing."""
    wanted = [r for r in results if wants_page(r)]
    names = page_names([r.name for r in wanted], prefix)
    written = []
    for result in wanted:
        path = folder / names[result.name]
        write_page(path, student_page(result, lang))
        written.append(path)
    if prefix and folder.is_dir():
        for old in folder.glob(f"{prefix}*.html"):
            if old not in written:
                old.unlink(missing_ok=True)
    return written


def write_page(path: Path, text: str) -> None:
    """Write a page (its folder made if missing); a path that cannot be written is a :class:`UsageError`."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise UsageError("handouts.cannot_write", path=path, reason=os_problem(error)) from None
