"""Grading, stage 4: the judgements per test become an exercise's grade, and the exercises a student's.

A category's points (the rubric's) are shared equally by its tests every student shares (a student's random trees
are judged and shown but score nothing: :func:`category_shares`); an exercise's score is the sum over its categories
of the points times the share of those tests that passed. The named mistakes (:mod:`abkit.grader.mistakes`)
are added by the grader once a graded exercise falls short. The reports (stage 5, :mod:`abkit.grader.reports`) read
these records only.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from abkit.grader.judgement import TestGrade
from abkit.grader.running import ExerciseRun
from abkit.grader.testplan import Test


@dataclass
class ExerciseGrade:
    """One exercise of one student: what the process did (``run``), each test's judgement, the points.

    categories: category -> [tests passed, tests]; mistakes: named mistake ids whose traces it matches.
    """

    exercise: str
    max_score: float
    run: ExerciseRun
    score: float = 0.0
    tests: list[TestGrade] = field(default_factory=list)
    categories: dict[str, list[int]] = field(default_factory=dict)
    mistakes: list[str] = field(default_factory=list)

    # what the student's process did, as the reports read it
    status = property(lambda self: self.run.status, doc="ok | missing | crashed | timeout")
    file = property(lambda self: self.run.file, doc="the file graded (relative to the submission), or None")
    note = property(lambda self: self.run.note, doc="why the exercise stopped, in words")
    traceback = property(lambda self: self.run.traceback)
    planned = property(lambda self: self.run.planned)
    replies = property(lambda self: self.run.replies)
    functions = property(lambda self: self.run.functions)

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
    #: what the entry's hand-in manifest (``abkit pack``) says of it (:meth:`~abkit.grader.handin.HandinCheck.to_dict`)
    handin: dict | None = None
    #: per exercise, the file graded, how it was found and the copies left (:attr:`abkit.grader.picking.Picked.files`)
    files: dict | None = None
    #: the name of the student's folder when it is not the id (:func:`abkit.grader.reports.folder_names`), else ""
    folder: str = ""


def exercise_grade(run: ExerciseRun, tests: list[TestGrade], points: dict[str, float],
                   max_score: float) -> ExerciseGrade:
    """The grade of one exercise from its run and its tests' judgements, under the rubric's ``points`` per category
    (:func:`category_shares`); each test's own score and maximum are set too."""
    shares = category_shares([tg.test for tg in tests], points)
    counts = {c: [0, 0] for c in points}  # category -> [tests passed, tests]
    scored = {c: [0, 0] for c in points}  # the same, of the tests that score
    for tg in tests:
        tg.max_score = sum(shares[tg.test.id].values())
        tg.score = sum(share for c, share in shares[tg.test.id].items() if tg.passed.get(c))
        for c, share in shares[tg.test.id].items():
            for tally in (counts[c], scored[c]) if share else (counts[c],):
                tally[0] += tg.passed.get(c, False)
                tally[1] += 1
    score = sum(points[c] * passed / total for c, (passed, total) in scored.items() if total)
    return ExerciseGrade(run.exercise, max_score, run, score, tests, counts)


def category_shares(tests: list[Test], points: dict[str, float]) -> dict[str, dict[str, float]]:
    """Per test (by id), what passing each of its categories earns: a category's points shared equally by its tests.

    Only the tests every student shares (public and hidden fixtures) score where a category has any: a student's
    random trees are judged and shown, worth nothing, so whether one happens to expose a slip never moves a score
    (the same slip costs every student the same). A category only random tests have (the played games) is shared
    by them.
    """
    scored = {c: [x for x in tests if c in x.categories and x.source != "random"] for c in points}
    scored = {c: kept or [x for x in tests if c in x.categories] for c, kept in scored.items()}
    ids = {c: {x.id for x in kept} for c, kept in scored.items()}
    return {x.id: {c: (points[c] / len(scored[c]) if x.id in ids[c] else 0.0) for c in x.categories if c in points}
            for x in tests}


def student_status(exercises: dict[str, ExerciseGrade]) -> str:
    """What happened to the student (contract §4): timeout, else crashed, else ok."""
    statuses = {g.status for g in exercises.values()}
    return "timeout" if "timeout" in statuses else "crashed" if "crashed" in statuses else "ok"
