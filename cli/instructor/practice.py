"""``abkit practice``: a pruning practice page on a seeded random tree (one per student with ``--variants``)."""

from __future__ import annotations

from pathlib import Path

from abkit.errors import UsageError
from abkit.i18n import t


def register(sub, lang: str, add_lang) -> None:
    p = sub.add_parser("practice", help=t("practice.help", lang), description=t("practice.help", lang))
    p.add_argument("--seed", type=int, default=0, help=t("practice.help.seed", lang))
    p.add_argument("--rule", choices=("aima", "cs188"), help=t("practice.help.rule", lang))
    p.add_argument("-b", type=int, default=3, metavar="B", help=t("practice.help.b", lang))
    p.add_argument("-d", type=int, default=3, metavar="D", help=t("practice.help.d", lang))
    p.add_argument("--min", type=int, default=0, dest="low", metavar="N", help=t("practice.help.min", lang))
    p.add_argument("--max", type=int, default=20, dest="high", metavar="N", help=t("practice.help.max", lang))
    p.add_argument("--out", type=Path, required=True, metavar="OUT.html", help=t("practice.help.out", lang))
    p.add_argument("--variants", type=Path, metavar="STUDENTS.CSV", help=t("practice.help.variants", lang))
    add_lang(p, lang)
    p.set_defaults(run=run)


def run(args) -> int:
    from abkit.stepthrough.page import write_page as write
    from abkit.handouts.practice import check_shape, difficulty, practice_page, practice_tree, variant_tree

    check_shape(args.b, args.d)
    if args.low > args.high:
        raise UsageError("generate.empty_range", low=args.low, high=args.high)
    rule = course_rule() if args.rule is None else args.rule == "aima"
    shape = (args.b, args.d, args.low, args.high)
    if args.variants is None:
        tree = practice_tree(args.b, args.d, args.low, args.high, args.seed)
        write(args.out, practice_page(tree, rule, args.lang, args.seed, shape))
        print(t("practice.wrote", args.lang, path=args.out))
        return 0
    from abkit.handouts import read_students

    students = read_students(args.variants)
    target = difficulty(practice_tree(*shape, args.seed), rule)  # the seed's tree's, measured once for the class
    for student in students:
        tree = variant_tree(*shape, args.seed, student, rule, target)
        path = args.out / f"{student}.html"
        write(path, practice_page(tree, rule, args.lang, args.seed, shape, student))
        print(t("practice.wrote", args.lang, path=path))
    print(t("practice.written", args.lang, count=len(students), out=args.out))
    return 0


def course_rule() -> bool:
    """The course's cut-off rule (``rule`` in its ``abkit-course.toml``) as ``prune_on_equality``."""
    from abkit.coursefolder import current_course

    return current_course().prune_on_equality
