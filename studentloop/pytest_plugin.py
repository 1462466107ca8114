"""Plain ``pytest`` for students: every public test of every exercise is a pytest item.

``exercises/conftest.py`` imports :func:`pytest_collect_file`, so pytest collects
``exercises/<name>.py`` (the names in ``info.yaml``) as a file of tests named by
fixture (``alphabeta.py::aima-fig-5-2``). A failing item reports exactly what
``abkit check`` prints for that test, in the language of the locale
(``ABKIT_LANG=ko`` for Korean), not a Python traceback. A search stopped for its time or memory
ends its file as it ends the exercise in ``abkit check``: the file's later tests are
skipped, saying why. The kit's own test run
(``testpaths = tests``) never reaches ``exercises/``, so the unsolved stubs do
not fail the kit's CI; the student edition's ``pyproject.toml`` points pytest at
``exercises/``.
"""

from __future__ import annotations

import sys

import pytest

from abkit.coursefolder import NoCourse, current_course
from abkit.feedback import TestResult, render_result
from abkit.i18n import default_lang, t
from abkit.textree import glyphs_for

from abkit.studentloop.check import TestCase, course_fixtures, stop_message, test_cases
from abkit.studentloop.isolated import Isolated
from abkit.studentloop.report import find_course


class CheckFailed(Exception):
    """A public test did not pass; carries its :class:`~abkit.feedback.TestResult`."""

    def __init__(self, result: TestResult) -> None:
        super().__init__(result.name)
        self.result = result


def pytest_collect_file(file_path, parent):
    """Collect ``<name>.py`` beside this conftest when ``info.yaml`` lists an exercise of that name."""
    if file_path.suffix != ".py":
        return None
    try:
        current_course()
    except NoCourse as error:  # pytest run outside any course folder: one sentence, no traceback
        raise pytest.UsageError(t("check.pytest_no_course", default_lang(), path=error.where)) from None
    course, _ = find_course(file_path.parent)
    if course.get(file_path.stem) is None:
        return None
    return ExerciseFile.from_parent(parent, path=file_path)


class ExerciseFile(pytest.File):
    """One exercise file; its items are the exercise's public tests."""

    def collect(self):
        self.course, self.folder = find_course(self.path.parent)
        self.exercise = self.course.get(self.path.stem)
        self._child: Isolated | None = None
        self.stopped: str | None = None  # the test whose search was stopped: the later ones are not run
        self.cases = test_cases(self.exercise, course_fixtures(self.course, current_course().public_fixtures))
        for k, case in enumerate(self.cases):
            yield PublicTest.from_parent(self, name=case.name.split("/", 1)[1], case=case, left=len(self.cases) - k - 1)

    def child(self) -> Isolated:
        """The exercise's child process, where the student's file is loaded once for all the file's tests (ended
        when the session ends)."""
        if self._child is None:
            self._child = Isolated(self.course, self.exercise, self.folder, self.cases)
            self.session.config.add_cleanup(self._child.close)
        return self._child


class PublicTest(pytest.Item):
    """One public test; a failure is reported as ``abkit check`` words it."""

    def __init__(self, *, case: TestCase, left: int, **kwargs) -> None:
        super().__init__(**kwargs)
        self.case, self.left = case, left  # left: how many of the file's tests come after this one

    def runtest(self) -> None:
        parent = self.parent
        if parent.stopped is not None:
            pytest.skip(t("check.skipped", default_lang(), name=parent.exercise.name, test=parent.stopped))
        child = parent.child()
        result = child.run(parent.cases.index(self.case))
        stop = stop_message(result, self.case, child.loaded, self.left)
        if stop is not None:
            result.detail = {**result.detail, "message": stop}
            parent.stopped = self.case.name
        if not result.passed:
            raise CheckFailed(result)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CheckFailed):
            return render_result(excinfo.value.result, default_lang(), g=glyphs_for(sys.__stdout__))
        return super().repr_failure(excinfo, style)  # pragma: no cover - a bug in the kit, not the student

    def reportinfo(self):
        return self.path, None, self.case.name
