"""``abkit export gradescope --out autograder.zip``: the Gradescope autograder bundle."""

from __future__ import annotations

import sys
from pathlib import Path

from abkit.i18n import t



def register(sub, lang: str, add_lang) -> None:
    p = sub.add_parser("export", help=t("export.help", lang), description=t("export.help", lang))
    add_lang(p, lang)
    targets = p.add_subparsers(dest="target", metavar="TARGET", title=t("cli.commands", lang),
                               help=t("export.help.target", lang))
    g = targets.add_parser("gradescope", help=t("export.gradescope.help", lang),
                           description=t("export.gradescope.help", lang))
    g.add_argument("--out", type=Path, required=True, help=t("export.gradescope.help.out", lang))
    g.add_argument("--rubric", type=Path, metavar="FILE", help=t("grade.help.rubric", lang))
    add_lang(g, lang)
    g.set_defaults(run=run)


def run(args) -> int:
    from abkit.grader.gradescope import export_bundle
    from abkit.grader.rubric import RubricError

    try:
        names = export_bundle(args.out, args.rubric, args.lang)
    except RubricError as error:
        print(error.render(args.lang), file=sys.stderr)
        return 2
    print(t("export.gradescope.wrote", args.lang, path=args.out, files=len(names)))
    return 0
