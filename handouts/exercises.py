"""The paper exercises: their trees (one variant per student, all equally hard) and what their answers hold.

An exercise of ``handouts/outline.yaml`` either draws a random tree (``branching``,
``depth``, a value range) or uses a public fixture (``fixture:``). A random
exercise fixes its difficulty in the outline and every variant honours it:

- ``evaluated``: how many leaves alpha-beta evaluates;
- ``equality_cuts``: how many cut tests fire on equality (v = β at MAX, v = α at MIN);
- ``root_tie``: whether two or more of the root's moves share the root's minimax value;
- ``reorders``: whether iterative deepening's first iteration puts another move first and saves leaves.

Kinds (``kind:``, the questions asked and the figure drawn): ``alphabeta`` (values,
windows, visit order, cut-offs), ``minimax`` (backed-up values only), ``horizon``
(a depth-limited search beside the complete one), ``quiescence`` (the same, going on
below the ``noisy`` nodes at the limit), ``expectimax`` (chance nodes), ``board``
(tic-tac-toe positions searched to a depth with Nilsson's e(p)), ``forms`` (an alpha-beta
tree searched also in Pearl's fail-hard form and in the update-then-test order) and the
table exercises of :mod:`abkit.handouts.worksheets` (``features``, ``td``, ``knuth_moore``).
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import replace
from typing import Any

from abkit.algorithms import Algorithm
from abkit.coursefolder import per_course
from abkit.errors import UsageError
from abkit.game import MAX, MIN
from abkit.randomtree import random_leaves, random_tree
from abkit.tictactoe import nilsson_eval
from abkit.tree import Tree, backed_up_values, child_name, from_nested

from abkit.handouts.papertree import TooWide, paper_svg
from abkit.handouts.trees import cut_fires, final_iteration, fixture, outline, step_events, trace_of
from abkit.handouts.worksheets import TABLE_KINDS

KINDS = ("alphabeta", "minimax", "horizon", "expectimax", "board", "forms", "quiescence", "deepening", "features",
         "td", "knuth_moore")
#: the paper tree a kind is drawn as, where it is another kind's
DRAWN_AS = {"forms": "alphabeta", "quiescence": "horizon"}
SEED_TRIES = 20000
#: draws of the right difficulty whose pattern an earlier student on the roster has, passed over before one is taken
UNIQUE_TRIES = 100


def spec(exercise: str) -> dict[str, Any]:
    """The outline's entry for ``exercise``, with its kind (default ``alphabeta``)."""
    entry = dict(outline()["exercises"][exercise])
    entry.setdefault("kind", "alphabeta")
    return entry


def tree_exercises() -> list[str]:
    """The exercises worked on a tree (every one but the table exercises), in the outline's order."""
    return [ex for ex in outline()["exercises"] if spec(ex)["kind"] not in TABLE_KINDS]


def number(exercise: str) -> int:
    """An exercise's number: its place in the outline's ``exercises:`` (1-based), the same in every document."""
    return list(outline()["exercises"]).index(exercise) + 1


def seed_for(student: str, exercise: str) -> int:
    """A stable seed for one student's variant of one exercise (the same on every machine).

    >>> seed_for("", "ex1") == seed_for("", "ex1") != seed_for("s1", "ex1")
    True
    """
    return int(hashlib.sha256(f"{student}\0{exercise}".encode("utf-8")).hexdigest()[:12], 16)


def equality_cuts(tree: Tree) -> int:
    """How many cut tests fire on equality when alpha-beta (AIMA rule) searches ``tree``: v = β at MAX, v = α at MIN."""
    return sum(1 for key, params in step_events(trace_of(tree, Algorithm.ALPHABETA), tree)
               if key.startswith("steps.cut") and params["rel"] in ("≥", "≤"))


def root_tie(tree: Tree) -> bool:
    """Whether two or more of the root's children have the root's minimax value."""
    values = backed_up_values(tree)
    return sum(1 for child in tree.children.get(tree.root, ()) if values[child] == values[tree.root]) >= 2


def difficulty(tree: Tree) -> dict[str, Any]:
    """What the outline fixes of a random exercise, measured on ``tree``: also ``cuts`` (the subtrees alpha-beta
    cuts off) and ``leaves`` (how many the tree has)."""
    trace = trace_of(tree, Algorithm.ALPHABETA)
    return {"evaluated": len(trace.evaluated), "equality_cuts": equality_cuts(tree), "root_tie": root_tie(tree),
            "cuts": len(trace.pruned(tree)), "leaves": len(tree.leaves()), "reorders": reorders(tree)}


def reorders(tree: Tree) -> bool:
    """Whether iterative deepening pays on ``tree`` (two plies, EVAL given for the root's moves): the first
    iteration's best move is one best move (no tie), it is not the first already, and with it first the second
    iteration evaluates fewer leaves than alpha-beta in the tree's own order."""
    if not tree.heuristics:
        return False
    evals = [tree.heuristics.get(c) for c in tree.children[tree.root]]
    if None in evals or evals.count(max(evals)) > 1 or evals.index(max(evals)) == 0:
        return False
    last = final_iteration(trace_of(tree, Algorithm.ORDERING, depth=2))
    return len(last.evaluated) < len(trace_of(tree, Algorithm.ALPHABETA).evaluated)


#: what the outline may fix of a random exercise; ``leaves`` as a range ``[least, most]``
FIXED = ("evaluated", "equality_cuts", "root_tie", "cuts", "leaves", "reorders")


def fits(measured: dict[str, Any], wanted: dict[str, Any]) -> bool:
    """Whether a tree measured so has the outline's difficulty (``leaves`` within its range, the rest equal)."""
    return all(wanted[k][0] <= measured[k] <= wanted[k][1] if k == "leaves" else measured[k] == wanted[k]
               for k in wanted)


def shaped_tree(entry: dict[str, Any], seed: int) -> Tree:
    """A seeded random tree of the outline's depth and value range. ``branching``: one number, a uniform tree; a
    list of numbers, every inner node's number of children drawn from it; a list of such lists, one per level
    (0 among them: a node of that level may be terminal, a line of play that ends early). The variants then
    differ in shape."""
    root = MAX if entry.get("root", "max") == "max" else MIN
    branching = entry["branching"]
    if not isinstance(branching, list):
        return random_tree(branching, entry["depth"], entry["low"], entry["high"], root_player=root,
                           distinct=entry.get("distinct", False), seed=seed)
    levels = branching if isinstance(branching[0], list) else [branching] * entry["depth"]
    rng = random.Random(seed)

    def shape(level: int) -> Any:
        count = 0 if level == entry["depth"] else rng.choice(levels[level])
        return None if count == 0 else [shape(level + 1) for _ in range(count)]

    nested = shape(0)
    values = iter(random_leaves(_count(nested), entry["low"], entry["high"], entry.get("distinct", False), rng))

    def fill(node: Any) -> Any:
        return next(values) if node is None else [fill(child) for child in node]

    tree = from_nested(fill(nested), root_player=root)
    if "eval" not in entry:
        return tree
    low, high = entry["eval"]  # the first iteration of iterative deepening values the root's moves by EVAL
    moves = [c for c in tree.children[tree.root] if not tree.is_leaf(c)]
    return replace(tree, heuristics={c: rng.randint(low, high) for c in moves})


def drawn_as(kind: str) -> str:
    """The paper tree (:data:`abkit.handouts.papertree.KINDS`) an exercise of ``kind`` is drawn as."""
    return DRAWN_AS.get(kind, kind)


def on_paper(entry: dict[str, Any], tree: Tree) -> bool:
    """Whether the exercise's paper tree of ``tree`` fits the text width at pen size."""
    try:
        paper_svg(tree, drawn_as(entry["kind"]), None)
    except TooWide:
        return False
    return True


def _count(nested: Any) -> int:
    return 1 if nested is None else sum(_count(child) for child in nested)


def pattern(exercise: str, tree: Tree) -> tuple:
    """What a neighbour's sheet would give away: an alpha-beta exercise's cut-offs and visit order (iterative
    deepening's: those of its second iteration); of one that prunes nothing by design (minimax, the ordering
    exercise) the tree's shape."""
    entry = spec(exercise)
    if entry["kind"] == "minimax" or entry.get("reorder"):
        return tuple(sorted((node, len(kids)) for node, kids in tree.children.items()))
    if entry["kind"] == "deepening":  # what the sheet asks for is the second iteration's search
        trace = final_iteration(trace_of(tree, Algorithm.ORDERING, depth=2))
        return tuple(trace.pruned(tree)), tuple(trace.visited)
    trace = trace_of(tree, Algorithm.ALPHABETA)
    return tuple(trace.pruned(tree)), tuple(trace.visited)


@per_course
def exercise_tree(exercise: str, student: str = "", roster: tuple[str, ...] = ()) -> Tree:
    """The tree of ``exercise`` for ``student`` (``""``: the shared handout's).

    A fixture exercise has its fixture's tree (the same for everyone). A random
    one draws trees of the outline's shape and value range with seeds
    ``seed_for(student, exercise)``, ``+1``, ... until the tree has the
    outline's difficulty (see :func:`difficulty`; a key the outline leaves
    out is not fixed), so every variant is as hard as the others. ``roster``: the
    students listed before this one, in order: a tree whose :func:`pattern` one of
    theirs has is passed over, up to :data:`UNIQUE_TRIES` such draws (a pattern
    may repeat only when the outline's difficulty has no more to give), so
    neighbours' sheets differ in shape, not only in numbers.
    """
    entry = spec(exercise)
    if "fixture" in entry:
        return board_tree(entry["fixture"])[0] if entry["kind"] == "board" else fixture(entry["fixture"]).tree
    wanted = {key: entry[key] for key in FIXED if key in entry}
    taken = {pattern(exercise, exercise_tree(exercise, s, roster[:k])) for k, s in enumerate(roster)}
    start, repeats = seed_for(student, exercise), 0
    for k in range(SEED_TRIES):
        tree = shaped_tree(entry, start + k)
        if not fits(difficulty(tree), wanted):
            continue
        fresh = pattern(exercise, tree) not in taken
        if (fresh or repeats >= UNIQUE_TRIES) and on_paper(entry, tree):
            return tree
        repeats += not fresh
    raise UsageError("handouts.no_variant", exercise=exercise)  # pragma: no cover - outline misconfigured


def limited_values(tree: Tree, limit: int, noisy: tuple[str, ...] = ()) -> dict[str, float]:
    """Minimax values of the nodes above and at depth ``limit``, the nodes at the limit valued by EVAL
    (their heuristic value; a leaf its utility): what a depth-limited minimax search backs up. ``noisy``: nodes
    that are not quiescent; a search with quiescence goes on below them (to their children, valued the same way)
    instead of taking their EVAL, so they are valued like the nodes above the limit."""
    depth = tree.depths()
    players = tree.players()
    values: dict[str, float] = {}
    reached = {tree.root}
    for node in tree.preorder():
        if node in reached and (depth[node] < limit or node in noisy):
            reached.update(tree.children.get(node, ()))
    for node in reversed(list(tree.preorder())):
        if node not in reached:
            continue
        if tree.is_leaf(node):
            values[node] = tree.utilities[node]
        elif depth[node] >= limit and node not in noisy:
            values[node] = tree.heuristics[node]
        else:
            values[node] = (max if players[node] == MAX else min)(values[c] for c in tree.children[node])
    return values


@per_course
def board_tree(fixture_id: str) -> tuple[Tree, dict[str, str]]:
    """A tic-tac-toe fixture's search to its depth as a drawn tree: nodes named as the compact form names
    them (A, B, C, B1, ...), leaves valued by Nilsson's e(p); and node -> board.

    The tree's moves are the fixture game's ACTIONS (symmetric positions merged
    when the fixture asks), so alpha-beta on the tree makes the same search as the
    depth-limited alpha-beta on the game.
    """
    fx = fixture(fixture_id)
    game = fx.game()
    children: dict[str, tuple[str, ...]] = {}
    utilities: dict[str, float] = {}
    boards: dict[str, str] = {}

    def grow(name: str, board: str, depth: int) -> None:
        boards[name] = board
        if depth == fx.depth or game.terminal_test(board):
            utilities[name] = nilsson_eval(board)
            return
        moves = game.actions(board)
        kids = [child_name(name, i, len(moves), name == "A") for i in range(len(moves))]
        children[name] = tuple(kids)
        for kid, move in zip(kids, moves):
            grow(kid, game.result(board, move), depth + 1)

    grow("A", fx.root, 0)
    return Tree("A", children, utilities, game.to_move(fx.root)), boards


def square_of(before: str, after: str) -> int:
    """The square (0-8) where ``after`` has a mark that ``before`` lacks."""
    return next(i for i, (a, b) in enumerate(zip(before, after)) if a != b)


__all__ = ["DRAWN_AS", "FIXED", "KINDS", "board_tree", "drawn_as", "cut_fires", "difficulty", "equality_cuts", "exercise_tree", "fits",
           "fixture", "limited_values", "number", "pattern", "root_tie", "seed_for", "shaped_tree", "spec", "square_of", "tree_exercises"]
