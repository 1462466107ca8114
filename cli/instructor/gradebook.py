"""``abkit grades export GRADED_OUT --format canvas|moodle|gradescope-csv``: a grading folder's grades as the CSV
file an LMS's gradebook imports (:mod:`abkit.grader.gradebook`)."""

from __future__ import annotations

import sys
from pathlib import Path

from abkit.i18n import t

#: each format of abkit.grader.gradebook.FORMATS (named here without importing it), and its LMS's name
LMS = {"canvas": "Canvas", "moodle": "Moodle", "gradescope-csv": "Gradescope"}


def register(sub, lang: str, add_lang) -> None:
    """Add ``export`` to ``sub``, the subcommands of ``abkit grades``."""
    p = sub.add_parser("export", help=t("gradebook.help", lang), description=t("gradebook.help", lang))
    p.add_argument("folder", metavar="GRADED_OUT", type=Path, help=t("gradebook.help.folder", lang))
    p.add_argument("--format", required=True, choices=tuple(LMS), help=t("gradebook.help.format", lang))
    p.add_argument("--out", type=Path, metavar="FILE", help=t("gradebook.help.out", lang))
    p.add_argument("--roster", type=Path, metavar="CSV", help=t("intake.help.roster", lang))
    p.add_argument("--assignment", default="abkit", metavar="NAME", help=t("gradebook.help.assignment", lang))
    p.add_argument("--assignment-id", default="", metavar="ID", help=t("gradebook.help.assignment_id", lang))
    add_lang(p, lang)
    p.set_defaults(run=run, needs_course=False)


def run(args) -> int:
    """Write the export (default: ``GRADED_OUT/grades-<format>.csv``) and say where; exit 2 on bad input."""
    from abkit.errors import UsageError
    from abkit.grader.gradebook import export_grades
    from abkit.grader.reports import write_atomic
    from abkit.cli.instructor.grade import checked_roster
    from abkit.safetext import terminal

    usable, roster = checked_roster(args.roster, args.lang)
    if not usable:
        return 2
    done = export_grades(args.folder, args.format, roster, args.assignment, args.assignment_id)
    out = args.out or args.folder / f"grades-{args.format}.csv"
    try:
        write_atomic(out, done.text)
    except OSError as error:
        raise UsageError("gradebook.cannot_write", path=out, reason=error.strerror or str(error)) from None
    if done.left_out:
        print(terminal(t("gradebook.left_out", args.lang, count=len(done.left_out),
                         students=", ".join(done.left_out))), file=sys.stderr)
    print(terminal(t("gradebook.wrote", args.lang, path=out, rows=done.rows, lms=LMS[args.format])))
    return 0
