"""Grading one student: the tests, their runs in the student's own process, scores, findings, named mistakes.

A :class:`Grader` is built once per batch (rubric, seed, fixtures, limits). Its
:meth:`Grader.grade` unpacks one submission, runs every test of every exercise
in one sandboxed child (:mod:`grader.sandbox`; a new one after a crash or a
time-out), compares each reported trace with the reference's under the course's
rule (:func:`abkit.compare.compare`), and scores the rubric's categories:

Every score rests on what the contract makes observable (:mod:`abkit.judge`): the game's log of generated
and evaluated states, the action the search returned, and the values MAX-VALUE / MIN-VALUE return when called
on the root right after the search and on subtrees; never on how the code calls its own functions.

- values: the root's value (its MAX-VALUE / MIN-VALUE called with the full window) and the chosen action;
- pruning: the generated nodes and the evaluated leaves, in order;
- nodes: how many nodes were generated;
- direct: MAX-VALUE / MIN-VALUE called on a subtree (alpha-beta: with a given
  window): the returned, fail-soft value and the generated nodes;
- orders: ``ordered_actions`` on the inner nodes of a tree (the ordering lab);
- games: whole tic-tac-toe games the student's alpha-beta plays against a seeded
  random player and against itself (:mod:`abkit.play`).

The depth-limited, chance and ordering exercises are searched on trees (with
heuristic values, chance nodes) and tic-tac-toe positions; a search on a
board game is judged by its value, action and node counts only (values, nodes).

A category's points are shared equally by its tests. Nothing here writes files.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import math
import random
import shutil
import tempfile
import threading
import traceback
from collections import Counter, deque
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from abkit import __version__
from abkit.fixture import Fixture, load_fixture
from abkit.game import CHANCE, MAX, MIN
from abkit.i18n import Message, t
from abkit.coursefolder import course_id, current_course
from abkit.randomtree import random_tree
from abkit.trace import ALGORITHMS, CountedTrace, Trace, error_name
from abkit.tree import Tree, TreeGame, backed_up_values

from grader.child import MOVE_BUDGET, answer, game_from_request, run_test, tree_to_data
from abkit.compare import Finding, compare, compare_counts, compare_order
from abkit.feedback import TestResult
from grader.handin import check_handin, handin_notes
from abkit.judge import GAME_CATEGORIES, SEARCH_CATEGORIES, passes, signature, with_root_value
from grader.mistakes import for_exercise, mutant
from abkit.play import board_text, play_games, problems
from abkit.reference import reference
from grader.rubric import EXERCISES, Rubric
from grader import replies
from grader.sandbox import Died, Forged, Interrupted, Limits, Malformed, Sandbox, TimedOut
from grader.submissions import Submission, fingerprint, pick_files, unpack

SOURCE_FOLDERS = {"public": "public_fixtures", "hidden": "hidden_fixtures"}  # attributes of the course folder
#: where the graded games start: after X's corner opening, so that no move needs more than the child's budget
#: (from the empty board alpha-beta needs 18,297 states for X's first move, 146,120 under the CS188 rule)
PLAY_START = "X........"
#: how many tests a student's process may have been sent but not yet answered: it works through them while the
#: grader reads its answers, and neither side sleeps and is woken for each test (within a pipe's 64 KiB, about
#: 1 KiB a test; a full pipe only means waiting for one more answer)
AHEAD = 32
#: in-process traced searches patch module attributes for the run: one at a time
_SEARCH_LOCK = threading.Lock()
#: (rule, request) -> the reference's outcome on a shared test, kept across graders (tic-tac-toe from the empty
#: board takes a fifth of a second to trace)
_REFERENCE_RUNS: dict[tuple, object] = {}


@dataclass(frozen=True)
class Test:
    """One test of one exercise: a whole search from ``state``, one direct call (``function`` set), the
    actions ordered at some nodes (``kind`` orders), or played games (``kind`` play).

    tree: the game tree, or ``None`` on a board game (``game`` names it, ``state`` is the board);
    depth: the depth limit of a depth-limited search; nodes: where actions are ordered;
    seed: the random player's seed of played games.
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

    @property
    def algorithm(self) -> str:
        return EXERCISES[self.exercise]

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
        """``reply`` checked against its kind's schema (:mod:`grader.replies`); :class:`BadReply` otherwise."""
        if self.kind == "orders":
            return replies.order(reply, self.nodes, self.longest)
        if self.kind == "play":
            return replies.move(reply, self.longest)
        return replies.search(reply, self.longest, self.state, self.algorithm)

    @cached_property
    def request(self) -> bytes:
        """What the child is sent (JSON): the game to search and how to call the student's code, nothing else."""
        return json.dumps(self.message(), ensure_ascii=False).encode("utf-8")

    def message(self, **extra) -> dict:
        """The request as data: the game (a tree with its heuristic values and probabilities, or a board game's
        name), where to start, the depth limit, how to call the student's code."""
        op = "call" if self.function else {"search": "search", "orders": "order", "play": "move"}[self.kind]
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


@dataclass
class TestGrade:
    """A test's outcome: the feedback record, which categories passed, the points it earned."""

    test: Test
    result: TestResult
    passed: dict[str, bool]
    score: float = 0.0
    max_score: float = 0.0
    not_run: bool = False
    answer: tuple | None = None  # an orders test: the student's orders (or error), comparable with a mutant's

    @property
    def signature(self) -> tuple | None:
        """What the student's search did, comparable with a mutant's (``None``: it never reported)."""
        if self.test.kind != "search":
            return self.answer
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
    #: when the grader itself failed on this submission (a fault of the grader, not the student's): what it raised
    grader_error: str = ""
    #: what the entry's hand-in manifest (``abkit pack``) says of it (:meth:`~grader.handin.HandinCheck.to_dict`)
    handin: dict | None = None


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
        self.course_id = course_id(current_course().root)  # what a hand-in's manifest must name
        #: whether an entry's name is the student id a hand-in's manifest must name (Gradescope names it otherwise)
        self.names_are_ids = True
        self.fixtures = [(source, fx) for source in rubric.sources
                         for fx in map(load_fixture, sorted(getattr(current_course(), SOURCE_FOLDERS[source]).glob("*.yaml")))
                         if any(fits(EXERCISES[e], fx) for e in rubric.points)]
        self._expected: dict[str, Trace] = {}
        self._mutants: dict[tuple[str, str], tuple] = {}
        self.shared = {exercise: [x for x in self._fixture_tests(exercise) if self._usable(x)]
                       for exercise in rubric.points}
        self.batch_fingerprint = self._batch_fingerprint()
        #: what the students' processes achieved confining themselves (grader.confine), None before any ran
        self.defences: dict | None = None
        #: a :class:`grader.sandbox.ForkServer` that starts the students' processes (a batch sets one), or None
        self.server = None
        #: where the students' temporary folders go (a batch sets its own folder), or None: the system's
        self.work: Path | None = None

    # -- the tests ------------------------------------------------------------

    def _fixture_tests(self, exercise: str) -> list[Test]:
        algorithm = EXERCISES[exercise]
        mine = [(source, fx) for source, fx in self.fixtures if fits(algorithm, fx)]
        searches = [_fixture_search(exercise, source, fx) for source, fx in mine]
        if algorithm == "ordering":
            searches += [_orders_test(exercise, source, fx.id, fx.tree, fx.depth, fx.title) for source, fx in mine]
        if algorithm not in ("minimax", "alphabeta"):
            return searches
        candidates = [(source, fx.id, fx.tree, node) for source, fx in mine if fx.tree is not None
                      for node in _inner_nodes(fx.tree)]
        wanted = self.rubric.direct_tests - self.rubric.direct_tests // 2 if self._random_count() else \
            self.rubric.direct_tests
        picked = [candidates[i * len(candidates) // wanted] for i in range(wanted)] if candidates and wanted else []
        titles = {fx.id: fx.title for _, fx in mine}
        direct = [self._direct(exercise, source, name, tree, node, k, titles[name])
                  for k, (source, name, tree, node) in enumerate(picked)]
        return searches + direct

    def _usable(self, test: Test) -> bool:
        """Whether the reference completes ``test`` within the child's budget (:data:`~grader.child.GAME_BUDGET`
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
        candidates = [(i, tree, node) for i, tree in enumerate(trees) for node in _inner_nodes(tree)]
        wanted = self.rubric.direct_tests // 2 if trees else 0
        picked = sorted(rng.sample(candidates, min(wanted, len(candidates))), key=lambda c: c[0]) if candidates else []
        suites = {}
        for exercise, shared in self.shared.items():
            algorithm = EXERCISES[exercise]
            searches = [Test(f"{exercise}/random/{i + 1}", exercise, "random", tree, tree.root,
                             _random_title(i, tree, spec)) for i, tree in enumerate(trees)] \
                if algorithm in ("minimax", "alphabeta") else self._random_variants(exercise, seed, trees, spec)
            if "games" in self.rubric.points[exercise] and algorithm == "alphabeta":
                start = PLAY_START
                title = {lang: t("grade.test.games", lang, seed=seed, board=board_text(start)) for lang in ("en", "ko")}
                searches.append(Test(f"{exercise}/random/games", exercise, "random", None, start, title,
                                     game="tictactoe", kind="play", seed=seed))
            direct = [self._direct(exercise, "random", str(i + 1), tree, node, k, _random_title(i, tree, spec))
                      for k, (i, tree, node) in enumerate(picked)] if algorithm in ("minimax", "alphabeta") else []
            plain = [x for x in shared if not x.function]
            suites[exercise] = plain + searches + [x for x in shared if x.function] + direct
        return suites

    def _random_variants(self, exercise: str, seed: int, trees: list[Tree], spec: dict) -> list[Test]:
        """The student's random tests of a depth-limited, ordering or chance exercise: the same random trees
        given heuristic values (searched one ply short of the leaves), or chance levels and probabilities."""
        algorithm = EXERCISES[exercise]
        rng = random.Random(f"{seed}/{algorithm}")
        tests = []
        for i, tree in enumerate(trees):
            title = _random_title(i, tree, spec)
            if algorithm == "expectimax":
                tests.append(Test(f"{exercise}/random/{i + 1}", exercise, "random", with_chance(tree, rng), tree.root,
                                  title))
                continue
            shaped = with_heuristics(tree, spec["min"], spec["max"], rng)
            depth = max(1, spec["depth"] - 1)
            tests.append(Test(f"{exercise}/random/{i + 1}", exercise, "random", shaped, tree.root, title, depth=depth))
            if algorithm == "ordering" and _inner_nodes(tree):
                tests.append(_orders_test(exercise, "random", str(i + 1), shaped, depth, title))
        return tests

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

    def expected(self, test: Test, cache: bool = False) -> Trace | dict:
        """The reference's trace for ``test`` under the course's rule (an orders test: ``{node: actions}``)."""
        if test.id in self._expected:
            return self._expected[test.id]
        key = (self.rule, test.request)
        trace = _REFERENCE_RUNS.get(key) or test.run_in_process(reference(test.algorithm, self.rule))
        if cache:
            self._expected[test.id] = _REFERENCE_RUNS[key] = trace
        return trace

    def _batch_fingerprint(self) -> str:
        digest = hashlib.sha256(f"{__version__}/{self.seed}/{self.lang}/{self.limits}".encode())
        digest.update(self.rubric.text.encode())
        for _, fx in self.fixtures:
            digest.update(fx.path.read_bytes() if fx.path else b"")
        for name in sorted(EXERCISES):
            digest.update((current_course().solutions / f"{name}.py").read_bytes())
        return digest.hexdigest()

    def fingerprint(self, submission: Submission) -> str:
        """What a saved grade must match to be reused: this batch's settings and the entry's files."""
        return hashlib.sha256(f"{self.batch_fingerprint}/{fingerprint(submission)}".encode()).hexdigest()

    # -- one student ------------------------------------------------------------

    def grade(self, submission: Submission, work: Path | None = None) -> StudentGrade:
        """Grade one submission in a temporary folder (under ``work`` if given), removed afterwards.

        Whatever happens while grading it stays with it: what the student's process does is the student's
        (:meth:`_run`), and an exception of the grader's own is a grade too, :meth:`failed`.
        """
        try:
            folder = Path(tempfile.mkdtemp(prefix="abkit-", dir=work or self.work))
            try:
                return self._grade(submission, folder)
            finally:
                shutil.rmtree(folder, ignore_errors=True)
        except Interrupted:  # the batch is stopping: nothing is graded
            raise
        except Exception:  # noqa: BLE001 - a fault of the grader: this student's row says so, the batch goes on
            return self.failed(submission.student, traceback.format_exc())

    def failed(self, student: str, error: str, fingerprint: str = "") -> StudentGrade:
        """The grade of a student on whom the grader itself failed (``error``: what it raised): ``crashed``, 0
        points, every exercise saying that the fault is the grader's, and :attr:`StudentGrade.grader_error` set
        so that the batch names the student and how to grade them again. Builds nothing that could fail again."""
        note = t("faults.note.grader", self.lang)
        exercises = {e: ExerciseGrade(e, status="crashed", max_score=self.rubric.max_score(e), note=note)
                     for e in self.rubric.points}
        return StudentGrade(student, "crashed", 0.0, self.rubric.max_score(), student_seed(self.seed, student),
                            exercises, [note], fingerprint, grader_error=error.strip() or "?")

    def _grade(self, submission: Submission, folder: Path) -> StudentGrade:
        workspace = folder / "files"
        unpacked = unpack(submission, workspace)
        names = [f"{e}.py" for e in self.rubric.points]
        chosen, ignored = pick_files(unpacked.files, names)
        notes = [m.render(self.lang) for m in unpacked.skipped]
        handin = check_handin(submission, unpacked, self.course_id, __version__, self.names_are_ids)
        notes += handin_notes(handin, self.lang)
        notes += [t("grade.note.ignored", self.lang, path=p) for p in ignored]
        seed = student_seed(self.seed, submission.student)
        exercises = {e: ExerciseGrade(e, max_score=self.rubric.max_score(e)) for e in self.rubric.points}
        if unpacked.unreadable is not None or not chosen:
            reason = unpacked.unreadable.render(self.lang) if unpacked.unreadable else \
                t("grade.note.no_files", self.lang, names=", ".join(names))
            for grade in exercises.values():
                grade.status, grade.note = "missing", reason
            return StudentGrade(submission.student, "invalid", 0.0, self.rubric.max_score(), seed, exercises,
                                [reason, *notes], self.fingerprint(submission),
                                handin=handin and handin.to_dict(self.lang))
        tests = self.tests_for(submission.student)
        self._run(exercises, chosen, tests, workspace)
        for grade in exercises.values():
            self._score(grade, workspace)
        statuses = {g.status for g in exercises.values()}
        status = "timeout" if "timeout" in statuses else "crashed" if "crashed" in statuses else "ok"
        score = sum(g.score for g in exercises.values())
        return StudentGrade(submission.student, status, score, self.rubric.max_score(), seed, exercises, notes,
                            self.fingerprint(submission), handin=handin and handin.to_dict(self.lang))

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
                    sandbox = Sandbox(workspace, self.limits, deadline, server=self.server)
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
            reply = sandbox.request({"op": "load", "exercise": grade.exercise, "path": str(path)}, replies.load)
            if not reply.get("loaded"):
                grade.status = "crashed"
                grade.note = t("grade.note.load_failed", self.lang, file=grade.file, error=reply.get("error", ""))
                grade.traceback = _relative(reply.get("traceback", []), workspace)
                return True
            grade.functions = reply.get("functions", [])
            pending: deque[Test] = deque()  # sent ahead, not yet answered: the child never waits for the grader

            def answered(keep: int) -> None:
                while len(pending) > keep:
                    test = pending.popleft()
                    grade.replies[test.id] = sandbox.receive(test.check)

            for test in tests:
                if test.kind == "play":  # move by move: each request depends on the previous answer
                    answered(0)
                    grade.replies[test.id] = self._play(sandbox, test)
                    continue
                answered(AHEAD - 1)
                try:
                    while not sandbox.send_ahead(test.request):  # no room in the pipe now, or too long for that
                        if not pending:
                            sandbox.send(test.request)  # nothing is unanswered: the child is reading
                            break
                        answered(len(pending) - 1)
                except Died:
                    # The child answered some of the tests sent ahead, then died: those answers are still in the
                    # pipe and count, whether the death shows first on this send or on a later receive.
                    with contextlib.suppress(Died, TimedOut):
                        answered(0)
                    raise
                pending.append(test)
            answered(0)
        except TimedOut:
            grade.status = "timeout"
            grade.note = t("grade.note.timeout", self.lang, seconds=_fmt(self.limits.test_seconds))
            return False
        except Died as death:
            grade.status = "crashed"
            if isinstance(death, Malformed):
                grade.note = t("faults.note.unreadable", self.lang, problem=death.problem.render(self.lang))
            else:
                grade.note = t("grade.note.forged" if isinstance(death, Forged) else "grade.note.died", self.lang,
                               code=death.returncode)
            grade.traceback = [line for line in death.log.splitlines() if line.strip()][-12:]
            return False
        return True

    def _note_defences(self, defences: dict | None) -> None:
        """Keep what the students' processes reported about their confinement (the weakest one wins)."""
        if defences is not None and (self.defences is None or weaker(defences, self.defences)):
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
        if test.kind != "search":
            return self._grade_answer(test, reply, grade, workspace)
        expected = self.expected(test)
        student = Trace.from_dict(reply["trace"])
        result = TestResult(test.exercise, test.id, test.title, student=student, tree=test.tree, expected=expected,
                            prune_on_equality=self.rule,
                            traceback=_relative(reply["traceback"], workspace) if reply.get("traceback") else [])
        tampered = bool(reply.get("tampered"))
        if student.error is not None:
            result.status, result.detail = _error_status(test, student, grade)
            passed = {c: False for c in test.categories}
        else:
            passed = {c: not tampered and passes(c, student, expected) for c in test.categories}
            result.status = "passed" if all(passed.values()) else "failed"
        if not result.passed:
            result.findings = compare(student, expected, test.tree, self.rule) if test.tree is not None else \
                compare_counts(student, expected)
            result.findings = with_root_value(result.findings, student,
                                              lambda state: game_from_request(test.message()).to_move(state))
            if tampered:
                result.findings.insert(0, Finding("error", None, 0, Message("grade.tampered")))
        return TestGrade(test, result, passed)

    def _grade_answer(self, test: Test, reply: dict, grade: ExerciseGrade, workspace: Path) -> TestGrade:
        """An orders or play test: the student's answers (or games) held against the reference's (or the rules)."""
        result = TestResult(test.exercise, test.id, test.title, prune_on_equality=self.rule)
        category = test.categories[0]
        if reply.get("error"):
            result.traceback = _relative(reply.get("traceback", []), workspace)
            function = "ordered_actions" if test.kind == "orders" else ALGORITHMS[test.algorithm].entry
            status = "not_started" if reply.get("error_type") == "NotImplementedError" else "error"
            result.status, result.detail = status, {"function": function} if status == "not_started" else {}
            if reply.get("error_type") == "SearchTooLong":
                result.findings = [Finding("game", None, 0, Message("play.too_long", limit=MOVE_BUDGET))]
            return TestGrade(test, result, {category: False}, answer=("error", reply.get("error_type")))
        if test.kind == "play":
            result.findings = [Finding("game", None, 0, message) for message in problems(reply["games"])]
            answer_ = None
        else:
            expected, got = self.expected(test), reply["answer"]
            game = TreeGame(test.tree)
            found = (compare_order(n, game.to_move(n), got.get(n) if isinstance(got, dict) else None, want)
                     for n, want in expected.items())
            result.findings = [f for f in found if f is not None][:1]
            answer_ = signature(got)
        result.status = "failed" if result.findings else "passed"
        return TestGrade(test, result, {category: result.passed}, answer=answer_)

    def _play(self, sandbox: Sandbox, test: Test) -> dict:
        """Play ``test``'s games, asking the student's process for each of its moves; the games, or its error."""
        def choose(state: str):
            reply = sandbox.request(test.message(state=state), test.check)
            if reply.get("error"):
                raise _StudentFailed(reply)
            return reply["answer"]

        try:
            return {"games": play_games(choose, test.seed, start=test.state)}
        except _StudentFailed as failure:
            return failure.reply

    # -- named mistakes -----------------------------------------------------------

    def name_mistakes(self, grade: ExerciseGrade) -> list[str]:
        """The catalogue's mistakes whose traces equal the student's on every test of the exercise that runs on a
        tree (played games and board positions are left out: see :attr:`Test.nameable`)."""
        tests = [tg for tg in grade.tests if tg.test.nameable]
        if not tests or any(tg.signature is None for tg in tests):
            return []
        named = []
        for mistake in for_exercise(grade.exercise):
            module = mutant(mistake.id, self.rule)
            if all(self._mutant_signature(mistake.id, module, tg.test) == tg.signature for tg in tests):
                named.append(mistake.id)
        return named

    def _mutant_signature(self, mistake_id: str, module, test: Test) -> tuple:
        key = (mistake_id, test.id)
        if key not in self._mutants:
            try:
                value = signature(test.run_in_process(module))
            except Exception as error:  # noqa: BLE001 - a mutant's ordered_actions may raise, as a student's does
                value = ("error", type(error).__name__)
            if test.source == "random":
                return value
            self._mutants[key] = value
        return self._mutants[key]


class _StudentFailed(Exception):
    """The student's process answered a move with an error; ``reply`` says which."""

    def __init__(self, reply: dict) -> None:
        super().__init__(reply.get("error"))
        self.reply = reply


def fits(algorithm: str, fixture: Fixture) -> bool:
    """Whether the exercise searching with ``algorithm`` is tested on ``fixture``.

    minimax, alpha-beta: drawn trees of MAX and MIN searched to the leaves (:func:`gradable`), and board
    positions that expect them; cutoff: trees with a depth limit, and positions that expect it; expectimax:
    trees with chance levels; ordering: trees with a depth limit and a heuristic value at every inner node
    above it (iterative deepening stops at each depth).
    """
    tree = fixture.tree
    if tree is None:
        return algorithm in fixture.expected and algorithm in ("minimax", "alphabeta", "cutoff")
    chance = CHANCE in tree.levels
    if algorithm in ("minimax", "alphabeta"):
        return gradable(fixture)
    if algorithm == "expectimax" or chance:
        return algorithm == "expectimax" and chance
    if fixture.depth is None:
        return False
    depths = tree.depths()
    return algorithm == "cutoff" or all(n in tree.heuristics for n, d in depths.items()
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


def _fixture_search(exercise: str, source: str, fixture: Fixture) -> Test:
    """The search test of ``exercise`` on a fixture: its tree, or its board position."""
    game = "tree" if fixture.tree is not None else "tictactoe-symmetric" if fixture.symmetry else "tictactoe"
    depth = fixture.depth if EXERCISES[exercise] in ("cutoff", "ordering") else None
    return Test(f"{exercise}/{source}/{fixture.id}", exercise, source, fixture.tree, fixture.root, fixture.title,
                game=game, depth=depth)


def _orders_test(exercise: str, source: str, name: str, tree: Tree, depth: int, labels: dict) -> Test:
    """``ordered_actions`` on every inner node above the depth limit whose children EVAL can estimate."""
    depths = tree.depths()
    nodes = tuple(n for n in tree.preorder() if n in tree.children and depths[n] < depth
                  and all(k in tree.utilities or k in tree.heuristics for k in tree.children[n]))
    title = {lang: t("grade.test.orders", lang, tree=labels.get(lang) or labels.get("en") or name)
             for lang in ("en", "ko")}
    return Test(f"{exercise}/{source}/{name}/ordered_actions", exercise, source, tree, tree.root, title,
                depth=depth, kind="orders", nodes=nodes)


def gradable(fixture: Fixture) -> bool:
    """A fixture the minimax and alpha-beta exercises are tested on: a drawn tree of MAX and MIN nodes, searched
    to the leaves (not a board position, a depth-limited search or a game of chance)."""
    if fixture.tree is None or getattr(fixture, "depth", None) is not None:
        return False
    game = TreeGame(fixture.tree)
    return all(game.to_move(node) in (MAX, MIN) for node in fixture.tree.preorder())


def weaker(a: dict, b: dict) -> bool:
    """Whether confinement report ``a`` is weaker than ``b`` (hidden files exposed, fewer layers)."""
    def strength(d: dict) -> tuple:
        return (d.get("hidden") is not False, bool(d.get("landlock")), bool(d.get("seccomp")), d.get("landlock") or 0)
    return strength(a) < strength(b)


def _error_status(test: Test, student: Trace, grade: ExerciseGrade) -> tuple[str, dict]:
    name = error_name(student.error)
    needed = test.function or ALGORITHMS[test.algorithm].entry
    missing = [f for f in (needed, "max_value", "min_value") if f not in grade.functions]
    if name == "NotImplementedError":
        return "not_started", {"function": needed}
    if missing:
        return "missing", {"function": missing[0], "file": grade.file}
    return "error", {}


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
