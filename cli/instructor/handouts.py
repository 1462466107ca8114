"""``abkit handouts build|review``: print the handouts; check the Korean words against the English."""

from __future__ import annotations

import argparse
from pathlib import Path

from abkit.errors import UsageError
from abkit.i18n import t

# The builder (jinja2, typst) is imported when a handouts command runs, not when abkit starts.


def add_course(parser, lang: str) -> None:
    """``--course`` on a parser that does not take the common ``--lang`` (see :func:`abkit.cli.arguments.add_course`)."""
    from abkit.cli.arguments import add_course as add

    add(parser, lang, argparse.SUPPRESS)


def register(sub, lang: str, add_lang) -> None:
    p = sub.add_parser("handouts", help=t("handouts.help", lang), description=t("handouts.help", lang))
    add_lang(p, lang)
    actions = p.add_subparsers(dest="action", metavar="ACTION", title=t("cli.commands", lang),
                               help=t("handouts.help.action", lang))

    b = actions.add_parser("build", help=t("handouts.build.help", lang), description=t("handouts.build.help", lang))
    # --languages names the handouts' languages. --lang: a comma list is the handouts' languages (the contract's
    # `--lang ko,en`; messages then follow the locale, see cli._lang_from); one language is the messages' language,
    # and the handouts' too when --languages is not given.
    b.add_argument("--languages", dest="langs", metavar="LANGS", help=t("handouts.build.help.languages", lang))
    b.add_argument("--lang", dest="lang_option", metavar="LANG[,LANG]", help=t("handouts.build.help.lang", lang))
    add_course(b, lang)
    b.add_argument("--out", type=Path, required=True, help=t("handouts.build.help.out", lang))
    b.add_argument("--variants", type=Path, metavar="STUDENTS.CSV", help=t("handouts.build.help.variants", lang))
    b.add_argument("--format", dest="formats", default="pdf,html", help=t("handouts.build.help.format", lang))
    b.set_defaults(run=run_build, lang=lang)

    r = actions.add_parser("review", help=t("handouts.review.help", lang), description=t("handouts.review.help", lang))
    r.add_argument("--stamp", nargs="+", metavar="KEY", default=[], help=t("handouts.review.help.stamp", lang))
    r.add_argument("--stamp-all", action="store_true", help=t("handouts.review.help.stamp_all", lang))
    add_lang(r, lang)
    r.set_defaults(run=run_review)


def run_build(args) -> int:
    from abkit.handouts import build, parse_langs, read_students
    from abkit.handouts.facts import FactError

    langs = parse_langs(args.langs or args.lang_option or "ko,en")
    formats = tuple(dict.fromkeys(f.strip() for f in args.formats.split(",") if f.strip()))
    if not formats or set(formats) - {"pdf", "html"}:
        raise UsageError("handouts.bad_format", found=args.formats)
    students = read_students(args.variants) if args.variants else None
    try:
        written = build(langs, args.out, students, formats)
    except FactError as error:  # numbers in the outline or a fixture that no longer fit the words stating them
        raise UsageError("handouts.fact_broken", what=error.what) from None
    for path in written:
        print(t("handouts.wrote", args.lang, path=path))
    print(t("handouts.built", args.lang, count=len(written), out=args.out))
    return 0


def run_review(args) -> int:
    from abkit.handouts.words import review, stamp

    if args.stamp or args.stamp_all:
        keys = list(args.stamp) or review().stale
        for key in stamp(keys):
            print(t("handouts.review.stamped", args.lang, key=key))
    state = review()
    for field, keys in (("only_en", state.only_en), ("only_ko", state.only_ko), ("stale", state.stale)):
        for key in keys:
            print(t(f"handouts.review.{field}", args.lang, key=key))
    print(t("handouts.review.summary", args.lang, only_en=len(state.only_en), only_ko=len(state.only_ko),
            stale=len(state.stale)))
    return 0 if state.clean else 1
