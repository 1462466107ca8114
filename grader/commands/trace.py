"""``abkit trace FILE``: run the reference search on one fixture and show what it did."""

from __future__ import annotations

import json
import sys

from abkit.fixture import load_fixture
from abkit.i18n import t

from ..reference import reference_trace
from ..textree import glyphs_for, render_summary, render_tree


def register(sub, lang: str, add_lang) -> None:
    p = sub.add_parser("trace", help=t("trace.help", lang), description=t("trace.help", lang))
    p.add_argument("file", metavar="FILE", help=t("trace.help.file", lang))
    p.add_argument("--algorithm", choices=("alphabeta", "minimax"), default="alphabeta",
                   help=t("trace.help.algorithm", lang))
    p.add_argument("--rule", choices=("aima", "cs188"), help=t("trace.help.rule", lang))
    p.add_argument("--json", action="store_true", help=t("trace.help.json", lang))
    add_lang(p, lang)
    p.set_defaults(run=run)


def run(args) -> int:
    fixture = load_fixture(args.file)
    rule = fixture.prune_on_equality if args.rule is None else args.rule == "aima"
    trace = reference_trace(fixture.game(), fixture.tree.root, args.algorithm, rule)
    if args.json:
        print(json.dumps(trace.summary(fixture.tree), ensure_ascii=False))
        return 0
    g = glyphs_for(sys.stdout)
    heading = t(f"trace.heading.{args.algorithm}", args.lang, title=fixture.label(args.lang))
    if args.algorithm == "alphabeta":
        heading += " · " + t("trace.rule.aima" if rule else "trace.rule.cs188", args.lang,
                             ge=g.ge, le=g.le, alpha=g.alpha, beta=g.beta)
    print(heading)
    print()
    for line in render_tree(trace, fixture.tree, rule, args.lang, g):
        print(line)
    print()
    print(render_summary(trace, fixture.tree, args.lang, g))
    return 0
