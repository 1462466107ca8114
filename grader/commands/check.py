"""``abkit check [EXERCISE]``: the public tests on the student's files, with trace-level feedback."""

from __future__ import annotations

import sys

from abkit.i18n import t


def register(sub, lang: str, add_lang) -> None:
    p = sub.add_parser("check", help=t("check.help", lang), description=t("check.description", lang))
    p.add_argument("exercise", nargs="?", metavar="EXERCISE", help=t("check.help.exercise", lang))
    p.add_argument("--exercises", metavar="DIR", help=t("check.help.exercises", lang))
    add_lang(p, lang)
    p.set_defaults(run=run)


def run(args) -> int:
    from ..report import check
    from ..textree import glyphs_for

    lines, ok = check(args.exercises, args.exercise, args.lang, glyphs_for(sys.stdout))
    print("\n".join(lines))
    return 0 if ok else 1
