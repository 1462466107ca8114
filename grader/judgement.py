"""Grading, stage 3: each test's answer held against the reference's; a judgement per test.

A :class:`Judge` turns one test and what the student's process answered to it (:class:`~abkit.grader.running.ExerciseRun`)
into a :class:`TestGrade`: the feedback record (:class:`abkit.feedback.TestResult`, with the findings of
:mod:`abkit.compare` when it fails) and which of the test's categories passed (:func:`abkit.judge.passes`: the
observables only: the game's log of generated and evaluated states, the action, the values MAX-VALUE / MIN-VALUE
return). Points are stage 4's (:mod:`abkit.grader.grades`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from abkit.compare import Finding, compare, compare_counts, compare_order
from abkit.feedback import TestResult
from abkit.i18n import Message, t
from abkit.judge import call_text, direct_findings, passes, signature, with_root_value
from abkit.play import problems
from abkit.trace import Trace, error_name
from abkit.tree import TreeGame

from abkit.grader.runtest import MOVE_BUDGET, game_from_request
from abkit.grader.running import ExerciseRun, relative
from abkit.grader.testplan import Test, fmt


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
    state_kept: bool = False  # a test run again did something else than its first run: state kept between calls

    @property
    def signature(self) -> tuple | None:
        """What the student's search did, comparable with a mutant's (``None``: it never reported)."""
        if self.test.kind != "search":
            return self.answer
        return signature(self.result.student) if self.result.student is not None else None


class Judge:
    """Judges tests under the course's cut-off ``rule``; ``expected(test)`` gives the reference's outcome."""

    def __init__(self, rule: bool, expected: Callable[[Test], Trace | dict], lang: str = "en",
                 test_seconds: float = 0.0) -> None:
        self.rule, self.expected, self.lang, self.test_seconds = rule, expected, lang, test_seconds

    def judge(self, run: ExerciseRun, workspace: Path) -> list[TestGrade]:
        """A judgement for every planned test of ``run``: its answer judged, or why it has none."""
        unanswered = [test for test in run.planned if test.id not in run.replies]
        return [self.unanswered(test, run, first=test is unanswered[0]) if test.id not in run.replies
                else self.answered(test, run.replies[test.id], run, workspace) for test in run.planned]

    def unanswered(self, test: Test, run: ExerciseRun, first: bool) -> TestGrade:
        """A test the student's process never answered: the one that hit the limit, or one not run after it."""
        result = TestResult(test.exercise, test.id, test.title, tree=test.tree, prune_on_equality=self.rule)
        if first:
            result.status = run.status
            result.detail = {"seconds": fmt(self.test_seconds), "reason": run.note}
            if run.budget:  # not this test's limit: the student's, which the note names
                result.detail["message"] = run.note
        else:
            result.status, result.detail = "crashed", {"reason": t("grade.note.not_run", self.lang)}
        return TestGrade(test, result, {c: False for c in test.categories}, not_run=not first)

    def answered(self, test: Test, reply: dict, run: ExerciseRun, workspace: Path) -> TestGrade:
        """A search's trace held against the reference's (an orders or play test: :meth:`answer`)."""
        if test.kind != "search":
            return self.answer(test, reply, workspace)
        expected = self.expected(test)
        student = Trace.from_dict(reply["trace"])
        result = TestResult(test.exercise, test.id, test.title, student=student, tree=test.tree, expected=expected,
                            prune_on_equality=self.rule,
                            traceback=relative(reply["traceback"], workspace) if reply.get("traceback") else [])
        tampered = bool(reply.get("tampered"))
        state_kept = not tampered and _differs_from_first_run(test, student, run)
        if student.error is not None:
            result.status, result.detail = _error_status(test, student, run)
            passed = {c: False for c in test.categories}
        else:
            passed = {c: not tampered and passes(c, student, expected) for c in test.categories}
            result.status = "passed" if all(passed.values()) else "failed"
        if test.function:  # a direct call: the call as made (its values line has no action)
            result.detail = {**result.detail, "call": call_text(test.function, test.state, *test.window)}
        if not result.passed:
            result.findings = compare(student, expected, test.tree, self.rule) if test.tree is not None else \
                compare_counts(student, expected)
            result.findings = with_root_value(result.findings, student,
                                              lambda state: game_from_request(test.message()).to_move(state),
                                              test.depth)
            if test.function:
                result.findings = direct_findings(result.findings, test.state)
            if tampered:
                result.findings.insert(0, Finding("tampered", None, 0, Message("grade.tampered")))
            elif state_kept:
                result.findings.insert(0, Finding("error", None, 0, Message("grade.repeat.differs")))
        return TestGrade(test, result, passed, state_kept=state_kept and not result.passed)

    def answer(self, test: Test, reply: dict, workspace: Path) -> TestGrade:
        """An orders or play test: the student's answers (or games) held against the reference's (or the rules)."""
        result = TestResult(test.exercise, test.id, test.title, prune_on_equality=self.rule)
        category = test.categories[0]
        if reply.get("error"):
            result.traceback = relative(reply.get("traceback", []), workspace)
            function = "ordered_actions" if test.kind == "orders" else test.algorithm.entry
            status = "not_started" if reply.get("error_type") == "NotImplementedError" else "error"
            result.status, result.detail = status, {"function": function} if status == "not_started" else {}
            if reply.get("error_type") == "SearchTooLong":
                result.findings = [Finding("game", None, 0, Message("play.too_long", limit=MOVE_BUDGET))]
            return TestGrade(test, result, {category: False}, answer=("error", reply.get("error_type")))
        if test.kind == "play":
            result.findings = [Finding("game", None, 0, message) for message in problems(reply["games"])]
            answer = None
        else:
            expected, got = self.expected(test), reply["answer"]
            game = TreeGame(test.tree)
            found = (compare_order(n, game.to_move(n), got.get(n) if isinstance(got, dict) else None, want)
                     for n, want in expected.items())
            result.findings = [f for f in found if f is not None][:1]
            answer = signature(got)
        result.status = "failed" if result.findings else "passed"
        return TestGrade(test, result, {category: result.passed}, answer=answer)


def _differs_from_first_run(test: Test, student: Trace, run: ExerciseRun) -> bool:
    """Whether ``test`` runs another test again (``repeats``) and the student's search did something else the second
    time (:func:`abkit.judge.signature`: the observables): state kept between calls."""
    first = run.replies.get(test.repeats) if test.repeats else None
    if first is None or not isinstance(first.get("trace"), dict):
        return False
    return signature(Trace.from_dict(first["trace"])) != signature(student)


def _error_status(test: Test, student: Trace, run: ExerciseRun) -> tuple[str, dict]:
    """A search that raised: not started (NotImplementedError), a contract function missing, or an error."""
    name = error_name(student.error)
    needed = test.function or test.algorithm.entry
    missing = [f for f in (needed, "max_value", "min_value") if f not in run.functions]
    if name == "NotImplementedError":
        return "not_started", {"function": needed}
    if missing:
        return "missing", {"function": missing[0], "file": run.file}
    if "can't start new thread" in str(student.error):  # the sandbox refused it: say so, not only Python's words
        return "error", {"note": Message("grade.note.no_threads")}
    return "error", {}
