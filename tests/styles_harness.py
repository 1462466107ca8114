"""Run a search module in-process and record only what the contract makes observable, to compare two modules.

Observable (contract §1): the states RESULT generated and the states UTILITY/EVAL evaluated, in order, during the
search function's run, and what it returned; what MAX-VALUE/MIN-VALUE (CHANCE-VALUE) return when called directly
on the root and on inner nodes, with the full window and narrow ones, and what those calls generate and evaluate.
Nothing here looks at which functions a module's recursion calls, so any style of writing can be compared.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

from abkit.algorithms import Algorithm
from abkit.fixture import load_fixture
from abkit.game import CHANCE, MAX, MIN, Budgeted, SearchTooLong
from abkit.loading import HIDDEN_FIXTURES, PUBLIC_FIXTURES, load_module
from abkit.randomtree import random_tree
from abkit.trace import Trace, TracingGame, error_name, traced_search
from abkit.tree import Tree, TreeGame
from abkit.grader.testplan import fits, with_chance, with_heuristics
from abkit.reference import reference

STYLES = Path(__file__).resolve().parent / "styles"
MISTAKES = STYLES / "mistakes"
#: exercise file stem -> the algorithm it implements
ALGORITHM_OF = {"minimax": "minimax", "alphabeta": "alphabeta", "alphabeta_cutoff": "cutoff",
                "expectimax": "expectimax", "ordering": "ordering"}
#: the grader stops a traced search of a board game here (grader.runtest.GAME_BUDGET); bigger positions are not graded
BUDGET = 10_000
FUNCTION_OF = {MAX: "max_value", MIN: "min_value", CHANCE: "chance_value"}


def correct_styles(exercise: str) -> list[str]:
    """The folders under tests/styles/ (mistakes aside) that hold a correct ``<exercise>.py``, sorted."""
    return sorted(d.name for d in STYLES.iterdir()
                  if d.is_dir() and d.name != "mistakes" and (d / f"{exercise}.py").is_file())


def mistake_styles(mistake_id: str) -> dict[str, Path]:
    """style name -> folder of the mistake written in that style (tests/styles/mistakes/<id>/<style>/)."""
    folder = MISTAKES / mistake_id
    return {d.name: d for d in sorted(folder.iterdir()) if d.is_dir()} if folder.is_dir() else {}


def load(path: Path) -> ModuleType:
    """A fresh module from ``path`` (its own globals each time)."""
    return load_module(path)


@dataclass
class Case:
    """One game to search: a label for messages, the game, where to start, the search's extra arguments."""

    label: str
    game: Any
    state: Any
    params: dict = field(default_factory=dict)
    tree: Tree | None = None
    depth: int | None = None


def fixture_cases(algorithm: str) -> list[Case]:
    """Every public and hidden fixture the exercise is graded on (grader.testplan.fits), as cases."""
    cases = []
    for folder in (PUBLIC_FIXTURES, HIDDEN_FIXTURES):
        for path in sorted(folder.glob("*.yaml")):
            fx = load_fixture(path)
            if not fits(algorithm, fx):
                continue
            game = fx.game()
            cases.append(Case(f"{folder.name}/{fx.id}", game, fx.root, fx.search_params(algorithm, game), fx.tree,
                              fx.depth if algorithm in ("cutoff", "ordering") else None))
    return cases


def random_cases(algorithm: str, count: int = 24) -> list[Case]:
    """Seeded random trees of several shapes and orderings, both roots, with ties (few distinct values); shaped
    for the exercise the way the grader shapes a student's random trees (heuristic values and a depth limit, or
    chance levels)."""
    shapes = [(2, 3), (3, 3), (2, 4), (3, 2), (4, 2), (2, 5)]
    cases = []
    for i in range(count):
        b, d = shapes[i % len(shapes)]
        ordering = ("random", "best", "worst")[i % 3]
        low, high = (-99, 99) if ordering == "worst" else (-3, 3) if i % 2 else (-9, 9)
        tree = random_tree(b, d, low, high, ordering, MAX if i % 4 < 2 else MIN, seed=1000 + i)
        rng = random.Random(i)
        depth = None
        if algorithm == "expectimax":
            tree = with_chance(tree, rng)
        elif algorithm in ("cutoff", "ordering"):
            tree = with_heuristics(tree, low, high, rng)
            depth = max(1, d - 1 - i % 2)
        game = TreeGame(tree)
        params = {"depth": depth, "eval_fn": game.evaluate} if depth is not None else {}
        cases.append(Case(f"random/{i}(b={b},d={d},{ordering})", game, tree.root, params, tree, depth))
    return cases


def all_cases(algorithm: str) -> list[Case]:
    """The fixture cases the reference completes within the grader's budget, then the random ones."""
    usable = []
    for case in fixture_cases(algorithm):
        if case.tree is None:
            trace = traced_search(reference(algorithm), Budgeted(case.game, BUDGET), case.state, algorithm,
                                  **dict(case.params))
            if isinstance(trace.error, SearchTooLong):
                continue
        usable.append(case)
    return usable + random_cases(algorithm)


# -- what a module does, observably --------------------------------------------

def _game_for(case: Case, trace: Trace) -> TracingGame:
    game = case.game if case.tree is not None else Budgeted(case.game, BUDGET)
    return TracingGame(game, trace)


def _eval_for(case: Case, trace: Trace) -> Callable | None:
    eval_fn = case.params.get("eval_fn")
    if eval_fn is None:
        return None

    def recorded(state):
        trace.evaluated.append(state)
        return eval_fn(state)
    return recorded


def _outcome(trace: Trace, result: Any, error: BaseException | None) -> tuple:
    evaluated = list(trace.evaluated)
    if evaluated == [trace.root] and not trace.visited[1:]:  # UTILITY on a terminal root: allowed (contract §1)
        evaluated = []
    return tuple(trace.visited), tuple(evaluated), _num(result), error_name(error)


def _num(x: Any) -> Any:
    """As :func:`abkit.judge.signature` compares numbers: floats rounded to 12 significant digits (an expectation
    summed in another order, a loop or Python 3.12's compensated ``sum()``, differs in its last bits only)."""
    return float(f"{x:.12g}") if isinstance(x, (int, float)) and not isinstance(x, bool) else x


def search(module: ModuleType, algorithm: str, case: Case) -> tuple:
    """(visited, evaluated, action, error) of the module's search function on the case."""
    trace = Trace(algorithm, case.state, visited=[case.state])
    game = _game_for(case, trace)
    args = []
    if case.depth is not None or "depth" in case.params:
        args = [case.params["depth"], _eval_for(case, trace)]
    try:
        action = getattr(module, Algorithm(algorithm).entry)(game, case.state, *args)
        error = None
    except Exception as exc:  # noqa: BLE001 - a mistake may raise; the error's name is compared
        action, error = None, exc
    return ("search",) + _outcome(trace, action, error)


def call(module: ModuleType, algorithm: str, case: Case, state: Any, window: tuple = (),
         depth: int | None = None) -> tuple:
    """(visited, evaluated, value, error) of the contract's MAX-VALUE/MIN-VALUE/CHANCE-VALUE called directly on
    ``state`` (chosen by who moves there) with ``window`` (and ``depth``, EVAL, a fresh best-moves dict)."""
    trace = Trace(algorithm, state, visited=[state])
    game = _game_for(case, trace)
    function = FUNCTION_OF[case.game.to_move(state)]
    args = list(window)
    if depth is not None:
        args += [depth, _eval_for(case, trace)]
    moves: dict = {}
    if algorithm == "ordering":
        args.append(moves)
    try:
        value = getattr(module, function)(game, state, *args)
        error = None
    except Exception as exc:  # noqa: BLE001
        value, error = None, exc
    extra = (tuple(sorted(moves.items(), key=repr)),) if algorithm == "ordering" else ()
    return (function, window, depth) + _outcome(trace, value, error) + extra


def inner_nodes(case: Case) -> list[tuple[Any, int | None]]:
    """(node, depth left) of every inner node where a direct call makes sense: above the depth limit if any."""
    tree = case.tree
    if tree is None:
        return []
    depths = tree.depths()
    nodes = []
    for node in tree.preorder():
        if tree.is_leaf(node):
            continue
        if case.depth is None:
            nodes.append((node, None))
        elif depths[node] < case.depth:
            nodes.append((node, case.depth - depths[node]))
    return nodes


def windows_around(v: float) -> list[tuple]:
    """The full window and narrow ones around a node's value ``v``: containing it, above, below, touching it
    (the grader's three and the equality edges, where the cut-off rule shows)."""
    if not isinstance(v, (int, float)) or math.isinf(v):
        return [(-math.inf, math.inf)]
    return [(-math.inf, math.inf), (v - 2, v + 2), (v + 1, v + 5), (v - 5, v - 1), (v, v + 1), (v - 1, v),
            (-math.inf, v), (v, math.inf)]


def observe(module: ModuleType, algorithm: str, case: Case, windows_from: ModuleType | None = None) -> list[tuple]:
    """Everything observable of ``module`` on ``case``: the search, the direct call on the root with the full
    window, and direct calls on every inner node with windows around the node's value under ``windows_from``
    (default: the reference), so that two modules are probed with the same calls."""
    windowed = Algorithm(algorithm).prunes
    rows = [search(module, algorithm, case)]
    full = (-math.inf, math.inf) if windowed else ()
    root_depth = case.params.get("depth")
    rows.append(call(module, algorithm, case, case.state, full, root_depth))
    probe = windows_from or reference(algorithm)
    for node, depth in inner_nodes(case):
        if not windowed:
            if node != case.state:
                rows.append(call(module, algorithm, case, node, (), depth))
            continue
        v = call(probe, algorithm, case, node, full, depth)[5]
        for window in windows_around(v):
            if window[0] < window[1]:
                rows.append(call(module, algorithm, case, node, window, depth))
    if algorithm == "ordering":
        rows.extend(orders(module, case))
    return rows


def orders(module: ModuleType, case: Case) -> list[tuple]:
    """ordered_actions(game, node, EVAL) on every inner node above the depth limit, or its error's name."""
    rows = []
    for node, _ in inner_nodes(case):
        try:
            rows.append(("orders", node, tuple(module.ordered_actions(case.game, node, case.params["eval_fn"]))))
        except Exception as exc:  # noqa: BLE001
            rows.append(("orders", node, error_name(exc)))
    return rows


def first_difference(module: ModuleType, other: ModuleType, algorithm: str, cases: list[Case]) -> str | None:
    """The first case and observation where two modules differ, in words; None when they never do."""
    for case in cases:
        mine, theirs = observe(module, algorithm, case), observe(other, algorithm, case)
        for a, b in zip(mine, theirs):
            if a != b:
                return f"{case.label}: {a!r} != {b!r}"
        if len(mine) != len(theirs):
            return f"{case.label}: {len(mine)} observations != {len(theirs)}"
    return None
