"""``abkit trace FILE [--mine]``: the reference's search on one fixture, drawn; or the student's own, beside it."""

from __future__ import annotations

import json
import sys

from abkit.algorithms import Algorithm
from abkit.errors import UsageError
from abkit.fixture import load_fixture, load_fixtures
from abkit.i18n import t
from abkit.textree import glyphs_for, render_summary, render_tree


def register(sub, lang: str, add_lang) -> None:
    p = sub.add_parser("trace", help=t("trace.help", lang), description=t("trace.help", lang))
    p.add_argument("file", metavar="FILE", help=t("trace.help.file", lang))
    p.add_argument("--algorithm", choices=Algorithm.names(),
                   help=t("trace.help.algorithm", lang))
    p.add_argument("--rule", choices=("aima", "cs188"), help=t("trace.help.rule", lang))
    p.add_argument("--json", action="store_true", help=t("trace.help.json", lang))
    p.add_argument("--mine", action="store_true", help=t("trace.help.mine", lang))
    p.add_argument("--html", metavar="OUT.html", help=t("trace.help.html", lang))
    p.add_argument("--exercises", metavar="DIR", help=t("check.help.exercises", lang))
    add_lang(p, lang)
    p.set_defaults(run=run)


def run(args) -> int:
    from abkit.coursefolder import same_course
    from abkit.studentloop.fixturetrace import default_algorithm, search_trace, summary

    same_course([args.file])
    fixture = _load(args.file)
    algorithm = args.algorithm or (_current(args, fixture) if args.mine else None) or default_algorithm(fixture)
    if algorithm not in fixture.expected and not _can_run(fixture, algorithm):
        raise UsageError("trace.cannot_run", algorithm=algorithm, path=args.file)
    if args.mine:
        return _mine(args, fixture, algorithm)
    rule = fixture.prune_on_equality if args.rule is None else args.rule == "aima"
    trace = search_trace(fixture, algorithm, rule, args.file)
    if args.json:
        print(json.dumps(summary(trace, fixture), ensure_ascii=False))
        return 0
    if getattr(args, "html", None):
        return _html(args, fixture, trace, algorithm, rule)
    g = glyphs_for(sys.stdout)
    heading = t(f"trace.heading.{algorithm}", args.lang, title=fixture.label(args.lang))
    if fixture.tree is None:  # a whole game: too big to draw, say what the search did
        print(heading)
        print(render_summary(trace, None, args.lang, g))
        return 0
    if Algorithm(algorithm).prunes:
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

    from abkit.stepthrough.page import MAX_PAGE_NODES, trace_page, write_page

    tree, boards = fixture.tree, None
    if tree is None:  # a board position: the boards its search generates, drawn as a tree
        drawing = _game_drawing(args, fixture, algorithm, trace, MAX_PAGE_NODES)
        tree, trace, boards = drawing.tree, drawing.traces[0], drawing.boards
    heading = t(f"trace.heading.{algorithm}", args.lang, title=fixture.label(args.lang))
    subtitle = t("trace.rule.aima" if rule else "trace.rule.cs188", args.lang, ge="≥", le="≤", alpha="α", beta="β") \
        if Algorithm(algorithm).prunes else ""
    write_page(Path(args.html), trace_page(tree, trace, args.lang, heading, subtitle, rule, boards))
    print(t("trace.wrote", args.lang, path=args.html))
    return 0


def _game_drawing(args, fixture, algorithm: str, trace, most: int):
    """The search on a board position drawn as a tree; UsageError when the fixture records no boards for it (the
    student edition) or the tree would have more than ``most`` nodes."""
    from abkit.gametree import fixture_drawing
    from abkit.trace import CountedTrace

    counted = isinstance(trace, CountedTrace)  # the student edition: the path the fixture records
    if counted:
        _refuse_unrecorded(args, fixture, algorithm)
    drawing = fixture_drawing(fixture, algorithm, fixture.game(), [] if counted else [trace], path=counted, most=most)
    if drawing is None:
        raise UsageError("trace.html_too_big", path=args.file, algorithm=algorithm, count=f"{trace.nodes:,}", most=f"{most:,}")
    return drawing


def _refuse_unrecorded(args, fixture, algorithm: str) -> None:
    """UsageError when ``fixture`` is a board position whose ``algorithm`` block lists no boards (only the outcome
    and counts): a page could not draw the pseudocode's search there."""
    from abkit.gametree import recorded_boards

    if fixture.tree is None and not recorded_boards(fixture, algorithm):
        usable = [a for a in fixture.expected if recorded_boards(fixture, a)]
        raise UsageError("trace.html_no_boards", path=args.file, algorithm=algorithm, usable=", ".join(usable) or "-")


def _mine(args, fixture, algorithm: str) -> int:
    """The student's search on the fixture: their tree with the expected path's differences marked, the first
    difference and the values; exit 0 when it does what the pseudocode does, 1 when not."""
    from abkit.feedback import render_result
    from abkit.studentloop.fixturetrace import mine

    if args.json or args.rule is not None:
        raise UsageError("trace.mine.options")
    if args.html:
        _refuse_unrecorded(args, fixture, algorithm)
    result, exercise = mine(fixture, algorithm, args.exercises, args.lang)
    g = glyphs_for(sys.stdout)
    heading = "trace.mine.heading" if fixture.tree is not None else "trace.mine.heading_game"
    print(t(heading, args.lang, title=fixture.label(args.lang), file=exercise.file, warn=g.warn))
    print()
    if result.tree is not None and result.student is not None and result.student.error is None:
        for line in render_tree(result.student, result.tree, result.prune_on_equality, args.lang, g,
                                expected=result.expected):
            print(line)
        print()
        print(render_summary(result.student, result.tree, args.lang, g))
        print()
    print(render_result(result, args.lang, g=g, show_tree=False))
    if result.passed:
        print(t("trace.mine.same", args.lang))
    if args.html:
        _mine_html(args, result)
    return 0 if result.passed else 1


def _mine_html(args, result) -> None:
    """``--mine --html OUT.html``: the student's search as the step-through page ``check --html`` makes of a failing
    test (beside the pseudocode's), or, when it does what the pseudocode does or cannot be drawn, why there is none."""
    from pathlib import Path

    from abkit.stepthrough.page import student_page, wants_page, write_page

    if result.passed:
        print(t("trace.mine.html_same", args.lang, path=args.file))
    elif not wants_page(result):
        print(t("trace.mine.html_none", args.lang))
    else:
        write_page(Path(args.html), student_page(result, args.lang))
        print(t("trace.wrote", args.lang, path=args.html))


def _current(args, fixture) -> str | None:
    """``--mine`` without ``--algorithm``: the search of the exercise the student is working on (as ``check`` and
    ``hint`` find it: the first that does not pass), when the fixture records it; else ``None``."""
    from abkit.studentloop.fixturetrace import recorded
    from abkit.studentloop.report import find_course, working_on

    now = working_on(*find_course(args.exercises))
    algorithm = now.exercise.algorithm if now is not None else None
    return algorithm if algorithm in fixture.expected and recorded(fixture, algorithm) else None


def _load(file: str):
    """The fixture at ``file``, through the kit's cache (:mod:`abkit.cache`) when it is one of the course's public
    fixtures: a hidden tree is never cached."""
    from pathlib import Path

    from abkit.coursefolder import current_course

    path = Path(file)
    try:
        public = current_course().public_fixtures.resolve() in path.resolve().parents
    except OSError:  # pragma: no cover - a path the system cannot resolve: read it as it is
        public = False
    return load_fixtures([path], cache=True)[0] if public else load_fixture(path)


def _can_run(fixture, algorithm: str) -> bool:
    """Whether ``algorithm`` is defined on this fixture's game (chance nodes need expectimax, cut-off a depth)."""
    chance, spec = fixture.tree is not None and "CHANCE" in fixture.tree.levels, Algorithm(algorithm)
    if chance or spec.chance:
        return chance and spec.chance
    return not spec.depth_limited or fixture.depth is not None
