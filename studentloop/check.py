"""An exercise's public tests on the student's file: the engine of ``abkit check``, run in the exercise's child
process (:mod:`abkit.studentloop.isolated`).

``abkit check``, ``abkit watch``, ``abkit trace --mine`` and the students' plain ``pytest`` all run
:func:`run_case` per test there (:func:`load_student` loads the file first) and render each
:class:`~abkit.feedback.TestResult` with :func:`~abkit.feedback.render_result`,
the renderer grading's ``feedback.md`` uses, so every place says the same thing.

Expected traces come from the fixtures alone (:func:`abkit.expected.expected_trace`):
the student edition ships no solutions. Per public fixture there is a *search*
test (the exercise's entry function on the whole tree, or on a tic-tac-toe
position: judged by value, action and node counts), a *direct* test where
``info.yaml`` says ``direct`` (``max_value``/``min_value`` called on inner nodes,
:func:`abkit.expected.direct_tests`: alpha-beta's with the narrow windows the
expected search gives them, whose fail-soft values are graded too), and for
the ordering lab an *orders* test (``ordered_actions`` on the nodes the fixture
lists). An exercise with ``play`` also plays whole tic-tac-toe games
(:mod:`abkit.play`). These are the public part of grading, test for test:
grading makes the same calls and plays the same games, and judges them with
the same :mod:`abkit.judge`. A search that does not end is stopped after the course's
time limit: by the watchdog here, else from outside the process.
"""

from __future__ import annotations

import _thread
import functools
import io
import os
import re
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from abkit.algorithms import Algorithm
from abkit.cache import cached
from abkit.courserule import Recompute, for_course_rule, keep
from abkit.compare import Finding, board_departure, compare, compare_counts, compare_order
from abkit.coursefolder import current_course
from abkit.expected import direct_tests, expected_counts, expected_trace
from abkit.feedback import TestResult, student_traceback
from abkit.fixture import Fixture, fixture_paths, load_fixture, load_fixtures
from abkit.game import MAX, Budgeted, SearchTooLong
from abkit.gametree import fixture_drawing, recorded_boards
from abkit.i18n import LANGS, Message, default_lang, t
from abkit.info import Course, Exercise
from abkit.kitcode import part_folder
from abkit.judge import (DIRECT_CATEGORIES, GAME_CATEGORIES, SEARCH_CATEGORIES, all_pass, call_text, direct_findings,
                         signature, with_root_value)
from abkit.loading import load_module
from abkit.textree import fmt
from abkit.tracebacks import forget_paths, student_frames
from abkit.tampering import changed, classes, classes_changed, fingerprint
from abkit.trace import CALLED, Call, Trace, TracingGame, traced_call, traced_search
from abkit.tree import TreeGame

from abkit.studentloop import limits

TRACEBACK_LINES, TRACEBACK_FRAMES = 24, 6  # a longer traceback (a runaway recursion) keeps 6 frames


@dataclass(frozen=True)
class TestCase:
    """One public test: ``exercise`` run on ``fixture``, as a whole search or by direct calls."""

    exercise: Exercise
    fixture: Fixture | None
    kind: str = "search"  # "search" | "direct" | "orders" | "again" (a search run a second time) | "play" (no fixture)

    __test__ = False  # not a pytest class

    @property
    def name(self) -> str:
        if self.fixture is None:
            return f"{self.exercise.name}/plays-full-games"
        base = f"{self.exercise.name}/{self.fixture.id}"
        return base if self.kind == "search" else f"{base}/{self.kind}"

    def title(self, langs: tuple[str, ...] = LANGS) -> dict[str, str]:
        """The test's title in each of ``langs`` (a check in one language renders only that one)."""
        if self.fixture is None:
            return {lang: Message("check.play_title").render(lang) for lang in langs}
        if self.kind == "search":
            return {lang: self.fixture.label(lang) for lang in langs}
        key = {"direct": "check.direct_title", "orders": "check.orders_title", "again": "grade.test.again"}[self.kind]
        return {lang: Message(key, title=self.fixture.label(lang)).render(lang) for lang in langs}


@dataclass
class Student:
    """The student's file, loaded once: the module, or the result every test gets instead."""

    module: ModuleType | None
    failure: TestResult | None = None


# -- which tests ---------------------------------------------------------------

def reference_recompute() -> Recompute | None:
    """The reference's :data:`~abkit.courserule.Recompute` where the kit has its reference loader and the course
    folder its solutions (the full kit); None in the student edition. The reference loads only when a fixture
    needs it."""
    if part_folder("reference") is None or not current_course().solutions.is_dir():
        return None
    return _recomputed


def _recomputed(fixture: Fixture, rule: bool) -> Fixture | None:
    from abkit.reference import recomputed  # the reference: only where reference_recompute found it

    return recomputed(fixture, rule)


def course_fixtures(course: Course, folder: Path) -> list[Fixture]:
    """The public fixtures under the course's cut-off rule, sorted by file name (:func:`for_course_rule`)."""
    fixtures = load_fixtures([folder], cache=True) if folder.is_dir() else []
    return for_course_rule(fixtures, course.prune_on_equality, reference_recompute())


def test_cases(exercise: Exercise, fixtures: list[Fixture], direct: bool = True) -> list[TestCase]:
    """The exercise's tests over ``fixtures``, in order: search, then direct calls or orders, per fixture; the first
    tree searched again (``again``: as grading does, a search that keeps state between calls does something else the
    second time); then the played games. ``direct=False``: the searches only (what counts as a hidden tree)."""
    cases = []
    for fixture in fixtures:
        if not checkable(exercise, fixture):
            continue
        cases.append(TestCase(exercise, fixture))
        if direct and exercise.direct and fixture.tree is not None and direct_tests(fixture, exercise.algorithm):
            cases.append(TestCase(exercise, fixture, "direct"))
        if direct and exercise.algorithm.iterative and fixture.expected[exercise.algorithm].get("orders"):
            cases.append(TestCase(exercise, fixture, "orders"))
    first = next((case for case in cases if case.kind == "search" and case.fixture.tree is not None), None)
    if direct and first is not None:
        cases.append(TestCase(exercise, first.fixture, "again"))
    if direct and exercise.play:
        cases.append(TestCase(exercise, None, "play"))
    return cases


def checkable(exercise: Exercise, fixture: Fixture) -> bool:
    """A fixture the exercise's patterns name, with an expectation for its algorithm that can be judged:
    a whole game's outcome and counts, or a tree's trace that :func:`~abkit.expected.expected_trace` rebuilds."""
    block = fixture.expected.get(exercise.algorithm)
    if fixture.path is None or block is None or not exercise.uses(fixture.path.name):
        return False
    if fixture.tree is None or not exercise.algorithm.prunes:
        return True
    return {"visited", "evaluated"} <= set(block) and (exercise.algorithm.iterative or "windows" in block)


def hidden_count(course: Course, exercise: Exercise, folder: Path | None = None) -> int:
    """How many hidden trees grading adds for ``exercise`` (from ``info.yaml`` in the student edition;
    else counted in ``folder``, by default the course's hidden fixtures)."""
    if exercise.name in course.hidden:
        return course.hidden[exercise.name]
    folder = folder if folder is not None else current_course().hidden_fixtures
    files = fixture_paths([folder]) if folder.is_dir() else []

    def count() -> int:
        fixtures = for_course_rule(list(map(load_fixture, files)), course.prune_on_equality, keep)
        return len(test_cases(exercise, fixtures, direct=False))

    # cached as a count only (:mod:`abkit.cache`): the hidden trees never reach the cache folder
    return cached("hidden-count", files, count, key=repr((course.prune_on_equality, exercise.algorithm,
                                                          exercise.fixtures)), code=[__file__])


# -- running them --------------------------------------------------------------

class Watchdog:
    """Interrupts the main thread after ``seconds``: a student's endless loop becomes a timeout.

    Use as a context manager around the student's code and catch ``KeyboardInterrupt``;
    ``fired`` tells a stop from the user's Ctrl-C, and ``reason`` says which: ``"time"``, or ``"memory"`` when
    the check's memory watchdog (:mod:`abkit.studentloop.limits`, where the system refuses a memory limit) stopped the code.
    Code that swallows the interrupt (a bare ``except:`` in a loop) is stopped for good ``grace`` seconds
    later: a message, and the process exits with status 1.
    """

    def __init__(self, seconds: float, grace: float = 3.0) -> None:
        self.seconds = seconds
        self.grace = grace
        self.fired = False
        self.reason: str | None = None
        self._done = False  # set first thing in __exit__: a late timer then does nothing
        self._hard: threading.Timer | None = None
        self._guard = None
        self._lock = threading.Lock()

    def _fire(self) -> None:
        self.trip("time")

    def trip(self, reason: str) -> None:
        """Stop the code now (once): interrupt the main thread, and end the process ``grace`` seconds later."""
        with self._lock:
            if self._done or self.fired:  # the student's code finished as the stop came, or it came already
                return
            self.fired, self.reason = True, reason
        self._hard = threading.Timer(self.grace, self._kill)
        self._hard.daemon = True
        self._hard.start()
        if not self._done:
            _thread.interrupt_main()

    def _kill(self) -> None:
        if self._done:  # the interrupt was handled after all (or arrived as the code finished)
            return
        sys.stderr.write(t("check.watchdog_kill", default_lang(), seconds=_seconds(self.seconds + self.grace)) + "\n")
        sys.stderr.flush()
        os._exit(1)

    def __enter__(self) -> "Watchdog":
        if threading.current_thread() is threading.main_thread():
            _ALARMS.set(self, self.seconds)
            self._guard = limits.active()
            if self._guard is not None:
                self._guard.watch(self)
        return self

    def __exit__(self, *exc: object) -> None:
        self._done = True
        _ALARMS.cancel(self)
        if self._guard is not None:
            self._guard.unwatch(self)
        if self._hard is not None:
            self._hard.cancel()


class Alarms:
    """One daemon thread that calls each running :class:`Watchdog`'s ``_fire`` when its time is up: a test starts
    no thread of its own (starting one costs about as much as a small test). A process forked after it started
    serves its alarms with a thread of its own."""

    def __init__(self) -> None:
        self._due: dict[Watchdog, float] = {}
        self._changed = threading.Condition()
        self._pid: int | None = None

    def set(self, watchdog: Watchdog, seconds: float) -> None:
        with self._changed:
            self._due[watchdog] = time.monotonic() + seconds
            if self._pid != os.getpid():
                self._pid = os.getpid()
                threading.Thread(target=self._serve, name="abkit-watchdog", daemon=True).start()
            self._changed.notify()

    def cancel(self, watchdog: Watchdog) -> None:
        with self._changed:
            self._due.pop(watchdog, None)

    def _serve(self) -> None:
        with self._changed:
            while True:
                if not self._due:
                    self._changed.wait()
                    continue
                watchdog = min(self._due, key=self._due.__getitem__)
                left = self._due[watchdog] - time.monotonic()
                if left > 0:
                    self._changed.wait(left)
                    continue
                del self._due[watchdog]
                self._changed.release()
                try:
                    watchdog._fire()
                finally:
                    self._changed.acquire()


_ALARMS = Alarms()
if hasattr(os, "register_at_fork"):  # a forked child starts afresh (a lock held at the fork would stay held)
    os.register_at_fork(after_in_child=_ALARMS.__init__)


#: the recorder's and the tree game's classes as they were before this process loaded any student's file
#: (:func:`abkit.tampering.classes`; a list filled once, by the first :func:`load_student`)
_PRISTINE: list = []


def load_student(exercise: Exercise, folder: Path, time_limit: float) -> Student:
    """Load ``folder/<exercise>.py``; a file that is absent, does not load or lacks a function
    gives every test the same result (missing, crashed, timeout)."""
    if not _PRISTINE:
        _PRISTINE.append(classes(TracingGame, TreeGame))
    path = folder / exercise.file
    base = TestResult(exercise.name, exercise.name, dict(exercise.title))
    forget_paths()
    _shown.cache_clear()
    if not path.is_file():
        base.status, base.detail = "missing", {"function": exercise.file, "file": str(folder)}
        return Student(None, base)
    watchdog = Watchdog(time_limit)
    try:
        with watchdog:
            module = load_module(path)
    except KeyboardInterrupt:
        if not watchdog.fired:
            raise
        base.status, base.detail = "timeout", {"seconds": _seconds(time_limit)}
        return Student(None, base)
    except BaseException as error:  # noqa: BLE001 - anything the student's module does at import
        base.status, base.detail = "crashed", {"reason": _one_line(error)}
        base.traceback = _trim(student_traceback(error, [folder]))
        return Student(None, base)
    missing = [f for f in exercise.functions if f in CALLED and not callable(getattr(module, f, None))]
    if missing:
        base.status, base.detail = "missing", {"function": missing[0], "file": exercise.file}
        return Student(None, base)
    return Student(module)


def told_if_state_kept(again: TestResult, first: TestResult | None) -> None:
    """When the search run ``again`` failed and did something else than its ``first`` run on the same tree (the
    observables: :func:`abkit.judge.signature`), say first that it keeps state between calls, as grading says."""
    if first is None or again.passed or again.student is None or first.student is None:
        return
    if signature(again.student) != signature(first.student):
        again.findings = [Finding("error", None, 0, Message("grade.repeat.differs")), *again.findings]


def stop_message(result: TestResult, case: TestCase, loaded: bool, rest: int) -> Message | None:
    """What ends the exercise after ``result``: a search stopped for its time or its memory (not a file that never
    ``loaded``: every test has its result already), in words that name the tree; else ``None``."""
    if not loaded or (result.status != "timeout" and "memory" not in result.detail):
        return None
    titles = case.fixture.title if case.fixture is not None and case.fixture.title else dict(result.title)
    where = {"tree": Label(titles), "name": case.exercise.name, "count": rest}
    if result.status == "timeout":
        return Message("check.timeout.stop" if rest else "check.timeout.last", seconds=result.detail["seconds"], **where)
    return Message("check.memory.stop" if rest else "check.memory.last", limit=result.detail["memory"], **where)


class Label(Message):
    """A text given in every language (a fixture's title), as a parameter of a :class:`~abkit.i18n.Message`."""

    def __init__(self, texts: dict[str, str]) -> None:
        super().__init__("label")
        self.texts = dict(texts)

    def render(self, lang: str | None = None) -> str:
        return self.texts.get(lang or "en") or self.texts.get("en") or next(iter(self.texts.values()), "")


def run_case(case: TestCase, student: Student, course: Course, folder: Path,
             langs: tuple[str, ...] = LANGS) -> TestResult:
    """One test's result (its title in ``langs``); the student's exceptions, exits and endless loops become
    statuses."""
    result = TestResult(case.exercise.name, case.name, case.title(langs), prune_on_equality=course.prune_on_equality,
                        tree=case.fixture.tree if case.fixture is not None else None)
    if student.failure is not None:
        result.status, result.detail = student.failure.status, dict(student.failure.detail)
        result.traceback, result.tree = list(student.failure.traceback), None
        return result
    watchdog = Watchdog(course.time_limit)
    printed, shown = Printed(), sys.stdout
    try:
        sys.stdout = printed  # what the student's code prints: kept with its test (the first lines), not poured out
        with watchdog:
            KINDS[case.kind](case, student.module, course, folder, result)
    except KeyboardInterrupt as stopped:
        if not watchdog.fired:
            raise
        result.student, result.tree, result.findings, result.traceback = None, None, [], []
        if watchdog.reason == "memory":
            result.status, result.detail = "error", {"memory": _seconds(course.memory_limit)}
        else:
            result.status, result.detail = "timeout", {"seconds": _seconds(course.time_limit)}
            where = running_at(stopped, folder)
            if where is not None:
                result.detail["note"] = Message(where_key(where), **where)
    except SystemExit as error:  # sys.exit() in the student's code: where it was called, when it was
        result.status, result.tree, result.student, result.findings = "crashed", None, None, []
        result.detail = {"reason": _one_line(error), "message": Message("check.exit", code=repr(error.code))}
        result.traceback = _trim(student_traceback(error, [folder]))
    finally:
        sys.stdout = shown
        result.output, result.printed = printed.first(), printed.lines
    if result.status == "error" and result.traceback and result.traceback[-1].startswith("MemoryError"):
        # the system's limit stopped it: where (the traceback) is what matters, not the half-searched tree
        result.detail = {**result.detail, "memory": _seconds(course.memory_limit)}
        result.student, result.tree, result.findings = None, None, []
    return result


class Printed(io.TextIOBase):
    """A stand-in for ``sys.stdout`` while a test runs: keeps the first :attr:`LINES` lines (at most :attr:`SIZE`
    characters) of what is written and counts the lines of all of it."""

    LINES, SIZE = 10, 2000

    def __init__(self) -> None:
        self.kept: list[str] = []
        self.size = self.breaks = 0
        self.open = False  # the last line written has no newline yet

    @property
    def lines(self) -> int:
        return self.breaks + self.open

    def write(self, text: str) -> int:
        text = str(text)
        if text:
            self.breaks += text.count("\n")
            self.open = not text.endswith("\n")
            if self.size < self.SIZE:
                self.kept.append(text[:self.SIZE - self.size] + (" [...]" if len(text) > self.SIZE - self.size else ""))
                self.size += len(text[:self.SIZE - self.size])
        return len(text)

    def writable(self) -> bool:
        return True

    def first(self) -> str:
        """The first lines written (without the last newline)."""
        return "\n".join("".join(self.kept).split("\n")[:self.LINES]).rstrip("\n")


def _search(case: TestCase, module: ModuleType, course: Course, folder: Path, result: TestResult) -> None:
    fixture, algorithm = case.fixture, case.exercise.algorithm
    game = fixture.game()
    before = fingerprint(game)
    student = traced_search(module, game, fixture.root, algorithm, **fixture.search_params(algorithm, game))
    _held_to_the_rule(student, game, before)
    expected = expected_counts(fixture, algorithm) if fixture.tree is None else expected_trace(fixture, algorithm)
    _judge(result, student, expected, course, folder, depth=case.fixture.depth)
    boards = recorded_boards(fixture, algorithm)
    departure = board_departure(student, boards, game) if boards and result.status == "failed" else None
    if departure is not None:  # a board position told like a tree: where the search first leaves the path, after
        # what would explain it (a search that never calls eval_fn)
        at = 1 if result.findings and result.findings[0].message.key == "compare.no_eval" else 0
        result.findings = [*result.findings[:at], departure, *result.findings[at:]]
    if boards and result.status in ("failed", "error"):  # for its step-through page (check --html, trace --mine)
        result.drawing = fixture_drawing(fixture, algorithm, game, [student], path=True)


def _orders(case: TestCase, module: ModuleType, course: Course, folder: Path, result: TestResult) -> None:
    """``ordered_actions`` on each node the fixture lists; the result is the first that differs (or passed)."""
    fixture, algorithm = case.fixture, case.exercise.algorithm
    game = fixture.game()
    eval_fn = fixture.search_params(algorithm, game)["eval_fn"]
    for node, want in fixture.expected[algorithm]["orders"].items():
        result.detail = {"call": f"ordered_actions(game, {node!r}, eval_fn)"}
        try:
            got = module.ordered_actions(game, node, eval_fn)
        except Exception as error:  # noqa: BLE001 - the student's code; shown with its traceback
            _failed_with(result, error, folder)
            return
        finding = compare_order(node, game.to_move(node), got, want)
        if finding is not None:
            result.status, result.findings = "failed", [finding]
            return
    result.detail = {}


def _play(case: TestCase, module: ModuleType, course: Course, folder: Path, result: TestResult) -> None:
    """Whole games of tic-tac-toe with the exercise's search (:mod:`abkit.play`)."""
    from abkit.tictactoe import TicTacToe

    from abkit.play import MOVE_BUDGET, PLAY_OPENING, PLAY_SEED, play_games, problems

    entry = getattr(module, case.exercise.algorithm.entry)
    try:
        games = play_games(lambda state: entry(Budgeted(TicTacToe(), MOVE_BUDGET), state), PLAY_SEED,
                           start=PLAY_OPENING)
    except SearchTooLong:
        result.status, result.findings = "failed", [Finding("game", None, 0, Message("play.too_long", limit=MOVE_BUDGET))]
        return
    except Exception as error:  # noqa: BLE001 - the student's code; shown with its traceback
        _failed_with(result, error, folder)
        return
    found = problems(games)
    result.findings = [Finding("game", None, 0, message) for message in found]
    result.status = "failed" if found else "passed"


def _failed_with(result: TestResult, error: BaseException, folder: Path) -> None:
    """The student's code raised ``error`` outside a traced search: not started, or an error with its traceback."""
    _judge(result, Trace("", None, error=error), Trace("", None), None, folder, judged=False)


def _direct(case: TestCase, module: ModuleType, course: Course, folder: Path, result: TestResult) -> None:
    """The direct calls one by one (:func:`abkit.expected.direct_tests`, as grading makes them); the result is the
    first that differs (or passed)."""
    fixture, algorithm = case.fixture, case.exercise.algorithm
    whole = expected_trace(fixture, algorithm)
    for node, window in direct_tests(fixture, algorithm):
        function = "max_value" if fixture.game().to_move(node) == MAX else "min_value"
        student = _traced_call(module, fixture, node, algorithm, function, window)
        expected = subtrace(whole, node, *(window or (None, None)))
        result.detail = {"call": call_text(function, node, *window)}
        _judge(result, student, expected, course, folder, direct=True)
        if not result.passed:
            return
    result.detail = {}


def _judge(result: TestResult, student: Trace, expected: Trace, course: Course | None, folder: Path,
           direct: bool = False, judged: bool = True, depth: int | None = None) -> None:
    """Set ``result`` from the student's trace: passed or failed on observables only (:mod:`abkit.judge`, as
    grading judges), with the findings against ``expected`` that say where; or the status its error means.
    ``judged=False``: only the error matters (there is no trace to compare)."""
    if isinstance(student.error, NotImplementedError):  # a TODO met: nothing to compare
        result.student, result.expected = None, expected if judged else None
        _not_started(result, student.error, folder)
        return
    categories = DIRECT_CATEGORIES if direct else GAME_CATEGORIES if result.tree is None else SEARCH_CATEGORIES
    passed = judged and not student.tampered and all_pass(categories, student, expected)
    if not judged or passed:
        findings = []
    elif result.tree is None:
        findings = compare_counts(student, expected)
    else:
        findings = compare(student, expected, result.tree, course.prune_on_equality)
    if judged and findings:
        game = result.tree
        findings = with_root_value(findings, student, lambda state: _player(game, state), depth)
    if direct:
        findings = direct_findings(findings, expected.root)
    if judged and findings and never_evaluated(student):
        findings = [Finding("evaluated", None, 0, Message("compare.no_eval")), *findings]
    if judged and student.tampered:  # as grading tells it: the test cannot be trusted
        findings = [Finding("error", None, 0, Message("grade.tampered")), *findings]
    result.student, result.expected, result.findings = student, expected, findings
    error = student.error
    if not judged:
        result.student = result.expected = None
    if error is not None:
        result.status = "error"
        result.traceback = _trim(student_traceback(error, [folder]))
        if isinstance(error, RecursionError):  # the trace is a thousand calls deep: nothing to draw
            result.detail = {**result.detail, "note": Message("check.recursion")}
            result.student, result.findings = None, [f for f in findings if f.kind == "error"]
        return
    if student.value_error is not None and findings:
        result.traceback = _trim(student_traceback(student.value_error, [folder])) \
            if isinstance(student.value_error, BaseException) else []
    if not passed and not findings:  # pragma: no cover - compare names every observable difference
        result.findings = [Finding("value", None, 0, Message("compare.value", got=fmt(student.value),
                                                             want=fmt(expected.value)))]
    result.status = "passed" if passed else "failed"


def never_evaluated(student: Trace) -> bool:
    """Whether a depth-limited search evaluated states but never through its ``eval_fn`` (UTILITY at the depth
    limit says nothing: on a board where the game is not over it is 0)."""
    spec = Algorithm.named(student.algorithm)
    return spec is not None and spec.depth_limited and student.error is None and bool(student.evaluated) \
        and student.eval_calls == 0


def _not_started(result: TestResult, error: NotImplementedError, folder: Path) -> None:
    """The student's code raised ``NotImplementedError``: not started, at the function (and the TODO: the file and
    line of the raise the stub has under it) where the student's part of the traceback ends."""
    frames = student_frames(error, [folder])
    names = [f.name for f in frames if re.fullmatch(r"\w+", f.name)]
    result.status, result.findings = "not_started", []
    result.detail = {**result.detail, "function": names[-1] if names else "?"}
    if frames:
        todo = frames[-1]
        result.detail["message"] = Message("feedback.status.not_started_at", function=todo.name,
                                           file=_shown_path(Path(todo.filename)), line=todo.lineno)


def _shown_path(path: Path) -> str:
    """``path`` as the student knows it: relative to the course folder (``exercises/minimax.py``) when in it."""
    return _shown(str(path), str(current_course().root))


@functools.lru_cache(maxsize=64)
def _shown(path: str, root: str) -> str:
    """:func:`_shown_path`, looked up once per exercise's run (:func:`load_student` forgets them)."""
    try:
        return Path(path).resolve().relative_to(Path(root).resolve()).as_posix()
    except (ValueError, OSError):
        return path


def _traced_call(module: ModuleType, fixture: Fixture, node: str, algorithm: Algorithm, function: str,
                 window: tuple | None) -> Trace:
    """``module.<function>(game, node, *window)``, recorded as a search whose root is ``node``; its value is what
    the call returned; ``tampered`` when it changed the game (:func:`_held_to_the_rule`)."""
    game = fixture.game()
    before = fingerprint(game)
    student = traced_call(module, game, node, algorithm, function, window)
    _held_to_the_rule(student, game, before)
    return student


def _held_to_the_rule(student: Trace, game, before: tuple) -> None:
    """Mark ``student`` ``tampered`` when its search changed ``game`` since ``before`` (its fingerprint), or the
    recorder's or the tree game's class: the one rule grading holds a search to (:mod:`abkit.tampering`)."""
    student.tampered = student.tampered or changed(game, before) or \
        bool(_PRISTINE and classes_changed(_PRISTINE[0]))


def subtrace(whole: Trace, node: str, alpha: float | None, beta: float | None) -> Trace:
    """The part of an expected trace below ``node``, as if MAX-VALUE/MIN-VALUE were called on it directly."""
    start = next(k for k, c in enumerate(whole.calls) if c.node == node)
    inside = {start}
    for k in range(start + 1, len(whole.calls)):
        if whole.calls[k].parent not in inside:
            break
        inside.add(k)
    stop = max(inside) + 1
    first = whole.calls[start]
    shift, leaves = first.visited_at - 1, first.evaluated_at
    calls = []
    for k in range(start, stop):
        c = whole.calls[k]
        calls.append(Call(c.node, c.player, c.alpha, c.beta, c.value, None if k == start else c.parent - start,
                          c.visited_at - shift, c.evaluated_at - leaves))
    calls[0].alpha, calls[0].beta = alpha, beta
    visited = [c.node for c in calls]
    leaves_seen = set(whole.evaluated)
    evaluated = [c.node for c in calls if c.node in leaves_seen]
    return Trace(whole.algorithm, node, visited=visited, evaluated=evaluated, calls=calls, value=first.value)


def _player(tree, state) -> str:
    """PLAYER(state) in the test's game: its tree, or (no tree) tic-tac-toe."""
    from abkit.tictactoe import TicTacToe
    from abkit.tree import TreeGame

    return (TreeGame(tree) if tree is not None else TicTacToe()).to_move(state)


def running_at(error: BaseException, folder: Path) -> dict | None:
    """Where in the student's files in ``folder`` the code was when ``error`` interrupted it: the innermost such
    frame of its traceback as ``{"function", "line", "file"}`` (the file's name), or None."""
    import traceback

    folder = Path(folder).resolve()
    for frame in reversed(traceback.extract_tb(error.__traceback__)):
        try:
            Path(frame.filename).resolve().relative_to(folder)
        except (ValueError, OSError):
            continue
        return {"function": frame.name, "line": frame.lineno, "file": Path(frame.filename).name}
    return None


def where_key(where: dict) -> str:
    """The message that says where stopped code was (:func:`running_at`): in a function, or loading the file."""
    return "check.timeout.where_loading" if where["function"] == "<module>" else "check.timeout.where"


def _seconds(value: float) -> str:
    return f"{value:g}"


def _one_line(error: BaseException) -> str:
    if isinstance(error, SystemExit):
        return f"SystemExit({error.code!r})"
    text = str(error).splitlines()[0] if str(error) else ""
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _trim(lines: list[str]) -> list[str]:
    """A long traceback's first and last frames, the frames between counted."""
    frames: list[list[str]] = []
    for line in lines:
        if line.startswith("  File ") or not frames:
            frames.append([])
        frames[-1].append(line)
    if len(lines) <= TRACEBACK_LINES or len(frames) <= TRACEBACK_FRAMES + 1:
        return lines
    head, tail = frames[:2], frames[2 - TRACEBACK_FRAMES - 1:]
    return [*sum(head, []), f"  ... [+{len(frames) - len(head) - len(tail)}] ...", *sum(tail, [])]


#: what runs each kind of test
KINDS = {"search": _search, "direct": _direct, "orders": _orders, "again": _search, "play": _play}
