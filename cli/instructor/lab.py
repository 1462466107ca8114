"""``abkit lab ordering``: measure how action ordering changes alpha-beta's work, and plot it."""

from __future__ import annotations

from pathlib import Path

from abkit.errors import UsageError
from abkit.i18n import t


def register(sub, lang: str, add_lang) -> None:
    p = sub.add_parser("lab", help=t("lab.help", lang), description=t("lab.help", lang))
    p.add_argument("experiment", choices=("ordering",), help=t("lab.help.experiment", lang))
    p.add_argument("--branching", "-b", type=int, default=3, help=t("fixtures.generate.help.branching", lang))
    p.add_argument("--max-depth", type=int, default=6, help=t("lab.help.max_depth", lang))
    p.add_argument("--seeds", type=int, default=20, help=t("lab.help.seeds", lang))
    p.add_argument("--out", type=Path, help=t("lab.help.out", lang))
    add_lang(p, lang)
    p.set_defaults(run=run)


def run(args) -> int:
    from abkit.handouts.ordering_lab import measure, plot_svg, table  # the reference solutions load only when the lab runs

    if not (2 <= args.branching <= 8 and 1 <= args.max_depth <= 10 and 1 <= args.seeds <= 200) \
            or args.branching ** args.max_depth > 200_000:
        raise UsageError("lab.too_big")
    rows = measure(args.branching, range(1, args.max_depth + 1), args.seeds)
    for line in table(rows, args.lang):
        print(line)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(plot_svg(rows, args.lang), encoding="utf-8")
        print(t("lab.wrote", args.lang, path=args.out))
    return 0
