"""``abkit trace FILE``: run the reference search on one fixture and show what it did."""

from __future__ import annotations

import json
import sys

from abkit.fixture import load_fixture
from abkit.i18n import t

from ..errors import UsageError
from ..reference import reference_trace
from ..textree import glyphs_for, render_summary, render_tree


def register(sub, lang: str, add_lang) -> None:
    p = sub.add_parser("trace", help=t("trace.help", lang), description=t("trace.help", lang))
    p.add_argument("file", metavar="FILE", help=t("trace.help.file", lang))
    p.add_argument("--algorithm", choices=("alphabeta", "minimax", "cutoff", "expectimax", "ordering"),
                   help=t("trace.help.algorithm", lang))
    p.add_argument("--rule", choices=("aima", "cs188"), help=t("trace.help.rule", lang))
    p.add_argument("--json", action="store_true", help=t("trace.help.json", lang))
    p.add_argument("--html", metavar="OUT.html", help=t("trace.help.html", lang))
    add_lang(p, lang)
    p.set_defaults(run=run)


def run(args) -> int:
    from ..course import same_course

    same_course([args.file])
    fixture = load_fixture(args.file)
    algorithm = args.algorithm or _default_algorithm(fixture)
    if algorithm not in fixture.expected and not _can_run(fixture, algorithm):
        raise UsageError("trace.cannot_run", algorithm=algorithm, path=args.file)
    rule = fixture.prune_on_equality if args.rule is None else args.rule == "aima"
    game = fixture.game()
    trace = reference_trace(game, fixture.root, algorithm, rule, **fixture.search_params(algorithm, game))
    if args.json:
        print(json.dumps(trace.summary(fixture.tree), ensure_ascii=False))
        return 0
    if getattr(args, "html", None):
        return _html(args, fixture, trace, algorithm, rule)
    if fixture.tree is None:  # a whole game: too big to draw, say what the search did
        print(t(f"trace.heading.{algorithm}", args.lang, title=fixture.label(args.lang)))
        print(render_summary(trace, None, args.lang, glyphs_for(sys.stdout)))
        return 0
    g = glyphs_for(sys.stdout)
    heading = t(f"trace.heading.{algorithm}", args.lang, title=fixture.label(args.lang))
    if algorithm in ("alphabeta", "cutoff", "ordering"):
        heading += " · " + t("trace.rule.aima" if rule else "trace.rule.cs188", args.lang,
                             ge=g.ge, le=g.le, alpha=g.alpha, beta=g.beta)
    print(heading)
    print()
    for line in render_tree(trace, fixture.tree, rule, args.lang, g):
        print(line)
    print()
    print(render_summary(trace, fixture.tree, args.lang, g))
    return 0


def _html(args, fixture, trace, algorithm: str, rule: bool) -> int:
    """``--html OUT.html``: the search as a step-through page (a game tree only)."""
    from pathlib import Path

    from ..stepthrough.page import trace_page, write_page

    if fixture.tree is None:
        raise UsageError("trace.html_needs_tree", path=args.file)
    heading = t(f"trace.heading.{algorithm}", args.lang, title=fixture.label(args.lang))
    subtitle = t("trace.rule.aima" if rule else "trace.rule.cs188", args.lang, ge="≥", le="≤", alpha="α", beta="β") \
        if algorithm in ("alphabeta", "cutoff", "ordering") else ""
    write_page(Path(args.html), trace_page(fixture.tree, trace, args.lang, heading, subtitle, rule))
    print(t("trace.wrote", args.lang, path=args.html))
    return 0


def _default_algorithm(fixture) -> str:
    """The fixture's own search when it has one (expectimax, cut-off), else alpha-beta."""
    for algorithm in ("expectimax", "cutoff", "ordering"):
        if algorithm in fixture.expected:
            return algorithm
    return "alphabeta"


def _can_run(fixture, algorithm: str) -> bool:
    """Whether ``algorithm`` is defined on this fixture's game (chance nodes need expectimax, cut-off a depth)."""
    chance = fixture.tree is not None and "CHANCE" in fixture.tree.levels
    if chance or algorithm == "expectimax":
        return chance and algorithm == "expectimax"
    return algorithm not in ("cutoff", "ordering") or fixture.depth is not None
