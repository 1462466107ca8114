"""``abkit fixtures verify|expect|redraw-hidden|generate|adequacy``: check every expectation; write expectations; draw
the hidden trees again; write random trees; check that the fixtures tell every mutant of the reference apart."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from abkit.coursefolder import current_course, same_course
from abkit.errors import UsageError
from abkit.fixture import FixtureError, fixture_paths, load_fixture, unique_ids
from abkit.fixtureformat import MAX_TREE_NODES
from abkit.i18n import t
from abkit.randomtree import ORDERINGS, GenerationError


def register(sub, lang: str, add_lang) -> None:
    p = sub.add_parser("fixtures", help=t("fixtures.help", lang), description=t("fixtures.help", lang))
    add_lang(p, lang)
    actions = p.add_subparsers(dest="action", metavar="ACTION", title=t("cli.commands", lang),
                               help=t("cli.help.action", lang))

    v = actions.add_parser("verify", help=t("fixtures.verify.help", lang), description=t("fixtures.verify.help", lang))
    v.add_argument("paths", nargs="*", metavar="PATH", help=t("fixtures.verify.help.paths", lang))
    add_lang(v, lang)
    v.set_defaults(run=run_verify)

    e = actions.add_parser("expect", help=t("fixtures.expect.help", lang), description=t("fixtures.expect.help", lang))
    e.add_argument("paths", nargs="*", metavar="PATH", help=t("fixtures.verify.help.paths", lang))
    add_lang(e, lang)
    e.set_defaults(run=run_expect)

    r = actions.add_parser("redraw-hidden", help=t("fixtures.redraw.help", lang),
                           description=t("fixtures.redraw.description", lang))
    r.add_argument("--seed", type=int, help=t("fixtures.redraw.help.seed", lang))
    add_lang(r, lang)
    r.set_defaults(run=run_redraw)

    a = actions.add_parser("adequacy", help=t("fixtures.adequacy.help", lang),
                           description=t("fixtures.adequacy.description", lang))
    a.add_argument("--exercise", help=t("fixtures.adequacy.help.exercise", lang))
    a.add_argument("--json", action="store_true", help=t("fixtures.adequacy.help.json", lang))
    a.add_argument("--add", action="store_true", help=t("fixtures.adequacy.help.add", lang))
    add_lang(a, lang)
    a.set_defaults(run=run_adequacy)

    g = actions.add_parser("generate", help=t("fixtures.generate.help", lang),
                           description=t("fixtures.generate.help", lang))
    g.add_argument("--branching", "-b", type=int, required=True, help=t("fixtures.generate.help.branching", lang))
    g.add_argument("--depth", "-d", type=int, required=True, help=t("fixtures.generate.help.depth", lang))
    g.add_argument("--min", type=int, default=-9, dest="low", help=t("fixtures.generate.help.min", lang))
    g.add_argument("--max", type=int, default=9, dest="high", help=t("fixtures.generate.help.max", lang))
    g.add_argument("--ordering", choices=ORDERINGS, default="random", help=t("fixtures.generate.help.ordering", lang))
    g.add_argument("--rule", choices=("aima", "cs188"), help=t("fixtures.generate.help.rule", lang))
    g.add_argument("--root", choices=("max", "min"), default="max", help=t("fixtures.generate.help.root", lang))
    g.add_argument("--distinct", action="store_true", help=t("fixtures.generate.help.distinct", lang))
    g.add_argument("--seed", type=int, help=t("fixtures.generate.help.seed", lang))
    g.add_argument("--count", type=int, default=1, help=t("fixtures.generate.help.count", lang))
    g.add_argument("--id", dest="prefix", help=t("fixtures.generate.help.id", lang))
    g.add_argument("--out", type=Path, required=True, help=t("fixtures.generate.help.out", lang))
    g.add_argument("--hidden", action="store_true", help=t("fixtures.generate.help.hidden", lang))
    add_lang(g, lang)
    g.set_defaults(run=run_generate)


def run_verify(args) -> int:
    from abkit.authoring.verify import verify_fixture  # the reference solutions load only when a command runs

    same_course(args.paths)
    paths = fixture_paths(args.paths or [current_course().fixtures])
    if not paths:
        raise UsageError("fixtures.none_found", paths=" ".join(map(str, args.paths or [current_course().fixtures])))
    broken = disagreements = missing = checked = 0
    folders: dict[Path, list] = {}  # the fixtures of each folder a test plan reads (public, hidden): one id each
    for path in paths:
        try:
            fixture = load_fixture(path)
            unique_ids([*folders.setdefault(_folder_of(path), []), fixture])
        except FixtureError as error:
            print(error.render(args.lang), file=sys.stderr)
            broken += 1
            continue
        folders[_folder_of(path)].append(fixture)
        checked += 1
        for key, line in lacking(fixture):
            missing += 1
            print(t(key, args.lang, path=path, line=line))
        for d in verify_fixture(fixture):
            disagreements += 1
            print(t("fixtures.disagreement", args.lang, path=d.path, line=d.line, field=d.field,
                    expected=_show(d.expected), got=_show(d.got)))
    print(t("fixtures.verified", args.lang, checked=checked, disagreements=disagreements, broken=broken))
    if missing:
        print(t("fixtures.missing", args.lang, count=missing))
    return 2 if broken else 1 if disagreements or missing else 0


def lacking(fixture) -> list[tuple[str, int]]:
    """What ``fixture`` lacks for verify to hold it to anything, as ``(message key, line)``: an ``expected:`` block
    (grading and check would test it on nothing the file says), or the ``value`` of one of its blocks."""
    if not fixture.expected:
        return [("fixtures.no_expected", 1)]
    return [("fixtures.no_value", fixture.lines.get(f"expected.{algorithm}", 1)) for algorithm, block
            in fixture.expected.items() if "value" not in block]


def _folder_of(path: Path) -> Path:
    """The folder whose fixtures are graded together: the course's public or hidden folder holding ``path``, else
    its own folder."""
    course = current_course()
    resolved = Path(path).resolve()
    for folder in (course.public_fixtures, course.hidden_fixtures):
        if folder.resolve() in resolved.parents:
            return folder.resolve()
    return resolved.parent


def run_expect(args) -> int:
    from abkit.authoring.expect import write_expected
    from abkit.authoring.fixturegen import add_windows

    same_course(args.paths)
    paths = fixture_paths(args.paths or [current_course().fixtures])
    if not paths:
        raise UsageError("fixtures.none_found", paths=" ".join(map(str, args.paths or [current_course().fixtures])))
    written = 0
    for path in paths:
        done = write_expected(path)
        if done is not None:
            blocks, rule = done
            print(t("fixtures.expect.expected", args.lang, path=path, blocks=", ".join(blocks),
                    rule=t(f"grade.rule.{'aima' if rule else 'cs188'}", args.lang)))
        elif add_windows(path):
            print(t("fixtures.expect.wrote", args.lang, path=path))
        else:
            continue
        written += 1
    if not written:
        print(t("fixtures.expect.nothing", args.lang, count=len(paths)))
    return 0


def run_redraw(args) -> int:
    from abkit.authoring.redraw import new_seed, redraw_hidden

    seed = args.seed if args.seed is not None else new_seed()
    folder = current_course().hidden_fixtures
    done = redraw_hidden(seed)
    for drawn in done:
        print(t(f"fixtures.redraw.{drawn.how}", args.lang, old=drawn.old, new=drawn.new, values=drawn.values))
    print(t("fixtures.redraw.done", args.lang, count=len(done), seed=seed, path=folder / "README.md"))
    return 0


def run_adequacy(args) -> int:
    """Exit status 0: every mutant is killed or equivalent; 1: one survives (after ``--add``: survived this run);
    2: bad input."""
    import time

    from abkit.authoring.adequacy import add_tree, analyse, course_rubric

    rubric = course_rubric()
    if args.exercise is not None and args.exercise not in rubric.points:
        raise UsageError("fixtures.adequacy.unknown", exercise=args.exercise, known=", ".join(rubric.points))
    start = time.monotonic()
    reports = analyse(rubric, [args.exercise] if args.exercise else None)
    survived = sum(r.count("survived") for r in reports)
    if args.json:
        print(json.dumps({"exercises": {r.exercise: r.to_json() for r in reports}}, ensure_ascii=False))
    else:
        for report in reports:
            _print_report(report, args.lang)
        print(t("fixtures.adequacy.done", args.lang, survived=survived, seconds=f"{time.monotonic() - start:.1f}"))
    if args.add:
        for outcome in (o for r in reports for o in r.outcomes if o.status == "survived"):
            path = add_tree(outcome, rubric.prune_on_equality)
            print(t("fixtures.adequacy.added", args.lang, mutant=outcome.mistake.id, path=path),
                  file=sys.stderr if args.json else sys.stdout)
    return 1 if survived else 0


def _print_report(report, lang: str) -> None:
    """The human report of one exercise: the counts, then each mutant, with the points it loses."""
    from abkit.textree import fmt
    from abkit.tree import to_nested

    print(t("fixtures.adequacy.exercise", lang, exercise=report.exercise, mutants=len(report.outcomes),
            killed=report.count("killed"), equivalent=report.count("equivalent"), survived=report.count("survived")))
    for o in report.outcomes:
        line = o.line
        lost, points = fmt(round(o.lost, 2)), fmt(o.max_score)
        share = f"{o.lost / o.max_score:.0%}" if o.max_score else "-"
        if o.status == "killed":
            print(t("fixtures.adequacy.killed", lang, mutant=o.mistake.id, test=o.killed_by, lost=lost,
                    points=points, share=share))
        elif o.status == "equivalent":
            print(t("fixtures.adequacy.equivalent", lang, mutant=o.mistake.id, trees=o.tried, line=line))
        else:
            tree = f"{o.tree.root_player} {json.dumps(to_nested(o.tree))}"
            if o.tree.heuristics:
                tree += f" EVAL {json.dumps(o.tree.heuristics)}"
            if o.depth is not None:
                tree = t("fixtures.adequacy.depth", lang, tree=tree, depth=o.depth)
            print(t("fixtures.adequacy.survived", lang, mutant=o.mistake.id, line=line, lost=lost, points=points,
                    tree=tree))


def _show(value) -> str:
    return json.dumps(value, ensure_ascii=False)


def _course_rule() -> str:
    """The cut-off rule of the course worked on (``abkit-course.toml``), or AIMA's outside any course."""
    from abkit.coursefolder import NoCourse, current_course

    try:
        return current_course().rule
    except NoCourse:
        return "aima"


def run_generate(args) -> int:
    from abkit.authoring.fixturegen import generate
    from abkit.authoring.redraw import new_seed

    if args.branching < 1 or args.depth < 0 or args.count < 1:
        raise UsageError("fixtures.generate.bad_shape")
    nodes = level = 1
    for _ in range(args.depth):  # level by level, stopping past the limit (a huge --depth answers at once)
        level *= args.branching
        nodes += level
        if nodes > MAX_TREE_NODES:  # a graded search could not report it whole (the fixture would be refused anyway)
            raise UsageError("fixtures.generate.too_big", limit=MAX_TREE_NODES)
    hidden = args.hidden or is_hidden_folder(args.out)
    rule = args.rule or _course_rule()
    seed = args.seed if args.seed is not None else new_seed() if hidden else 0
    try:
        written = generate(args.out, args.branching, args.depth, args.low, args.high, args.ordering,
                           rule, args.root, args.distinct, seed, args.count, args.prefix, hidden)
    except GenerationError as error:
        raise UsageError("fixtures.generate.impossible", reason=error.message) from None
    for path in written:
        print(t("fixtures.generate.wrote", args.lang, path=path))
    if hidden:
        print(t("fixtures.generate.hidden", args.lang, seed=seed, path=args.out / "README.md"))
    return 0


def is_hidden_folder(out: Path) -> bool:
    """Whether ``out`` is the current course's hidden folder or a folder inside it (links and ``..`` resolved)."""
    hidden = current_course().hidden_fixtures.resolve()
    resolved = Path(out).resolve()
    return resolved == hidden or hidden in resolved.parents
