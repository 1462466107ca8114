"""Grading one student: a submission through the pipeline's stages, one after the other.

1. the entry unpacked (:mod:`abkit.grader.submissions`) and held against its hand-in manifest (:mod:`abkit.grader.handin`);
2. the tests for the student (:mod:`abkit.grader.testplan`, built once per batch);
3. the student's process answers them (:mod:`abkit.grader.running`: a sandboxed child, :mod:`abkit.grader.sandbox`);
4. each answer judged against the reference's (:mod:`abkit.grader.judgement`);
5. the exercise and student grades (:mod:`abkit.grader.grades`), with the named mistakes (:mod:`abkit.grader.mistakes`).

A :class:`Grader` is built once per batch (rubric, seed, limits) and grades one submission at a time. Every score
rests on what the contract makes observable (:mod:`abkit.judge`). Nothing here writes files: the reports do
(:mod:`abkit.grader.reports`).
"""

from __future__ import annotations

import hashlib
import tempfile
import traceback
from pathlib import Path

from abkit import __version__
from abkit.algorithms import Algorithm
from abkit.coursefolder import course_id, current_course
from abkit.i18n import t

from abkit.grader.grades import ExerciseGrade, StudentGrade, exercise_grade, student_status
from abkit.grader.handin import check_handin, find_manifest, handin_notes
from abkit.grader.judgement import Judge
from abkit.grader.mistakes import MistakeNamer
from abkit.grader.reports import visible
from abkit.grader.rubric import Rubric
from abkit.grader.running import ExerciseRun, Runner, weakest
from abkit.grader.sandbox import Interrupted, Limits
from abkit.grader.picking import Picked, listed, near_names, pick
from abkit.grader.submissions import Submission, Unpacked, fingerprint, remove_tree, unpack
from abkit.grader.testplan import Test, TestPlan, student_seed


class Grader:
    """Grades submissions against a rubric; the shared tests and their expected outcomes are built once."""

    def __init__(self, rubric: Rubric, seed: int = 0, lang: str = "en", limits: Limits | None = None) -> None:
        self.rubric, self.seed, self.lang = rubric, seed, lang
        self.limits = limits or Limits()
        self.rule = rubric.prune_on_equality
        self.course_id = course_id(current_course().root)  # what a hand-in's manifest must name
        #: whether an entry's name is the student id a hand-in's manifest must name (Gradescope names it otherwise)
        self.names_are_ids = True
        self.plan = TestPlan(rubric, seed)
        self.judge = Judge(self.rule, self.plan.expected, lang, self.limits.test_seconds)
        self.namer = MistakeNamer(self.rule)
        self.batch_fingerprint = self._batch_fingerprint()
        #: what the students' processes achieved confining themselves (grader.confine), None before any ran
        self.defences: dict | None = None
        #: a :class:`abkit.grader.sandbox.ForkServer` that starts the students' processes (a batch sets one), or None
        self.server = None
        #: where the students' temporary folders go (a batch sets its own folder), or None: the system's
        self.work: Path | None = None

    @property
    def shared(self) -> dict[str, list[Test]]:
        """The tests every student shares, per exercise."""
        return self.plan.shared

    def tests_for(self, student: str) -> dict[str, list[Test]]:
        """Every test of every exercise for ``student`` (:meth:`abkit.grader.testplan.TestPlan.tests_for`)."""
        return self.plan.tests_for(student)

    def _batch_fingerprint(self) -> str:
        digest = hashlib.sha256(f"{__version__}/{self.seed}/{self.lang}/{self.limits}".encode())
        digest.update(self.rubric.text.encode())
        for _, fx in self.plan.fixtures:
            digest.update(fx.path.read_bytes() if fx.path else b"")
        for solution in sorted(algorithm.solution for algorithm in Algorithm):
            digest.update((current_course().solutions / solution).read_bytes())
        return digest.hexdigest()

    def fingerprint(self, submission: Submission) -> str:
        """What a saved grade must match to be reused: this batch's settings, the entry's files, and what its
        hand-in is held against (a folder's manifest, which its files' hash leaves out; the course; the names)."""
        found = None if submission.is_zip else find_manifest(submission)  # a zip's bytes hold its manifest
        manifest = hashlib.sha256(found[0].encode() + b"\0" + found[1]).hexdigest() if found else "-"
        said = "/".join(map(repr, submission.notes))
        held = f"{self.course_id}/{self.names_are_ids}/{submission.verify}/{submission.aliases}/{said}/{manifest}"
        return hashlib.sha256(f"{self.batch_fingerprint}/{fingerprint(submission)}/{held}".encode()).hexdigest()

    def grade(self, submission: Submission, work: Path | None = None) -> StudentGrade:
        """Grade one submission in a temporary folder (under ``work`` if given), removed afterwards.

        Whatever happens while grading it stays with it: what the student's process does is the student's
        (:mod:`abkit.grader.running`), and an exception of the grader's own is a grade too, :meth:`failed`.
        """
        try:
            folder = Path(tempfile.mkdtemp(prefix="abkit-", dir=work or self.work))
            try:
                return self._grade(submission, folder)
            finally:
                remove_tree(folder)
        except Interrupted:  # the batch is stopping: nothing is graded
            raise
        except Exception:  # noqa: BLE001 - a fault of the grader: this student's row says so, the batch goes on
            return self.failed(submission.student, traceback.format_exc())

    def failed(self, student: str, error: str, fingerprint: str = "") -> StudentGrade:
        """The grade of a student on whom the grader itself failed (``error``: what it raised): ``crashed``, 0
        points, every exercise saying that the fault is the grader's, and :attr:`StudentGrade.grader_error` set
        so that the batch names the student and how to grade them again. Builds nothing that could fail again."""
        note = t("faults.note.grader", self.lang)
        exercises = {e: ExerciseGrade(e, self.rubric.max_score(e), ExerciseRun(e, status="crashed", note=note))
                     for e in self.rubric.points}
        return StudentGrade(student, "crashed", 0.0, self.rubric.max_score(), student_seed(self.seed, student),
                            exercises, [note], fingerprint, grader_error=error.strip() or "?")

    def _grade(self, submission: Submission, folder: Path) -> StudentGrade:
        """The stages, for one submission unpacked into ``folder``."""
        workspace = folder / "files"
        unpacked = unpack(submission, workspace)
        names = [f"{e}.py" for e in self.rubric.points]
        notes = [m.render(self.lang) for m in (*listed(submission.notes), *listed(unpacked.skipped))]
        handin = check_handin(submission, unpacked, self.course_id, __version__,
                              self.names_are_ids and submission.verify)
        notes += handin_notes(handin, self.lang)
        picked = pick(workspace, unpacked.files, unpacked.notebooks, names)  # by name, in a notebook, a near name
        notes += [m.render(self.lang) for m in picked.ignored]
        seed = student_seed(self.seed, submission.student)
        handin = handin and handin.to_dict(self.lang)
        near = near_names(unpacked.files, names)  # files that look like a missing one: the feedback says so
        if unpacked.unreadable is not None or not picked.chosen:
            reason = unpacked.unreadable.render(self.lang) if unpacked.unreadable else \
                t("grade.note.no_files", self.lang, names=", ".join(names)) + " " + self._holds(unpacked)
            exercises = {e: ExerciseGrade(e, self.rubric.max_score(e), ExerciseRun(
                e, status="missing", note=reason if unpacked.unreadable else self._missing(f"{e}.py", near, picked)))
                for e in self.rubric.points}
            return StudentGrade(submission.student, "invalid", 0.0, self.rubric.max_score(), seed, exercises,
                                [reason, *notes], self.fingerprint(submission), handin=handin, files=picked.files)
        runs = self._run(self.tests_for(submission.student), picked.chosen, workspace)
        for exercise, run in runs.items():
            file = f"{exercise}.py"
            if run.status == "missing":
                run.note = self._missing(file, near, picked)
            elif file in picked.notes:  # graded from a notebook or under a near name: the exercise says so
                run.note = " ".join(filter(None, [picked.notes[file].render(self.lang), run.note]))
        exercises = {exercise: self._score(run, workspace) for exercise, run in runs.items()}
        score = sum(g.score for g in exercises.values())
        return StudentGrade(submission.student, student_status(exercises), score, self.rubric.max_score(), seed,
                            exercises, notes, self.fingerprint(submission), handin=handin, files=picked.files)

    def _missing(self, file: str, near: dict[str, str], picked: Picked) -> str:
        """Why an exercise scores 0: its file is not in the submission (its notebook could not be read, or which
        file looks like it, if one does)."""
        if file in picked.problems:
            return picked.problems[file].render(self.lang)
        if file in near:
            return t("grade.note.missing_near", self.lang, file=file, found=near[file])
        return t("grade.note.missing", self.lang, file=file)

    def _holds(self, unpacked: Unpacked, most: int = 10) -> str:
        """What a submission without a gradable file holds: its Python files and notebooks (the first ``most``), or
        that it has none."""
        python = sorted(f for f in unpacked.files + unpacked.notebooks if f.lower().endswith((".py", ".ipynb")))
        if not python:
            return t("grade.note.holds_no_python", self.lang)
        shown = ", ".join(python[:most]) + (", …" if len(python) > most else "")
        return t("grade.note.holds", self.lang, files=shown)

    def _run(self, tests: dict[str, list[Test]], chosen: dict[str, str], workspace: Path) -> dict[str, ExerciseRun]:
        """The student's process answers the tests (:class:`abkit.grader.running.Runner`); its confinement is noted."""
        hidden = frozenset(source for source in self.rubric.visibility if not visible(source, self.rubric.visibility))
        runner = Runner(self.limits, self.lang, self.server, hidden)
        try:
            return runner.run(tests, chosen, workspace)
        finally:  # what the student's processes achieved confining themselves: the weakest of the batch is kept
            self.defences = weakest(self.defences, runner.defences)

    def _score(self, run: ExerciseRun, workspace: Path) -> ExerciseGrade:
        """One exercise's run judged and scored, its mistakes named when it falls short."""
        points = self.rubric.points[run.exercise]
        if not run.functions and not run.replies:  # no file, or it could not be loaded
            return ExerciseGrade(run.exercise, self.rubric.max_score(run.exercise), run,
                                 categories={c: [0, 0] for c in points})
        grade = exercise_grade(run, self.judge.judge(run, workspace), points, self.rubric.max_score(run.exercise))
        if grade.status == "ok" and grade.score < grade.max_score:
            grade.mistakes = self.namer.name(grade.exercise, grade.tests)
        return grade
