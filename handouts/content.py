"""The handouts as one document model, built from the outline, the words and the reference traces.

Both templates (HTML and typst) render the same model, so the two formats and
the two languages always have the same sections, figures and exercises. Every
figure and every step table is drawn from the reference trace of its tree, so a
handout can never disagree with the grader; every number a paragraph states
about a tree comes from a fixture through :mod:`.facts`.

A text may cite the document's own figures and tables and the notes' sections and
exercises by label: ``{fig[aima-fig-5-2-minimax]}``, ``{table[steps-aima-fig-5-2]}``,
``{sec[cutoff]}``, ``{ex[ex3]}`` (Korean particles agree: ``{fig[x]:을}``). A document is
built twice: the first pass numbers what it holds, the second fills the citations.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from abkit.algorithms import Algorithm
from abkit.coursefolder import current_course
from abkit.errors import UsageError
from abkit.fixture import Fixture
from abkit.game import CHANCE, MAX
from abkit.i18n import fill, glossary
from abkit.randomtree import order, random_tree
from abkit.textree import fmt
from abkit.tictactoe import nilsson_eval
from abkit.trace import Trace
from abkit.tree import Tree, backed_up_values

from abkit.handouts.facts import check
from abkit.handouts.facts import compute as compute_facts
from abkit.handouts.exercises import (board_tree, difficulty, drawn_as, equality_cuts, exercise_tree, limited_values,
                                      number, root_tie, seed_for, spec, square_of)
from abkit.handouts.ordering_lab import knuth_moore as km_leaves
from abkit.handouts.ordering_lab import lab_rows, plot_svg
from abkit.handouts.formulas import chance_as_min, chance_formula, minimax_formula
from abkit.handouts.papertree import paper_svg
from abkit.handouts.trees import (_TRACES, MAX_FIGURE_PT, cut_fires, final_iteration, fixture, game_trace,
                    open_lines, outline, square_kind, step_events, style_for, trace_of)
from abkit.handouts.words import handouts_folder, words
from abkit.handouts.worksheets import TABLE_KINDS, Worksheets
from abkit.stepthrough.svgtree import ANSWER, BLANK, MINIMAX, VALUES, natural_width, render_svg, short
from abkit.stepthrough.typeset import typeset

SHOWS = {"answer": ANSWER, "minimax": MINIMAX, "blank": BLANK, "values": VALUES}
EDITIONS = ("handout", "answer_key", "student_sheet", "variant_key")
REF_KINDS = ("fig", "table", "sec", "ex")
#: an answer key's trees are printed at this part of the exercise sheet's size (nobody writes on them)
KEY_SCALE = 0.8
#: inline superscripts and subscripts, whose braces are markup, not placeholders
MARKUP = re.compile(r"[\^_]\{[^{}]*\}")
KEPT = re.compile("\0(\\d+)\0")


@dataclass
class Section:
    """One section: its id (the outline's), its title, its blocks, and whether it starts a page."""

    id: str
    title: str
    blocks: list[dict[str, Any]] = field(default_factory=list)
    page_break: bool = False


@dataclass
class Document:
    """One printed document in one language.

    edition: ``handout`` (notes, worked examples, exercises), ``answer_key``,
    ``student_sheet`` or ``variant_key`` (a student's own exercises and their key).
    student: the student id of a variant, else ``""``.
    """

    lang: str
    edition: str
    title: str
    subtitle: str
    sections: list[Section]
    student: str = ""
    words: dict[str, str] = field(default_factory=dict)

    def figures(self) -> list[dict[str, Any]]:
        """Every figure block, in order."""
        return [b for s in self.sections for b in s.blocks if b["kind"] == "figure"]

    def blocks(self, kind: str | None = None) -> list[dict[str, Any]]:
        """Every block (of ``kind``), in order."""
        return [b for s in self.sections for b in s.blocks if kind is None or b["kind"] == kind]


class Refs:
    """The numbers one kind of citation resolves to (``{fig[ID]}``); ``None``: a first pass (every number 0)."""

    def __init__(self, kind: str, numbers: dict[str, int] | None) -> None:
        self.kind = kind
        self.numbers = numbers

    def __getitem__(self, key: str) -> int:
        if self.numbers is None:
            return 0
        if key not in self.numbers:
            raise UsageError("handouts.bad_ref", ref=f"{self.kind}[{key}]", known=", ".join(sorted(self.numbers)))
        return self.numbers[key]


class NotesRefs(Refs):
    """Sections of the lecture notes cited from another document (a student's sheet, a key): the number with the
    notes named (``3 of the lecture notes``, ``강의 노트 3``), so "Section 3" never points into the sheet itself."""

    def __init__(self, numbers: dict[str, int], template: str) -> None:
        super().__init__("sec", numbers)
        self.template = template

    def __getitem__(self, key: str) -> str:  # type: ignore[override]
        return self.template.replace("{n}", str(super().__getitem__(key)))


def section_numbers() -> dict[str, int]:
    """Section id -> its number in the lecture notes (what ``{sec[ID]}`` cites in every document)."""
    return {s["section"]: n for n, s in enumerate(outline()["handout"], 1)}


class _Figures:
    """The figures and tables a section shows: trees drawn from traces (with their step-through in HTML), paper trees, step and feature tables, the ordering lab's plot."""

    def figure(self, tree: Tree, algorithm: str, show: str, caption: str, figure_id: str,
               rule: bool = True, depth: int | None = None) -> dict[str, Any]:
        """A tree figure; its ``pruned`` field lists the nodes whose edges carry an X.

        ``caption``: the key of its text. ``depth``: the depth limit of
        ``cutoff``/``ordering``; an ``ordering`` (iterative deepening) figure
        shows its last, deepest iteration.
        """
        trace = None if show == "blank" else trace_of(tree, algorithm, rule, depth)
        if trace is not None and algorithm == Algorithm.ORDERING:
            trace = final_iteration(trace)
        svg = render_svg(tree, trace, SHOWS[show], style_for(tree), figure_id=figure_id)
        pruned = trace.pruned(tree) if trace is not None and SHOWS[show].cuts else []
        return {"kind": "figure", "id": figure_id, "svg": svg, "pruned": pruned,
                "caption": self.caption(caption, figure_id.removeprefix("fig-")),
                "width_pt": round(min(natural_width(svg) * 0.75, MAX_FIGURE_PT), 1)}

    def paper(self, svg: str, figure_id: str, caption: str, pruned: list[str] | None = None, scale: float = 1.0,
              **params: Any) -> dict[str, Any]:
        """A paper tree (see :mod:`abkit.handouts.papertree`): printed at its natural width, the full text width, so
        that its boxes have their sizes in mm; an answer's, which nobody writes on, at ``scale`` of it."""
        return {"kind": "figure", "id": figure_id, "svg": svg, "pruned": pruned or [], "paper": scale == 1.0,
                "caption": self.caption(caption, figure_id.removeprefix("fig-"), **params),
                "width_pt": round(natural_width(svg) * scale, 2)}

    def add_stepper(self, block: dict[str, Any], tree: Tree, algorithm: str, rule: bool, depth: int | None) -> None:
        """Give a figure the step-through of its search (``step: true`` in the outline; HTML only, the PDF keeps the
        figure): ``stepper`` (the widget, with the stepper's style and script the first time) and its label."""
        from abkit.i18n import t

        from abkit.stepthrough.page import assets, widget
        from abkit.stepthrough.steps import steps_of

        steps = steps_of(trace_of(tree, algorithm, rule, depth), tree, rule)
        self.steppers += 1
        html = widget(tree, [("", steps, "")], self.lang, f"{block['id']}-steps")
        block["stepper"] = (assets() if self.steppers == 1 else "") + html
        block["stepper_label"] = t("page.handout_summary", self.lang)

    def ordering_plot(self, spec_: dict[str, Any]) -> dict[str, Any]:
        """The move-ordering lab measured now (uniform trees of branching ``b``, depths 1..``max_depth``)."""
        svg = plot_svg(lab_rows(spec_["b"], spec_["max_depth"], spec_["seeds"]), self.lang)
        return {"kind": "figure", "id": "plot-ordering", "svg": svg, "pruned": [],
                "caption": self.caption(spec_["caption"], "ordering-plot"),
                "width_pt": round(min(natural_width(svg) * 0.75, MAX_FIGURE_PT), 1)}

    def nilsson(self, fixture_id: str) -> dict[str, Any]:
        """Nilsson's depth-2 analysis as a table: each first move of X, O's replies, e(p), backed-up values.

        Moves come from the fixture's game (symmetric positions merged), e(p)
        from ``nilsson_eval``; the last column says whether the reference
        alpha-beta search evaluated the position or cut it off.
        """
        evaluated = set(game_trace(fixture_id, Algorithm.CUTOFF).evaluated)
        rows = []
        for move, after, replies in two_plies(fixture_id):
            backed_up = min(nilsson_eval(board) for board in replies)
            for n, board in enumerate(replies):
                rows.append([self.w(f"ttt.{square_kind(move)}") if n == 0 else "", board_text(board),
                             f"{open_lines(board, 'O')} − {open_lines(board, 'X')} = {fmt(nilsson_eval(board))}",
                             fmt(backed_up) if n == 0 else "",
                             self.w("ttt.evaluated" if board in evaluated else "ttt.cut")])
        head = [self.w(k) for k in ("ttt.move", "ttt.reply", "ttt.e", "ttt.value", "ttt.alphabeta")]
        return self.table(head, rows, self.w("ttt.caption"), [2, 3, 3, 2, 2], f"nilsson-{fixture_id}")

    def nilsson_summary(self, fixture_id: str) -> dict[str, Any]:
        """One row per move of the player at the root: the position after it, e(p) of every reply, the
        backed-up value, and how many of the replies alpha-beta evaluated."""
        fx = fixture(fixture_id)
        evaluated = set(game_trace(fixture_id, Algorithm.CUTOFF).evaluated)
        rows = []
        for move, after, replies in two_plies(fixture_id):
            values = [nilsson_eval(board) for board in replies] or [nilsson_eval(after)]
            rows.append([self.w("ttt.square", square=move, where=self.w(f"ttt.at.{move}")), board_text(after),
                         ", ".join(fmt(v) for v in values), fmt(min(values)),
                         self.w("ttt.of", k=sum(1 for b in replies if b in evaluated), n=len(replies))])
        head = [self.w(k) for k in ("ttt.move", "ttt.after", "ttt.replies", "ttt.value", "ttt.alphabeta")]
        return self.table(head, rows, self.w("ttt.summary_caption", position=board_text(fx.root), depth=fx.depth),
                          [3, 2, 3, 2, 2], f"nilsson-{fixture_id}")

    def features(self, fixture_id: str) -> dict[str, Any]:
        """A weighted-feature evaluation: per position, each feature's count, and e = Σ weight × feature,
        computed from the fixture's ``features`` and ``weights`` (features no position has are left out)."""
        fx = fixture(fixture_id)
        names = [f for f in fx.weights if any(counts.get(f) for counts in fx.features.values())]
        rows = []
        for node, counts in fx.features.items():
            terms = [f"{fmt(fx.weights[f])}·{signed(counts[f])}" for f in names if counts.get(f)]
            value = round(sum(fx.weights[f] * counts.get(f, 0) for f in names), 9)
            rows.append([node] + [fmt(counts.get(f, 0)) for f in names] + [" + ".join(terms) + f" = {fmt(value)}"])
        head = [self.w("features.position")] + [self.w("features.name", feature=self.w(f"feature.{f}"),
                                                        weight=fmt(fx.weights[f])) for f in names]
        return self.table(head + [self.w("features.e")], rows, self.w(f"features.caption.{fixture_id}"),
                          [2] + [2] * len(names) + [6], f"features-{fixture_id}")

    def ttt_features(self, fixture_id: str) -> dict[str, Any]:
        """Nilsson's e(p) as a weighted sum: after each first move of the fixture's game, the lines open for X
        (f1) and for O (f2), and e = 1·f1 − 1·f2."""
        fx = fixture(fixture_id)
        game, root = fx.game(), fx.root
        rows = []
        for move in game.actions(root):
            after = game.result(root, move)
            f1, f2 = open_lines(after, "O"), open_lines(after, "X")
            check_e = f1 - f2 == nilsson_eval(after)
            if not check_e:  # pragma: no cover - tic-tac-toe's e(p) is this sum by definition
                raise ValueError(f"e(p) of {after} is not {f1} - {f2}")
            rows.append([self.w("ttt.square", square=move, where=self.w(f"ttt.at.{move}")), board_text(after),
                         str(f1), str(f2), f"1·{f1} − 1·{f2} = {fmt(f1 - f2)}"])
        head = [self.w(k) for k in ("ttt.move", "ttt.after", "features.ttt_f1", "features.ttt_f2", "features.ttt_e")]
        return self.table(head, rows, self.w("features.ttt_caption"), [3, 2, 2, 2, 3], f"ttt-features-{fixture_id}")

    def table(self, head: list[str], rows: list[list[str]], caption: str, widths: list[int],
              table_id: str) -> dict[str, Any]:
        self.table_count += 1
        self.found["table"][table_id] = self.table_count
        return {"kind": "table", "id": table_id, "head": head, "rows": rows, "widths": widths,
                "caption": self.w("label.table", n=self.table_count) + " " + caption}

    def steps(self, tree: Tree, rule: bool = True, table_id: str = "steps", caption: str = "steps.caption",
              **params: Any) -> dict[str, Any]:
        """The step-by-step table of alpha-beta on ``tree``."""
        trace = trace_of(tree, Algorithm.ALPHABETA, rule)
        rows = [[str(n), self.w(key, **ps)] for n, (key, ps) in enumerate(step_events(trace, tree, rule), 1)]
        return self.table([self.w("steps.n"), self.w("steps.event")], rows, self.w(caption, **params), [1, 12],
                          table_id)

    def knuth_moore(self, shapes: list[list[int]]) -> dict[str, Any]:
        """Leaves evaluated under best ordering, counted on real trees, beside b^d and the formula."""
        rows = []
        for b, d in shapes:
            tree = order(random_tree(b, d, -10 ** 6, 10 ** 6, distinct=True, seed=b * 100 + d), "best")
            measured = len(trace_of(tree, Algorithm.ALPHABETA).evaluated)
            rows.append([str(b), str(d), f"{b ** d:,}", f"{measured:,}", f"{km_leaves(b, d):,}"])
        head = [self.w(k) for k in ("km.b", "km.d", "km.all", "km.measured", "km.formula")]
        return self.table(head, rows, self.w("km.caption"), [1, 1, 2, 3, 3], "knuth-moore")


class _Exercises(Worksheets):
    """The paper exercises and their answers: one page each, the tree sized for a pen, the key's tree filled in."""

    def exercise(self, exercise: str) -> list[dict[str, Any]]:
        """An exercise on a page of its own: the task, a pen-sized blank tree (or a table to fill in), the questions,
        a ruled answer area."""
        entry, n = spec(exercise), number(exercise)
        tree = None if entry["kind"] in TABLE_KINDS else exercise_tree(exercise, self.student, self.roster)
        blocks = self._page_start("exercise")
        self.context = exercise_facts(self, exercise, tree)
        blocks += [{"kind": "subhead", "text": self.w("ex.heading", n=n, title=self.w(f"{exercise}.title"))},
                   {"kind": "p", "text": self.w(f"{exercise}.task")}]
        if tree is None:
            blocks.append(self.worksheet(exercise, entry, filled=False))
        else:
            blocks += self.blank_trees(exercise, entry, tree, n)
        blocks.append({"kind": "list", "items": [self.w(q) for q in entry["questions"]], "numbered": True})
        blocks.append({"kind": "ruled", "text": self.w("ex.answer_area")})
        self.context = {}
        return blocks

    def blank_trees(self, exercise: str, entry: dict[str, Any], tree: Tree, n: int) -> list[dict[str, Any]]:
        """The exercise's tree to fill in, and for a reordering exercise the empty tree of the same shape."""
        svg = paper_svg(tree, drawn_as(entry["kind"]), None, figure_id=f"fig-{exercise}-blank",
                        **paper_inputs(exercise, tree))
        blocks = [self.paper(svg, f"fig-{exercise}-blank", "ex.fig", n=n)]
        if entry.get("reorder"):
            template = paper_svg(tree, "template", figure_id=f"fig-{exercise}-template")
            blocks.append(self.paper(template, f"fig-{exercise}-template", "ex.template_fig", n=n))
        return blocks

    def _page_start(self, kind: str) -> list[dict[str, Any]]:
        """A page break before every exercise but the first of its document: its ruled answer area fills the page.
        Answers flow one after another (the template keeps each heading with its figure and a step table's rows
        in threes at a page break), so a short answer leaves no page mostly empty."""
        self.pages[kind] += 1
        return [{"kind": "pagebreak"}] if kind == "exercise" and self.pages[kind] > 1 else []

    def answer(self, exercise: str) -> list[dict[str, Any]]:
        """The answer to ``exercise``: the tree filled in from the reference search (or the table filled in), and
        what the questions ask."""
        entry, n = spec(exercise), number(exercise)
        kind = entry["kind"]
        tree = None if kind in TABLE_KINDS else exercise_tree(exercise, self.student, self.roster)
        blocks = self._page_start("answer")
        self.context = exercise_facts(self, exercise, tree)
        blocks.append({"kind": "subhead", "text": self.w("ans.heading", n=n, title=self.w(f"{exercise}.title"))})
        if tree is None:
            blocks += [self.worksheet(exercise, entry, filled=True), {"kind": "p", "text": self.w(f"{exercise}.answer")}]
        elif kind in ("alphabeta", "forms"):
            blocks += self.alphabeta_answer(exercise, entry, tree, n)
        else:
            trace = answer_trace(kind, tree)
            svg = paper_svg(tree, drawn_as(kind), trace, figure_id=f"fig-{exercise}-answer",
                            **paper_inputs(exercise, tree, filled=True))
            blocks.append(self.paper(svg, f"fig-{exercise}-answer", "ans.fig",
                                     trace.pruned(tree) if trace is not None else [], KEY_SCALE, n=n))
            blocks += [{"kind": "p", "text": self.w(f"{exercise}.answer")}]
        self.context = {}
        return blocks

    def alphabeta_answer(self, exercise: str, entry: dict[str, Any], tree: Tree, n: int) -> list[dict[str, Any]]:
        """The filled tree of an alpha-beta exercise, its summary, and what its questions ask besides: the equality
        cuts, the best reordering, the step table; for ``forms`` the values the other two forms return."""
        trace = trace_of(tree, Algorithm.ALPHABETA)
        svg = paper_svg(tree, "alphabeta", trace, figure_id=f"fig-{exercise}-answer")
        blocks = [self.paper(svg, f"fig-{exercise}-answer", "ans.fig", trace.pruned(tree), KEY_SCALE, n=n),
                  {"kind": "p", "text": self.summary(trace, tree)}]
        if "ex.q.equality" in entry.get("questions", ()):
            blocks.append({"kind": "p", "text": self.equality(tree, trace)})
        if entry.get("reorder"):
            blocks += self.reordered(exercise, tree, trace, n)
        if entry["kind"] == "forms":
            return blocks + [self.forms_table(tree, trace, exercise), {"kind": "p", "text": self.w(f"{exercise}.answer")}]
        blocks.append(self.steps(tree, True, f"steps-{exercise}", "ans.steps_caption", n=n))
        return blocks

    def reordered(self, exercise: str, tree: Tree, trace: Trace, n: int) -> list[dict[str, Any]]:
        """The answer to a reordering question: the same nodes, best child first, with their own names."""
        best = order(tree, "best", rename=False)
        best_trace = trace_of(best, Algorithm.ALPHABETA)
        first = best.children[best.root][0]  # the best move
        others = len(best.children[best.root]) - 1
        fewest = len(best.children[first]) + others
        check(len(best_trace.evaluated) == fewest, "the best-first order no longer evaluates the fewest leaves")
        svg = paper_svg(best, "alphabeta", best_trace, figure_id=f"fig-{exercise}-best")
        return [{"kind": "p", "text": self.w("ans.best", evaluated=fewest, before=len(trace.evaluated), best=first,
                                             first=len(best.children[first]), others=others,
                                             order=reorder_text(tree, best))},
                {"kind": "p", "text": self.any_best_order(tree, fewest, first)},
                self.paper(svg, f"fig-{exercise}-best", "ans.best_fig", best_trace.pruned(best), KEY_SCALE, n=n)]

    def any_best_order(self, tree: Tree, fewest: int, best: str) -> str:
        """Which reorderings are right, not only the key's: on a two-ply tree with MAX at the root, alpha-beta
        evaluates the ``fewest`` leaves exactly when the root's best move ``best`` comes first and every other MIN
        node's first leaf is cut on (at most the root's value under the AIMA rule, below it under CS188's);
        tests/test_handout_claims.py holds the condition against every ordering."""
        depths = tree.depths()
        check(tree.root_player == MAX and all(depths[leaf] == 2 for leaf in tree.leaves()),
              "the reordering key's condition is for two-ply MAX-rooted trees")
        return self.w("ans.best_any", km=fewest, best=best, value=fmt(backed_up_values(tree)[tree.root]))

    def equality(self, tree: Tree, trace: Trace) -> str:
        """The answer to "which cut test fires on equality, and would it under CS188?": each test that fires with
        v equal to its bound, and what alpha-beta evaluates besides under the CS188 rule (the root's value is the same)."""
        fired = [p for key, p in step_events(trace, tree) if key.startswith("steps.cut") and p["rel"] in ("≥", "≤")]
        tests = ", ".join(self.w("ans.equality_test", node=p["node"], v=p["v"], rel=p["rel"],
                                 bound="β" if p["rel"] == "≥" else "α", value=p.get("beta", p.get("alpha")))
                          for p in fired)
        cs188 = trace_of(tree, Algorithm.ALPHABETA, rule=False)
        more = [n for n in cs188.evaluated if n not in set(trace.evaluated)]
        return self.w("ans.equality", tests=tests or self.w("ans.none"), more=", ".join(more) or self.w("ans.none"),
                      value=fmt(cs188.value))

    def summary(self, trace: Trace, tree: Tree) -> str:
        pruned = trace.pruned(tree)
        return self.w("ans.summary", value=fmt(trace.value), action=trace.action,
                      visited=", ".join(trace.visited), evaluated=len(trace.evaluated),
                      pruned=", ".join(pruned) if pruned else self.w("ans.none"))


class Builder(_Figures, _Exercises):
    """Turns outline sections into :class:`Section` objects in one language.

    numbers: the figure and table numbers of a first pass over the same
    document (``None`` in the first pass itself). notes: the document is the lecture notes; in any other a
    section is cited as the notes' (:class:`NotesRefs`). roster: the students listed before ``student``.
    """

    def __init__(self, lang: str, student: str = "", numbers: dict[str, dict[str, int]] | None = None,
                 notes: bool = True, roster: tuple[str, ...] = ()) -> None:
        self.lang = lang
        self.student = student
        self.roster = roster
        self.words = words(lang)
        self.figure_count = 0
        self.table_count = 0
        self.found: dict[str, dict[str, int]] = {"fig": {}, "table": {}}
        known = numbers or {}
        self.refs = {"fig": Refs("fig", known.get("fig") if numbers is not None else None),
                     "table": Refs("table", known.get("table") if numbers is not None else None),
                     "sec": Refs("sec", section_numbers()) if notes else NotesRefs(section_numbers(),
                                                                                    self.words["ref.notes_section"]),
                     "ex": Refs("ex", {ex: number(ex) for ex in outline()["exercises"]})}
        self.context: dict[str, Any] = {}
        self.pages = {"exercise": 0, "answer": 0}
        #: whether this is the first pass, which only numbers figures and tables; steppers added so far
        self.numbering, self.steppers = numbers is None, 0
        #: the course's cut-off rule: a text stating it has a twin ``KEY_cs188`` used under CS188's
        self.rule = current_course().rule

    def w(self, key: str, **params: Any) -> str:
        """The text of ``key`` (``KEY_cs188`` instead where the course's rule is CS188's and that text exists) in
        this language, placeholders filled (Korean particles agreeing: ``{v:을}``),
        citations resolved, and the facts of the block being built at hand. The braces of inline markup
        (``b^{d}``, ``f_{1}``) are not placeholders."""
        kept: list[str] = []

        def keep(match) -> str:
            kept.append(match.group())
            return f"\0{len(kept) - 1}\0"

        text = fill(MARKUP.sub(keep, self.ruled(key)), self.lang, {**self.refs, **self.context, **params})
        return KEPT.sub(lambda m: kept[int(m.group(1))], text)

    def ruled(self, key: str) -> str:
        """The raw text of ``key``, or of its twin ``KEY_cs188`` where the course's rule is CS188's and it has one."""
        twin = f"{key}_{self.rule}"
        return self.words[twin if twin in self.words else key]

    def caption(self, key: str, label: str, **params: Any) -> str:
        """``Figure n.`` (numbering the next figure, cited as ``{fig[label]}``) followed by the text of ``key``."""
        self.figure_count += 1
        self.found["fig"][label] = self.figure_count
        return self.w("label.figure", n=self.figure_count) + " " + self.w(key, **params)

    def section(self, spec_: dict[str, Any]) -> Section:
        section = Section(spec_["section"], self.w(f"{spec_['section']}.title"), page_break=bool(spec_.get("break")))
        for block in spec_.get("blocks", ()):
            section.blocks.extend(self.block(block))
        return section

    def block(self, spec_: dict[str, Any]) -> list[dict[str, Any]]:
        """The blocks one outline entry becomes (its ``facts:``, if any, at hand for its words)."""
        self.context = compute_facts(spec_["facts"], self) if "facts" in spec_ else {}
        try:
            return self._block(spec_)
        finally:
            self.context = {}

    def _block(self, spec_: dict[str, Any]) -> list[dict[str, Any]]:
        kind, value = next(iter(spec_.items()))
        if kind in ("p", "formula"):
            return [{"kind": kind, "text": self.w(value)}]
        if kind == "code":
            return [{"kind": "code", "text": self.ruled(value)}]
        if kind == "subhead":
            return [{"kind": "subhead", "text": self.w(value)}]
        if kind == "list":
            return [{"kind": "list", "items": [self.w(k) for k in value]}]
        if kind == "code_pair":
            return [{"kind": "code_pair", "titles": [self.w(k) for k in value["titles"]],
                     "texts": [self.ruled(k) for k in value["code"]], "caption": self.w(value["caption"])}]
        if kind == "figure":
            fx = fixture(value["fixture"])
            block = self.figure(fx.tree, value["algorithm"], value["show"], value["caption"],
                                f"fig-{value['fixture']}-{value['algorithm']}", fx.prune_on_equality, fx.depth)
            if value.get("step") and not self.numbering:  # the first pass only counts figures
                self.add_stepper(block, fx.tree, value["algorithm"], fx.prune_on_equality, fx.depth)
            return [block]
        if kind == "ordering_plot":
            return [self.ordering_plot(value)]
        if kind == "nilsson":
            return [self.nilsson(value)]
        if kind == "nilsson_summary":
            return [self.nilsson_summary(value)]
        if kind == "features":
            return [self.features(value)]
        if kind == "ttt_features":
            return [self.ttt_features(value)]
        if kind == "steps":
            fx = fixture(value)
            return [self.steps(fx.tree, fx.prune_on_equality, f"steps-{value}")]
        if kind == "notes":
            return self.notes(fixture(value))
        if kind == "knuth_moore":
            return [self.knuth_moore(value)]
        if kind == "exercise":
            return self.exercise(value)
        if kind == "answer":
            return self.answer(value)
        if kind == "glossary":
            return [self.glossary()]
        raise ValueError(f"unknown block kind {kind!r} in {handouts_folder() / 'outline.yaml'}")  # pragma: no cover - outline typo

    # -- a fixture's notes and the glossary --------------------------------------------------------

    def notes(self, fx: Fixture) -> list[dict[str, Any]]:
        return [{"kind": "note", "node": node, "text": texts.get(self.lang) or texts.get("en", "")}
                for node, texts in fx.notes.items()]

    def glossary(self) -> dict[str, Any]:
        """The kit's glossary as a table: English term, the kit's Korean term, the Korean course text's term, and
        what it means in this language (where the term alone does not say)."""
        rows = [[entry["en"], entry["ko"], entry["seed"] or "—", entry.get("means", {}).get(self.lang, "")]
                for entry in glossary()]
        head = [self.w(k) for k in ("glossary.en", "glossary.ko", "glossary.seed", "glossary.means")]
        return {**self.table(head, rows, self.w("glossary.caption"), [3, 2, 2, 5], "glossary"), "glossary": True}


def two_plies(fixture_id: str) -> list[tuple[Any, str, list[str]]]:
    """The fixture game's moves at its root: (move, the position after it, the positions after each reply)."""
    fx = fixture(fixture_id)
    game = fx.game()
    out = []
    for move in game.actions(fx.root):
        after = game.result(fx.root, move)
        out.append((move, after, [game.result(after, reply) for reply in game.actions(after)]))
    return out


def signed(value: float) -> str:
    """A number as a factor: negative ones in parentheses.

    >>> signed(-1), signed(0.1)
    ('(-1)', '0.1')
    """
    return f"({fmt(value)})" if value < 0 else fmt(value)


def board_text(board: str) -> str:
    """A tic-tac-toe board as inline code, rows separated by slashes.

    >>> board_text("XO.......")
    '`XO./.../...`'
    """
    return "`" + "/".join(board[i:i + 3] for i in (0, 3, 6)) + "`"


def reorder_text(before: Tree, after: Tree) -> str:
    """Each internal node whose children moved, with its children in the new order: ``A: D, B, C; B: B2, B1``."""
    return "; ".join(f"{node}: {', '.join(after.children[node])}" for node in after.children
                     if after.children[node] != before.children[node])


def paper_inputs(exercise: str, tree: Tree, filled: bool = False) -> dict[str, Any]:
    """The extra inputs of a paper tree of ``exercise``: boards, given values, the depth limit; with
    ``filled``, the values its answer shows."""
    entry = spec(exercise)
    kind = entry["kind"]
    out: dict[str, Any] = {}
    if kind == "board":
        out["boards"] = board_tree(entry["fixture"])[1]
        if filled:
            out["values"] = backed_up_values(tree)
    elif kind in ("horizon", "quiescence"):
        out["limit"] = fixture(entry["fixture"]).depth
        if filled:
            out["values"] = backed_up_values(tree)
            out["limited"] = limited_values(tree, out["limit"], tuple(entry.get("noisy", ())))
    elif kind in ("minimax", "expectimax") and filled:
        out["values"] = backed_up_values(tree)
    return out


def exercise_facts(builder: Builder, exercise: str, tree: Tree | None) -> dict[str, Any]:
    """What an exercise's task and answer texts say about its tree, computed from it (a table exercise, which
    has no tree: from its numbers)."""
    entry = spec(exercise)
    kind = entry["kind"]
    if tree is None:
        return builder.table_facts(entry)
    values = backed_up_values(tree)
    players = tree.players()
    best = [c for c in tree.children[tree.root] if values[c] == values[tree.root]]
    out: dict[str, Any] = {"value": short(values[tree.root]), "action": best[0], "leaves": len(tree.leaves()),
                           "moves": len(tree.children[tree.root])}
    if kind == "minimax":
        out["formula"] = minimax_formula(tree, values)
        out["ab_evaluated"] = len(trace_of(tree, Algorithm.ALPHABETA).evaluated)
    if kind in ("alphabeta", "forms"):
        out.update(evaluated=len(trace_of(tree, Algorithm.ALPHABETA).evaluated), root_player=tree.root_player)
    if kind == "forms":
        out.update(builder.forms_facts(tree, trace_of(tree, Algorithm.ALPHABETA)))
    if kind == "expectimax":
        chance = [n for n in tree.preorder() if players.get(n) == CHANCE]
        out["formulas"] = "; ".join(chance_formula(tree, node, values) for node in chance)
        pessimist = chance_as_min(tree)
        out["worst"] = ", ".join(f"{c} = {fmt(pessimist[c])}" for c in tree.children[tree.root])
        out["cautious"] = max(tree.children[tree.root], key=lambda c: pessimist[c])
    if kind == "quiescence":
        out.update(quiescence_facts(tree, entry, values))
    if kind == "deepening":
        out.update(deepening_facts(tree))
    if kind in ("horizon", "quiescence"):
        limit = fixture(entry["fixture"]).depth
        limited = limited_values(tree, limit)
        shallow = [c for c in tree.children[tree.root] if limited[c] == limited[tree.root]]
        depth = tree.depths()
        sign = 1 if tree.root_player == MAX else -1  # an EVAL misleads the root's player when it flatters its move

        def misled(children: list, flatters: bool) -> str:
            return ", ".join(builder.w("horizon_ex.hidden", node=n, eval=fmt(tree.heuristics[n]), true=fmt(values[n]))
                             for c in children for n in tree.preorder(c) if depth[n] == limit
                             and (sign * (tree.heuristics[n] - values[n]) > 0) == flatters
                             and tree.heuristics[n] != values[n])
        others = [c for c in tree.children[tree.root] if c != shallow[0]]
        low = misled(others, False)
        out.update(limit=limit, limited_value=short(limited[tree.root]), limited_action=shallow[0],
                   limited_values=", ".join(f"{c} = {fmt(limited[c])}" for c in tree.children[tree.root]),
                   full_values=", ".join(f"{c} = {fmt(values[c])}" for c in tree.children[tree.root]),
                   high=misled([shallow[0]], True), low=builder.w("horizon_ex.low", low=low) if low else "",
                   cost=short(values[tree.root] - values[shallow[0]]))
    if kind == "board":
        fx = fixture(entry["fixture"])
        tree_, boards = board_tree(entry["fixture"])
        trace = trace_of(tree_, Algorithm.ALPHABETA)
        out.update(depth=fx.depth, position=board_text(fx.root),
                   square=builder.w(f"ttt.at.{square_of(fx.root, boards[best[0]])}"),
                   evaluated=len(trace.evaluated), pruned=", ".join(trace.pruned(tree_)),
                   moves=", ".join(f"{c} = {fmt(values[c])}" for c in tree.children[tree.root]))
    return out


def answer_trace(kind: str, tree: Tree) -> Trace | None:
    """The search whose record fills an exercise's answer tree besides its values: alpha-beta on a board exercise's
    positions, iterative deepening's last iteration on a deepening exercise's tree (none for the other kinds)."""
    if kind == "board":
        return trace_of(tree, Algorithm.ALPHABETA)
    if kind == "deepening":
        return final_iteration(trace_of(tree, Algorithm.ORDERING, depth=2))
    return None


def deepening_facts(tree: Tree) -> dict[str, Any]:
    """What the iterative-deepening exercise says: the first iteration's values and best move, the second
    iteration's order and leaves, and the leaves of alpha-beta in the tree's own order."""
    moves = tree.children[tree.root]
    best = max(moves, key=tree.heuristics.__getitem__)
    last = final_iteration(trace_of(tree, Algorithm.ORDERING, depth=2))
    plain = trace_of(tree, Algorithm.ALPHABETA)
    order = [best] + [m for m in moves if m != best]
    check([n for n in last.visited if n in moves] == order,
          "the deepening answer says the first iteration's best move is searched first")
    return {"id_values": ", ".join(f"{m} = {fmt(tree.heuristics[m])}" for m in moves), "id_best": best,
            "id_order": ", ".join(order), "id_evaluated": ", ".join(last.evaluated), "id_n2": len(last.evaluated),
            "id_n0": len(plain.evaluated), "id_k": len(moves), "id_total": len(moves) + len(last.evaluated),
            "id_pruned": ", ".join(last.pruned(tree))}


def quiescence_facts(tree: Tree, entry: dict[str, Any], values: dict[str, float]) -> dict[str, Any]:
    """What the quiescence exercise says: the depth-limited search going on below the outline's ``noisy`` nodes,
    its values of the root's moves, its choice, and whether it is the complete search's."""
    noisy = tuple(entry["noisy"])
    quiet = limited_values(tree, fixture(entry["fixture"]).depth, noisy)
    best = [c for c in tree.children[tree.root] if quiet[c] == quiet[tree.root]]
    check(len(noisy) == 1 and best[0] == max(tree.children[tree.root], key=values.__getitem__)
          and quiet[tree.root] != values[tree.root],
          "the quiescence answer says one node is noisy, the choice becomes the complete search's and the value "
          "stays an EVAL")
    return {"noisy": noisy[0], "q_noisy": fmt(quiet[noisy[0]]), "q_eval": fmt(tree.heuristics[noisy[0]]), "q_values": ", ".join(f"{c} = {fmt(quiet[c])}" for c in tree.children[tree.root]),
            "q_action": best[0], "q_value": short(quiet[tree.root]),
            "q_below": ", ".join(f"{c} = {fmt(quiet[c])}" for n in noisy for c in tree.children[n])}


def typeset_document(document: Document) -> Document:
    """Every printed text of ``document`` with real ≤, ≥ and minus signs (:func:`abkit.stepthrough.typeset.typeset`);
    code blocks and inline code keep what was typed."""
    document.title, document.subtitle = typeset(document.title), typeset(document.subtitle)
    for section in document.sections:
        section.title = typeset(section.title)
        for block in section.blocks:
            for key in ("text", "caption"):
                if key in block and block["kind"] not in ("code",):
                    block[key] = typeset(block[key])
            for key in ("items", "head", "titles"):
                if key in block:
                    block[key] = [typeset(x) for x in block[key]]
            if "rows" in block:
                block["rows"] = [[typeset(cell) for cell in row] for row in block["rows"]]
    return document


def build_document(lang: str, edition: str, student: str = "", roster: tuple[str, ...] = ()) -> Document:
    """The document ``edition`` in ``lang``; ``student`` selects a variant's trees, ``roster`` (the students listed
    before it) keeps them apart from theirs (:func:`abkit.handouts.exercises.exercise_tree`)."""
    plan = outline()
    if edition == "student_sheet":
        wanted = set(plan["student_sheet"])
        specs = [s for s in plan["handout"] if s["section"] in wanted]
    elif edition in ("answer_key", "variant_key"):
        specs = plan["answer_key"]
    else:
        specs = plan["handout"]
    notes = edition == "handout"  # other documents cite the notes' sections as the notes'
    first = Builder(lang, student, notes=notes, roster=roster)
    for spec_ in specs:
        first.section(spec_)
    builder = Builder(lang, student, numbers=first.found, notes=notes, roster=roster)
    sections = [builder.section(spec_) for spec_ in specs]
    for section in sections[:1]:
        section.page_break = False
    subtitle = builder.w("doc.student", student=student) if student else \
        builder.w("doc.key_subtitle" if edition == "answer_key" else "doc.subtitle")
    return typeset_document(Document(lang, edition, builder.w(f"doc.{edition}.title"), subtitle, sections, student,
                                     builder.words))


__all__ = ["Builder", "Document", "EDITIONS", "Refs", "Section", "board_text", "build_document",
           "cut_fires", "difficulty", "equality_cuts", "exercise_tree", "final_iteration", "fixture", "game_trace",
           "outline", "root_tie", "seed_for", "step_events", "trace_of",
           "typeset_document", "_TRACES"]
