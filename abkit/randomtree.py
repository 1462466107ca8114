"""Seeded random uniform game trees, ordered best-first, worst-first or at random.

"Best" ordering puts, at every node, the child with the best backed-up value for
the player to move first (MAX: highest; MIN: lowest); "worst" the reverse. With
distinct leaf values, alpha-beta then evaluates exactly the Knuth-Moore minimum
b^ceil(d/2) + b^floor(d/2) - 1 leaves (best), or all b^d leaves (worst).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .game import MAX, MIN
from .i18n import Message
from .tree import Tree, backed_up_values, from_nested, to_nested

if TYPE_CHECKING:
    from typing import Any

ORDERINGS = ("best", "worst", "random")


class GenerationError(ValueError):
    """Parameters that cannot make a tree (say, too few values for distinct leaves)."""

    def __init__(self, key: str, /, **params: object) -> None:
        self.message = Message(key, **params)
        super().__init__(str(self.message))


def random_leaves(count: int, low: int, high: int, distinct: bool, rng: random.Random) -> list[int]:
    """``count`` integers from ``low..high``; all different when ``distinct``."""
    if low > high:
        raise GenerationError("generate.empty_range", low=low, high=high)
    if distinct:
        if high - low + 1 < count:
            raise GenerationError("generate.too_few_values", count=count, low=low, high=high, have=high - low + 1)
        return rng.sample(range(low, high + 1), count)
    return [rng.randint(low, high) for _ in range(count)]


def uniform_tree(branching: int, depth: int, leaves: list[Any], root_player: str = MAX,
                 ordering: str = "random") -> Tree:
    """A tree of the given ``branching`` and ``depth`` over ``leaves`` (left to right), then ordered."""
    if branching < 1 or depth < 0:
        raise GenerationError("fixtures.generate.bad_shape")
    if len(leaves) != branching ** depth:
        raise GenerationError("generate.leaf_count", b=branching, d=depth, count=branching ** depth, given=len(leaves))
    values = iter(leaves)

    def build(level: int) -> Any:
        return next(values) if level == depth else [build(level + 1) for _ in range(branching)]

    return order(from_nested(build(0), root_player=root_player), ordering)


def order(tree: Tree, ordering: str, rename: bool = True) -> Tree:
    """The same tree with every node's children sorted best-first or worst-first.

    ``rename``: name the nodes afresh by position, as the compact form does (the
    default, for generated fixtures); ``False`` keeps every node's name, so a
    reordered tree can be read against the original (B2 is still B2, wherever it now stands).

    >>> tree = from_nested([[2, 14], [12, 3]])        # B = 2, C = 3: C is MAX's best child
    >>> renamed, kept = order(tree, "best"), order(tree, "best", rename=False)
    >>> renamed.children["A"], renamed.utilities["B1"], kept.children["A"], kept.children["C"]
    (('B', 'C'), 3, ('C', 'B'), ('C2', 'C1'))
    """
    if ordering == "random":
        return tree
    if ordering not in ORDERINGS:
        raise GenerationError("generate.ordering", found=ordering, known=", ".join(ORDERINGS))
    values = backed_up_values(tree)
    players = tree.players()

    def sorted_kids(node: str) -> list[str]:
        best_first = players[node] == MAX  # MAX wants high values first
        kids = sorted(tree.children[node], key=lambda c: values[c], reverse=best_first)
        return kids[::-1] if ordering == "worst" else kids

    if not rename:
        children = {node: tuple(sorted_kids(node)) for node in tree.children}
        return Tree(tree.root, children, dict(tree.utilities), tree.root_player, dict(tree.heuristics), tree.levels,
                    dict(tree.probabilities))

    def sort(node: str) -> Any:
        if tree.is_leaf(node):
            return tree.utilities[node]
        return [sort(c) for c in sorted_kids(node)]

    return from_nested(sort(tree.root), tree.root, tree.root_player)


def worst_tree(branching: int, depth: int, low: int, high: int, root_player: str = MAX,
               rng: random.Random | None = None) -> Tree:
    """A uniform tree on which alpha-beta cuts nothing: all b^d leaves are evaluated.

    Sorting a random tree worst-first is not enough (an ancestor's bound can
    still cut). Here every node's value lies strictly inside the window it is
    entered with, and children come worst-first for the player to move, so the
    running value never reaches a bound under either rule. Values are built as
    floats, then replaced by integers in ``low..high`` keeping their order.
    """
    rng = rng or random.Random(0)

    def inside(a: float, b: float) -> float:  # strictly between a and b, never an end
        return a + (b - a) * (0.05 + 0.9 * rng.random())

    def build(player: str, level: int, lo: float | None, hi: float | None, target: float) -> Any:
        if level == depth:
            return target
        if player == MAX:   # values rise child by child: each is entered with alpha = the last
            floor = lo if lo is not None else target - branching
            points = sorted(inside(floor, target) for _ in range(branching - 1)) + [target]
            windows = [lo] + points[:-1]
            return [build(MIN, level + 1, w, hi, t) for w, t in zip(windows, points)]
        ceiling = hi if hi is not None else target + branching
        points = sorted((inside(target, ceiling) for _ in range(branching - 1)), reverse=True) + [target]
        windows = [hi] + points[:-1]
        return [build(MAX, level + 1, lo, w, t) for w, t in zip(windows, points)]

    nested = build(root_player, 0, None, None, 0.0)
    flat = sorted(set(_leaves(nested)))
    if len(flat) > high - low + 1:
        raise GenerationError("generate.too_few_values", count=len(flat), low=low, high=high, have=high - low + 1)
    step = max(1, (high - low) // max(1, len(flat) - 1))
    rank = {v: low + i * step for i, v in enumerate(flat)}
    return from_nested(_map(nested, rank.__getitem__), root_player=root_player)


def _leaves(nested: Any) -> list:
    return [x for item in nested for x in _leaves(item)] if isinstance(nested, list) else [nested]


def _map(nested: Any, f) -> Any:
    return [_map(item, f) for item in nested] if isinstance(nested, list) else f(nested)


def random_tree(branching: int, depth: int, low: int = -9, high: int = 9, ordering: str = "random",
                root_player: str = MAX, distinct: bool = False, seed: int | None = None) -> Tree:
    """A seeded random uniform tree: the same arguments always give the same tree.

    ``worst`` trees are built by :func:`worst_tree`; ``best`` and ``random``
    ones draw ``b^d`` leaves and (for ``best``) sort every node best-first.
    """
    rng = random.Random(seed)
    if ordering == "worst":
        return worst_tree(branching, depth, low, high, root_player, rng)
    leaves = random_leaves(branching ** depth, low, high, distinct, rng)
    return uniform_tree(branching, depth, leaves, root_player, ordering)


__all__ = ["ORDERINGS", "GenerationError", "random_tree", "uniform_tree", "worst_tree", "order", "to_nested"]
