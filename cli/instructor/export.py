"""``abkit export gradescope --out autograder.zip``: the Gradescope autograder bundle; ``abkit export prairielearn
--out DIR``: PrairieLearn externally graded questions (the work is :mod:`abkit.grader.prairielearn`'s)."""

from __future__ import annotations

import sys
from pathlib import Path

from abkit.i18n import t



def register(sub, lang: str, add_lang) -> None:
    """``abkit export gradescope`` and ``abkit export prairielearn`` on the command line's parser ``sub``."""
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
    pl = targets.add_parser("prairielearn", help=t("export.prairielearn.help", lang),
                            description=t("export.prairielearn.help", lang))
    pl.add_argument("--out", type=Path, required=True, metavar="DIR", help=t("export.prairielearn.help.out", lang))
    add_lang(pl, lang)
    pl.set_defaults(run=run_prairielearn)


def run(args) -> int:
    """``abkit export gradescope``: 0 with the bundle written; 2 with one sentence for a faulty rubric."""
    from abkit.grader.gradescope import export_bundle
    from abkit.grader.rubric import RubricError

    try:
        names = export_bundle(args.out, args.rubric, args.lang)
    except RubricError as error:
        print(error.render(args.lang), file=sys.stderr)
        return 2
    print(t("export.gradescope.wrote", args.lang, path=args.out, files=len(names)))
    return 0


def run_prairielearn(args) -> int:
    """``abkit export prairielearn``: 0 with the course folder written; 2 with one sentence for a faulty rubric (a
    :class:`~abkit.errors.UsageError`, such as an ``--out`` that cannot be written, is the command line's)."""
    from abkit.grader.prairielearn import export_course
    from abkit.grader.rubric import RubricError

    try:
        names = export_course(args.out, args.lang)
    except RubricError as error:
        print(error.render(args.lang), file=sys.stderr)
        return 2
    questions = sum(name.endswith("/info.json") for name in names)
    print(t("export.prairielearn.wrote", args.lang, path=args.out, questions=questions, files=len(names)))
    return 0
