"""Grading, stage 2: the student's own process answers the tests; what it answered.

A :class:`Runner` runs every exercise's tests of one student in one sandboxed child (:mod:`abkit.grader.sandbox`; a new
one after a crash or a time-out) and returns, per exercise, an :class:`ExerciseRun`: plain data saying which file
was loaded, what the process answered to each test (each reply checked by :mod:`abkit.grader.replies` on arrival), and
why it stopped if it did. Nothing here compares an answer with the reference's: that is stage 3
(:mod:`abkit.grader.judgement`).
"""

from __future__ import annotations

import contextlib
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

from abkit.i18n import t
from abkit.play import play_games

from abkit.grader import replies
from abkit.grader.sealing import seal, sealed_reply, shown_hidden
from abkit.grader.sandbox import Died, Forged, Limits, Malformed, Sandbox, TimedOut
from abkit.grader.testplan import Test, fmt

#: how many tests a student's process may have been sent but not yet answered: it works through them while the
#: grader reads its answers, and neither side sleeps and is woken for each test (within a pipe's 64 KiB, about
#: 1 KiB a test; a full pipe only means waiting for one more answer)
AHEAD = 32


@dataclass
class ExerciseRun:
    """What the student's process did with one exercise's tests.

    planned: the tests it was to answer, in order; file: the file loaded (relative to the submission), None when
    the submission has none; status: ok | missing (no file) | crashed (could not load, or the process died) |
    timeout; note: why it stopped, in words; budget: it stopped because the student's time (all its tests') ran
    out, not a test's; traceback: the load error's or the death's last lines;
    functions: the contract's functions the file defines; replies: test id -> the checked reply.
    """

    exercise: str
    planned: list[Test] = field(default_factory=list)
    file: str | None = None
    status: str = "ok"
    note: str = ""
    budget: bool = False
    traceback: list[str] = field(default_factory=list)
    functions: list[str] = field(default_factory=list)
    replies: dict[str, dict] = field(default_factory=dict)


class Runner:
    """Runs one student's tests in their own process; :attr:`defences` keeps what the process's confinement
    achieved (:mod:`abkit.grader.confine`), the weakest seen."""

    def __init__(self, limits: Limits, lang: str = "en", server=None, hidden: frozenset = frozenset()) -> None:
        self.limits, self.lang, self.server = limits, lang, server
        self.hidden = hidden  # the sources of tests students do not see at once (the rubric's visibility)
        self.defences: dict | None = None
        self.shown_hidden = False  # the process running now has been sent a hidden test (:mod:`.sealing`)
        self.sealed = False  # the exercise running now is sealed: its process had been sent a hidden test before it
        self.after_hidden: set[str] = set()  # its tests students see, sent after its process was sent a hidden one

    def run(self, tests: dict[str, list[Test]], chosen: dict[str, str], workspace: Path) -> dict[str, ExerciseRun]:
        """Every exercise of ``tests`` run on its file of ``chosen`` (``<exercise>.py`` -> path in ``workspace``),
        one process for as long as it lives."""
        runs = {exercise: ExerciseRun(exercise, planned) for exercise, planned in tests.items()}
        sandbox: Sandbox | None = None
        deadline, replied = None, 0
        try:
            for exercise, run in runs.items():
                path = chosen.get(f"{exercise}.py")
                if path is None:
                    run.status, run.note = "missing", t("grade.note.missing", self.lang, file=f"{exercise}.py")
                    continue
                run.file = path
                if deadline is not None and time.monotonic() >= deadline:  # a new process would be killed at once
                    run.status, run.budget = "timeout", True
                    run.note = t("grade.note.budget_spent", self.lang, seconds=fmt(self.limits.student_seconds))
                    continue
                if sandbox is None:
                    self.shown_hidden = False
                    sandbox = Sandbox(workspace, self.limits, deadline, server=self.server)
                    sandbox.replied = replied  # the student's, not this process's: one cap for all of them
                    sandbox.start()
                    deadline = sandbox.deadline
                self.sealed, self.after_hidden = self.shown_hidden, set()
                ended = not self.run_exercise(sandbox, run, workspace / path, workspace)
                if self.shown_hidden:  # what this process was shown must not reach what students see after it
                    seal(run, self.lang, None if self.sealed else frozenset(self.after_hidden))
                self.defences = weakest(self.defences, sandbox.defences)
                replied = sandbox.replied
                if ended:
                    sandbox.close()
                    sandbox = None
        finally:
            if sandbox is not None:
                sandbox.close()
        return runs

    def run_exercise(self, sandbox: Sandbox, run: ExerciseRun, path: Path, workspace: Path) -> bool:
        """Load the file and run the planned tests; False when the process had to be ended (time-out, death)."""
        try:
            reply = sandbox.request({"op": "load", "exercise": run.exercise, "path": str(path)}, replies.load)
            if not reply.get("loaded"):
                run.status = "crashed"
                run.note = t("grade.note.load_failed", self.lang, file=run.file, error=reply.get("error", ""))
                run.traceback = relative(reply.get("traceback", []), workspace)
                return True
            run.functions = reply.get("functions", [])
            self._answer_all(sandbox, run)
        except TimedOut:
            run.status = "timeout"
            if time.monotonic() >= sandbox.deadline:  # the time of all of the student's tests together ran out
                run.budget = True
                run.note = t("grade.note.budget", self.lang, seconds=fmt(self.limits.student_seconds))
            else:
                run.note = t("grade.note.timeout", self.lang, seconds=fmt(self.limits.test_seconds))
            return False
        except Died as death:
            run.status = "crashed"
            if isinstance(death, Malformed):
                run.note = t("faults.note.unreadable", self.lang, problem=death.problem.render(self.lang))
            else:
                run.note = t("grade.note.forged" if isinstance(death, Forged) else "grade.note.died", self.lang,
                             code=death.returncode)
            run.traceback = [line for line in death.log.splitlines() if line.strip()][-12:]
            return False
        return True

    def _answer_all(self, sandbox: Sandbox, run: ExerciseRun) -> None:
        """Send the planned tests, up to :data:`AHEAD` before their answers (the child never waits for the grader),
        and keep every answer on ``run``; Died or TimedOut end it."""
        pending: deque[Test] = deque()  # sent ahead, not yet answered

        def answered(keep: int) -> None:
            while len(pending) > keep:
                test = pending.popleft()
                if test.kind == "play":  # the moves come one by one, each as soon as the process has chosen it
                    run.replies[test.id] = self.play(_Moves(sandbox), test)
                    sandbox.ended()
                else:
                    run.replies[test.id] = sandbox.receive(test.check)

        for test in run.planned:
            answered(AHEAD - 1)
            if self.hidden and test.source in self.hidden and any(p.source not in self.hidden for p in pending):
                answered(0)  # a hidden test is sent only once the tests students see are answered: read ahead from
                # the pipe during one of those, it could be shown in its feedback
            source = getattr(test, "source", "hidden")  # (a test that does not say is taken for a hidden one)
            if self.shown_hidden and not shown_hidden(source):
                self.after_hidden.add(test.id)
            self.shown_hidden = self.shown_hidden or shown_hidden(source)
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

    def play(self, sandbox, test: Test) -> dict:
        """Play ``test``'s games, taking each of the student's moves from ``sandbox.request`` (:class:`_Moves`: the
        next frame of its process's reply to the ``games`` request, which plays the same games and sends each move
        its search chooses); the games, as this process plays them with those moves, or the error of a move."""
        def choose(state: str):
            reply = sandbox.request(test.message(state=state), test.check)
            if reply.get("error"):
                raise _StudentFailed(reply)
            return sealed_reply(reply, None, self.lang)["answer"] if self.sealed else reply["answer"]

        try:
            return {"games": play_games(choose, test.seed, start=test.state)}
        except _StudentFailed as failure:
            return failure.reply


class _Moves:
    """The moves a student's process sends for a ``games`` request, taken one by one as :meth:`Runner.play` asks:
    its process plays the same seeded games (:func:`abkit.play.playing`), so the next frame is the move for the
    position asked; only this process's own game decides what a move does."""

    def __init__(self, sandbox: Sandbox) -> None:
        self.sandbox = sandbox

    def request(self, message: dict, check) -> dict:
        """The next move the process sent (``message``, the position, is already known to it)."""
        return self.sandbox.receive(check, more=True)


class _StudentFailed(Exception):
    """The student's process answered a move with an error; ``reply`` says which."""

    def __init__(self, reply: dict) -> None:
        super().__init__(reply.get("error"))
        self.reply = reply


def weakest(kept: dict | None, new: dict | None) -> dict | None:
    """Of two confinement reports (either None: none yet), the one to keep: the weaker."""
    return new if new is not None and (kept is None or weaker(new, kept)) else kept


def weaker(a: dict, b: dict) -> bool:
    """Whether confinement report ``a`` is weaker than ``b`` (hidden files exposed, fewer layers)."""
    def strength(d: dict) -> tuple:
        return (d.get("hidden") is not False, bool(d.get("landlock")), bool(d.get("seccomp")), d.get("landlock") or 0)
    return strength(a) < strength(b)


def relative(lines: list[str], workspace: Path) -> list[str]:
    """Traceback lines with the temporary folder taken out of the paths."""
    prefix = str(workspace.resolve()) + "/"
    other = str(workspace) + "/"
    return [line.replace(prefix, "").replace(other, "") for line in lines]
