"""A course's own hidden trees, drawn afresh from a seed: the kit is public, so the trees it publishes in
``fixtures/hidden/`` must not be the ones a course grades with.

``abkit init`` draws them for every new course folder, and ``abkit fixtures redraw-hidden [--seed S]`` in any
course folder (this repository included); the seed is recorded in ``fixtures/hidden/README.md`` (a line added to the
record there, earlier ones kept: :mod:`abkit.authoring.record`), and the same seed gives the same trees. No id, title,
file name or ``source:`` line of a drawn tree names a seed: ids and titles are shown to students, and the generator
is public. Each hidden fixture is replaced by one of the same kind (:func:`redraw_fixture`):

- a tree written by ``abkit fixtures generate`` (its ``source:`` names the command): the same command with a seed
  drawn from the course's;
- a tree written by hand: the same shape, players, probabilities and depth limit, its leaf utilities and
  heuristic values drawn again from the same range (0..9, −9..9, 0..99, …; halves when it had fractions) until
  the tree is as hard as the kit's published one it comes from (:func:`difficulty`, :func:`caught`); when no draw
  of :data:`MAX_DRAWS` is, the tree is kept as it was, and the README says so;
- a tree ``abkit fixtures adequacy --add`` wrote to tell one slip apart: the same shape, values drawn from −9..9 in
  halves (or a wider range of the same kind) until it still tells that slip apart;
- a tic-tac-toe position is kept: a small position is one of a few dozen, none of which could stay unknown, and
  the search is graded on what the student's own code computes there.

Every expectation is computed by the course's reference solutions (``abkit fixtures verify`` checks them as it
checks any fixture). Notes and descriptions of a hand-made tree are dropped: they describe the old values.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
import re
import secrets
import shlex
from dataclasses import dataclass
from pathlib import Path

from abkit.algorithms import Algorithm
from abkit.coursefolder import current_course
from abkit.courserule import counterpart_key
from abkit.errors import UsageError
from abkit.fixture import Fixture, FixtureError, fixture_paths, load_fixture
from abkit.game import CHANCE, MAX
from abkit.i18n import LANGS, t
from abkit.loading import HIDDEN_FIXTURES
from abkit.randomtree import random_tree
from abkit.tree import Tree, TreeGame, backed_up_values, from_nested, to_nested

from abkit.grader.mistakes import same_slip, told_slip

from abkit.authoring.fixturegen import dump, fixture_document, hidden_title
from abkit.authoring.record import with_new_head
from abkit.authoring.verify import reference_fields

#: draws of a hand-made tree's values before it is kept as it was
MAX_DRAWS = 2000
README = "README.md"
#: a generated tree's source: the command's options, then its seed (a published tree) or ``--hidden`` (a drawn one)
_GENERATED = re.compile(r"abkit fixtures generate (?P<args>.*?)(?:\s+--seed\s+-?\d+)?(?:\s+--hidden)?\s*\Z", re.S)
_SEEDED_ID = re.compile(r"-s\d+$")
#: the source line of a hand-made tree drawn again: its recipe, the same at every draw (older draws named the seed)
_REDRAWN = re.compile(r"abkit fixtures redraw-hidden(?: --seed -?\d+)?: (?P<recipe>.*)\Z", re.S)
#: the recipe's start: the published tree whose shape a drawn tree keeps
_ORIGIN = re.compile(r"the shape of (?P<id>[\w.-]+) \(")
_RANGE = re.compile(r"values drawn again from (-?\d+)\.\.(-?\d+)( \(halves\))?\Z")


@dataclass(frozen=True)
class Drawn:
    """What became of one hidden fixture: ``how`` is ``generated``, ``values``, ``slip`` (the values of a tree added
    to tell a slip apart), ``kept_game`` or ``kept_hard``;
    ``old`` and ``new`` are the file names before and after; ``values``: the range the values were drawn from."""

    old: str
    new: str
    how: str
    values: str = ""


def new_seed() -> int:
    """A fresh course seed (nine digits: short enough to read out and type)."""
    return secrets.randbelow(900_000_000) + 100_000_000


def tree_seed(seed: int, fixture_id: str) -> int:
    """The seed of one tree, from the course's seed and the tree's id (ids stay the same from one draw to the next,
    so the same course seed always gives the same trees).

    >>> tree_seed(1, "a") == tree_seed(1, "a") != tree_seed(2, "a")
    True
    """
    return int(hashlib.sha256(f"{seed}/{fixture_id}".encode()).hexdigest()[:12], 16)


def redraw_hidden(seed: int, folder: Path | None = None, command: str | None = None) -> list[Drawn]:
    """Replace every hidden fixture of the current course (or of ``folder``) by one drawn from ``seed``; rewrite the
    README, which says what became of each file and keeps the record of seeds with a line added for this draw
    (``command``: what drew it, ``abkit fixtures redraw-hidden --seed S`` unless given); return what became of each
    file. UsageError when there are no hidden fixtures or one cannot be read."""
    folder = Path(folder) if folder is not None else current_course().hidden_fixtures
    paths = fixture_paths([folder]) if folder.is_dir() else []
    if not paths:
        raise UsageError("redraw.none", path=str(folder))
    try:
        fixtures = [load_fixture(p) for p in paths]
    except FixtureError as error:
        raise UsageError("redraw.unreadable", problem=error.render()) from None
    ids = new_ids(fixtures)
    shared = pair_seeds(fixtures, ids)
    done: list[Drawn] = []
    texts: dict[Path, str] = {}
    for path, fixture in zip(paths, fixtures):
        text, how, values = redraw_fixture(fixture, ids[fixture.id], seed, shared.get(fixture.id))
        target = path.with_name(f"{ids[fixture.id]}{path.suffix}")
        texts[target] = text
        done.append(Drawn(path.relative_to(folder).as_posix(), target.relative_to(folder).as_posix(), how, values))
    for path in paths:  # every new text is ready: only now is anything replaced
        if path not in texts:
            path.unlink()
    for target, text in texts.items():
        target.write_text(text, encoding="utf-8")
    old = (folder / README).read_text(encoding="utf-8") if (folder / README).is_file() else ""
    command = command or f"abkit fixtures redraw-hidden --seed {seed}"
    (folder / README).write_text(with_new_head(old, readme(seed, done), seed, command, [d.new for d in done]),
                                 encoding="utf-8")
    return done


def new_ids(fixtures: list[Fixture]) -> dict[str, str]:
    """Old id -> new id: a generated tree's id loses its ``-s<seed>`` (``random-b3-d3-min-s5`` would tell a student
    the public generator's seed); ids that then coincide are numbered ``-1``, ``-2``, … in their order."""
    stems = {f.id: _SEEDED_ID.sub("", f.id) if _GENERATED.search(f.source) else f.id for f in fixtures}
    count: dict[str, int] = {}
    for stem in stems.values():
        count[stem] = count.get(stem, 0) + 1
    taken = {stem for stem, n in count.items() if n == 1}
    numbered: dict[str, int] = {}
    ids = {}
    for old, stem in stems.items():
        if count[stem] == 1:
            ids[old] = stem
            continue
        while True:
            numbered[stem] = numbered.get(stem, 0) + 1
            candidate = f"{stem}-{numbered[stem]}"
            if candidate not in taken:
                break
        taken.add(candidate)
        ids[old] = candidate
    return ids


def pair_seeds(fixtures: list[Fixture], ids: dict[str, str]) -> dict[str, str]:
    """Old id -> the new id whose seed it is drawn with, for the fixtures that are one tree written for both cut-off
    rules (:func:`abkit.courserule.counterpart_key`): both are drawn with the AIMA one's seed, so they stay one tree
    and a course tests its own rule's (a lone fixture of the other rule would be recomputed under the course's
    rule and shown under a title naming the other rule). A tree added to tell a slip apart is drawn alone: two such
    smallest trees may coincide, each telling its own slip apart."""
    pairs: dict[str, list[Fixture]] = {}
    for fixture in fixtures:
        if fixture.tree is not None and not _GENERATED.search(fixture.source) and not told_slip(fixture.source):
            pairs.setdefault(counterpart_key(fixture), []).append(fixture)
    shared = {}
    for members in pairs.values():
        if {f.prune_on_equality for f in members} == {True, False}:
            first = min(members, key=lambda f: (not f.prune_on_equality, ids[f.id]))
            shared |= {f.id: ids[first.id] for f in members}
    return shared


def redraw_fixture(fixture: Fixture, new_id: str, seed: int, seed_id: str | None = None) -> tuple[str, str, str]:
    """The text of the fixture that replaces ``fixture`` (id ``new_id``), how it was drawn, and the value range;
    its tree is drawn with the seed of ``seed_id`` (default ``new_id``): a fixture and its counterpart share one."""
    rng_seed = tree_seed(seed, seed_id or new_id)
    generated = _GENERATED.search(fixture.source)
    if fixture.tree is None:
        return _text(fixture), "kept_game", ""
    if generated:
        return _generated(new_id, rng_seed, generated.group("args")), "generated", ""
    redrawn = _REDRAWN.match(fixture.source)
    found = redrawn and _RANGE.search(redrawn.group("recipe"))
    if found:
        recipe = redrawn.group("recipe")
        values = (int(found.group(1)), int(found.group(2)), bool(found.group(3)))
    else:
        values = value_range(list(fixture.tree.utilities.values()))
        if told_slip(fixture.source):  # a smallest tree: its slip may need ties, fractions or a value below 0
            values = (-values[1], values[1], True)
        recipe = f"the shape of {fixture.id} ({fixture.source}), values drawn again from {_show_range(*values)}"
    tree = redraw_values(fixture, values, random.Random(rng_seed))
    if tree is None:
        return _text(fixture), "kept_hard", ""
    source = f"abkit fixtures redraw-hidden: {recipe}"
    how = "slip" if told_slip(fixture.source) else "values"
    return dump(hand_document(fixture, tree, new_id, source)), how, _show_range(*values)


def _text(fixture: Fixture) -> str:
    return fixture.path.read_text(encoding="utf-8")


def _generated(new_id: str, rng_seed: int, args: str) -> str:
    """The tree a fixture's ``abkit fixtures generate`` command (its options ``args``) gives with ``rng_seed``,
    written as a hidden tree: id ``new_id``, a title and a ``source:`` that name no seed."""
    options = _options(args)
    branching, depth = int(options["branching"]), int(options["depth"])
    low, high = int(options.get("min", -9)), int(options.get("max", 9))
    ordering, rule, root = options.get("ordering", "random"), options.get("rule", "aima"), options.get("root", "max")
    distinct = "distinct" in options
    tree = random_tree(branching, depth, low, high, ordering, root.upper(), distinct, rng_seed)
    title = hidden_title(branching, depth, ordering, new_id)
    source = f"abkit fixtures generate {args} --hidden"
    return dump(fixture_document(tree, new_id, title, source, rule == "aima"))


def _options(args: str) -> dict[str, str]:
    """``--name value`` pairs (and bare flags) of a generate command line."""
    words = shlex.split(args)
    options: dict[str, str] = {}
    for k, word in enumerate(words):
        if word.startswith("--"):
            following = words[k + 1] if k + 1 < len(words) else "--"
            options[word[2:]] = "" if following.startswith("--") else following
    return options


# -- hand-made trees -------------------------------------------------------------

def value_range(values: list[float]) -> tuple[int, int, bool]:
    """The range a tree's values are drawn again from: ``(low, high, halves)``; 0..9 when every value is a digit,
    −9..9 with negatives, then 99 and 999 (beyond that the range of the values itself).

    >>> value_range([3, 12, 8]), value_range([-1, 2]), value_range([0.5, 2])
    ((0, 99, False), (-9, 9, False), (0, 9, True))
    """
    if not values:
        return 0, 0, False
    top = max(abs(v) for v in values)
    high = next((h for h in (9, 99, 999) if top <= h), int(top) + 1)
    low = 0 if min(values) >= 0 else -high
    return low, high, any(float(v) != int(v) for v in values)


def _show_range(low: int, high: int, halves: bool) -> str:
    return f"{low}..{high}" + (" (halves)" if halves else "")


def redraw_values(fixture: Fixture, values: tuple[int, int, bool], rng: random.Random) -> Tree | None:
    """The fixture's tree with leaf utilities and heuristic values drawn again from ``values`` (low, high, halves)
    until it is as hard as the kit's published tree it comes from (:func:`basis`): the same :func:`difficulty`,
    and every mutant that tree tells apart still told apart (:func:`caught`). A tree added to tell one slip apart
    (:func:`abkit.grader.mistakes.told_slip`) need only keep telling that slip apart, in every exercise that has it,
    by its search or by a direct call grading may make (:func:`abkit.grader.testplan.telling_call` makes it).
    The measure is the same at every draw, so a seed gives the same tree however often a course draws again.
    None when no draw of :data:`MAX_DRAWS` is as hard."""
    tree, origin = fixture.tree, basis(fixture)
    slip = told_slip(origin.source)
    only = {m.id for m in same_slip(slip)} if slip else None
    want = None if only else difficulty(origin, origin.tree)
    want_caught = caught(origin, origin.tree, only)
    for _ in range(MAX_DRAWS):
        drawn = dataclasses.replace(tree, utilities={n: _draw(rng, *values) for n in tree.utilities},
                                    heuristics={n: _draw(rng, *values) for n in tree.heuristics})
        if (want is None or difficulty(fixture, drawn) == want) and caught(fixture, drawn, only) >= want_caught:
            return drawn
    return None


def basis(fixture: Fixture) -> Fixture:
    """The fixture a drawn tree is measured against: the kit's published hidden fixture its recipe names (the
    same whichever draw ``fixture`` is), else ``fixture`` itself (a tree the course wrote)."""
    redrawn = _REDRAWN.match(fixture.source)
    found = redrawn and _ORIGIN.match(redrawn.group("recipe"))
    path = HIDDEN_FIXTURES / f"{found.group('id')}.yaml" if found else None
    if path is None or not path.is_file():
        return fixture
    published = load_fixture(path)
    same_shape = published.tree is not None and published.tree.children == fixture.tree.children
    return published if same_shape and published.expected.keys() == fixture.expected.keys() else fixture


def _draw(rng: random.Random, low: int, high: int, halves: bool) -> float:
    return rng.randint(2 * low, 2 * high) / 2 if halves else rng.randint(low, high)


def difficulty(fixture: Fixture, tree: Tree) -> tuple:
    """How much work a tree is for the searches its fixture expects: how many children of the root share the best
    value (ties), and per algorithm and cut-off rule how many states the reference generates and evaluates (a tree
    where the two rules differ keeps differing)."""
    from abkit.reference import reference_trace

    values = backed_up_values(tree)
    best = values[tree.root]
    work: list = [sum(1 for child in tree.children.get(tree.root, ()) if values[child] == best)]
    for algorithm in fixture.expected:
        for rule in (True, False):
            game = TreeGame(tree)
            trace = reference_trace(game, tree.root, algorithm, rule, **fixture.search_params(algorithm, game))
            work.append((algorithm, rule, len(trace.visited), len(trace.evaluated)))
    return tuple(work)


def caught(fixture: Fixture, tree: Tree, only: set[str] | None = None) -> set[tuple[str, str, bool]]:
    """The mutants (:mod:`abkit.grader.mistakes`: the named mistakes and the slips; of ``only`` when given) whose
    outcome differs from the reference's on ``tree`` as grading tests it (every exercise it is a test of, either
    cut-off rule; with ``only``, also every direct call grading may make there): ``(exercise, mistake, rule)``.
    Each mutant is a new module per test (a slip may keep state between calls)."""
    from abkit.grader.testplan import every_direct_call, fits, fixture_search, orders_test
    from abkit.judge import signature
    from abkit.grader.mistakes import fresh_mutant, mutants_of, run_signature
    from abkit.reference import reference

    fixture = dataclasses.replace(fixture, tree=tree)
    found = set()
    for algorithm in Algorithm:
        exercise = algorithm.exercise
        mistakes = [m for m in mutants_of(exercise) if only is None or m.id in only]
        if not mistakes or not fits(algorithm, fixture):
            continue
        tests = [fixture_search(exercise, "hidden", fixture)]
        if algorithm.iterative:
            tests.append(orders_test(exercise, "hidden", fixture.id, tree, fixture.depth, fixture.title))
        if only is not None and algorithm.plain:
            tests += every_direct_call(exercise, "hidden", fixture.id, tree, fixture.title)
        for rule in (True, False):
            for test in tests:
                want = signature(test.run_in_process(reference(algorithm, rule)))
                for mistake in mistakes:
                    if run_signature(test, fresh_mutant(mistake.id, rule)) != want:
                        found.add((exercise, mistake.id, rule))
    return found


def hand_document(fixture: Fixture, tree: Tree, new_id: str, source: str) -> dict:
    """A hand-made fixture with a redrawn tree as a mapping: its header, the tree (compact when its names are the
    compact form's), heuristic values, probabilities, and every expected field it had, computed by the reference."""
    document: dict = {"id": new_id, "title": dict(fixture.title), "source": source}
    if tree.levels:
        document["levels"] = [level.lower() for level in tree.levels]
    else:
        document["root"] = "max" if tree.root_player == MAX else "min"
    document["prune_on_equality"] = fixture.prune_on_equality
    if fixture.depth is not None:
        document["depth"] = fixture.depth
    if fixture.tags:
        document["tags"] = list(fixture.tags)
    nested = to_nested(tree)
    if from_nested(nested, tree.root).children == tree.children:
        if tree.root != "A":
            document["root_name"] = tree.root
        document["tree"] = nested
    else:
        document["tree"] = {tree.root: _named(tree, tree.root)}
    if tree.heuristics:
        document["heuristics"] = dict(tree.heuristics)
    players = tree.players()
    chance = {n for n in tree.children if players.get(n) == CHANCE}
    if chance:
        document["probabilities"] = {kid: tree.probabilities[kid] for n in tree.preorder() if n in chance
                                     for kid in tree.children[n]}
    document["expected"] = _expected(dataclasses.replace(fixture, tree=tree))
    return document


def _named(tree: Tree, node: str):
    """The subtree below ``node`` as nested mappings of names (a leaf: its utility)."""
    if tree.is_leaf(node):
        return tree.utilities[node]
    return {child: _named(tree, child) for child in tree.children[node]}


def _expected(fixture: Fixture) -> dict:
    """The fixture's expected blocks with the same fields, recomputed by the reference solutions."""
    expected = {}
    for algorithm, block in fixture.expected.items():
        got = reference_fields(fixture, algorithm, block)
        expected[algorithm] = {name: got[name] for name in block}
    return expected


# -- the record --------------------------------------------------------------------

def readme(seed: int, done: list[Drawn]) -> dict[str, str]:
    """``fixtures/hidden/README.md`` but its record, per language: the seed, how to draw the same trees again, what
    became of each file."""
    parts = {}
    for lang in LANGS:
        rows = "\n".join(f"| `{d.new}` | `{d.old}` | {t(f'redraw.how.{d.how}', lang, values=d.values)} |"
                         for d in done)
        parts[lang] = t("redraw.readme", lang, seed=seed, rows=rows, max_draws=f"{MAX_DRAWS:,}")
    return parts
