"""Explicit game trees, the kind drawn in textbooks, and the game played on them.

A state is a node name (a string); an action is the name of the child it leads
to. Levels alternate between MAX and MIN starting from the root's player.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .game import CHANCE, MAX, IllegalMoveError, other

if TYPE_CHECKING:
    from typing import Any, Iterator


@dataclass(frozen=True)
class Tree:
    """An ordered game tree.

    root: the root's name.
    children: internal node name -> its children's names, in move order.
    utilities: leaf name -> its utility for MAX.
    root_player: who moves at the root, ``"MAX"`` or ``"MIN"``.
    heuristics: optional static values of internal nodes (depth-limited search); a leaf that has one is a state
        drawn without its children, not a terminal one (a board position's depth limit, :mod:`abkit.gametree`),
        and its ``utilities`` entry is that same EVAL value.
    levels: who moves at each depth, repeating (``("MAX", "CHANCE", "MIN", "CHANCE")``);
        empty means MAX and MIN alternate from ``root_player``.
    probabilities: child name -> its probability, for the children of CHANCE nodes.
    """

    root: str
    children: dict[str, tuple[str, ...]]
    utilities: dict[str, float]
    root_player: str = MAX
    heuristics: dict[str, float] = field(default_factory=dict)
    levels: tuple[str, ...] = ()
    probabilities: dict[str, float] = field(default_factory=dict)

    def player_at(self, depth: int) -> str:
        """Who moves at ``depth``: from ``levels`` when given, else MAX and MIN alternating."""
        if self.levels:
            return self.levels[depth % len(self.levels)]
        return self.root_player if depth % 2 == 0 else other(self.root_player)

    def players(self) -> dict[str, str]:
        """Node name -> who moves there (by depth: ``levels``, or MAX and MIN alternating), level by level."""
        cycle = self.levels or (self.root_player, other(self.root_player))
        players, level, depth, children = {self.root: cycle[0]}, [self.root], 0, self.children
        while level:
            depth += 1
            level = [child for name in level if name in children for child in children[name]]
            players.update(dict.fromkeys(level, cycle[depth % len(cycle)]))
        return players

    def is_leaf(self, node: str) -> bool:
        return node in self.utilities

    def terminal(self, node: str) -> bool:
        """Whether ``node`` is a terminal state: a leaf valued by UTILITY, not one drawn at a depth limit."""
        return node in self.utilities and node not in self.heuristics

    def __contains__(self, node: object) -> bool:
        return node in self.utilities or node in self.children

    def __len__(self) -> int:
        return len(self.utilities) + len(self.children)

    def preorder(self, node: str | None = None) -> Iterator[str]:
        """Every node below ``node`` (default: the root), parents before children, in move order."""
        stack = [self.root if node is None else node]
        while stack:
            name = stack.pop()
            yield name
            stack.extend(reversed(self.children.get(name, ())))

    def depths(self) -> dict[str, int]:
        """Node name -> its depth (the root is at depth 0)."""
        depth = {self.root: 0}
        for name in self.preorder():
            for child in self.children.get(name, ()):
                depth[child] = depth[name] + 1
        return depth

    def parents(self) -> dict[str, str]:
        """Node name -> its parent's name (the root has none)."""
        return {child: name for name, kids in self.children.items() for child in kids}

    def leaves(self) -> list[str]:
        """The leaves in left-to-right order."""
        return [n for n in self.preorder() if n in self.utilities]


class TreeGame:
    """The game protocol on a :class:`Tree` (contract §1).

    >>> tree = Tree("A", {"A": ("B", "C")}, {"B": 3, "C": 5})
    >>> game = TreeGame(tree)
    >>> game.actions("A"), game.result("A", "C"), game.utility("C"), game.to_move("A")
    (['B', 'C'], 'C', 5, 'MAX')
    """

    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        self.initial = tree.root
        self._players = tree.players()

    def actions(self, state: str) -> list[str]:
        return list(self.tree.children.get(state, ()))  # a fresh list: callers may change it

    def result(self, state: str, action: str) -> str:
        if action not in self.tree.children.get(state, ()):
            raise IllegalMoveError(state, action)
        return action

    def terminal_test(self, state: str) -> bool:
        return state in self.tree.utilities

    def utility(self, state: str) -> float:
        try:
            return self.tree.utilities[state]
        except KeyError:
            raise ValueError(f"UTILITY is defined only on terminal states, not on {state!r}") from None

    def to_move(self, state: str) -> str:
        return self._players[state]

    def probability(self, state: str, action: str) -> float:
        """P(action) at a CHANCE node: the probability of the outcome ``action``."""
        if action not in self.tree.children.get(state, ()):
            raise IllegalMoveError(state, action)
        return self.tree.probabilities[action]

    def evaluate(self, state: str) -> float:
        """EVAL(s) for depth-limited search: UTILITY at a leaf, the fixture's heuristic value elsewhere."""
        if state in self.tree.utilities:
            return self.tree.utilities[state]
        try:
            return self.tree.heuristics[state]
        except KeyError:
            raise ValueError(f"the fixture gives no heuristic value for {state!r}") from None


def child_name(parent: str, index: int, siblings: int, parent_is_root: bool) -> str:
    """The generated name of child ``index`` (0-based) in the compact list form.

    The root's children are B, C, D, ... (as in AIMA's figures) when there are
    at most 25 of them; below, a child is named after its parent and its 1-based
    position: B1, B2, ...; under a name ending in a digit, B1.1, B1.2, ...

    >>> child_name("A", 0, 3, True), child_name("B", 2, 3, False), child_name("B3", 0, 2, False)
    ('B', 'B3', 'B3.1')
    """
    if parent_is_root and siblings <= 25:
        return chr(ord("B") + index)
    separator = "." if parent[-1:].isdigit() else ""
    return f"{parent}{separator}{index + 1}"


def from_nested(nested: Any, root: str = "A", root_player: str = MAX) -> Tree:
    """A tree from nested lists of numbers, named as the compact fixture form names it.

    >>> from_nested([[3, 12], [2]]).children
    {'A': ('B', 'C'), 'B': ('B1', 'B2'), 'C': ('C1',)}
    """
    children: dict[str, tuple[str, ...]] = {}
    utilities: dict[str, float] = {}
    stack = [(root, nested)]
    while stack:
        name, value = stack.pop()
        if not isinstance(value, list):
            utilities[name] = value
            continue
        kids = [child_name(name, i, len(value), name == root) for i in range(len(value))]
        children[name] = tuple(kids)
        stack.extend(reversed(list(zip(kids, value))))  # pop in move order: names come out in preorder
    return Tree(root, children, utilities, root_player)


def to_nested(tree: Tree, node: str | None = None) -> Any:
    """The inverse of :func:`from_nested`: nested lists of leaf values in move order."""
    node = tree.root if node is None else node
    if tree.is_leaf(node):
        return tree.utilities[node]
    return [to_nested(tree, child) for child in tree.children[node]]


def backed_up_values(tree: Tree) -> dict[str, float]:
    """Every node's minimax value, computed bottom-up over the whole tree.

    Written independently of the searches (no recursion, no pruning), so tests
    can hold the reference solutions against it.
    """
    players = tree.players()
    values: dict[str, float] = dict(tree.utilities)
    for node in reversed(list(tree.preorder())):
        if node not in values:
            kids = tree.children[node]
            if players[node] == CHANCE:
                values[node] = sum(tree.probabilities[c] * values[c] for c in kids)
            else:
                values[node] = (max if players[node] == MAX else min)(values[c] for c in kids)
    return values
