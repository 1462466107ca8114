"""``abkit stubs [--check]`` (maintainers): write exercises/*.py from solutions/*.py, or check they match."""

from __future__ import annotations

from abkit.i18n import t


def register(sub, lang: str, add_lang) -> None:
    p = sub.add_parser("stubs", help=t("stubs.help", lang), description=t("stubs.help", lang))
    p.add_argument("--check", action="store_true", help=t("stubs.help.check", lang))
    add_lang(p, lang)
    p.set_defaults(run=run)


def run(args) -> int:
    from abkit.coursefolder import current_course

    from abkit.info import load_info
    from abkit.authoring.stubs import drifted, stub_pairs

    course = current_course()
    pairs = stub_pairs(course.solutions, course.exercises, load_info(course.exercises / "info.yaml").names(),
                       course.rule)
    stale = drifted(pairs)
    if args.check:
        for path in stale:
            print(t("stubs.drifted", args.lang, path=path))
        print(t("stubs.checked", args.lang, count=len(pairs), stale=len(stale)))
        return 1 if stale else 0
    for path, text in pairs:
        if path in stale:
            path.write_text(text, encoding="utf-8")
            print(t("stubs.wrote", args.lang, path=path))
    print(t("stubs.checked", args.lang, count=len(pairs), stale=0))
    return 0
