"""Values written out as the handouts print them: a root's minimax value level by level, a chance node's expected
value term by term, and the values a pessimist computes on a tree with chance nodes."""

from __future__ import annotations

from abkit.game import MAX
from abkit.textree import fmt
from abkit.tree import Tree

from abkit.stepthrough.svgtree import probability_text, short


def minimax_formula(tree: Tree, values: dict[str, float]) -> str:
    """The root's minimax value written out level by level: ``max(min(3, 12, 8), ...) = max(3, 2, 2) = 3``."""
    players = tree.players()

    def nested(node: str) -> str:
        if tree.is_leaf(node):
            return fmt(tree.utilities[node])
        return f"{'max' if players[node] == MAX else 'min'}({', '.join(nested(c) for c in tree.children[node])})"

    root = tree.root
    op = "max" if players[root] == MAX else "min"
    middle = f"{op}({', '.join(fmt(values[c]) for c in tree.children[root])})"
    return f"{nested(root)} = {middle} = {fmt(values[root])}"


def chance_as_min(tree: Tree) -> dict[str, float]:
    """Backed-up values with every chance node taken as a MIN node: what a player who expects the worst
    outcome of each throw computes."""
    players = tree.players()
    values: dict[str, float] = dict(tree.utilities)
    for node in reversed(list(tree.preorder())):
        if node not in values:
            kids = [values[c] for c in tree.children[node]]
            values[node] = max(kids) if players[node] == MAX else min(kids)
    return values


def chance_formula(tree: Tree, node: str, values: dict[str, float]) -> str:
    """A chance node's expected value written out: ``B = 1/2 · 4 + 1/2 · 5 = 4.5``."""
    terms = " + ".join(f"{probability_text(tree.probabilities[c])} · {fmt(values[c])}" for c in tree.children[node])
    return f"{node} = {terms} = {short(values[node])}"
