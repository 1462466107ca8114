"""``abkit practice``: a seeded random tree on which the student marks the leaves alpha-beta never evaluates,
writes the root's value (and, if they like, each inner node's α and β when it returns), and checks the answers
in the page, which then steps through the search.

Every answer and every reason is worked out here from the reference's trace (:func:`practice_answers`) and
written into the page; the page's script only compares what the student entered with them. Variants for a
class (``--variants``) are as hard as the seed's tree: the same shape and value range, and the same difficulty as
the handouts measure it for their exercise variants (:func:`abkit.handouts.exercises.difficulty`: as many leaves
evaluated, here under the page's rule, as many cut tests firing on equality, a tie at the root or none).
"""

from __future__ import annotations

from html import escape
from typing import Any

from abkit.algorithms import Algorithm
from abkit.errors import UsageError
from abkit.game import MAX
from abkit.i18n import t
from abkit.randomtree import random_tree
from abkit.reference import reference_trace
from abkit.textree import cut_test, fmt
from abkit.trace import Trace
from abkit.tree import Tree, TreeGame

from abkit.handouts.exercises import SEED_TRIES, equality_cuts, root_tie, seed_for
from abkit.stepthrough.page import document, script_json, tree_svg, widget
from abkit.stepthrough.steps import Step, final_bounds, steps_of

#: the most leaves a practice tree may have (a page a student works through by hand)
MAX_LEAVES = 243
#: stands for what the student wrote, in sentences the page fills in
GOT = "\u2063got\u2063"


def check_shape(b: int, d: int) -> None:
    """:class:`UsageError` unless ``b``, ``d`` make a tree a student can work through by hand."""
    if b < 1 or d < 1:
        raise UsageError("practice.bad_shape", b=b, d=d)
    if b ** d > MAX_LEAVES:
        raise UsageError("practice.too_big", b=b, d=d, count=b ** d, limit=MAX_LEAVES)


def practice_tree(b: int, d: int, low: int, high: int, seed: int) -> Tree:
    """The seed's tree: uniform, branching ``b``, depth ``d``, leaves drawn from ``low..high``, a MAX root."""
    return random_tree(b, d, low, high, "random", MAX, seed=seed)


def search(tree: Tree, rule: bool) -> Trace:
    """The reference alpha-beta search of ``tree`` under the cut-off rule."""
    return reference_trace(TreeGame(tree), tree.root, Algorithm.ALPHABETA, rule)


def difficulty(tree: Tree, rule: bool) -> tuple[int, int, bool]:
    """How hard ``tree`` is to practise on: the leaves alpha-beta evaluates under ``rule``, the cut tests that fire on
    equality, whether the root has a tie (as :func:`abkit.handouts.exercises.difficulty` measures a handout's variants)."""
    return len(search(tree, rule).evaluated), equality_cuts(tree), root_tie(tree)


def variant_tree(b: int, d: int, low: int, high: int, seed: int, student: str, rule: bool,
                 target: tuple | None = None) -> Tree:
    """``student``'s tree: the seed's shape and range and its :func:`difficulty` (``target``, when already
    measured), seeded by the id (the same on every machine)."""
    target = target or difficulty(practice_tree(b, d, low, high, seed), rule)
    start = seed_for(student, f"practice/{seed}")
    for k in range(SEED_TRIES):
        tree = practice_tree(b, d, low, high, start + k)
        if difficulty(tree, rule) == target:
            return tree
    raise UsageError("practice.no_variant", student=student)  # pragma: no cover - needs a degenerate range


def practice_answers(tree: Tree, trace: Trace, steps: list[Step], rule: bool, lang: str) -> dict[str, Any]:
    """What the page checks: the leaves never evaluated, why each leaf is or is not, the root's value, each inner
    node's α and β when it returns (``None``: never searched), and the sentences for wrong answers."""
    evaluated = set(trace.evaluated)
    leaves = [n for n in tree.leaves() if n != tree.root]
    pruned = [n for n in leaves if n not in evaluated]
    bounds = final_bounds(steps)
    why = {leaf: (t("practice.missed", lang, leaf=leaf, why=_why_pruned(leaf, tree, steps, lang)) if leaf in pruned
                  else t("practice.marked_evaluated", lang, leaf=leaf, why=_why_evaluated(leaf, tree, steps, rule, lang)))
           for leaf in leaves}
    inner = [n for n in tree.preorder() if not tree.is_leaf(n)]
    answers = {n: [fmt(bounds[n][0]), fmt(bounds[n][1])] if n in bounds else None for n in inner}
    bound_wrong = {}
    for n in inner:
        if answers[n] is None:
            text = t("practice.unsearched", lang, node=n)
            bound_wrong[n] = {"alpha": text, "beta": text}
        else:
            bound_wrong[n] = {side: t("practice.bound_wrong", lang, node=n, name=name, got=GOT, want=answers[n][k])
                              for k, (side, name) in enumerate((("alpha", "α"), ("beta", "β")))}
    nan = {n: t("practice.not_a_number", lang, node=n, got=GOT) for n in inner}
    nan["root"] = t("practice.not_a_number", lang, node=t("practice.root", lang), got=GOT)
    return {"leaves": leaves, "pruned": pruned, "why": why, "root": fmt(trace.value),
            "root_wrong": t("practice.root_wrong", lang, got=GOT, want=fmt(trace.value)),
            "root_missing": t("practice.root_missing", lang, want=fmt(trace.value)),
            "bounds": answers, "bound_wrong": bound_wrong, "nan": nan,
            "words": {"all_right": t("practice.all_right", lang), "wrong": t("practice.wrong", lang)}}


def _why_evaluated(leaf: str, tree: Tree, steps: list[Step], rule: bool, lang: str) -> str:
    """Why alpha-beta reaches ``leaf``: it is its parent's first child, or the cut-off test failed before it."""
    parent = tree.parents()[leaf]
    at = next(k for k, s in enumerate(steps) if s.node == leaf and s.kind in ("leaf", "eval"))
    entered = max(k for k, s in enumerate(steps[:at]) if s.kind == "enter" and s.node == parent)
    before = [s for s in steps[entered:at] if s.kind == "back" and s.node == parent]
    if not before:
        return t("practice.why_first", lang, node=parent)
    last = before[-1]
    rel, bound, at = cut_test(tree.players()[parent], rule)
    return t("practice.why_no_cut", lang, node=parent, v=fmt(last.v), rel=rel, bound=bound, value=fmt(last.bounds[at]))


def _why_pruned(leaf: str, tree: Tree, steps: list[Step], lang: str) -> str:
    """Why alpha-beta never reaches ``leaf``: the cut-off that skipped it or one of its ancestors."""
    parents, node = tree.parents(), leaf
    while node is not None:
        cut = next((s for s in steps if s.kind == "cut" and node in s.pruned), None)
        if cut is not None:
            return t("practice.why_cut", lang, node=cut.node, test=cut.cut.render(lang) if cut.cut else "",
                     pruned=", ".join(cut.pruned))
        node = parents.get(node)
    return ""  # pragma: no cover - a leaf alpha-beta never evaluates lies below a cut-off


def practice_page(tree: Tree, rule: bool, lang: str, seed: int, shape: tuple[int, int, int, int],
                  student: str = "") -> str:
    """The practice page of ``tree`` in ``lang`` (``shape``: b, d, low, high, for its subtitle)."""
    trace = search(tree, rule)
    steps = steps_of(trace, tree, rule, trusted=True)
    data = practice_answers(tree, trace, steps, rule, lang)
    b, d, low, high = shape
    title = t("practice.title", lang)
    subtitle = t("practice.tree", lang, seed=seed, b=b, d=d, low=low, high=high)
    if student:
        subtitle += " · " + t("practice.student", lang, student=student)
    task = t("practice.task", lang, player="MAX", rule=t(f"practice.rule.{'aima' if rule else 'cs188'}", lang))
    svg, width = tree_svg(tree, "abk-quiz-tree")
    rows = "".join(f'<tr><th scope="row">{escape(n)}</th>'
                   f'<td><label>α <input data-bound="alpha" data-node="{escape(n)}" autocomplete="off"></label></td>'
                   f'<td><label>β <input data-bound="beta" data-node="{escape(n)}" autocomplete="off"></label></td></tr>'
                   for n in tree.preorder() if not tree.is_leaf(n))
    body = (f'<header><h1>{escape(title)}</h1><p class="abk-sub">{escape(subtitle)}</p></header>'
            f'<p>{escape(task)}</p><div class="abk abk-practice">'
            f'<div class="abk-quiz abk-tree{" abk-wide" if width > 1100 else ""}" style="--abk-w: {width:.0f}px">'
            f'{svg}</div>'
            f'<div class="abk-form"><label>{escape(t("practice.root", lang))} '
            f'<input data-answer="root" autocomplete="off"></label>'
            f'<button type="button" data-act="check">{escape(t("practice.check", lang))}</button>'
            f'<button type="button" data-act="clear">{escape(t("practice.clear", lang))}</button></div>'
            f'<details class="abk-bounds"><summary>{escape(t("practice.bounds", lang))}</summary>'
            f'<table>{rows}</table></details>'
            '<div class="abk-verdict" aria-live="polite" hidden></div>'
            f'<section class="abk-practice-steps" hidden><h2>{escape(t("practice.show_steps", lang))}</h2>'
            f'<p class="abk-note">{escape(t("page.legend", lang))}</p>'
            f'{widget(tree, [("", steps, "")], lang, "abk-practice-stepper")}</section>'
            f'<script type="application/json" class="abk-practice-data">{script_json(data)}</script></div>')
    return document(lang, f"{title} · {subtitle}", body)
