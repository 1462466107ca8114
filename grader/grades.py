"""Grading, stage 4: the judgements per test become an exercise's grade, and the exercises a student's.

A category's points (the rubric's) are shared equally by its tests; an exercise's score is the sum over its
categories of the points times the share of its tests that passed. The named mistakes (:mod:`abkit.grader.mistakes`)
are added by the grader once a graded exercise falls short. The reports (stage 5, :mod:`abkit.grader.reports`) read
these records only.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from abkit.grader.judgement import TestGrade
from abkit.grader.running import ExerciseRun


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
    """The grade of one exercise from its run and its tests' judgements, under the rubric's ``points`` per category;
    each test's own score and maximum are set too."""
    counts = {c: [0, 0] for c in points}
    for tg in tests:
        for c in tg.test.categories:
            if c in counts:
                counts[c][1] += 1
                counts[c][0] += tg.passed.get(c, False)
    for tg in tests:
        shares = {c: points[c] / counts[c][1] for c in tg.test.categories if c in counts}
        tg.max_score = sum(shares.values())
        tg.score = sum(share for c, share in shares.items() if tg.passed.get(c))
    score = sum(points[c] * passed / total for c, (passed, total) in counts.items() if total)
    return ExerciseGrade(run.exercise, max_score, run, score, tests, counts)


def student_status(exercises: dict[str, ExerciseGrade]) -> str:
    """What happened to the student (contract §4): timeout, else crashed, else ok."""
    statuses = {g.status for g in exercises.values()}
    return "timeout" if "timeout" in statuses else "crashed" if "crashed" in statuses else "ok"
