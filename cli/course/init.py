"""``abkit init DIR [--seed S]``: a new course folder, copied from the default course (the kit's own), with hidden
trees of its own drawn from ``S`` (default: a new seed)."""

from __future__ import annotations

from pathlib import Path

from abkit.i18n import t


def register(sub, lang: str, add_lang) -> None:
    p = sub.add_parser("init", help=t("init.help", lang), description=t("init.help", lang))
    p.add_argument("folder", type=Path, metavar="DIR", help=t("init.help.folder", lang))
    p.add_argument("--seed", type=int, help=t("init.help.seed", lang))
    add_lang(p, lang)
    p.set_defaults(run=run, needs_course=False)


def run(args) -> int:
    from abkit.authoring.course import init_course
    from abkit.authoring.redraw import new_seed

    seed = args.seed if args.seed is not None else new_seed()
    written = init_course(args.folder, seed, args.lang)
    print(t("init.wrote", args.lang, count=len(written), path=args.folder))
    print(t("init.hidden", args.lang, seed=seed, path=args.folder / "fixtures" / "hidden" / "README.md"))
    print(t("init.next", args.lang, path=args.folder))
    return 0
