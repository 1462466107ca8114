"""The student's code in a process of its own: every limit of ``abkit check`` enforced from outside it.

``check``, ``watch``, ``trace --mine`` and the pytest plugin run an exercise's tests in one child process
(:class:`Isolated`): forked where the system can fork (Linux, macOS), a new interpreter where it cannot (Windows;
:mod:`.childlink`). The parent sends each test's number; the child loads the student's file (at the first test),
runs the test as :func:`abkit.studentloop.check.run_case` runs it, and sends the result back in the grading wire's
frames (:mod:`abkit.wire`: a length, a JSON body, the HMAC of the reply's number and body under a key the parent
made for this child), the result as :mod:`.resultdata`'s plain data.

Time: in the child each test runs under check's own watchdog, which interrupts a Python loop at the limit (its
traceback names where it was); and faulthandler is armed to dump the child's stack and end it
:data:`~.childlink.SLACK` seconds later, which stops what the watchdog cannot interrupt (a loop inside one C call,
code that swallows the interrupt). The parent then reads the dump and names the function and line of the
student's file that was running. The parent waits for a new child to say it started (:data:`START_WAIT`: no
student code has run yet), then at most the limit plus :data:`WAIT` seconds for the file to load and as long for
each test, and then kills the child itself. A child that ends any other way (``os._exit``, a crash of the
interpreter) gives its test a result that says so; the next test starts a new child.

This is the student's own machine: the child is not confined as grading confines it; the wire's key and checks
keep a result the parent reads to one the child's harness wrote, as the student's code left it.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import TYPE_CHECKING

from abkit.coursefolder import current_course
from abkit.feedback import TestResult
from abkit.fixture import Fixture
from abkit.i18n import LANGS, Message
from abkit.info import Course, Exercise

from abkit.studentloop.check import TestCase, stop_message, test_cases, told_if_state_kept, where_key

if TYPE_CHECKING:
    from typing import Iterator

#: seconds after the time limit at which the parent stops waiting and kills the child
WAIT = 1.0
#: seconds the parent waits for a new child to start (before any student code runs)
START_WAIT = 60.0
#: a frame of faulthandler's dump: ``  File "path", line 12 in min_value``
_FRAME = re.compile(r'^\s*File "(?P<path>.*)", line (?P<line>\d+) in (?P<function>\S+)\s*$')


class Isolated:
    """The tests ``cases`` of one exercise, each run in the exercise's child process (started at the first).

    ``loaded``: whether the student's file loaded (None before a child's first test); a file that did not load
    gives every test the same result, as :func:`~abkit.studentloop.check.load_student` says.
    """

    def __init__(self, course: Course, exercise: Exercise, folder: Path, cases: list[TestCase],
                 langs: tuple[str, ...] = LANGS) -> None:
        self.course, self.exercise, self.folder, self.cases, self.langs = course, exercise, Path(folder), cases, langs
        self.loaded: bool | None = None
        self._failure: TestResult | None = None  # the load's result, when loading ended the child
        self._link = None
        self._received = 0

    def run(self, k: int) -> TestResult:
        """The result of test ``k`` (an index into ``cases``)."""
        if self._failure is not None:
            case = self.cases[k]
            return dataclasses.replace(self._failure, name=case.name, title=case.title(self.langs))
        try:
            if self._link is None:
                self._start()
            self._link.send({"op": "case", "index": k})
            if self.loaded is None:
                self.loaded = bool(self._reply(k)["loaded"])
            result = _result(self._reply(k)["result"])
        except _Ended:
            result = self._ended(k)
            if self.loaded is None:  # the file's own code never let it load
                self.loaded, self._failure = False, result
            return result
        except (_Broken, ValueError, KeyError, TypeError):
            return self._broken(k)
        return result if isinstance(result, TestResult) else self._broken(k)

    def close(self) -> None:
        """End the child, if one runs."""
        if self._link is not None:
            try:
                self._link.send({"op": "bye"})
            except OSError:
                pass
            self._link.end()
            self._link.dump()
            self._link = None

    def __enter__(self) -> "Isolated":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _start(self) -> None:
        from abkit.studentloop.childlink import ForkedLink, SpawnedLink, start_method

        job = (str(current_course().root), self.course, self.exercise, str(self.folder), self.cases, self.langs)
        self._link = (ForkedLink if start_method() == "fork" else SpawnedLink)(job)
        self._received, self.loaded = 0, None  # a new child loads the file again
        self._reply(-1, START_WAIT)  # no student code has run yet: a new interpreter may take its time to start

    def _reply(self, k: int, wait: float | None = None) -> dict:
        """The child's next reply to test ``k`` (-1: that it started), checked (its frame, its MAC, its number);
        :class:`_Ended` when none comes within ``wait`` seconds (default: the limit plus :data:`WAIT`),
        :class:`_Broken` when it is not one the harness wrote."""
        import hmac
        import json

        from abkit.wire import HEADER, MAC_BYTES, signature

        try:
            data = self._link.receive(self.course.time_limit + WAIT if wait is None else wait)
        except (EOFError, OSError):
            raise _Ended from None
        if data is None:
            raise _Ended
        (size,) = HEADER.unpack(data[:HEADER.size])
        body, mac = data[HEADER.size:HEADER.size + size], data[HEADER.size + size:]
        if len(mac) != MAC_BYTES or not hmac.compare_digest(mac, signature(self._link.key, self._received, body)):
            raise _Broken
        self._received += 1
        reply = json.loads(body)
        if not isinstance(reply, dict) or reply.get("id") != k:
            raise _Broken
        return reply

    def _ended(self, k: int) -> TestResult:
        """Test ``k``'s result when the child did not answer: stopped at the limit (where it was running, from its
        stack), or ended some other way. The child is gone: the next test starts a new one."""
        code = self._link.end() if self._link is not None else None
        dump = self._link.dump() if self._link is not None else ""
        self._link = None
        result = self._blank(k)
        where = dumped_at(dump, self.folder)
        if dump.lstrip().startswith("Timeout") or code is None:
            result.status, result.detail = "timeout", {"seconds": _seconds(self.course.time_limit)}
            if where is not None:
                result.detail["note"] = Message(where_key(where), **where)
        else:
            result.status = "crashed"
            result.detail = {"reason": Message("check.process_ended", code=code)}
        return result

    def _broken(self, k: int) -> TestResult:
        """Test ``k``'s result when the reply is not one the child's harness wrote: the child is ended (the next
        test starts a new one)."""
        self.close()
        result = self._blank(k)
        result.status, result.detail = "crashed", {"reason": Message("check.reply_broken")}
        return result

    def _blank(self, k: int) -> TestResult:
        case = self.cases[k]
        return TestResult(case.exercise.name, case.name, case.title(self.langs),
                          prune_on_equality=self.course.prune_on_equality)


class _Ended(Exception):
    """The child gave no reply: it ended, or the parent stopped waiting."""


class _Broken(Exception):
    """A reply the child's harness did not write."""


def _result(data) -> object:
    from abkit.studentloop.resultdata import from_data

    return from_data(data)


def run_exercise(course: Course, exercise: Exercise, folder: Path, fixtures: list[Fixture]) -> list[TestResult]:
    """The public tests of ``exercise`` on the student's file in ``folder`` (see :func:`exercise_results`)."""
    return list(exercise_results(course, exercise, folder, fixtures))


def exercise_results(course: Course, exercise: Exercise, folder: Path, fixtures: list[Fixture],
                     langs: tuple[str, ...] = LANGS) -> Iterator[TestResult]:
    """The public tests of ``exercise`` one by one, as they run in the exercise's child process (the file is loaded
    before the first); each result's title in ``langs``.

    A test the watchdog stopped (the time limit, or the memory watchdog) or that ran out of memory ends the
    exercise: its result says so, on which tree, and how many of the exercise's tests were not run; they are not
    yielded. The same search would stop again on the next tree, and the student hears of it at once.
    """
    cases = test_cases(exercise, fixtures)
    if not cases:
        return
    firsts: dict[str, TestResult] = {}  # a tree's first search, by the fixture's id
    with Isolated(course, exercise, folder, cases, langs) as child:
        for k, case in enumerate(cases):
            result = child.run(k)
            if case.kind == "search" and case.fixture is not None:
                firsts[case.fixture.id] = result
            elif case.kind == "again":
                told_if_state_kept(result, firsts.get(case.fixture.id))
            stop = stop_message(result, case, child.loaded, len(cases) - k - 1)
            if stop is not None:
                result.detail = {**result.detail, "message": stop, "rest": len(cases) - k - 1}
                yield result
                return
            yield result


def dumped_at(dump: str, folder: Path) -> dict | None:
    """The innermost frame of the student's files in faulthandler's ``dump`` of the main thread: ``{"function",
    "line", "file"}`` (the file's name), or None."""
    folder = Path(folder).resolve()
    for line in dump.splitlines():
        found = _FRAME.match(line)
        if found is None:
            continue
        path = Path(found.group("path"))
        try:
            path.resolve().relative_to(folder)
        except (ValueError, OSError):
            continue
        return {"function": found.group("function"), "line": int(found.group("line")), "file": path.name}
    return None


def _seconds(value: float) -> str:
    return f"{value:g}"
