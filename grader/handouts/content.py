"""The handouts as one document model, built from the outline, the words and the reference traces.

Both templates (HTML and typst) render the same model, so the two formats and
the two languages always have the same sections, figures and exercises. Every
figure and every step table is drawn from the reference trace of its tree, so a
handout can never disagree with the grader.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from abkit.i18n import fill, glossary
from abkit.fixture import Fixture, load_fixture
from abkit.game import MAX
from abkit.coursefolder import current_course, per_course
from abkit.randomtree import order, random_tree
from abkit.tictactoe import LINES, nilsson_eval
from abkit.trace import Call, Trace
from abkit.tree import Tree, TreeGame

from ..errors import UsageError
from ..ordering_lab import measure, plot_svg
from ..reference import reference_trace
from ..svgtree import ANSWER, BLANK, COMPACT, MINIMAX, STYLE, VALUES, layout, natural_width, render_svg
from ..textree import fmt
from .words import handouts_folder, words

SHOWS = {"answer": ANSWER, "minimax": MINIMAX, "blank": BLANK, "values": VALUES}
EDITIONS = ("handout", "answer_key", "student_sheet", "variant_key")
#: widest a figure may be printed, in points (A4 text width with 2 cm margins is about 482 pt)
MAX_FIGURE_PT = 440
#: algorithms that search to a depth limit and value the states there with EVAL
DEPTH_LIMITED = ("cutoff", "ordering")
SEED_TRIES = 20000


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


@per_course
def outline(path: Path | None = None) -> dict[str, Any]:
    """The outline file as data (default: the course's ``handouts/outline.yaml``)."""
    path = path if path is not None else handouts_folder() / "outline.yaml"
    return yaml.safe_load(path.read_text(encoding="utf-8"))


@per_course
def fixture(fixture_id: str) -> Fixture:
    """A public fixture by id."""
    return load_fixture(current_course().public_fixtures / f"{fixture_id}.yaml")


def tree_key(tree: Tree) -> tuple:
    """A hashable identity of ``tree``'s shape, names, values, heuristics, levels and probabilities."""
    return (tree.root, tree.root_player, tuple(tree.children.items()), tuple(tree.utilities.items()),
            tuple(tree.heuristics.items()), tree.levels, tuple(tree.probabilities.items()))


_TRACES: dict[tuple, Trace] = {}


def trace_of(tree: Tree, algorithm: str, rule: bool = True, depth: int | None = None) -> Trace:
    """The reference trace of ``algorithm`` on ``tree`` (cached: figures and steps share it).

    ``depth``: the depth limit of a depth-limited algorithm (``cutoff``,
    ``ordering``), whose EVAL is the tree's heuristic values.
    """
    key = (tree_key(tree), algorithm, rule, depth)
    if key not in _TRACES:
        game = TreeGame(tree)
        params = {"depth": depth, "eval_fn": game.evaluate} if algorithm in DEPTH_LIMITED else {}
        _TRACES[key] = reference_trace(game, tree.root, algorithm, rule, **params)
    return _TRACES[key]


def final_iteration(trace: Trace) -> Trace:
    """The last iteration of an iterative-deepening trace, as a trace of its own.

    Each iteration starts with a call on the root (a call without a parent);
    the calls from the last such call on are kept, with their parents and
    visit positions renumbered so the root is visited first. A trace with one
    root call comes back equal to itself.
    """
    start = max(i for i, call in enumerate(trace.calls) if call.parent is None)
    first = trace.calls[start]
    shift = max(first.visited_at - 1, 0)
    calls = [Call(c.node, c.player, c.alpha, c.beta, c.value, None if c.parent is None else c.parent - start,
                  c.visited_at - shift, c.evaluated_at - first.evaluated_at, c.synthetic,
                  None if c.returned_at is None else c.returned_at - shift)
             for c in trace.calls[start:]]
    return Trace(trace.algorithm, trace.root, visited=[trace.root] + trace.visited[shift + 1:],
                 evaluated=trace.evaluated[first.evaluated_at:], calls=calls, action=trace.action,
                 value=trace.value, error=trace.error)


def style_for(tree: Tree):
    """The default figure style, or the compact one when the default would be shrunk below print size."""
    xs = [x for x, _ in layout(tree, STYLE).values()]
    natural = max(xs) + STYLE.label_room + STYLE.margin + 10
    return COMPACT if natural * 0.75 > MAX_FIGURE_PT else STYLE


@per_course
def game_trace(fixture_id: str, algorithm: str) -> Trace:
    """The reference trace of ``algorithm`` on a public fixture of any game (tic-tac-toe included)."""
    fx = fixture(fixture_id)
    game = fx.game()
    return reference_trace(game, fx.root, algorithm, fx.prune_on_equality, **fx.search_params(algorithm, game))


def square_kind(square: int) -> str:
    """``"centre"``, ``"corner"`` or ``"edge"`` for a tic-tac-toe square 0-8.

    >>> [square_kind(i) for i in (0, 1, 4)]
    ['corner', 'edge', 'centre']
    """
    return "centre" if square == 4 else ("corner" if square % 2 == 0 else "edge")


def open_lines(board: str, against: str) -> int:
    """Lines of ``board`` with no mark of ``against``: the lines still open for the other player."""
    return sum(1 for line in LINES if all(board[i] != against for i in line))


def seed_for(student: str, exercise: str) -> int:
    """A stable seed for one student's variant of one exercise (the same on every machine).

    >>> seed_for("", "ex1") == seed_for("", "ex1") != seed_for("s1", "ex1")
    True
    """
    return int(hashlib.sha256(f"{student}\0{exercise}".encode("utf-8")).hexdigest()[:12], 16)


@per_course
def exercise_tree(exercise: str, student: str = "") -> Tree:
    """The tree of ``exercise`` for ``student`` (``""``: the shared handout's).

    Trees are drawn from the exercise's shape and value range with seeds
    ``seed_for(student, exercise)``, ``+1``, ... until alpha-beta evaluates
    exactly the outline's number of leaves, so every variant is as hard as the
    others: same shape, same range, same amount of pruning.
    """
    spec = outline()["exercises"][exercise]
    start = seed_for(student, exercise)
    for k in range(SEED_TRIES):
        tree = random_tree(spec["branching"], spec["depth"], spec["low"], spec["high"],
                           distinct=spec.get("distinct", False), seed=start + k)
        if len(trace_of(tree, "alphabeta").evaluated) == spec["evaluated"]:
            return tree
    raise UsageError("handouts.no_variant", exercise=exercise)  # pragma: no cover - outline misconfigured


class Builder:
    """Turns outline sections into :class:`Section` objects in one language."""

    def __init__(self, lang: str, student: str = "") -> None:
        self.lang = lang
        self.student = student
        self.words = words(lang)
        self.figure_count = 0
        self.table_count = 0

    def w(self, key: str, **params: Any) -> str:
        """The text of ``key`` in this language, placeholders filled (Korean particles agreeing: ``{v:을}``)."""
        return fill(self.words[key], self.lang, params)

    def caption(self, key: str) -> str:
        """``Figure n.`` (numbering the next figure) followed by the caption text of ``key``."""
        self.figure_count += 1
        return self.w("label.figure", n=self.figure_count) + " " + self.w(key)

    def section(self, spec: dict[str, Any]) -> Section:
        section = Section(spec["section"], self.w(f"{spec['section']}.title"), page_break=bool(spec.get("break")))
        for block in spec.get("blocks", ()):
            section.blocks.extend(self.block(block))
        return section

    def block(self, spec: dict[str, Any]) -> list[dict[str, Any]]:
        """The blocks one outline entry becomes."""
        kind, value = next(iter(spec.items()))
        if kind in ("p", "code", "formula"):
            return [{"kind": kind, "text": self.w(value)}]
        if kind == "subhead":
            return [{"kind": "subhead", "text": self.w(value)}]
        if kind == "list":
            return [{"kind": "list", "items": [self.w(k) for k in value]}]
        if kind == "figure":
            fx = fixture(value["fixture"])
            block = self.figure(fx.tree, value["algorithm"], value["show"], self.w(value["caption"]),
                                f"fig-{value['fixture']}-{value['algorithm']}", fx.prune_on_equality, fx.depth)
            if value.get("step"):
                self.add_stepper(block, fx.tree, value["algorithm"], fx.prune_on_equality, fx.depth)
            return [block]
        if kind == "ordering_plot":
            return [self.ordering_plot(value)]
        if kind == "nilsson":
            return [self.nilsson(value)]
        if kind == "steps":
            fx = fixture(value)
            return [self.steps(fx.tree, fx.prune_on_equality)]
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

    def figure(self, tree: Tree, algorithm: str, show: str, caption: str, figure_id: str,
               rule: bool = True, depth: int | None = None) -> dict[str, Any]:
        """A tree figure; its ``pruned`` field lists the nodes whose edges carry an X.

        ``depth``: the depth limit of ``cutoff``/``ordering``; an ``ordering``
        (iterative deepening) figure shows its last, deepest iteration.
        """
        trace = None if show == "blank" else trace_of(tree, algorithm, rule, depth)
        if trace is not None and algorithm == "ordering":
            trace = final_iteration(trace)
        self.figure_count += 1
        svg = render_svg(tree, trace, SHOWS[show], style_for(tree), figure_id=figure_id)
        pruned = trace.pruned(tree) if trace is not None and SHOWS[show].cuts else []
        return {"kind": "figure", "id": figure_id, "svg": svg, "pruned": pruned,
                "caption": self.w("label.figure", n=self.figure_count) + " " + caption,
                "width_pt": round(min(natural_width(svg) * 0.75, MAX_FIGURE_PT), 1)}

    def add_stepper(self, block: dict[str, Any], tree: Tree, algorithm: str, rule: bool, depth: int | None) -> None:
        """Give a figure the step-through of its search (``step: true`` in the outline; HTML only, the PDF keeps the
        figure): ``stepper`` (the widget, with the stepper's style and script the first time) and its label."""
        from abkit.i18n import t

        from ..stepthrough.page import assets, widget
        from ..stepthrough.steps import steps_of

        steps = steps_of(trace_of(tree, algorithm, rule, depth), tree, rule)
        self.steppers = getattr(self, "steppers", 0) + 1
        html = widget(tree, [("", steps, "")], self.lang, f"{block['id']}-steps")
        block["stepper"] = (assets() if self.steppers == 1 else "") + html
        block["stepper_label"] = t("page.handout_summary", self.lang)

    def ordering_plot(self, spec: dict[str, Any]) -> dict[str, Any]:
        """The move-ordering lab measured now (uniform trees of branching ``b``, depths 1..``max_depth``)."""
        rows = measure(spec["b"], range(1, spec["max_depth"] + 1), spec["seeds"])
        svg = plot_svg(rows, self.lang)
        return {"kind": "figure", "id": "plot-ordering", "svg": svg, "pruned": [],
                "caption": self.caption(spec["caption"]),
                "width_pt": round(min(natural_width(svg) * 0.75, MAX_FIGURE_PT), 1)}

    def nilsson(self, fixture_id: str) -> dict[str, Any]:
        """Nilsson's depth-2 analysis as a table: each first move of X, O's replies, e(p), backed-up values.

        Moves come from the fixture's game (symmetric positions merged), e(p)
        from ``nilsson_eval``; the last column says whether the reference
        alpha-beta search evaluated the position or cut it off.
        """
        fx = fixture(fixture_id)
        game, root = fx.game(), fx.root
        evaluated = set(game_trace(fixture_id, "cutoff").evaluated)
        rows = []
        for move in game.actions(root):
            after = game.result(root, move)
            replies = [game.result(after, reply) for reply in game.actions(after)]
            backed_up = min(nilsson_eval(board) for board in replies)
            for n, board in enumerate(replies):
                rows.append([self.w(f"ttt.{square_kind(move)}") if n == 0 else "",
                             "`" + "/".join(board[i:i + 3] for i in (0, 3, 6)) + "`",
                             f"{open_lines(board, 'O')} − {open_lines(board, 'X')} = {fmt(nilsson_eval(board))}",
                             fmt(backed_up) if n == 0 else "",
                             self.w("ttt.evaluated" if board in evaluated else "ttt.cut")])
        head = [self.w(k) for k in ("ttt.move", "ttt.reply", "ttt.e", "ttt.value", "ttt.alphabeta")]
        return self.table(head, rows, self.w("ttt.caption"), [2, 3, 3, 2, 2])

    def table(self, head: list[str], rows: list[list[str]], caption: str, widths: list[int]) -> dict[str, Any]:
        self.table_count += 1
        return {"kind": "table", "head": head, "rows": rows, "widths": widths,
                "caption": self.w("label.table", n=self.table_count) + " " + caption}

    def steps(self, tree: Tree, rule: bool = True) -> dict[str, Any]:
        """The step-by-step table of alpha-beta on ``tree``."""
        trace = trace_of(tree, "alphabeta", rule)
        rows = [[str(n), self.w(key, **params)] for n, (key, params) in enumerate(step_events(trace, tree), 1)]
        return self.table([self.w("steps.n"), self.w("steps.event")], rows, self.w("steps.caption"), [1, 12])

    def notes(self, fx: Fixture) -> list[dict[str, Any]]:
        return [{"kind": "note", "node": node, "text": texts.get(self.lang) or texts.get("en", "")}
                for node, texts in fx.notes.items()]

    def knuth_moore(self, shapes: list[list[int]]) -> dict[str, Any]:
        """Leaves evaluated under best ordering, counted on real trees, beside b^d and the formula."""
        rows = []
        for b, d in shapes:
            tree = order(random_tree(b, d, -10 ** 6, 10 ** 6, distinct=True, seed=b * 100 + d), "best")
            measured = len(trace_of(tree, "alphabeta").evaluated)
            formula = b ** -(-d // 2) + b ** (d // 2) - 1
            rows.append([str(b), str(d), f"{b ** d:,}", f"{measured:,}", f"{formula:,}"])
        head = [self.w(k) for k in ("km.b", "km.d", "km.all", "km.measured", "km.formula")]
        return self.table(head, rows, self.w("km.caption"), [1, 1, 2, 3, 3])

    def glossary(self) -> dict[str, Any]:
        """The kit's glossary as a table: English term, the kit's Korean term, the Korean course text's term."""
        rows = [[entry["en"], entry["ko"], entry["seed"] or "—"] for entry in glossary()]
        head = [self.w(k) for k in ("glossary.en", "glossary.ko", "glossary.seed")]
        return {**self.table(head, rows, self.w("glossary.caption"), [5, 3, 3]), "glossary": True}

    def exercise(self, exercise: str) -> list[dict[str, Any]]:
        """A blank tree of ``exercise`` with its questions."""
        spec = outline()["exercises"][exercise]
        tree = exercise_tree(exercise, self.student)
        return [{"kind": "subhead", "text": self.w(f"{exercise}.title")},
                {"kind": "p", "text": self.w(f"{exercise}.task")},
                self.figure(tree, "alphabeta", "blank", self.w("ex.fig", name=self.w(f"{exercise}.title")),
                            f"fig-{exercise}-blank"),
                {"kind": "list", "items": [self.w(q) for q in spec["questions"]], "numbered": True}]

    def answer(self, exercise: str) -> list[dict[str, Any]]:
        """The answer to ``exercise``: the tree as searched, the steps, a summary; a better order if asked."""
        spec = outline()["exercises"][exercise]
        tree = exercise_tree(exercise, self.student)
        trace = trace_of(tree, "alphabeta")
        title = self.w(f"{exercise}.title")
        blocks = [{"kind": "subhead", "text": title},
                  self.figure(tree, "alphabeta", "answer", self.w("ans.fig", name=title), f"fig-{exercise}-answer"),
                  {"kind": "p", "text": self.summary(trace, tree)},
                  self.steps(tree)]
        if spec.get("reorder"):
            best = order(tree, "best")
            best_trace = trace_of(best, "alphabeta")
            blocks.append({"kind": "p", "text": self.w("ans.best", evaluated=len(best_trace.evaluated),
                                                        before=len(trace.evaluated))})
            blocks.append(self.figure(best, "alphabeta", "answer", self.w("ans.best_fig", name=title),
                                      f"fig-{exercise}-best"))
        return blocks

    def summary(self, trace: Trace, tree: Tree) -> str:
        pruned = trace.pruned(tree)
        return self.w("ans.summary", value=fmt(trace.value), action=trace.action,
                      visited=", ".join(trace.visited), evaluated=len(trace.evaluated),
                      pruned=", ".join(pruned) if pruned else self.w("ans.none"))


def step_events(trace: Trace, tree: Tree, rule: bool = True) -> list[tuple[str, dict[str, Any]]]:
    """What alpha-beta did, one event per line: entering a node, each child's value coming back, cut-offs.

    Values and windows are the trace's; how α (at MAX) or β (at MIN) moves after
    each child is the pseudocode's update, ``α ← MAX(α, v)`` / ``β ← MIN(β, v)``.
    """
    players = tree.players()
    events: list[tuple[str, dict[str, Any]]] = []

    def walk(i: int) -> None:
        call = trace.calls[i]
        alpha, beta = call.alpha, call.beta
        v = float("-inf") if call.player == MAX else float("inf")
        events.append(("steps.enter", {"node": call.node, "player": call.player, "alpha": fmt(alpha),
                                       "beta": fmt(beta), "v": fmt(v)}))
        kids = trace.children_of(i)
        made = {trace.calls[k].node for k in kids}
        for n, k in enumerate(kids):
            child = trace.calls[k]
            if not tree.is_leaf(child.node):
                walk(k)
            v = max(v, child.value) if call.player == MAX else min(v, child.value)
            rest = [c for c in tree.children[call.node] if c not in made]
            params = {"node": call.node, "child": child.node, "value": fmt(child.value), "v": fmt(v)}
            if n == len(kids) - 1 and rest:
                cut = "max" if call.player == MAX else "min"
                relation = ("≥" if rule else ">") if cut == "max" else ("≤" if rule else "<")
                events.append((f"steps.cut_{cut}", {**params, "rel": relation, "alpha": fmt(alpha),
                                                    "beta": fmt(beta), "pruned": ", ".join(rest)}))
            elif call.player == MAX:
                alpha = max(alpha, v)
                events.append(("steps.back_max", {**params, "alpha": fmt(alpha)}))
            else:
                beta = min(beta, v)
                events.append(("steps.back_min", {**params, "beta": fmt(beta)}))
        events.append(("steps.return", {"node": call.node, "v": fmt(call.value)}))

    if trace.calls and players:
        walk(0)
        events.append(("steps.done", {"value": fmt(trace.value), "action": trace.action}))
    return events


def build_document(lang: str, edition: str, student: str = "") -> Document:
    """The document ``edition`` in ``lang``; ``student`` selects a variant's trees."""
    plan = outline()
    builder = Builder(lang, student)
    if edition in ("student_sheet",):
        wanted = set(plan["student_sheet"])
        specs = [s for s in plan["handout"] if s["section"] in wanted]
    elif edition in ("answer_key", "variant_key"):
        specs = plan["answer_key"]
    else:
        specs = plan["handout"]
    sections = [builder.section(spec) for spec in specs]
    for section in sections[:1]:
        section.page_break = False
    subtitle = builder.w("doc.student", student=student) if student else builder.w("doc.subtitle")
    return Document(lang, edition, builder.w(f"doc.{edition}.title"), subtitle, sections, student, builder.words)
