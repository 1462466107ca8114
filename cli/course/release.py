"""``abkit release student --out DIR``: the student edition (stubs, public fixtures, check), no solutions."""

from __future__ import annotations

from abkit.i18n import t


def register(sub, lang: str, add_lang) -> None:
    p = sub.add_parser("release", help=t("release.help", lang), description=t("release.description", lang))
    p.add_argument("edition", choices=("student",), help=t("release.help.edition", lang))
    p.add_argument("--out", required=True, metavar="DIR", help=t("release.help.out", lang))
    p.add_argument("--handouts", metavar="DIR", help=t("release.help.handouts", lang))
    add_lang(p, lang)
    p.set_defaults(run=run)


def run(args) -> int:
    from abkit.authoring.release import build_student_edition

    written = build_student_edition(args.out, handouts=args.handouts, lang=args.lang)
    print(t("release.wrote", args.lang, count=len(written), path=args.out))
    return 0
