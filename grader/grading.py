"""Grading one student: the tests, their runs in the student's own process, scores, findings, named mistakes.

A :class:`Grader` is built once per batch (rubric, seed, fixtures, limits). Its
:meth:`Grader.grade` unpacks one submission, runs every test of every exercise
in one sandboxed child (:mod:`grader.sandbox`; a new one after a crash or a
time-out), compares each reported trace with the reference's under the course's
rule (:func:`grader.compare.compare`), and scores the rubric's categories:

- values: the root's value and the chosen action;
- pruning: the generated nodes and the evaluated leaves, in order;
- nodes: how many nodes were generated;
- direct: MAX-VALUE / MIN-VALUE called on a subtree (alpha-beta: with a given
  window): the returned, fail-soft value and the generated nodes.

A category's points are shared equally by its tests. Nothing here writes files.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import shutil
import tempfile
import threading
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from abkit import __version__
from abkit.fixture import Fixture, load_fixture
from abkit.game import MAX, MIN
from abkit.i18n import Message, t
from abkit.loading import HIDDEN_FIXTURES, PUBLIC_FIXTURES, SOLUTIONS
from abkit.randomtree import random_tree
from abkit.trace import Trace, error_name, traced_search
from abkit.tree import Tree, TreeGame, backed_up_values

from .child import traced_call, tree_to_data
from .compare import Finding, compare, same_number
from .feedback import TestResult
from .mistakes import for_exercise, mutant
from .reference import reference
from .rubric import EXERCISES, Rubric
from .sandbox import Died, Forged, Limits, Sandbox, TimedOut
from .submissions import Submission, fingerprint, pick_files, unpack

SOURCE_FOLDERS = {"public": PUBLIC_FIXTURES, "hidden": HIDDEN_FIXTURES}
SEARCH_CATEGORIES = ("values", "pruning", "nodes")
#: in-process traced searches patch module attributes for the run: one at a time
_SEARCH_LOCK = threading.Lock()


@dataclass(frozen=True)
class Test:
    """One test of one exercise: a whole search from ``state``, or one direct call (``function`` set)."""

    id: str
    exercise: str
    source: str
    tree: Tree
    state: str
    title: dict
    function: str | None = None
    window: tuple = ()

    @property
    def algorithm(self) -> str:
        return EXERCISES[self.exercise]

    @property
    def categories(self) -> tuple[str, ...]:
        return ("direct",) if self.function else SEARCH_CATEGORIES

    @cached_property
    def request(self) -> bytes:
        """What the child is sent (JSON): the game to search and how to call the student's code, nothing else."""
        message = {"op": "call" if self.function else "search", "exercise": self.exercise,
                   "algorithm": self.algorithm, "tree": tree_to_data(self.tree), "state": self.state}
        if self.function:
            message.update(function=self.function, window=list(self.window))
        return json.dumps(message, ensure_ascii=False).encode("utf-8")

    def run_in_process(self, module) -> Trace:
        """This test's trace for a trusted module (the reference, a mutant)."""
        game = TreeGame(self.tree)
        with _SEARCH_LOCK:
            if self.function:
                return traced_call(module, game, self.state, self.algorithm, self.function, list(self.window))
            return traced_search(module, game, self.state, self.algorithm)


@dataclass
class TestGrade:
    """A test's outcome: the feedback record, which categories passed, the points it earned."""

    test: Test
    result: TestResult
    passed: dict[str, bool]
    score: float = 0.0
    max_score: float = 0.0
    not_run: bool = False

    @property
    def signature(self) -> tuple | None:
        """What the student's search did, comparable with a mutant's (``None``: it never reported)."""
        return signature(self.result.student) if self.result.student is not None else None


@dataclass
class ExerciseGrade:
    """One exercise of one student.

    status: ok | missing (no file) | crashed (could not load, or the process died) | timeout.
    file: the file graded (relative to the submission); note: why the exercise stopped, in words.
    categories: category -> [tests passed, tests]; mistakes: named mistake ids whose traces it matches.
    """

    exercise: str
    status: str = "ok"
    score: float = 0.0
    max_score: float = 0.0
    file: str | None = None
    note: str = ""
    traceback: list[str] = field(default_factory=list)
    tests: list[TestGrade] = field(default_factory=list)
    planned: list[Test] = field(default_factory=list)
    replies: dict[str, dict] = field(default_factory=dict)
    functions: list[str] = field(default_factory=list)
    categories: dict[str, list[int]] = field(default_factory=dict)
    mistakes: list[str] = field(default_factory=list)

    def first_kinds(self) -> Counter:
        """How often each kind of finding came first in a failed test."""
        return Counter(tg.result.findings[0].kind for tg in self.tests if not tg.result.passed and tg.result.findings)


@dataclass
class StudentGrade:
    """Everything the reports need about one student."""

    student: str
    status: str
    score: float
    max_score: float
    seed: int
    exercises: dict[str, ExerciseGrade]
    notes: list[str] = field(default_factory=list)
    fingerprint: str = ""


def student_seed(seed: int, student: str) -> int:
    """The seed of a student's random trees: from the batch seed and the student id, stable across runs.

    >>> student_seed(0, "alice") == student_seed(0, "alice") != student_seed(1, "alice")
    True
    """
    return int(hashlib.sha256(f"{seed}/{student}".encode()).hexdigest()[:12], 16)


class Grader:
    """Grades submissions against a rubric; shared tests and their expected traces are built once."""

    def __init__(self, rubric: Rubric, seed: int = 0, lang: str = "en", limits: Limits | None = None) -> None:
        self.rubric, self.seed, self.lang = rubric, seed, lang
        self.limits = limits or Limits()
        self.rule = rubric.prune_on_equality
        self.fixtures = [(source, fx) for source in rubric.sources
                         for fx in map(load_fixture, sorted(SOURCE_FOLDERS[source].glob("*.yaml"))) if gradable(fx)]
        self._expected: dict[str, Trace] = {}
        self._mutants: dict[tuple[str, str], tuple] = {}
        self.shared = {exercise: self._fixture_tests(exercise) for exercise in rubric.points}
        for tests in self.shared.values():
            for test in tests:
                self.expected(test, cache=True)
        self.batch_fingerprint = self._batch_fingerprint()
        #: what the students' processes achieved confining themselves (grader.confine), None before any ran
        self.defences: dict | None = None

    # -- the tests ------------------------------------------------------------

    def _fixture_tests(self, exercise: str) -> list[Test]:
        searches = [Test(f"{exercise}/{source}/{fx.id}", exercise, source, fx.tree, fx.tree.root, fx.title)
                    for source, fx in self.fixtures]
        candidates = [(source, fx.id, fx.tree, node) for source, fx in self.fixtures
                      for node in _inner_nodes(fx.tree)]
        wanted = self.rubric.direct_tests - self.rubric.direct_tests // 2 if self._random_count() else \
            self.rubric.direct_tests
        picked = [candidates[i * len(candidates) // wanted] for i in range(wanted)] if candidates and wanted else []
        titles = {fx.id: fx.title for _, fx in self.fixtures}
        direct = [self._direct(exercise, source, name, tree, node, k, titles[name])
                  for k, (source, name, tree, node) in enumerate(picked)]
        return searches + direct

    def _random_count(self) -> int:
        return self.rubric.random_trees["count"]

    def tests_for(self, student: str) -> dict[str, list[Test]]:
        """Every test of every exercise for ``student``: the shared ones, then the student's random trees."""
        seed = student_seed(self.seed, student)
        spec = self.rubric.random_trees
        trees = [random_tree(spec["branching"], spec["depth"], spec["min"], spec["max"], "random",
                             MAX if i % 2 == 0 else MIN, seed=seed + i) for i in range(spec["count"])]
        rng = random.Random(seed)
        candidates = [(i, tree, node) for i, tree in enumerate(trees) for node in _inner_nodes(tree)]
        wanted = self.rubric.direct_tests // 2 if trees else 0
        picked = sorted(rng.sample(candidates, min(wanted, len(candidates))), key=lambda c: c[0]) if candidates else []
        suites = {}
        for exercise, shared in self.shared.items():
            searches = [Test(f"{exercise}/random/{i + 1}", exercise, "random", tree, tree.root,
                             _random_title(i, tree, spec)) for i, tree in enumerate(trees)]
            direct = [self._direct(exercise, "random", str(i + 1), tree, node, k, _random_title(i, tree, spec))
                      for k, (i, tree, node) in enumerate(picked)]
            plain = [x for x in shared if not x.function]
            suites[exercise] = plain + searches + [x for x in shared if x.function] + direct
        return suites

    def _direct(self, exercise: str, source: str, name: str, tree: Tree, node: str, k: int, labels: dict) -> Test:
        game = TreeGame(tree)
        player = game.to_move(node)
        function = "max_value" if player == MAX else "min_value"
        window: tuple = ()
        if EXERCISES[exercise] == "alphabeta":
            v = backed_up_values(tree)[node]
            window = ((v - 2, v + 2), (v + 1, v + 5), (v - 5, v - 1))[k % 3]
            window = tuple(int(x) if float(x).is_integer() else x for x in window)
        shown = "".join(f", {_fmt(x)}" for x in window)
        title = {lang: t("grade.test.direct", lang, function=function, node=node, window=shown,
                         tree=labels.get(lang) or labels.get("en") or name) for lang in ("en", "ko")}
        return Test(f"{exercise}/{source}/{name}/{function}({node}{', ' if window else ''}{', '.join(map(_fmt, window))})",
                    exercise, source, tree, node, title, function, window)

    def expected(self, test: Test, cache: bool = False) -> Trace:
        """The reference's trace for ``test`` under the course's rule."""
        if test.id in self._expected:
            return self._expected[test.id]
        trace = test.run_in_process(reference(test.algorithm, self.rule))
        if cache:
            self._expected[test.id] = trace
        return trace

    def _batch_fingerprint(self) -> str:
        digest = hashlib.sha256(f"{__version__}/{self.seed}/{self.lang}/{self.limits}".encode())
        digest.update(self.rubric.text.encode())
        for _, fx in self.fixtures:
            digest.update(fx.path.read_bytes() if fx.path else b"")
        for name in sorted(EXERCISES):
            digest.update((SOLUTIONS / f"{name}.py").read_bytes())
        return digest.hexdigest()

    def fingerprint(self, submission: Submission) -> str:
        """What a saved grade must match to be reused: this batch's settings and the entry's files."""
        return hashlib.sha256(f"{self.batch_fingerprint}/{fingerprint(submission)}".encode()).hexdigest()

    # -- one student ------------------------------------------------------------

    def grade(self, submission: Submission, work: Path | None = None) -> StudentGrade:
        """Grade one submission in a temporary folder (under ``work`` if given), removed afterwards."""
        folder = Path(tempfile.mkdtemp(prefix="abkit-", dir=work))
        try:
            return self._grade(submission, folder)
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def _grade(self, submission: Submission, folder: Path) -> StudentGrade:
        workspace = folder / "files"
        unpacked = unpack(submission, workspace)
        names = [f"{e}.py" for e in self.rubric.points]
        chosen, ignored = pick_files(unpacked.files, names)
        notes = [m.render(self.lang) for m in unpacked.skipped]
        notes += [t("grade.note.ignored", self.lang, path=p) for p in ignored]
        seed = student_seed(self.seed, submission.student)
        exercises = {e: ExerciseGrade(e, max_score=self.rubric.max_score(e)) for e in self.rubric.points}
        if unpacked.unreadable is not None or not chosen:
            reason = unpacked.unreadable.render(self.lang) if unpacked.unreadable else \
                t("grade.note.no_files", self.lang, names=", ".join(names))
            for grade in exercises.values():
                grade.status, grade.note = "missing", reason
            return StudentGrade(submission.student, "invalid", 0.0, self.rubric.max_score(), seed, exercises,
                                [reason, *notes], self.fingerprint(submission))
        tests = self.tests_for(submission.student)
        self._run(exercises, chosen, tests, workspace)
        for grade in exercises.values():
            self._score(grade, workspace)
        statuses = {g.status for g in exercises.values()}
        status = "timeout" if "timeout" in statuses else "crashed" if "crashed" in statuses else "ok"
        score = sum(g.score for g in exercises.values())
        return StudentGrade(submission.student, status, score, self.rubric.max_score(), seed, exercises, notes,
                            self.fingerprint(submission))

    def _run(self, exercises: dict[str, ExerciseGrade], chosen: dict[str, str], tests: dict[str, list[Test]],
             workspace: Path) -> None:
        """Run every exercise's tests in the student's process; record replies on each :class:`ExerciseGrade`."""
        sandbox: Sandbox | None = None
        deadline = None
        try:
            for exercise, grade in exercises.items():
                grade.planned = tests[exercise]
                path = chosen.get(f"{exercise}.py")
                if path is None:
                    grade.status, grade.note = "missing", t("grade.note.missing", self.lang, file=f"{exercise}.py")
                    continue
                grade.file = path
                if sandbox is None:
                    sandbox = Sandbox(workspace, self.limits, deadline)
                    sandbox.start()
                    deadline = sandbox.deadline
                ended = not self._run_exercise(sandbox, grade, workspace / path, tests[exercise], workspace)
                self._note_defences(sandbox.defences)
                if ended:
                    sandbox.close()
                    sandbox = None
        finally:
            if sandbox is not None:
                sandbox.close()

    def _run_exercise(self, sandbox: Sandbox, grade: ExerciseGrade, path: Path, tests: list[Test],
                      workspace: Path) -> bool:
        """Load the file and run the tests; False when the process had to be ended (time-out, death)."""
        try:
            reply = sandbox.request({"op": "load", "exercise": grade.exercise, "path": str(path)})
            if not reply.get("loaded"):
                grade.status = "crashed"
                grade.note = t("grade.note.load_failed", self.lang, file=grade.file, error=reply.get("error", ""))
                grade.traceback = _relative(reply.get("traceback", []), workspace)
                return True
            grade.functions = reply.get("functions", [])
            for test in tests:
                grade.replies[test.id] = sandbox.request(test.request)
        except TimedOut:
            grade.status = "timeout"
            grade.note = t("grade.note.timeout", self.lang, seconds=_fmt(self.limits.test_seconds))
            return False
        except Died as death:
            grade.status = "crashed"
            grade.note = t("grade.note.forged" if isinstance(death, Forged) else "grade.note.died", self.lang,
                           code=death.returncode)
            grade.traceback = [line for line in death.log.splitlines() if line.strip()][-12:]
            return False
        return True

    def _note_defences(self, defences: dict | None) -> None:
        """Keep what the students' processes reported about their confinement (the weakest one wins)."""
        if defences is not None and (self.defences is None or _weaker(defences, self.defences)):
            self.defences = defences

    # -- scores -----------------------------------------------------------------

    def _score(self, grade: ExerciseGrade, workspace: Path) -> None:
        """Turn the replies into test results, category counts and points."""
        points = self.rubric.points[grade.exercise]
        counts = {c: [0, 0] for c in points}
        grade.categories = counts
        if not grade.functions and not grade.replies:  # no file, or it could not be loaded
            return
        unanswered = [test for test in grade.planned if test.id not in grade.replies]
        for test in grade.planned:
            reply = grade.replies.get(test.id)
            if reply is None:
                tg = self._unanswered(test, grade, first=test is unanswered[0])
            else:
                tg = self._grade_test(test, reply, grade, workspace)
            grade.tests.append(tg)
            for c in test.categories:
                if c in counts:
                    counts[c][1] += 1
                    counts[c][0] += tg.passed.get(c, False)
        for tg in grade.tests:
            shares = {c: points[c] / counts[c][1] for c in tg.test.categories if c in counts}
            tg.max_score = sum(shares.values())
            tg.score = sum(share for c, share in shares.items() if tg.passed.get(c))
        grade.score = sum(points[c] * passed / total for c, (passed, total) in counts.items() if total)
        if grade.status == "ok" and grade.score < grade.max_score:
            grade.mistakes = self.name_mistakes(grade)

    def _unanswered(self, test: Test, grade: ExerciseGrade, first: bool) -> TestGrade:
        """A test the student's process never answered: the one that hit the limit, or one not run after it."""
        result = TestResult(test.exercise, test.id, test.title, tree=test.tree, prune_on_equality=self.rule)
        if first:
            result.status = grade.status
            result.detail = {"seconds": _fmt(self.limits.test_seconds), "reason": grade.note}
        else:
            result.status, result.detail = "crashed", {"reason": t("grade.note.not_run", self.lang)}
        return TestGrade(test, result, {c: False for c in test.categories}, not_run=not first)

    def _grade_test(self, test: Test, reply: dict, grade: ExerciseGrade, workspace: Path) -> TestGrade:
        expected = self.expected(test)
        student = Trace.from_dict(tame(reply["trace"]))
        result = TestResult(test.exercise, test.id, test.title, student=student, tree=test.tree, expected=expected,
                            prune_on_equality=self.rule,
                            traceback=_relative(reply["traceback"], workspace) if reply.get("traceback") else [])
        tampered = bool(reply.get("tampered"))
        if student.error is not None:
            result.status, result.detail = _error_status(test, student, grade)
            passed = {c: False for c in test.categories}
        else:
            passed = {c: not tampered and _passes(c, student, expected) for c in test.categories}
            result.status = "passed" if all(passed.values()) else "failed"
        if not result.passed:
            result.findings = compare(student, expected, test.tree, self.rule)
            if tampered:
                result.findings.insert(0, Finding("error", None, 0, Message("grade.tampered")))
        return TestGrade(test, result, passed)

    # -- named mistakes -----------------------------------------------------------

    def name_mistakes(self, grade: ExerciseGrade) -> list[str]:
        """The catalogue's mistakes whose traces equal the student's on every test of the exercise."""
        if not grade.tests or any(tg.signature is None for tg in grade.tests):
            return []
        named = []
        for mistake in for_exercise(grade.exercise):
            module = mutant(mistake.id, self.rule)
            if all(self._mutant_signature(mistake.id, module, tg.test) == tg.signature for tg in grade.tests):
                named.append(mistake.id)
        return named

    def _mutant_signature(self, mistake_id: str, module, test: Test) -> tuple:
        key = (mistake_id, test.id)
        if key not in self._mutants:
            value = signature(test.run_in_process(module))
            if test.source == "random":
                return value
            self._mutants[key] = value
        return self._mutants[key]


def gradable(fixture: Fixture) -> bool:
    """A fixture the minimax and alpha-beta exercises are tested on: a drawn tree of MAX and MIN nodes, searched
    to the leaves (not a board position, a depth-limited search or a game of chance)."""
    if fixture.tree is None or getattr(fixture, "depth", None) is not None:
        return False
    game = TreeGame(fixture.tree)
    return all(game.to_move(node) in (MAX, MIN) for node in fixture.tree.preorder())


def tame(data: dict) -> dict:
    """A reported trace with every int too large for a float (a student's ``10 ** 400``) replaced by a short text.

    Such a value is wrong anyway; as text it compares unequal and prints, instead of overflowing the comparison.
    >>> tame({"value": 10 ** 400, "action": 2, "calls": [["B", "MIN", 1, 10 ** 500, 3]]})["calls"][0][3]
    '1000000000…(501 digits)'
    """
    def small(x):
        if isinstance(x, int) and not isinstance(x, bool) and abs(x) >= 2 ** 1023:
            digits = str(abs(x))
            return f"{'-' if x < 0 else ''}{digits[:10]}…({len(digits)} digits)"
        return x
    data = dict(data, value=small(data.get("value")), action=small(data.get("action")))
    data["calls"] = [[small(x) for x in row] for row in data.get("calls", [])]
    return data


def _weaker(a: dict, b: dict) -> bool:
    """Whether confinement report ``a`` is weaker than ``b`` (hidden files exposed, fewer layers)."""
    def strength(d: dict) -> tuple:
        return (d.get("hidden") is not False, bool(d.get("landlock")), bool(d.get("seccomp")), d.get("landlock") or 0)
    return strength(a) < strength(b)


def _error_status(test: Test, student: Trace, grade: ExerciseGrade) -> tuple[str, dict]:
    name = error_name(student.error)
    needed = test.function or ("alpha_beta_search" if test.algorithm == "alphabeta" else "minimax_decision")
    missing = [f for f in (needed, "max_value", "min_value") if f not in grade.functions]
    if name == "NotImplementedError":
        return "not_started", {"function": needed}
    if missing:
        return "missing", {"function": missing[0], "file": grade.file}
    return "error", {}


def _passes(category: str, student: Trace, expected: Trace) -> bool:
    same_value = same_number(student.value, expected.value)
    if category == "values":
        return same_value and student.action == expected.action
    if category == "nodes":
        return student.nodes == expected.nodes
    evaluated = list(student.evaluated)
    if evaluated == [student.root] and not expected.evaluated:  # UTILITY on a terminal root is allowed
        evaluated = []
    same_path = student.visited == expected.visited and evaluated == list(expected.evaluated)
    return same_path if category == "pruning" else same_path and same_value


def signature(trace: Trace) -> tuple:
    """What a search did, as a comparable value: generated nodes, leaves, value, action, every call's window and value."""
    def num(x):
        return float(x) if isinstance(x, (int, float)) and not isinstance(x, bool) else x
    calls = tuple((c.node, num(c.alpha), num(c.beta), num(c.value)) for c in trace.calls if not c.synthetic)
    return (tuple(trace.visited), tuple(trace.evaluated), num(trace.value), num(trace.action), calls,
            error_name(trace.error))


def _inner_nodes(tree: Tree) -> list[str]:
    """Internal nodes below the root, in preorder: where direct calls are made."""
    return [n for n in tree.preorder() if n != tree.root and not tree.is_leaf(n)]


def _random_title(i: int, tree: Tree, spec: dict) -> dict:
    return {lang: t("grade.test.random", lang, number=i + 1, branching=spec["branching"], depth=spec["depth"],
                    player=tree.root_player) for lang in ("en", "ko")}


def _fmt(value: object) -> str:
    if isinstance(value, float) and math.isinf(value):
        return "∞" if value > 0 else "-∞"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _relative(lines: list[str], workspace: Path) -> list[str]:
    """Traceback lines with the temporary folder taken out of the paths."""
    prefix = str(workspace.resolve()) + "/"
    other = str(workspace) + "/"
    return [line.replace(prefix, "").replace(other, "") for line in lines]
