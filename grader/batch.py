"""A whole class at once: which students to grade, in parallel, resuming, then the class files.

Each student is graded in a worker thread that spends its time waiting for the
student's own process (:mod:`grader.sandbox`), so ``jobs`` threads keep ``jobs``
student processes busy. Each student's files are written (atomically) as soon as
they are graded; an interrupted batch (Ctrl-C, SIGTERM) ends the running
students' processes, saves nothing half-done and leaves ``grades.csv`` as it
was, and running it again grades only who is left. A student whose saved ``results.json`` matches the
current submission and settings (its fingerprint) is not graded again unless
``force``; ``student`` regrades one student and leaves the others' files alone.
"""

from __future__ import annotations

import gc
import shutil
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, TextIO

from abkit.i18n import t

from .grading import Grader, StudentGrade
from .reports import number, read_results, write_class, write_student
from .rubric import Rubric
from .sandbox import LIVE, ForkServer, Limits
from .submissions import SubmissionsError, find_submissions


@dataclass
class BatchResult:
    """What a batch did: ``rows`` (every student's results, sorted), who was graded now and who was reused."""

    out: Path
    rows: list[dict] = field(default_factory=list)
    graded: list[str] = field(default_factory=list)
    reused: list[str] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)
    defences: dict | None = None


def grade_batch(submissions: Path, out: Path, rubric: Rubric, seed: int = 0, lang: str = "en", jobs: int = 2,
                limits: Limits | None = None, student: str | None = None, force: bool = False,
                progress: Callable[[int, int, StudentGrade], None] | None = None) -> BatchResult:
    """Grade the class in ``submissions`` into ``out``; :class:`SubmissionsError` for an instructor error."""
    entries = find_submissions(submissions)
    unique, duplicates = {}, []
    for entry in entries:
        if entry.student in unique:
            duplicates.append(entry.path.name)
        else:
            unique[entry.student] = entry
    if student is not None and student not in unique:
        raise SubmissionsError("grade.no_student", student=student, path=submissions)
    if not unique:
        raise SubmissionsError("grade.empty", path=submissions)
    grader = Grader(rubric, seed, lang, limits)
    result = BatchResult(Path(out), duplicates=duplicates)
    rows: dict[str, dict] = {}
    todo = []
    for name, entry in unique.items():
        saved = read_results(result.out, name)
        if student is not None and name != student:
            if saved is not None:
                rows[name] = saved
        elif saved is not None and not force and student is None \
                and saved["extra_data"].get("fingerprint") == grader.fingerprint(entry):
            rows[name] = saved
            result.reused.append(name)
        else:
            todo.append(entry)
    result.out.mkdir(parents=True, exist_ok=True)
    server_folder = Path(tempfile.mkdtemp(prefix="abkit-server-")) if todo and ForkServer.available() else None
    grader.server = ForkServer(server_folder) if server_folder is not None else None
    pool = ThreadPoolExecutor(max_workers=max(1, jobs))
    thresholds = gc.get_threshold()
    gc.freeze()  # the grader's long-lived tests and references: never scanned again during the batch
    gc.set_threshold(max(thresholds[0], 20_000), *thresholds[1:])  # the replies' many short-lived objects
    try:
        futures = {pool.submit(grader.grade, entry): entry for entry in todo}
        for done, future in enumerate(as_completed(futures), 1):
            grade = future.result()
            rows[grade.student] = write_student(result.out, grade, rubric, lang)
            result.graded.append(grade.student)
            if progress is not None:
                progress(done, len(todo), grade)
    except BaseException:  # Ctrl-C, SIGTERM: what is saved stays; what runs is ended and not saved
        LIVE.stop_all()
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    finally:
        pool.shutdown(wait=True)
        LIVE.reopen()
        gc.set_threshold(*thresholds)
        gc.unfreeze()
        if grader.server is not None:
            grader.server.close()
            grader.server = None
        if server_folder is not None:
            shutil.rmtree(server_folder, ignore_errors=True)
    result.defences = grader.defences
    result.rows = [rows[name] for name in sorted(rows)]
    write_class(result.out, result.rows, rubric, lang)
    result.graded.sort()
    return result


class Progress:
    """Progress on ``stream``: a bar with an ETA on a terminal, one plain line per student otherwise."""

    def __init__(self, stream: TextIO | None = None, lang: str = "en", tty: bool | None = None) -> None:
        self.stream = stream or sys.stdout
        self.lang = lang
        self.tty = self.stream.isatty() if tty is None else tty
        self.started = time.monotonic()
        self.done = 0

    def __call__(self, done: int, total: int, grade: StudentGrade) -> None:
        self.done = done
        line = t("grade.progress.line", self.lang, done=done, total=total, student=grade.student,
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
                 eta=f"{int(eta) // 60}:{int(eta) % 60:02d}", student=grade.student)
        print(f"\r\033[K{text}", end="" if done < total else "\n", file=self.stream, flush=True)
