"""``abkit check [EXERCISE]``: the public tests on the student's files, with trace-level feedback."""

from __future__ import annotations

import sys

from abkit.i18n import t


def register(sub, lang: str, add_lang) -> None:
    p = sub.add_parser("check", help=t("check.help", lang), description=t("check.description", lang))
    p.add_argument("exercise", nargs="?", metavar="EXERCISE", help=t("check.help.exercise", lang))
    p.add_argument("--exercises", metavar="DIR", help=t("check.help.exercises", lang))
    p.add_argument("--html", metavar="DIR", help=t("check.help.html", lang))
    add_lang(p, lang)
    p.set_defaults(run=run)


def run(args) -> int:
    from ..report import check
    from ..textree import glyphs_for

    results: list | None = [] if getattr(args, "html", None) else None
    lines, ok = check(args.exercises, args.exercise, args.lang, glyphs_for(sys.stdout), keep=results)
    print("\n".join(lines))
    if results is not None:
        from pathlib import Path

        from ..stepthrough.page import write_pages

        written = write_pages(results, Path(args.html), args.lang)
        print(t("check.html_written", args.lang, count=len(written), out=args.html))
    return 0 if ok else 1
