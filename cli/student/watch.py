"""``abkit watch [EXERCISE] [--all]``: run ``abkit check`` again each time a file in exercises/ is saved (by default
on the current exercise, which moves on as the student's exercises pass)."""

from __future__ import annotations

import sys

from abkit.i18n import t


def register(sub, lang: str, add_lang) -> None:
    p = sub.add_parser("watch", help=t("watch.help", lang), description=t("watch.help", lang))
    p.add_argument("exercise", nargs="?", metavar="EXERCISE", help=t("check.help.exercise_current", lang))
    p.add_argument("--all", dest="every", action="store_true", help=t("watch.help.all", lang))
    p.add_argument("--exercises", metavar="DIR", help=t("check.help.exercises", lang))
    p.add_argument("--verbose", action="store_true", help=t("check.help.verbose", lang))
    p.add_argument("--interval", type=float, default=0.5, metavar="SECONDS", help=t("watch.help.interval", lang))
    add_lang(p, lang)
    p.set_defaults(run=run)


def run(args, sleep=None) -> int:
    from abkit.errors import UsageError
    from abkit.studentloop.report import check, chosen, find_course
    from abkit.textree import glyphs_for
    from abkit.studentloop.watch import clear_screen, forget_modules, watch

    course, folder = find_course(args.exercises)
    chosen(course, args.exercise)
    if not args.interval > 0:
        raise UsageError("watch.bad_interval", interval=args.interval)
    g = glyphs_for(sys.stdout)

    def emit(line: str) -> None:
        print(line, flush=True)

    def once() -> None:
        clear_screen(sys.stdout)
        forget_modules(folder)  # a helper module the student edited is imported again, as a new check would
        _, ok = check(args.exercises, args.exercise, args.lang, g, every=getattr(args, "every", False), emit=emit,
                      verbose=getattr(args, "verbose", False))
        print(t("watch.all_pass" if ok else "watch.waiting", args.lang, path=folder))
        sys.stdout.flush()

    try:
        watch(folder, once, args.interval, **({"sleep": sleep} if sleep else {}))
    except KeyboardInterrupt:
        print(t("watch.stopped", args.lang))
    return 0
