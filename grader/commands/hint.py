"""``abkit hint EXERCISE [N]``: the first N hints of an exercise (staged: one more each time)."""

from __future__ import annotations

from abkit.i18n import t


def register(sub, lang: str, add_lang) -> None:
    p = sub.add_parser("hint", help=t("hint.help", lang), description=t("hint.help", lang))
    p.add_argument("exercise", metavar="EXERCISE", help=t("hint.help.exercise", lang))
    p.add_argument("count", nargs="?", type=int, default=1, metavar="N", help=t("hint.help.count", lang))
    p.add_argument("--exercises", metavar="DIR", help=t("check.help.exercises", lang))
    add_lang(p, lang)
    p.set_defaults(run=run)


def run(args) -> int:
    from ..errors import UsageError
    from ..report import chosen, find_course

    course, _ = find_course(args.exercises)
    exercise = course.get(chosen(course, args.exercise)[0])
    hints = exercise.hints[args.lang]
    if args.count < 1:
        raise UsageError("hint.bad_count", count=args.count, total=len(hints))
    shown = min(args.count, len(hints))
    for k in range(shown):
        print(t("hint.heading", args.lang, number=k + 1, total=len(hints), name=exercise.name, title=exercise.label(args.lang)))
        print(f"  {hints[k]}")
    if shown < len(hints):
        print(t("hint.more", args.lang, name=exercise.name, next=shown + 1))
    else:
        print(t("hint.last", args.lang, name=exercise.name))
    return 0
