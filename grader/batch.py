"""A whole class at once: which students to grade, in parallel, resuming, then the class files.

With ``jobs`` above one, students are graded in ``jobs`` worker processes (not
threads: the grader's own work, the reference and the comparison, then runs on
every core), each grading one student at a time in that student's own process
(:mod:`abkit.grader.sandbox`); with one, here. Each student's files are written
(atomically) as soon as they are graded; an interrupted batch (Ctrl-C, SIGTERM)
ends the running students' processes, saves nothing half-done and leaves
``grades.csv`` as it was, and running it again grades only who is left. A
student whose saved ``results.json`` matches the current submission and
settings (its fingerprint) is not graded again unless ``force``; ``student``
regrades one student (or several) and leaves the others' files alone.

One student never costs another: whatever happens while grading one (a reply
its process makes unreadable, a fault of the grader itself, a worker process
that dies) ends in that student's row, and the class files are always written.
The students on whom the grader itself failed are named, with the command that
grades just them again (:attr:`BatchResult.failed`, :attr:`BatchResult.regrade`).
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import tempfile
import time
import traceback
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, TextIO

from abkit.coursefolder import chosen_course
from abkit.errors import writable_folder
from abkit.i18n import t

from abkit.grader.confine import missing_layers
from abkit.grader.grades import StudentGrade
from abkit.grader.grading import Grader
from abkit.grader.reports import (STUDENTS_FOLDER, folder_names, number, read_results, results_json, visible, write_atomic,
                            write_class, write_student)
from abkit.grader.rubric import Rubric, default_rubric
from abkit.grader.running import weakest
from abkit.safetext import terminal
from abkit.grader.sandbox import LIVE, ForkServer, Limits
from abkit.grader.intake import read_download, with_roster
from abkit.grader.intake_report import INTAKE_REPORT, intake_markdown
from abkit.safetext import markdown
from abkit.grader.submissions import Submission, SubmissionsError, remove_tree, shown, student_id
from abkit.grader.shards import Shard, check_out, command_line, make_record, members, shard_of, write_record


@dataclass
class BatchResult:
    """What a batch did: ``rows`` (every student's results, sorted: :class:`Rows`), who was graded now and who was
    reused."""

    out: Path
    rows: Sequence[dict] = field(default_factory=list)
    graded: list[str] = field(default_factory=list)
    reused: list[str] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)
    defences: dict | None = None
    #: the students on whom the grader itself failed (their rows say so), and the command that grades just them again
    failed: list[str] = field(default_factory=list)
    regrade: str = ""
    #: how the download was read (:class:`abkit.grader.intake.Intake`): its report is ``intake.md``
    intake: Any = None


class Unsaved(dict):
    """A student's results that could not be written to their folder (:func:`save`): the batch keeps them whole."""


def kept(row: dict) -> dict:
    """What the batch holds of a student's results while it grades the others: a saved row without its per-test
    entries (``tests``, the bulk of it, in the student's ``results.json``), so that the batch's memory does not
    grow with the class; an :class:`Unsaved` row whole."""
    if isinstance(row, Unsaved) or "tests" not in row:
        return row
    return {key: value for key, value in row.items() if key != "tests"}


class Rows(Sequence):
    """Every student's results, in order: each read from the student's ``results.json`` when asked for (never the
    whole class in memory at once); a row that could not be saved (or whose file has gone since) as the batch kept
    it. ``held``: the rows as :func:`kept` holds them."""

    def __init__(self, out: Path, held: list[dict]) -> None:
        self.out, self.held = out, held

    def __len__(self) -> int:
        return len(self.held)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self._whole(row) for row in self.held[index]]
        return self._whole(self.held[index])

    def _whole(self, row: dict) -> dict:
        if "tests" in row:
            return row
        extra = row["extra_data"]
        return read_results(self.out, extra["student"], extra.get("folder", "")) or row


def grade_batch(submissions: Path, out: Path, rubric: Rubric, seed: int = 0, lang: str = "en", jobs: int = 2,
                limits: Limits | None = None, student: str | Iterable[str] | None = None, force: bool = False,
                progress: Callable[[int, int, Outcome], None] | None = None,
                roster: dict[str, tuple[str, str]] | None = None, shard: Shard | None = None) -> BatchResult:
    """Grade the class in ``submissions`` (as its LMS wrote it: :mod:`abkit.grader.intake`) into ``out``;
    :class:`SubmissionsError` for an instructor error.

    ``student``: one student id, or several, to grade again (the others' saved results are kept); ``roster``: the
    course's id and name per LMS identity (:func:`abkit.grader.roster.load_roster`); ``shard``: grade only that
    share of the class (:func:`abkit.grader.shards.members`), into a folder no other shard's results are in. Whatever
    happens while grading one student costs that student only: every student gets a row and the class files are
    always written; those on whom the grader itself failed are :attr:`BatchResult.failed`.
    """
    with chosen_course(None):  # found once: the batch works on one course however long it runs
        return _grade_batch(submissions, out, rubric, seed, lang, jobs, limits, student, force, progress, roster,
                            shard)


def _check_out(out: Path, submissions: Path) -> None:
    """Refuse a gradebook folder that would mix with the class or the course, or is a file (:class:`SubmissionsError`),
    before anything is read, graded or written (one that cannot be made or written: :func:`writable_folder`)."""
    from abkit.coursefolder import current_course

    where, given = out.resolve(), submissions.resolve()
    if where == given or given in where.parents:  # the next run would grade the gradebook as students
        key = "grade.out_is_submissions" if where == given else "grade.out_in_submissions"
        raise SubmissionsError(key, out=str(out), submissions=str(submissions))
    if where / STUDENTS_FOLDER == given or where / STUDENTS_FOLDER in given.parents:  # feedback into hand-ins
        raise SubmissionsError("grade.out_holds_submissions", out=str(out), submissions=str(submissions),
                               folder=str(out / STUDENTS_FOLDER))
    course = current_course()
    own = [f.resolve() for f in (course.exercises, course.solutions, course.fixtures, course.handouts)]
    if where == course.root.resolve() or any(where == f or f in where.parents for f in own):
        raise SubmissionsError("grade.out_in_course", out=str(out), course=str(course.root))
    if out.exists() and not out.is_dir():
        raise SubmissionsError("grade.out_is_file", out=str(out))


def _grade_batch(submissions: Path, out: Path, rubric: Rubric, seed: int, lang: str, jobs: int,
                 limits: Limits | None, student: str | Iterable[str] | None, force: bool,
                 progress: Callable[[int, int, Outcome], None] | None,
                 roster: dict[str, tuple[str, str]] | None = None, shard: Shard | None = None) -> BatchResult:
    """:func:`grade_batch`, its course fixed: the class read, who is graded again decided, the students graded,
    the class's files written."""
    _check_out(Path(out), Path(submissions))
    intake = read_download(submissions)  # (a class with no student, or one it cannot read: SubmissionsError)
    with_roster(intake, roster)
    unique, duplicates = _unique(intake.entries)
    everyone = list(unique)
    apart = folder_names(everyone)  # ids apart from another only in letter case: folders a disk keeps apart
    ours = members(everyone, shard) if shard else everyone  # the names of the whole class: the same in every shard
    unique = {name: replace(unique[name], folder=apart.get(name, "")) for name in ours}
    check_out(Path(out), shard, ours)  # another shard's folder, or a whole class's for a shard: refused, not overwritten
    chosen = _chosen(student, unique, submissions, everyone, shard)
    grader = Grader(rubric, seed, lang, limits)
    result = BatchResult(Path(out), duplicates=duplicates, intake=intake)
    rows, todo = _to_grade(grader, unique, chosen, force, result)
    writable_folder(result.out)  # (made once the course's tests are known to be sound)
    _grade_each(grader, todo, jobs, rows, result, progress)
    held = [rows[name] for name in sorted(rows)]
    result.rows = Rows(result.out, held)
    result.failed = [r["extra_data"]["student"] for r in held if r["extra_data"].get("grader_error")]
    if result.failed:
        result.regrade = regrade_command(submissions, result.out, rubric, seed, lang, limits, result.failed,
                                         getattr(roster, "path", None), unconfined=bool(missing_layers()),
                                         shard=str(shard or ""))
    _write_class_files(result, held, unique, rubric, lang)
    options = grade_options(rubric, seed, limits, getattr(roster, "path", None), unconfined=bool(missing_layers()))
    write_record(result.out, make_record(rubric, seed, lang, everyone, shard, {n: e.folder for n, e in unique.items()},
                                         duplicates, str(submissions), options))  # last: the folder is whole
    result.graded.sort()
    return result


def _chosen(student: str | Iterable[str] | None, unique: dict[str, Submission], submissions: Path,
            everyone: list[str] = (), shard: Shard | None = None) -> set[str] | None:
    """The ids ``--student`` names (None: the whole class, or the shard); :class:`SubmissionsError` for one not in
    the class, or in another shard (``everyone``: the class's ids)."""
    if student is None:
        return None
    chosen = {student_id(s) for s in ([student] if isinstance(student, str) else student)}
    for name in sorted(chosen):
        if name not in unique and shard is not None and name in everyone:
            raise SubmissionsError("shards.not_here", student=name, shard=str(shard),
                                   theirs=str(shard_of(name, everyone, shard.count)))
        if name not in unique:
            raise SubmissionsError("grade.no_student", student=name, path=submissions)
    return chosen


def _to_grade(grader: Grader, unique: dict[str, Submission], chosen: set[str] | None, force: bool,
              result: BatchResult) -> tuple[dict[str, dict], list[Submission]]:
    """(rows kept from the out folder, by student; the entries to grade now). A saved row is kept for a student not
    chosen, and reused (noted in ``result.reused``) when the whole class is graded, without ``force``, and the
    student's files and the course's tests are those it was graded with (the fingerprint)."""
    rows: dict[str, dict] = {}
    todo = []
    for name, entry in unique.items():
        saved = read_results(result.out, name, entry.folder)
        if chosen is not None and name not in chosen:
            if saved is not None:
                rows[name] = kept(saved)
        elif saved is not None and not force and chosen is None \
                and saved["extra_data"].get("fingerprint") == grader.fingerprint(entry):
            rows[name] = kept(saved)
            result.reused.append(name)
        else:
            todo.append(entry)
    return rows, todo


def _grade_each(grader: Grader, todo: list[Submission], jobs: int, rows: dict[str, dict], result: BatchResult,
                progress: Callable[[int, int, Outcome], None] | None) -> None:
    """Grade ``todo``, in ``jobs`` workers at most; each row lands in ``rows`` and ``result`` as it comes."""
    def record(row: dict, confinement: dict | None) -> None:
        """One student graded and saved: their row, how their process was confined (the weakest one is kept)."""
        rows[row["extra_data"]["student"]] = kept(row)
        result.graded.append(row["extra_data"]["student"])
        result.defences = weakest(result.defences, confinement)
        if progress is not None:
            progress(len(result.graded), len(todo), Outcome.of(row))

    workers = min(max(1, jobs), len(todo))
    with _batch_folder(grader):
        if workers > 1:
            _in_workers(grader, todo, result.out, workers, record)
        elif todo:
            _in_this_process(grader, todo, result.out, record)


def _write_class_files(result: BatchResult, held: list[dict], unique: dict[str, Submission], rubric: Rubric,
                       lang: str) -> None:
    """The class's gradebook, summary and intake report; a student's folder in ``out`` whose student is no longer
    in the class is named in the summary."""
    folders = result.out / STUDENTS_FOLDER
    theirs = {entry.folder or name for name, entry in unique.items()}
    gone = sorted(p.name for p in folders.iterdir() if p.is_dir() and p.name not in theirs) if folders.is_dir() else []
    write_class(result.out, held, rubric, lang, result.regrade, result.duplicates, gone)
    write_atomic(result.out / INTAKE_REPORT, markdown(intake_markdown(result.intake, lang, result.duplicates)))


def _unique(entries: list[Submission]) -> tuple[dict[str, Submission], list[str]]:
    """The first entry of each student id, and the names of the entries after it (``alice`` beside ``alice.zip``);
    of two entries whose names differ only in Unicode's form, the one named exactly as the id (josé composed)."""
    unique: dict[str, Submission] = {}
    duplicates = []

    def named(e: Submission) -> bool:
        name = e.path.name
        return name == e.student or name.lower().endswith(".zip") and name[:-4] == e.student

    for entry in entries:
        kept = unique.get(entry.student)
        if kept is not None and named(entry) and not named(kept):  # the one graded is the one named as its id
            unique[entry.student], entry = entry, kept
        if kept is None:
            unique[entry.student] = entry
        else:
            duplicates.append(shown(Path(entry.files[0][1]).name if entry.files else entry.path.name))
    return unique, duplicates


def regrade_command(submissions: Path, out: Path, rubric: Rubric, seed: int, lang: str, limits: Limits | None,
                    students: list[str], roster: Path | None = None, unconfined: bool = False,
                    shard: str = "") -> str:
    """The command that grades just ``students`` again with this batch's settings (a shell line); ``unconfined``:
    with ``--unconfined``, which ``abkit grade`` needs on a machine that cannot confine student code; ``shard``:
    the batch's ``--shard K/N``, if any (its folder takes no other shard's students).

    >>> from grader.rubric import Rubric
    >>> regrade_command(Path("class"), Path("out dir"), Rubric({}), 0, "en", None, ["s1", "s 2"])
    "abkit grade class --out 'out dir' --lang en --student s1 --student 's 2' --force"
    """
    options = grade_options(rubric, seed, limits, roster, unconfined)
    return command_line(str(submissions), out, options + (["--shard", shard] if shard else []), lang, students)


def grade_options(rubric: Rubric, seed: int, limits: Limits | None, roster: Path | None = None,
                  unconfined: bool = False) -> list[str]:
    """The options of ``abkit grade`` that give a batch's grades (those left at their default are left out)."""
    words = []
    if seed:
        words += ["--seed", str(seed)]
    if rubric.path and Path(rubric.path).resolve() != default_rubric().resolve():
        words += ["--rubric", str(rubric.path)]
    if limits is not None and limits.test_seconds != Limits.test_seconds:
        words += ["--timeout", f"{limits.test_seconds:g}"]
    if roster is not None:
        words += ["--roster", str(roster)]
    if unconfined:
        words += ["--unconfined"]
    return words


@dataclass(frozen=True)
class Outcome:
    """What the progress line shows of a student just graded."""

    student: str
    status: str
    score: float
    max_score: float

    @classmethod
    def of(cls, row: dict) -> "Outcome":
        extra = row["extra_data"]
        return cls(extra["student"], extra["status"], row["score"], extra["max_score"])


Recorder = Callable[[dict, "dict | None"], None]


def grade_and_save(grader: Grader, entry: Submission, out: Path) -> dict:
    """Grade one student and write their files (atomically); their results (``results.json``'s content).

    Never raises but for an interruption: a fault of the grader's (in grading, or in writing the files) is that
    student's result (:meth:`Grader.failed`).
    """
    return save(grader, grader.grade(entry), out, entry.folder)


def save(grader: Grader, grade: StudentGrade, out: Path, folder: str = "") -> dict:
    """Write ``grade``'s files (into ``folder``, the student's folder if not named as the id); when that fails, the
    grade of a grader fault instead (its files if they can be written; its results in any case, so that the student
    has a row: :class:`Unsaved` when nothing was written)."""
    grade.folder = folder
    try:
        return write_student(out, grade, grader.rubric, grader.lang)
    except Exception:  # noqa: BLE001 - a fault of the grader (a report it cannot write): this student's only
        failed = grader.failed(grade.student, traceback.format_exc())
        failed.folder = folder
    try:
        return write_student(out, failed, grader.rubric, grader.lang)
    except Exception:  # noqa: BLE001 - the folder itself cannot be written: the row is kept in grades.csv
        return Unsaved(results_json(failed, grader.rubric, grader.lang))


def _in_this_process(grader: Grader, todo: list[Submission], out: Path, record: Recorder) -> None:
    """Grade ``todo`` one after the other here (``-j 1``); an interruption ends the running student's process."""
    with _fork_server(grader), _batch_memory():
        try:
            for entry in todo:
                record(grade_and_save(grader, entry, out), grader.defences)
        except BaseException:  # Ctrl-C, SIGTERM: what is saved stays; what runs is ended and not saved
            LIVE.stop_all()
            raise
        finally:
            LIVE.reopen()


def _in_workers(grader: Grader, todo: list[Submission], out: Path, workers: int, record: Recorder) -> None:
    """Grade ``todo`` in ``workers`` processes, each grading one student at a time (its own student processes,
    its own fork server); each result is recorded as it comes. Processes, not threads: the grader's own work (the
    reference, the comparison, the files) then runs on every core, never waiting for another student's.

    An interruption (Ctrl-C, SIGTERM) stops the workers: each ends its running student's process, keeps nothing
    half-done and leaves. A worker that dies is replaced, and its student is handed to the replacement (a worker
    killed between two students, or while grading one, costs nothing); when a second worker dies on the same
    student, that student gets the row of a grader fault (:meth:`Grader.failed`, saying how the worker ended).
    """
    pool = _Workers(grader, todo, out, workers, record)
    try:
        pool.run()
    finally:
        _stop(pool.pool)


class _Workers:
    """The grading workers of one batch and the students still to hand out (see :func:`_in_workers`)."""

    def __init__(self, grader: Grader, todo: list[Submission], out: Path, workers: int, record: Recorder) -> None:
        self.grader, self.out, self.workers, self.record = grader, out, workers, record
        self.context = multiprocessing.get_context("fork" if ForkServer.available() else "spawn")
        self.pending = deque(todo)
        self.pool: dict[Any, tuple[Any, Submission | None]] = {}  # connection -> (process, the student it grades)
        #: how many times a student may be handed to a worker that turns out to be dead: never forever
        self.retries = len(todo) + workers
        self.deaths: dict[str, int] = {}  # student -> workers that died while it was theirs

    def run(self) -> None:
        """Start the workers, hand out the students and record each result until none is left."""
        for connection in [self.start() for _ in range(self.workers)]:
            self.hand_out(connection)
        while any(entry is not None for _, entry in self.pool.values()):
            busy = [c for c, (_, entry) in self.pool.items() if entry is not None]
            for connection in multiprocessing.connection.wait(busy):
                self.collect(connection)

    def start(self) -> Any:
        """A new worker process; the connection to it."""
        for stream in (sys.stdout, sys.stderr):  # a forked worker must not write out again what was buffered here
            stream.flush()
        ours, theirs = self.context.Pipe()
        forked = self.context.get_start_method() == "fork"
        process = self.context.Process(target=_worker, args=(theirs, self.grader if forked else None,
                                                             _recipe(self.grader), self.out), daemon=True)
        process.start()
        theirs.close()
        self.pool[ours] = (process, None)
        return ours

    def hand_out(self, connection) -> None:
        """Give the worker on ``connection`` the next student, if any is left; replace it if it is dead."""
        while True:
            process, _ = self.pool[connection]
            entry = self.pending.popleft() if self.pending else None
            self.pool[connection] = (process, entry)
            if entry is None or _send(connection, entry):
                return
            _retire(self.pool, connection)  # it ended between two students (killed from outside)
            if self.retries <= 0:
                self.failed(entry, process)
                entry = None
            self.retries -= 1
            if entry is not None:
                self.pending.appendleft(entry)
            connection = self.start()

    def collect(self, connection) -> None:
        """The result of the worker on ``connection``, recorded; or its death: its student once more, then a row."""
        process, entry = self.pool[connection]
        try:
            kind, payload, confinement = connection.recv()
        except (EOFError, OSError):  # it died with ``entry`` handed out: once more, then a row for them
            _retire(self.pool, connection)
            self.deaths[entry.student] = self.deaths.get(entry.student, 0) + 1
            if self.deaths[entry.student] < 2:
                self.pending.appendleft(entry)
            else:
                self.failed(entry, process)
            if self.pending:
                self.hand_out(self.start())
            return
        if kind == "error":  # (grade_and_save contains the grader's faults: a last resort)
            payload = save(self.grader, self.grader.failed(entry.student, payload), self.out, entry.folder)
        self.record(payload, confinement)
        self.hand_out(connection)

    def failed(self, entry: Submission, process) -> None:
        """Record ``entry`` as a grader fault: the worker grading it ended (how, in words)."""
        text = _exit_text(process, self.grader.lang)
        self.record(save(self.grader, self.grader.failed(entry.student, text), self.out, entry.folder), None)


def _send(connection, entry: Submission) -> bool:
    try:
        connection.send(entry)
        return True
    except OSError:
        return False


def _retire(pool: dict, connection) -> None:
    """Forget a worker that has ended (and reap it)."""
    process, _ = pool.pop(connection)
    connection.close()  # (one still waiting for a student ends on seeing it closed)
    process.join(1)


def _exit_text(process, lang: str) -> str:
    """How a worker that ended mid-student ended, in words (the student's grader-fault row says it)."""
    process.join(1)
    return t("faults.worker_died", lang, code=process.exitcode)


def _stop(pool: dict) -> None:
    """End every worker: idle ones are told to leave, busy ones (an interruption) are asked to stop (SIGTERM:
    they end their student's process and clean up), then killed if they linger."""
    for connection, (process, entry) in pool.items():
        try:
            if entry is None:
                connection.send(None)
            elif process.is_alive():
                process.terminate()
        except OSError:
            pass
    deadline = time.monotonic() + 10
    for connection, (process, _) in pool.items():
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():  # pragma: no cover - a worker stuck in its clean-up
            process.kill()
            process.join()
        connection.close()


def _recipe(grader: Grader) -> tuple:
    return grader.rubric, grader.seed, grader.lang, grader.limits


def _worker(connection, grader: Grader | None, recipe: tuple, out: Path) -> None:
    """A grading worker: students arrive on ``connection``; each one's results go back (or the error) as soon as
    their files are written. ``None`` (or the end of the pipe) ends it; SIGTERM stops the student in progress.
    A forked worker uses the batch's ``grader`` as it was at the fork; one started afresh builds its own."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole process group: the batch decides
    signal.signal(signal.SIGTERM, _interrupt)
    if sys.platform.startswith("linux"):
        from abkit.grader.confine import _die_with_parent
        with contextlib.suppress(OSError):
            _die_with_parent()  # the worker, its fork server and its students' processes die with the batch
    grader = grader if grader is not None else Grader(*recipe)
    try:
        with _fork_server(grader), _batch_memory():
            while True:
                try:
                    entry = connection.recv()
                except (EOFError, OSError):
                    return
                if entry is None:
                    return
                try:
                    row = grade_and_save(grader, entry, out)
                except Exception:  # noqa: BLE001 - (a last resort: grade_and_save contains the grader's faults)
                    connection.send(("error", traceback.format_exc(), None))
                    continue
                connection.send(("ok", kept(row), grader.defences))
    except KeyboardInterrupt:
        return


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


@contextlib.contextmanager
def _fork_server(grader: Grader) -> Iterator[None]:
    """A :class:`ForkServer` for ``grader`` while the block runs, where the platform has one (it needs no folder:
    none is left behind when the worker is killed)."""
    grader.server = ForkServer() if ForkServer.available() else None
    if grader.server is not None:  # only the tests students may see: a student's process inherits what it knows
        grader.server.know([test.request for tests in grader.shared.values() for test in tests
                            if visible(test.source, grader.rubric.visibility)])
    try:
        yield
    finally:
        if grader.server is not None:
            grader.server.close()
            grader.server = None


@contextlib.contextmanager
def _batch_folder(grader: Grader) -> Iterator[None]:
    """The students' temporary folders under one folder of this batch (named with this process's id), removed at
    the end, interrupted or not; those of earlier batches whose process is gone (killed) are removed first."""
    for stale in Path(tempfile.gettempdir()).glob("abkit-batch-*"):
        if _abandoned(stale):
            remove_tree(stale)
    grader.work = Path(tempfile.mkdtemp(prefix=f"abkit-batch-{os.getpid()}-"))
    try:
        yield
    finally:
        remove_tree(grader.work)
        grader.work = None


def _abandoned(folder: Path) -> bool:
    """Whether ``folder`` (``abkit-batch-PID-…``) is this user's and its batch's process no longer exists."""
    try:
        pid = int(folder.name.split("-")[2])
        if folder.lstat().st_uid != os.geteuid():
            return False
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except (ValueError, IndexError, OSError):
        return False
    return False


@contextlib.contextmanager
def _batch_memory() -> Iterator[None]:
    """While grading: the grader's long-lived tests and references frozen (never scanned again by the garbage
    collector) and young objects collected less often (the replies' many short-lived ones); restored afterwards."""
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(max(thresholds[0], 20_000), *thresholds[1:])
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


class Progress:
    """Progress on ``stream``: a bar with an ETA on a terminal, one plain line per student otherwise."""

    def __init__(self, stream: TextIO | None = None, lang: str = "en", tty: bool | None = None) -> None:
        self.stream = stream or sys.stdout
        self.lang = lang
        self.tty = self.stream.isatty() if tty is None else tty
        self.started = time.monotonic()
        self.done = 0

    def __call__(self, done: int, total: int, grade: Outcome) -> None:
        self.done = done
        line = t("grade.progress.line", self.lang, done=done, total=total, student=terminal(grade.student),
                 status=t(f"grade.status.{grade.status}", self.lang), score=number(grade.score),
                 max_score=number(grade.max_score))
        if not self.tty:
            print(line, file=self.stream, flush=True)
            return
        elapsed = time.monotonic() - self.started
        eta = elapsed / done * (total - done)
        filled = round(24 * done / total)
        bar = "█" * filled + "░" * (24 - filled)
        text = t("grade.progress.bar", self.lang, bar=bar, done=done, total=total,
                 eta=f"{int(eta) // 60}:{int(eta) % 60:02d}", student=terminal(grade.student))
        print(f"\r\033[K{text}", end="" if done < total else "\n", file=self.stream, flush=True)
