"""Mutation analysis of a course's test plan: does every mutant of the reference solutions fail some shared test?

Each mutant (:data:`abkit.grader.mistakes.MUTANTS`: the catalogue's named mistakes and the unnamed slips) is run
in-process, a new module per mutant and exercise, on the tests grading gives every student alike: the public and
hidden fixtures' searches, direct calls and orders (:class:`~abkit.grader.testplan.TestPlan`), under the course's
cut-off rule. Tic-tac-toe positions and played games are left out (as :class:`~abkit.grader.mistakes.MistakeNamer`
leaves them out): a mutant that prunes nothing would take hundreds of thousands of states there.

A mutant is **killed** when its outcome (:func:`abkit.judge.signature`) differs from the reference's on one of those
fixture tests: a student's random trees never count, so a slip never depends on a student's seed to be caught.

A mutant no fixture test kills is checked on small trees, from the smallest up (:func:`small_trees`):

- every tree shape of branching 2 or 3 and depth 1 to 3 with at most 6 leaves, both root players, each with every
  assignment of leaf values from ``0, 0.5, 1, 2`` (up to 3 leaves), ``0, 1, 2`` (4 leaves) or ``0, 1`` (5 and 6
  leaves): ties, distinct values and a fraction (:data:`SMALL_VALUES`);
- then :data:`RANDOM_TREES` seeded random trees of branching 2 to 3 and depth 2 to 4, values −3..3 in halves;

each tree tested as grading tests a fixture (the search, and for minimax and alpha-beta the direct calls of
MAX-VALUE/MIN-VALUE on every inner node with the three windows grading uses; a depth-limited search at every depth
limit up to the tree's depth, with seeded heuristic values; expectimax with seeded chance levels). A mutant that
differs nowhere there is **equivalent** (with that as its reason); one that differs is a **survivor**, a finding,
with the first tree whose search tells it apart (the smallest found; else the first whose direct calls do). ``--add`` writes that tree into the course's hidden
fixtures with its expectations from the reference (:func:`add_tree`).

The points a mutant would lose are computed as grading computes them (:func:`abkit.grader.grades.category_shares`:
a student's random trees are run and worth nothing where fixtures test the same category); the left-out tests'
points count as kept.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from dataclasses import dataclass, field
from pathlib import Path

from abkit.algorithms import Algorithm
from abkit.coursefolder import current_course
from abkit.game import MAX, MIN
from abkit.i18n import LANGS, t
from abkit.judge import passes, signature
from abkit.randomtree import random_tree
from abkit.reference import reference
from abkit.tree import Tree, from_nested

from abkit.grader.grades import category_shares
from abkit.grader.mistakes import TELLS, Mistake, fresh_mutant, mutants_of, pseudocode_line
from abkit.grader.rubric import Rubric
from abkit.grader.testplan import Test, TestPlan, every_direct_call, orders_test, with_chance, with_heuristics

#: the seeded random trees tried after the exhaustive small ones
RANDOM_TREES = 300
#: the student whose random trees give the points a mutant loses (any id: every student's trees are alike)
STUDENT = "adequacy"
SMALL_VALUES = {3: (0, 0.5, 1, 2), 4: (0, 1, 2), 6: (0, 1)}


@dataclass
class Outcome:
    """One mutant's fate: ``status`` killed, equivalent or survived; ``killed_by``: the first fixture test telling it
    apart; ``tree``/``depth``: the smallest tree found that tells a survivor apart (with its depth limit);
    ``lost``: the points it loses of ``max_score``; ``tried``: the small trees an equivalent one was run on."""

    mistake: Mistake
    status: str
    killed_by: str = ""
    tree: Tree | None = None
    depth: int | None = None
    lost: float = 0.0
    max_score: float = 0.0
    tried: int = 0

    @property
    def line(self) -> str:
        """The pseudocode line the mutant changes, with the course's comparisons."""
        return pseudocode_line(self.mistake.id)


@dataclass
class ExerciseReport:
    exercise: str
    outcomes: list[Outcome] = field(default_factory=list)

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    def to_json(self) -> dict:
        """The exercise's entry of ``--json``: the counts and the survivors' ids."""
        return {"mutants": len(self.outcomes), "killed": self.count("killed"), "equivalent": self.count("equivalent"),
                "survived": self.count("survived"),
                "survivors": [o.mistake.id for o in self.outcomes if o.status == "survived"]}


def course_rubric() -> Rubric:
    """The course's rubric (:func:`abkit.grader.rubric.load_rubric`), for the command line."""
    from abkit.grader.rubric import load_rubric

    return load_rubric()


def analyse(rubric: Rubric, exercises: list[str] | None = None) -> list[ExerciseReport]:
    """The outcome of every mutant of each exercise the rubric grades (or of ``exercises``), under its rule."""
    plan = TestPlan(rubric)
    student = plan.tests_for(STUDENT)
    reports = []
    for exercise in exercises or list(rubric.points):
        shares = category_shares(student[exercise], rubric.points[exercise])
        tests = [x for x in student[exercise] if x.nameable]
        checker = SmallTrees(exercise, plan.rule)
        report = ExerciseReport(exercise)
        for mistake in mutants_of(exercise):
            report.outcomes.append(_outcome(mistake, tests, shares, plan, rubric, checker))
        reports.append(report)
    return reports


def _outcome(mistake: Mistake, tests: list[Test], shares: dict[str, dict[str, float]], plan: TestPlan,
             rubric: Rubric, checker: SmallTrees) -> Outcome:
    """Run one mutant on ``tests``: killed by the first fixture test it fails, its points lost by grading's
    ``shares`` (the left-out tests' shares count as kept); else checked on the small trees."""
    module = fresh_mutant(mistake.id, plan.rule)
    killed_by = ""
    lost = 0.0
    for test in tests:
        expected = plan.expected(test, cache=True)
        got = _run(test, module)
        if not killed_by and test.source != "random" and _signature(got) != signature(expected):
            killed_by = test.id
        lost += sum(share for c, share in shares[test.id].items() if not _passes(c, got, expected))
    outcome = Outcome(mistake, "killed", killed_by, lost=lost, max_score=rubric.max_score(mistake.exercise))
    if killed_by:
        return outcome
    found = checker.difference(fresh_mutant(mistake.id, plan.rule))
    if found is None:
        return dataclasses.replace(outcome, status="equivalent", tried=checker.tried)
    return dataclasses.replace(outcome, status="survived", tree=found[0], depth=found[1])


def _run(test: Test, module):
    try:
        return test.run_in_process(module)
    except Exception as error:  # noqa: BLE001 - a mutant may raise where the harness calls it (ordered_actions)
        return error


def _signature(got) -> tuple:
    return ("error", type(got).__name__) if isinstance(got, Exception) else signature(got)


def _passes(category: str, got, expected) -> bool:
    if isinstance(got, Exception):
        return False
    if isinstance(expected, dict):
        return got == expected
    return passes(category, got, expected)


# -- small trees -------------------------------------------------------------------

def shapes(depth: int, branching: tuple[int, ...] = (2, 3), leaves: int = 6) -> list:
    """Every tree shape (nested lists, ``0`` a leaf) of height exactly ``depth`` with each inner node's branching in
    ``branching`` and at most ``leaves`` leaves, fewest leaves first."""
    by_height: dict[int, list] = {0: [0]}
    for height in range(1, depth + 1):
        below = [s for h in range(height) for s in by_height[h]]
        made = []
        for b in branching:
            for kids in itertools.product(below, repeat=b):
                if max(_height(k) for k in kids) == height - 1 and sum(map(_leaves, kids)) <= leaves:
                    made.append(list(kids))
        by_height[height] = made
    return sorted(by_height[depth], key=_leaves)


def _height(shape) -> int:
    return 0 if shape == 0 else 1 + max(map(_height, shape))


def _leaves(shape) -> int:
    return 1 if shape == 0 else sum(map(_leaves, shape))


def _filled(shape, values):
    it = iter(values)

    def fill(s):
        return next(it) if s == 0 else [fill(k) for k in s]
    return fill(shape)


def small_trees() -> list[Tree]:
    """The small trees of the equivalence check (the module's docstring), smallest first."""
    trees = []
    for shape in sorted((s for d in (1, 2, 3) for s in shapes(d)), key=lambda s: (_leaves(s), _height(s))):
        n = _leaves(shape)
        values = SMALL_VALUES[min(k for k in SMALL_VALUES if k >= n)]
        for player in (MAX, MIN):
            for assignment in itertools.product(values, repeat=n):
                trees.append(from_nested(_filled(shape, assignment), root_player=player))
    for i in range(RANDOM_TREES):
        rng = random.Random(i)
        tree = random_tree(rng.choice((2, 3)), rng.choice((2, 3, 4)), -6, 6, "random", (MAX, MIN)[i % 2], seed=i)
        trees.append(dataclasses.replace(tree, utilities={k: v / 2 for k, v in tree.utilities.items()}))
    return trees


class SmallTrees:
    """The small trees shaped for one exercise as its tests, with the reference's outcomes, computed once and kept
    for every mutant of the exercise."""

    def __init__(self, exercise: str, rule: bool) -> None:
        self.exercise, self.rule = exercise, rule
        self.algorithm = Algorithm.of_exercise(exercise)
        self._cases: list[tuple[Tree, int | None, list[Test]]] | None = None
        self._expected: dict[str, tuple] = {}
        self.tried = 0

    def cases(self) -> list[tuple[Tree, int | None, list[Test]]]:
        if self._cases is None:
            self._cases = [case for k, tree in enumerate(small_trees()) for case in self._shaped(k, tree)]
        return self._cases

    def _shaped(self, k: int, tree: Tree) -> list[tuple[Tree, int | None, list[Test]]]:
        spec, rng = self.algorithm, random.Random(k)
        if spec.chance:
            tree = with_chance(tree, rng)
        if not spec.depth_limited:
            return [(tree, None, self._tests(f"{k}", tree, None))]
        tree = with_heuristics(tree, 0, 4, rng)
        height = max(tree.depths().values())
        return [(tree, d, self._tests(f"{k}/{d}", tree, d)) for d in range(1, height + 1)]

    def _tests(self, name: str, tree: Tree, depth: int | None) -> list[Test]:
        ex = self.exercise
        tests = [Test(f"{ex}/small/{name}", ex, "small", tree, tree.root, {}, depth=depth)]
        if self.algorithm.iterative:
            tests.append(orders_test(ex, "small", name, tree, depth, {}))
        if self.algorithm.plain:
            tests += every_direct_call(ex, "small", name, tree, {})
        return tests

    def difference(self, module) -> tuple[Tree, int | None] | None:
        """The first small tree (and depth limit) on which ``module``'s search differs from the reference's, else
        the first on which one of its other tests (a direct call, the orders) does, or None; sets :attr:`tried` to
        the trees run. A search first: every fixture is searched, while grading picks a few direct calls."""
        ref = reference(self.algorithm, self.rule)
        for searches in (True, False):
            self.tried = 0
            for tree, depth, tests in self.cases():
                self.tried += 1
                for test in tests if not searches else tests[:1]:
                    if test.id not in self._expected:
                        self._expected[test.id] = _signature(_run(test, ref))
                    if _signature(_run(test, module)) != self._expected[test.id]:
                        return tree, depth
        return None


# -- writing a survivor's tree -------------------------------------------------------

def add_tree(outcome: Outcome, rule: bool, folder: Path | None = None) -> Path:
    """Write a survivor's tree into the course's hidden fixtures (or ``folder``) with its expectations from the
    reference under ``rule``; return the file's path."""
    from abkit.fixtureformat import Fixture

    from abkit.authoring.fixturegen import dump
    from abkit.authoring.redraw import hand_document

    folder = Path(folder) if folder is not None else current_course().hidden_fixtures
    spec = Algorithm.of_exercise(outcome.mistake.exercise)
    new_id = f"adequacy-{outcome.mistake.id.replace('_', '-')}{'' if rule else '-cs188'}"  # one per mutant and rule
    title = {lang: t("fixtures.adequacy.title", lang, mistake=outcome.mistake.id) for lang in LANGS}
    algorithms = [Algorithm.MINIMAX, Algorithm.ALPHABETA] if spec.plain else [spec]
    expected = {a.value: {f: None for f in _fields(a)} for a in algorithms}
    if spec.iterative:  # the nodes whose order is expected: those grading asks ordered_actions on
        expected[spec.value]["orders"] = list(orders_test(spec.exercise, "", "", outcome.tree, outcome.depth, {}).nodes)
    fixture = Fixture(None, new_id, outcome.tree, title, source="", prune_on_equality=rule, expected=expected,
                      depth=outcome.depth)
    source = TELLS.format(mistake=outcome.mistake.id)
    path = folder / f"{new_id}.yaml"
    path.write_text(dump(hand_document(fixture, outcome.tree, new_id, source)), encoding="utf-8")
    return path


def _fields(algorithm: Algorithm) -> list[str]:
    """The expected fields a tree added for ``algorithm`` states (a pruning search's block complete, as ``abkit
    fixtures generate`` writes it)."""
    if algorithm.chance or not (algorithm.prunes or algorithm.depth_limited):
        return ["value", "action", "nodes"]
    if algorithm.iterative:
        return ["value", "action", "visited", "evaluated", "nodes", "orders"]
    return ["value", "action", "visited", "evaluated", "pruned", "nodes", "windows"]
