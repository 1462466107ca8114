"""``abkit rubric check [FILE]``: refuse a rubric before any student runs."""

from __future__ import annotations

import sys
from pathlib import Path

from abkit.i18n import t


def register(sub, lang: str, add_lang) -> None:
    p = sub.add_parser("rubric", help=t("rubric.help", lang), description=t("rubric.help", lang))
    add_lang(p, lang)
    actions = p.add_subparsers(dest="action", metavar="ACTION", title=t("cli.commands", lang),
                               help=t("cli.help.action", lang))
    c = actions.add_parser("check", help=t("rubric.check.help", lang), description=t("rubric.check.help", lang))
    c.add_argument("file", nargs="?", type=Path, metavar="FILE", help=t("rubric.check.help.file", lang))
    add_lang(c, lang)
    c.set_defaults(run=run_check)


def checked_rubric(path: Path | None, lang: str):
    """The rubric at ``path`` (default: the course's) when it is usable and every point of it can be awarded;
    otherwise None, each problem printed (path:line) on stderr."""
    from abkit.grader.rubric import RubricError, load_rubric
    from abkit.grader.rubriccheck import unawardable

    try:
        rubric = load_rubric(path)
    except RubricError as error:
        print(error.render(lang), file=sys.stderr)
        return None
    problems = unawardable(rubric)
    for error in problems:
        print(error.render(lang), file=sys.stderr)
    return None if problems else rubric


def run_check(args) -> int:
    rubric = checked_rubric(args.file, args.lang)
    if rubric is None:
        return 2
    scores = ", ".join(f"{e} {_number(rubric.max_score(e))}" for e in rubric.points)
    print(t("rubric.check.fine", args.lang, path=rubric.path, total=_number(rubric.max_score()), scores=scores))
    return 0


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
