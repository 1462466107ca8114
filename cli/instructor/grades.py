"""``abkit grades ACTION``: what is done with grading folders once graded; ``abkit grades merge OUT1 OUT2 … --out
MERGED`` merges the shards of a class (``abkit grade --shard K/N``) into one folder, ``abkit grades export``
writes the gradebook an LMS imports (:mod:`abkit.cli.instructor.gradebook`)."""

from __future__ import annotations

from pathlib import Path

from abkit.i18n import t

from abkit.cli.instructor import gradebook


def register(sub, lang: str, add_lang) -> None:
    """The ``grades`` group; each action adds its own parser to it (a new action: one more name in the tuple)."""
    p = sub.add_parser("grades", help=t("shards.grades.help", lang), description=t("shards.grades.help", lang))
    add_lang(p, lang)
    actions = p.add_subparsers(dest="action", metavar="ACTION", title=t("cli.commands", lang),
                               help=t("shards.grades.help.action", lang))
    for add in (add_merge, gradebook.register):
        add(actions, lang, add_lang)


def add_merge(actions, lang: str, add_lang) -> None:
    """``abkit grades merge OUT… --out MERGED``."""
    m = actions.add_parser("merge", help=t("shards.merge.help", lang), description=t("shards.merge.help", lang))
    m.add_argument("shards", nargs="+", type=Path, metavar="OUT", help=t("shards.merge.help.shards", lang))
    m.add_argument("--out", type=Path, required=True, help=t("shards.merge.help.out", lang))
    add_lang(m, lang)
    m.set_defaults(run=run_merge)


def run_merge(args) -> int:
    """Merge the shards; a refusal is a :class:`~abkit.errors.UsageError` (status 2, said by the command line)."""
    from abkit.grader.shards import merge

    merged = merge(args.shards, args.out)
    print(t("shards.merged", args.lang, shards=len(args.shards), students=len(merged.record["students"]),
            out=merged.out))
    if merged.failed:  # the grader failed on some students in their shard: named with the command to grade them
        from abkit.cli.instructor.grade import report_grader_errors

        return report_grader_errors(merged, args.lang)
    return 0
