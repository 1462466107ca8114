"""``abkit check [EXERCISE] [--all]``: the public tests on the student's files, with trace-level feedback."""

from __future__ import annotations

import sys
from types import SimpleNamespace

from abkit.i18n import t


def register(sub, lang: str, add_lang) -> None:
    p = sub.add_parser("check", help=t("check.help", lang), description=t("check.description", lang))
    p.add_argument("exercise", nargs="?", metavar="EXERCISE", help=t("check.help.exercise_current", lang))
    p.add_argument("--all", dest="every", action="store_true", help=t("check.help.all", lang))
    p.add_argument("--exercises", metavar="DIR", help=t("check.help.exercises", lang))
    p.add_argument("--verbose", action="store_true", help=t("check.help.verbose", lang))
    p.add_argument("--html", metavar="DIR", help=t("check.help.html", lang))
    add_lang(p, lang)
    p.set_defaults(run=run)


def plain(exercise: str | None, lang: str) -> SimpleNamespace:
    """What :func:`register`'s parser makes of ``abkit check [EXERCISE]`` without options (kept beside it:
    ``tests/test_cli.py`` compares the two), for :func:`abkit.cli.main.plain_check`."""
    return SimpleNamespace(lang=lang, course=None, command="check", exercise=exercise, every=False, exercises=None,
                           html=None, verbose=False, run=run)


def run(args) -> int:
    from abkit.studentloop.report import check
    from abkit.textree import glyphs_for

    def emit(line: str) -> None:  # each line as soon as it is known: a search that does not end is told at once
        print(line, flush=True)

    results: list | None = [] if getattr(args, "html", None) else None
    _, ok = check(args.exercises, args.exercise, args.lang, glyphs_for(sys.stdout), every=args.every, emit=emit,
                  keep=results, verbose=args.verbose)
    if results is not None:
        from pathlib import Path

        from abkit.stepthrough.page import write_pages

        written = write_pages(results, Path(args.html), args.lang)
        print(t("check.html_written", args.lang, count=len(written), out=args.html))
        others = sum(1 for r in results if r.status in ("failed", "error", "timeout", "crashed")) - len(written)
        if others > 0:  # a game on a board, code that did not run or generated nothing: no tree to step through
            print(t("check.html_others", args.lang, count=others))
    return 0 if ok else 1
