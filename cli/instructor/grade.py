"""``abkit grade SUBMISSIONS --out DIR [--shard K/N]``: grade a class, or one shard of it; ``abkit export
gradescope``: the autograder bundle."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections import Counter
from pathlib import Path

from abkit.errors import UsageError
from abkit.i18n import Message, t

#: the sandbox waits on pipes with select() and ends process groups: POSIX systems only (not Windows itself)
GRADES_HERE = os.name != "nt"


def register(sub, lang: str, add_lang) -> None:
    p = sub.add_parser("grade", help=t("grade.help", lang), description=t("grade.help", lang))
    p.add_argument("submissions", metavar="SUBMISSIONS", type=Path, help=t("grade.help.submissions", lang))
    p.add_argument("--out", type=Path, required=True, help=t("grade.help.out", lang))
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help=t("grade.help.jobs", lang))
    p.add_argument("--seed", type=int, default=0, help=t("grade.help.seed", lang))
    p.add_argument("--student", metavar="ID", action="append", help=t("grade.help.student", lang))
    p.add_argument("--timeout", type=float, default=None, metavar="SEC", help=t("grade.help.timeout", lang))
    p.add_argument("--force", action="store_true", help=t("grade.help.force", lang))
    p.add_argument("--rubric", type=Path, metavar="FILE", help=t("grade.help.rubric", lang))
    p.add_argument("--roster", type=Path, metavar="CSV", help=t("intake.help.roster", lang))
    p.add_argument("--unconfined", action="store_true", help=t("grade.help.unconfined", lang))
    p.add_argument("--shard", metavar="K/N", help=t("shards.help.shard", lang))
    add_lang(p, lang)
    p.set_defaults(run=run)


def run(args) -> int:
    # the grading machinery loads when a batch runs, so that 'abkit check' starts fast
    from abkit.grader.batch import Progress, grade_batch
    from abkit.cli.instructor.rubric import checked_rubric
    from abkit.safetext import terminal
    from abkit.grader.sandbox import Limits
    from abkit.grader.submissions import SubmissionsError
    from abkit.grader.shards import parse_shard

    shard = parse_shard(args.shard) if args.shard is not None else None  # (a bad K/N: one sentence, status 2)
    if args.timeout is None:
        args.timeout = Limits.test_seconds
    if args.jobs < 1 or not 0.01 <= args.timeout <= 3600:  # nan and inf are neither: a time limit is a real time
        raise UsageError("grade.bad_numbers")
    if not GRADES_HERE:
        print(t("grade.needs_posix", args.lang), file=sys.stderr)
        return 2
    rubric = checked_rubric(args.rubric, args.lang)  # refused before any student runs
    if rubric is None:
        return 2
    usable, roster = checked_roster(args.roster, args.lang)
    if not usable:
        return 2
    if not args.unconfined:
        refuse_where_unconfined()  # before any student code runs and before --out is made
    limits = Limits(test_seconds=args.timeout, student_seconds=max(Limits.student_seconds, 10 * args.timeout))
    progress = Progress(sys.stdout, args.lang)
    try:
        with terminate_as_interrupt():
            result = grade_batch(args.submissions, args.out, rubric, args.seed, args.lang, args.jobs, limits,
                                 args.student, args.force, progress, roster, shard)
    except SubmissionsError as error:  # it may name the class's files: no escape sequence of theirs reaches the terminal
        print(terminal(t("cli.error", args.lang, message=error.message.render(args.lang))), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(t("grade.interrupted", args.lang, saved=progress.done, out=args.out), file=sys.stderr)
        return 130
    for name in result.duplicates:
        print(terminal(t("grade.duplicate", args.lang, name=name)), file=sys.stderr)
    from abkit.grader.intake_report import INTAKE_REPORT, intake_summary
    print(terminal(intake_summary(result.intake, args.lang, str(result.out / INTAKE_REPORT))))
    report_defences(result.defences, args.lang)
    counted = Counter(row["extra_data"]["status"] for row in result.rows.held)  # the kept rows: no file read again
    statuses = {s: counted[s] for s in ("ok", "timeout", "crashed", "invalid")}
    print(t("grade.done", args.lang, students=len(result.rows), graded=len(result.graded), reused=len(result.reused),
            out=result.out, **statuses))
    return report_grader_errors(result, args.lang)


def checked_roster(path: Path | None, lang: str):
    """``(True, roster)`` for the ``--roster`` at ``path`` (``None`` when none is given); ``(False, None)`` once a
    roster that cannot be used has been said in one line on stderr (its cells shown safely: no escape sequence
    reaches the terminal)."""
    if path is None:
        return True, None
    from abkit.grader.roster import RosterError, load_roster
    from abkit.safetext import terminal

    try:
        return True, load_roster(path)
    except RosterError as error:
        print(terminal(t("cli.error", lang, message=error.message.render(lang))), file=sys.stderr)
        return False, None


def refuse_where_unconfined() -> None:
    """Raise a :class:`UsageError` saying what this machine lacks and where to grade instead when the kit cannot
    confine student code here (:func:`abkit.grader.confine.missing_layers`: no Landlock or no seccomp); ``--unconfined``
    skips this, and the batch then warns of each missing layer after grading (:func:`report_defences`)."""
    from abkit.grader import confine

    missing = confine.missing_layers()
    if missing:
        which = "both" if len(missing) > 1 else missing[0]
        raise UsageError("grade.confine.refused", lacks=Message(f"grade.confine.lacks.{which}", system=this_system()))


def this_system(platform: str | None = None, release: str | None = None, machine: str | None = None) -> str:
    """This machine as the refusal names it (the arguments default to this one's).

    >>> this_system("darwin", "23.5.0", "arm64"), this_system("linux", "5.10.0-21-amd64", "x86_64")
    ('macOS', 'Linux 5.10.0-21-amd64, x86_64')
    """
    platform = platform or sys.platform
    if platform == "darwin":  # os.uname() gives Darwin's release, which is not macOS's
        return "macOS"
    uname = os.uname()
    name = "Linux" if platform.startswith("linux") else platform
    return f"{name} {release or uname.release}, {machine or uname.machine}"


def report_grader_errors(result, lang: str) -> int:
    """Name the students on whom the grader itself failed, with the command that grades just them again (stderr);
    the exit status: 1 when there are any (every file is written all the same), 0 otherwise."""
    if not result.failed:
        return 0
    print(t("faults.batch.failed", lang, count=len(result.failed), students=", ".join(result.failed)), file=sys.stderr)
    print(t("faults.batch.regrade", lang), file=sys.stderr)
    print(f"  {result.regrade}", file=sys.stderr)
    print(t("faults.batch.details", lang), file=sys.stderr)
    return 1


def report_defences(defences: dict | None, lang: str) -> None:
    """Say how the students' processes were confined (grader.confine); warn on stderr about what was missing."""
    if defences is None:  # no student code ran
        return
    from abkit.safetext import terminal

    def one_line(texts) -> str:  # the system's words, as a student's process reported them: no escapes, no lines
        return "; ".join(" ".join(terminal(str(x)).split()) for x in texts or []) or "-"
    reasons = one_line(defences.get("reasons"))
    if defences.get("landlock") and defences.get("hidden") is not False:
        print(t("grade.sandbox.landlock", lang, abi=defences["landlock"]))
    else:
        print(t("grade.sandbox.exposed", lang, reasons=reasons), file=sys.stderr)
    if defences.get("seccomp"):
        print(t("grade.sandbox.seccomp", lang))
    else:
        print(t("grade.sandbox.processes", lang, reasons=reasons), file=sys.stderr)
    if defences.get("refused"):  # a limit the system would not set (RLIMIT_AS on macOS): said, not dropped silently
        print(t("grade.sandbox.refused", lang, limits=one_line(defences["refused"])), file=sys.stderr)


@contextlib.contextmanager
def terminate_as_interrupt():
    """While grading, SIGTERM (a scheduler, ``kill``) stops the batch as Ctrl-C does: cleanly, keeping what is saved."""
    if threading.current_thread() is not threading.main_thread():  # pragma: no cover - signals need the main thread
        yield
        return

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
