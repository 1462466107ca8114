"""``abkit hint [EXERCISE] [N]``: a hint for the first difference ``abkit check`` finds in the exercise, then its
first N staged hints (one more each time); by default of the current exercise, the first that does not pass all
its public tests."""

from __future__ import annotations

from abkit.i18n import t


def register(sub, lang: str, add_lang) -> None:
    p = sub.add_parser("hint", help=t("hint.help", lang), description=t("hint.help", lang))
    p.add_argument("exercise", nargs="?", metavar="EXERCISE", help=t("hint.help.exercise_current", lang))
    p.add_argument("count", nargs="?", type=int, default=None, metavar="N", help=t("hint.help.count", lang))
    p.add_argument("--exercises", metavar="DIR", help=t("check.help.exercises", lang))
    add_lang(p, lang)
    p.set_defaults(run=run)


def run(args) -> int:
    from abkit.errors import UsageError
    from abkit.i18n import catalogue
    from abkit.studentloop.report import chosen, find_course, first_failure, seen_kind, working_on

    course, folder = find_course(args.exercises)
    name, count = args.exercise, args.count
    if name is not None and count is None and name.lstrip("-").isdigit():  # `abkit hint 2`: N for the current one
        name, count = None, int(name)
    if name is None:
        now = working_on(course, folder)
        if now is None:
            print(t("hint.all_pass", args.lang, name=course.names()[-1]))
            return 0
        name = now.name
    exercise = course.get(chosen(course, name)[0])
    failing = first_failure(course, exercise, folder)
    key = failing and f"hint.seen.{seen_kind(failing)}"
    if key and key in catalogue(args.lang):
        print(t("hint.seen", args.lang, test=failing.label(args.lang), hint=t(key, args.lang)))
    hints = exercise.hints[args.lang]
    count = 1 if count is None else count
    if count < 1:
        raise UsageError("hint.bad_count", count=count, total=len(hints))
    shown = min(count, len(hints))
    for k in range(shown):
        print(t("hint.heading", args.lang, number=k + 1, total=len(hints), name=exercise.name, title=exercise.label(args.lang)))
        print(f"  {hints[k]}")
    if shown < len(hints):
        print(t("hint.more", args.lang, name=exercise.name, next=shown + 1))
    else:
        print(t("hint.last", args.lang, name=exercise.name))
    return 0
