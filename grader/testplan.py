"""Grading, stage 1: the tests for a student.

A :class:`TestPlan` is built once per batch from the rubric and the course's fixtures (a fixture written for the
other cut-off rule than the course's replaced by its counterpart where there is one,
:func:`abkit.courserule.for_course_rule`): the tests every student shares (public and hidden fixtures, direct MAX-VALUE / MIN-VALUE calls on their subtrees), each with the
reference's outcome under the course's rule (:meth:`TestPlan.expected`); :meth:`TestPlan.tests_for` adds a
student's own seeded random trees and played games. A :class:`Test` is plain data: what the student's process is
sent (:attr:`Test.request`) and nothing of the expected answer.

What each kind of test grades (:mod:`abkit.judge`: the observables only):

- values: the root's value (its MAX-VALUE / MIN-VALUE called with the full window) and the chosen action;
- pruning: the generated nodes and the evaluated leaves, in order;
- nodes: how many nodes were generated;
- direct: MAX-VALUE / MIN-VALUE called on a subtree (alpha-beta: with a given window): the returned, fail-soft
  value and the generated nodes;
- orders: ``ordered_actions`` on the inner nodes of a tree (the ordering lab);
- games: whole tic-tac-toe games the student's alpha-beta plays against a seeded random player and against itself
  (:mod:`abkit.play`).

The depth-limited, chance and ordering exercises are searched on trees (with heuristic values, chance nodes) and
tic-tac-toe positions; a search on a board game is judged by its value, action and node counts only.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import random
import threading
from pathlib import Path
from dataclasses import dataclass
from functools import cached_property

from abkit.algorithms import Algorithm
from abkit.coursefolder import current_course
from abkit.courserule import for_course_rule, keep
from abkit.expected import direct_tests
from abkit.fixture import Fixture, fixture_paths, load_fixture, unique_ids
from abkit.game import CHANCE, MAX, MIN
from abkit.i18n import t
from abkit.info import load_info
from abkit.judge import GAME_CATEGORIES, SEARCH_CATEGORIES
from abkit.play import PLAY_OPENING, PLAY_SEED, board_text
from abkit.randomtree import random_tree
from abkit.reference import reference
from abkit.trace import CountedTrace, Trace
from abkit.tree import Tree, TreeGame, backed_up_values
from abkit.wire import encode, tree_to_data

from abkit.grader import replies
from abkit.grader.mistakes import ANY_ID, MistakeEditError, fresh_mutant, run_signature, same_slip, told_slip
from abkit.grader.runtest import answer, game_from_request, run_test
from abkit.grader.rubric import Rubric

SOURCE_FOLDERS = {"public": "public_fixtures", "hidden": "hidden_fixtures"}  # attributes of the course folder
#: in-process traced searches patch module attributes for the run: one at a time
_SEARCH_LOCK = threading.Lock()
#: (course, rule, request) -> the reference's outcome on a shared test, kept across plans (tic-tac-toe from the empty
#: board takes a fifth of a second to trace)
_REFERENCE_RUNS: dict[tuple, object] = {}


@dataclass(frozen=True)
class Test:
    """One test of one exercise: a whole search from ``state``, one direct call (``function`` set), the
    actions ordered at some nodes (``kind`` orders), or played games (``kind`` play).

    tree: the game tree, or ``None`` on a board game (``game`` names it, ``state`` is the board);
    depth: the depth limit of a depth-limited search; nodes: where actions are ordered;
    seed: the random player's seed of played games.
    repeats: the id of the test this one runs again, in the same process, after the tests between them (a search
        that keeps state between calls does something else the second time).
    """

    id: str
    exercise: str
    source: str
    tree: Tree | None
    state: str
    title: dict
    function: str | None = None
    window: tuple = ()
    game: str = "tree"
    depth: int | None = None
    kind: str = "search"  # search | orders | play (a direct call is a search with ``function``)
    nodes: tuple = ()
    seed: int = 0
    repeats: str | None = None

    @property
    def algorithm(self) -> Algorithm:
        return Algorithm.of_exercise(self.exercise)

    @property
    def categories(self) -> tuple[str, ...]:
        if self.function:
            return ("direct",)
        if self.kind != "search":
            return ({"orders": "orders", "play": "games"}[self.kind],)
        return SEARCH_CATEGORIES if self.tree is not None else GAME_CATEGORIES

    @property
    def nameable(self) -> bool:
        """Whether the test helps name a mistake: the mutants are run on trees only (a board game would take
        a mutant that does not prune hundreds of thousands of states)."""
        return self.tree is not None and self.kind != "play"

    @cached_property
    def longest(self) -> int:
        """The longest node name a reply to this test may hold: the tree's longest, or a board's length."""
        return _longest_name(self.tree) if self.tree is not None else len(self.state)

    def check(self, reply: dict) -> dict:
        """``reply`` checked against its kind's schema (:mod:`abkit.grader.replies`); :class:`BadReply` otherwise."""
        if self.kind == "orders":
            return replies.order(reply, self.nodes, self.longest)
        if self.kind == "play":
            return replies.move(reply, self.longest)
        return replies.search(reply, self.longest, self.state, self.algorithm)

    @cached_property
    def request(self) -> bytes:
        """What the child is sent (JSON): the game to search and how to call the student's code, nothing else."""
        return encode(self.message())

    def message(self, **extra) -> dict:
        """The request as data: the game (a tree with its heuristic values and probabilities, or a board game's
        name), where to start, the depth limit, how to call the student's code."""
        op = "call" if self.function else {"search": "search", "orders": "order", "play": "games"}[self.kind]
        message = {"op": op, "exercise": self.exercise, "algorithm": self.algorithm, "state": self.state}
        if self.tree is not None:
            message["tree"] = tree_to_data(self.tree)
        else:
            message.update(game=self.game, counts=True)
        if self.depth is not None:
            message["depth"] = self.depth
        if self.function:
            message.update(function=self.function, window=list(self.window))
        if self.kind == "orders":
            message["nodes"] = list(self.nodes)
        if self.kind == "play":
            message["seed"] = self.seed
        return {**message, **extra}

    def run_in_process(self, module):
        """This test's outcome for a trusted module (the reference, a mutant): a trace, or the orders
        (``{node: actions}``); played games are not run here."""
        request = self.message()
        with _SEARCH_LOCK:
            if self.kind == "orders":
                return answer(module, request)["answer"]
            trace = run_test(module, {**request, "counts": False}, game_from_request(request))
        return CountedTrace.of(trace) if self.tree is None else trace


def _longest_name(tree: Tree) -> int:
    """The length of the longest node name of ``tree`` (its root and every node below it), level by level in C."""
    longest, level, children = len(tree.root), [tree.root], tree.children
    while level:
        level = [child for name in level if name in children for child in children[name]]
        longest = max(longest, *map(len, level)) if level else longest
    return longest



def student_seed(seed: int, student: str) -> int:
    """The seed of a student's random trees: from the batch seed and the student id, stable across runs.

    >>> student_seed(0, "alice") == student_seed(0, "alice") != student_seed(1, "alice")
    True
    """
    return int(hashlib.sha256(f"{seed}/{student}".encode()).hexdigest()[:12], 16)


class TestPlan:
    """The tests of a batch: the shared ones and their expected outcomes are built once, a student's on demand."""

    def __init__(self, rubric: Rubric, seed: int = 0) -> None:
        self.rubric, self.seed = rubric, seed
        self.rule = rubric.prune_on_equality
        self.fixtures = [(source, fx) for source in rubric.sources  # a test's name holds its source and tree's id
                         for fx in for_course_rule(unique_ids([load_fixture(p) for p in _fixture_files(
                             getattr(current_course(), SOURCE_FOLDERS[source]))]), self.rule, keep)
                         if any(fits(Algorithm.of_exercise(e), fx) for e in rubric.points)]
        self._expected: dict[str, Trace] = {}
        self.shared = {exercise: [x for x in self._fixture_tests(exercise) if self._usable(x)]
                       for exercise in rubric.points}

    def _fixture_tests(self, exercise: str) -> list[Test]:
        algorithm = Algorithm.of_exercise(exercise)
        mine = [(source, fx) for source, fx in self.fixtures if fits(algorithm, fx)]
        searches = [fixture_search(exercise, source, fx) for source, fx in mine]
        searches = with_repeat(searches)
        if algorithm.iterative:
            searches += [orders_test(exercise, source, fx.id, fx.tree, fx.depth, fx.title) for source, fx in mine]
        if not algorithm.plain:
            return searches
        as_checked = _checks_direct_calls(exercise) and self.rubric.direct_tests > 0  # the public trees: check's
        # calls (abkit.expected.direct_tests), unless the rubric makes none
        public = [direct_test(exercise, source, fx.id, fx.tree, node, k, fx.title, window=window)
                  for source, fx in mine if as_checked and source == "public" and fx.tree is not None
                  for k, (node, window) in enumerate(direct_tests(fx, algorithm))]
        return searches + public + self._picked_direct(exercise, mine, as_checked)

    def _picked_direct(self, exercise: str, mine: list[tuple[str, Fixture]], as_checked: bool) -> list[Test]:
        """The direct calls on the shared trees beyond check's, as many as the rubric's share: first, on each tree
        added to tell a slip apart whose search does not (:func:`telling_call`), the call that does; then calls
        spread evenly over the inner nodes of the non-public trees (of the public ones when there are no others
        and check makes no calls there)."""
        candidates = [(source, fx.id, fx.tree, node) for source, fx in mine if fx.tree is not None
                      for node in inner_nodes(fx.tree)]
        if as_checked or any(source != "public" for source, *_ in candidates):
            # the public trees' direct calls are check's, or none (check makes none): picked on the other trees
            candidates = [c for c in candidates if c[0] != "public"]
        wanted = self.rubric.direct_tests - self.rubric.direct_tests // 2 if self._random_count() else \
            self.rubric.direct_tests
        telling = {fx.id: call for source, fx in mine if source != "public" or not as_checked
                   for call in [telling_call(exercise, source, fx, self.rule)] if call is not None}
        telling = dict(list(telling.items())[:wanted])
        candidates = [c for c in candidates if c[1] not in telling]
        rest = wanted - len(telling)
        picked = [candidates[i * len(candidates) // rest] for i in range(rest)] if candidates and rest else []
        titles = {fx.id: fx.title for _, fx in mine}
        return list(telling.values()) + [direct_test(exercise, source, name, tree, node, k, titles[name])
                          for k, (source, name, tree, node) in enumerate(picked)]

    def _usable(self, test: Test) -> bool:
        """Whether the reference completes ``test`` within the child's budget (:data:`~abkit.grader.runtest.GAME_BUDGET`
        states on a board game), computing its expected outcome: a bigger position is not graded."""
        expected = self.expected(test, cache=True)
        return not isinstance(expected, Trace) or expected.error is None

    def _random_count(self) -> int:
        return self.rubric.random_trees["count"]

    def tests_for(self, student: str) -> dict[str, list[Test]]:
        """Every test of every exercise for ``student``: the shared ones, then the student's random trees."""
        seed = student_seed(self.seed, student)
        spec = self.rubric.random_trees
        trees = [random_tree(spec["branching"], spec["depth"], spec["min"], spec["max"], "random",
                             MAX if i % 2 == 0 else MIN, seed=seed + i) for i in range(spec["count"])]
        rng = random.Random(seed)
        candidates = [(i, tree, node) for i, tree in enumerate(trees) for node in inner_nodes(tree)]
        wanted = self.rubric.direct_tests // 2 if trees else 0
        picked = sorted(rng.sample(candidates, min(wanted, len(candidates))), key=lambda c: c[0]) if candidates else []
        suites = {}
        for exercise, shared in self.shared.items():
            algorithm = Algorithm.of_exercise(exercise)
            searches = [Test(f"{exercise}/random/{i + 1}", exercise, "random", tree, tree.root,
                             _random_title(i, tree, spec)) for i, tree in enumerate(trees)] \
                if algorithm.plain else self._random_variants(exercise, seed, trees, spec)
            if "games" in self.rubric.points[exercise] and algorithm == Algorithm.ALPHABETA:
                searches.append(self._games(exercise))
            direct = [direct_test(exercise, "random", str(i + 1), tree, node, k, _random_title(i, tree, spec))
                      for k, (i, tree, node) in enumerate(picked)] if algorithm.plain else []
            plain = [x for x in shared if not x.function]
            suites[exercise] = plain + searches + [x for x in shared if x.function] + direct
        return suites

    def _games(self, exercise: str) -> Test:
        """The played games: ``abkit check``'s (:data:`abkit.play.PLAY_SEED`, from :data:`abkit.play.PLAY_OPENING`,
        after which no move needs more than the child's budget: from the empty board alpha-beta needs 18,297 states
        for X's first move, 146,120 under the CS188 rule), the same for every student, so that a slip loses the
        same games for everyone."""
        title = {lang: t("grade.test.games", lang, seed=PLAY_SEED, board=board_text(PLAY_OPENING))
                 for lang in ("en", "ko")}
        return Test(f"{exercise}/random/games", exercise, "random", None, PLAY_OPENING, title, game="tictactoe",
                    kind="play", seed=PLAY_SEED)

    def _random_variants(self, exercise: str, seed: int, trees: list[Tree], spec: dict) -> list[Test]:
        """The student's random tests of a depth-limited, ordering or chance exercise: the same random trees
        given heuristic values (searched one ply short of the leaves), or chance levels and probabilities."""
        algorithm = Algorithm.of_exercise(exercise)
        rng = random.Random(f"{seed}/{algorithm}")
        tests = []
        for i, tree in enumerate(trees):
            title = _random_title(i, tree, spec)
            if algorithm.chance:
                tests.append(Test(f"{exercise}/random/{i + 1}", exercise, "random", with_chance(tree, rng), tree.root,
                                  title))
                continue
            shaped = with_heuristics(tree, spec["min"], spec["max"], rng)
            depth = max(1, spec["depth"] - 1)
            tests.append(Test(f"{exercise}/random/{i + 1}", exercise, "random", shaped, tree.root, title, depth=depth))
            if algorithm.iterative and inner_nodes(tree):
                tests.append(orders_test(exercise, "random", str(i + 1), shaped, depth, title))
        return tests

    def expected(self, test: Test, cache: bool = False) -> Trace | dict:
        """The reference's trace for ``test`` under the course's rule (an orders test: ``{node: actions}``)."""
        if test.id in self._expected:
            return self._expected[test.id]
        key = (current_course().root, self.rule, test.request)  # the reference is the course's own solutions
        trace = _REFERENCE_RUNS.get(key) or test.run_in_process(reference(test.algorithm, self.rule))
        if cache:
            self._expected[test.id] = _REFERENCE_RUNS[key] = trace
        return trace


def direct_windows(v: float) -> tuple[tuple[float, float], ...]:
    """The three narrow windows grading calls alpha-beta's MAX-VALUE / MIN-VALUE with on a node of value ``v``:
    one holding it, one above, one below."""
    return (v - 2, v + 2), (v + 1, v + 5), (v - 5, v - 1)


def direct_test(exercise: str, source: str, name: str, tree: Tree, node: str, k: int, labels: dict,
                window: tuple = ()) -> Test:
    """MAX-VALUE / MIN-VALUE called directly on ``node``: with ``window`` when given, else (alpha-beta) with the
    ``k``-th of the three :func:`direct_windows` around the node's value."""
    game = TreeGame(tree)
    player = game.to_move(node)
    function = "max_value" if player == MAX else "min_value"
    if Algorithm.of_exercise(exercise).prunes and not window:
        window = direct_windows(backed_up_values(tree)[node])[k % 3]
    window = tuple(int(x) if float(x).is_integer() else x for x in window)
    shown = "".join(f", {fmt(x)}" for x in window)
    title = {lang: t("grade.test.direct", lang, function=function, node=node, window=shown,
                     tree=labels.get(lang) or labels.get("en") or name) for lang in ("en", "ko")}
    return Test(f"{exercise}/{source}/{name}/{function}({node}{', ' if window else ''}{', '.join(map(fmt, window))})",
                exercise, source, tree, node, title, function, window)


def every_direct_call(exercise: str, source: str, name: str, tree: Tree, labels: dict) -> list[Test]:
    """Every direct call grading may make on ``tree``: each inner node below the root (:func:`inner_nodes`), with
    each of the :func:`direct_windows` (alpha-beta) or with none (minimax)."""
    windows = 3 if Algorithm.of_exercise(exercise).prunes else 1
    return [direct_test(exercise, source, name, tree, node, k, labels) for node in inner_nodes(tree)
            for k in range(windows)]


def telling_call(exercise: str, source: str, fixture: Fixture, rule: bool) -> Test | None:
    """On a tree added to tell a slip apart (:func:`abkit.grader.mistakes.told_slip`), when no mutant of the slip in
    ``exercise`` differs from the reference in the tree's search: the first of :func:`every_direct_call` in which
    one does (such a tree tells its slip apart only there), else None. The mutants are the kit's own code, run
    in-process under the course's ``rule``; None too when the course's solution no longer takes the mutant's edits."""
    slips = [m.id for m in same_slip(told_slip(fixture.source))] if fixture.tree is not None else []
    slips = [m for m in slips if ANY_ID[m].exercise == exercise]
    if not slips:
        return None
    ref = reference(Algorithm.of_exercise(exercise), rule)
    search = fixture_search(exercise, source, fixture)
    try:
        for test in [search, *every_direct_call(exercise, source, fixture.id, fixture.tree, fixture.title)]:
            want = run_signature(test, ref)
            if any(run_signature(test, fresh_mutant(m, rule)) != want for m in slips):
                return None if test is search else test
    except MistakeEditError:  # the course rewrote its solution: the slip's mutant cannot be made, nor the call told
        return None
    return None


def _fixture_files(folder: Path) -> list[Path]:
    """The fixtures of one of the course's fixture folders, found as ``abkit check`` finds them (none: no folder)."""
    return fixture_paths([folder]) if folder.is_dir() else []


def _checks_direct_calls(exercise: str) -> bool:
    """Whether ``abkit check`` calls MAX-VALUE / MIN-VALUE directly on the public trees of ``exercise`` (its
    ``direct`` in the course's ``info.yaml``): grading then makes the same calls there, with the same windows."""
    path = current_course().exercises / "info.yaml"
    described = load_info(path).get(exercise) if path.is_file() else None
    return described.direct if described is not None else False


def fits(algorithm: str, fixture: Fixture) -> bool:
    """Whether the exercise searching with ``algorithm`` is tested on ``fixture``.

    minimax, alpha-beta: drawn trees of MAX and MIN searched to the leaves (:func:`gradable`), and board
    positions that expect them; cutoff: trees with a depth limit, and positions that expect it; expectimax:
    trees with chance levels; ordering: trees with a depth limit and a heuristic value at every inner node
    above it (iterative deepening stops at each depth).
    """
    tree, spec = fixture.tree, Algorithm(algorithm)
    if tree is None:
        return spec in fixture.expected and spec in (Algorithm.MINIMAX, Algorithm.ALPHABETA, Algorithm.CUTOFF)
    chance = CHANCE in tree.levels
    if spec.plain:
        return gradable(fixture, spec)
    if spec.chance or chance:
        return spec.chance and chance
    if fixture.depth is None:
        return False
    depths = tree.depths()
    return not spec.iterative or all(n in tree.heuristics for n, d in depths.items()
                                        if 0 < d <= fixture.depth and n in tree.children)


def with_heuristics(tree: Tree, low: int, high: int, rng: random.Random) -> Tree:
    """``tree`` with a random heuristic value in ``low..high`` at every inner node (the root's is unused)."""
    return dataclasses.replace(tree, heuristics={n: rng.randint(low, high) for n in tree.preorder()
                                                 if n in tree.children and n != tree.root})


def with_chance(tree: Tree, rng: random.Random) -> Tree:
    """``tree`` as a game of chance: the root's player, chance, the other player, chance, ...; each chance
    node's outcomes get random probabilities (weights 1 to 3, normalised)."""
    levels = (tree.root_player, CHANCE, MIN if tree.root_player == MAX else MAX, CHANCE)
    chanced = dataclasses.replace(tree, levels=levels)
    depths = tree.depths()
    probabilities = {}
    for node in tree.preorder():
        if node in tree.children and levels[depths[node] % 4] == CHANCE:
            weights = [rng.randint(1, 3) for _ in tree.children[node]]
            probabilities.update({kid: w / sum(weights) for kid, w in zip(tree.children[node], weights)})
    return dataclasses.replace(chanced, probabilities=probabilities)


def fixture_search(exercise: str, source: str, fixture: Fixture) -> Test:
    """The search test of ``exercise`` on a fixture: its tree, or its board position."""
    game = "tree" if fixture.tree is not None else "tictactoe-symmetric" if fixture.symmetry else "tictactoe"
    depth = fixture.depth if Algorithm.of_exercise(exercise).depth_limited else None
    return Test(f"{exercise}/{source}/{fixture.id}", exercise, source, fixture.tree, fixture.root, fixture.title,
                game=game, depth=depth)


def with_repeat(searches: list[Test]) -> list[Test]:
    """``searches`` with the first public tree search run again right after the last public search: the same
    request, in the same process, once every public search has run (the second run of a search that keeps state
    between calls differs from the first). Scored like any test; the judge tells a difference from the first run
    (:mod:`abkit.grader.judgement`)."""
    public = [k for k, x in enumerate(searches) if x.source == "public" and x.tree is not None and x.kind == "search"]
    if not public:
        return searches
    first = searches[public[0]]
    title = {lang: t("grade.test.again", lang, title=first.title.get(lang) or first.title.get("en") or first.id)
             for lang in ("en", "ko")}
    again = dataclasses.replace(first, id=f"{first.id}/again", title=title, repeats=first.id)
    return [*searches[:public[-1] + 1], again, *searches[public[-1] + 1:]]


def orders_test(exercise: str, source: str, name: str, tree: Tree, depth: int, labels: dict) -> Test:
    """``ordered_actions`` on every inner node above the depth limit whose children EVAL can estimate."""
    depths = tree.depths()
    nodes = tuple(n for n in tree.preorder() if n in tree.children and depths[n] < depth
                  and all(k in tree.utilities or k in tree.heuristics for k in tree.children[n]))
    title = {lang: t("grade.test.orders", lang, tree=labels.get(lang) or labels.get("en") or name)
             for lang in ("en", "ko")}
    return Test(f"{exercise}/{source}/{name}/ordered_actions", exercise, source, tree, tree.root, title,
                depth=depth, kind="orders", nodes=nodes)


def gradable(fixture: Fixture, algorithm: str | None = None) -> bool:
    """A fixture the minimax and alpha-beta exercises are tested on: a drawn tree of MAX and MIN nodes, searched
    to the leaves (not a board position or a game of chance); a tree drawn for a depth-limited search only where it
    also expects ``algorithm``'s search to the leaves (as ``abkit check`` tests it)."""
    if fixture.tree is None:
        return False
    if getattr(fixture, "depth", None) is not None and (algorithm is None or algorithm not in fixture.expected):
        return False
    game = TreeGame(fixture.tree)
    return all(game.to_move(node) in (MAX, MIN) for node in fixture.tree.preorder())


def inner_nodes(tree: Tree) -> list[str]:
    """Internal nodes below the root, in preorder: where direct calls are made."""
    return [n for n in tree.preorder() if n != tree.root and not tree.is_leaf(n)]


def _random_title(i: int, tree: Tree, spec: dict) -> dict:
    return {lang: t("grade.test.random", lang, number=i + 1, branching=spec["branching"], depth=spec["depth"],
                    player=tree.root_player) for lang in ("en", "ko")}


def fmt(value: object) -> str:
    if isinstance(value, float) and math.isinf(value):
        return "∞" if value > 0 else "-∞"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
