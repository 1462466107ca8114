"""Fixture files: one game tree per YAML file, with what the searches should do on it.

The format is the contract's (§2) plus the extensions documented in
``fixtures/README.md``: a compact nested-list tree with generated names,
per-node notes, static values of internal nodes. Every problem is reported as
:class:`FixtureError` with the file, the line and a sentence in the reader's
language; nothing here raises anything else for a bad file.
"""

from __future__ import annotations

from dataclasses import field
from pathlib import Path

from .algorithms import Algorithm
from .cache import cached
from .errors import LocatedError
from .i18n import Message, os_problem
from .records import record
from .tictactoe import SymmetryMerged, TicTacToe, nilsson_eval
from .tree import Tree, TreeGame

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing (2.5 ms of every command)
if TYPE_CHECKING:
    from typing import Any

MAX_BYTES = 32 * 1024 * 1024
#: the most nodes a fixture's tree may have: a graded search reports at most this many states (grader.child.MAX_RECORD;
#: iterative deepening generates a state once per depth, so on a tree near this size it may still report more)
MAX_TREE_NODES = 50_000
DEFAULT_ROOT_NAME = "A"
KEYS = ("id", "title", "source", "description", "game", "root", "root_name", "levels", "prune_on_equality",
        "tree", "position", "symmetry", "depth", "heuristics", "probabilities", "notes", "tags", "expected",
        "weights", "features")
GAMES = ("tree", "tictactoe")
#: expected-block field -> the kind of value it holds
EXPECTED_FIELDS = {"value": "number", "action": "action", "visited": "names",
                   "evaluated": "names", "pruned": "names", "nodes": "count", "windows": "windows",
                   "leaves": "count", "orders": "orders"}
#: the fields a fixture on a whole game (not a drawn tree) may expect: its states are boards, not names
GAME_FIELDS = ("value", "action", "nodes", "leaves")
#: the algorithms an ``expected:`` block may name (:class:`~abkit.algorithms.Algorithm`)
ALGORITHMS = Algorithm.names()


class FixtureError(LocatedError):
    """A fixture file that cannot be used: ``path:line: message`` (:class:`~abkit.errors.LocatedError`)."""


@record
class Fixture:
    """A loaded, validated fixture.

    id: the fixture's id (default: the file name without ``.yaml``).
    title, description, notes: text per language (``{"en": ..., "ko": ...}``).
    tree: the game tree; prune_on_equality: the rule its ``expected`` block assumes.
    expected: algorithm -> field -> expected value, as written in the file.
    lines: ``"expected.alphabeta.value"`` (and the like) -> its line in the file.
    """

    path: Path | None
    id: str
    tree: Tree | None
    title: dict[str, str] = field(default_factory=dict)
    source: str = ""
    description: dict[str, str] = field(default_factory=dict)
    prune_on_equality: bool = True
    expected: dict[str, dict[str, Any]] = field(default_factory=dict)
    notes: dict[str, dict[str, str]] = field(default_factory=dict)
    tags: list[str] = field(default_factory=list)
    lines: dict[str, int] = field(default_factory=dict)
    game_name: str = "tree"
    position: str | None = None
    symmetry: bool = False
    depth: int | None = None
    weights: dict[str, float] = field(default_factory=dict)
    features: dict[str, dict[str, float]] = field(default_factory=dict)

    @property
    def root(self):
        """The state the searches start from: the tree's root, or the board position."""
        return self.tree.root if self.tree is not None else self.position

    def game(self):
        """A fresh game object: the tree game, or tic-tac-toe (symmetric positions merged if asked)."""
        if self.tree is not None:
            return TreeGame(self.tree)
        return SymmetryMerged() if self.symmetry else TicTacToe()

    def search_params(self, algorithm: str, game) -> dict[str, Any]:
        """The extra arguments ``algorithm`` takes on this fixture (depth and EVAL for the cut-off search)."""
        if not Algorithm(algorithm).depth_limited:
            return {}
        return {"depth": self.depth, "eval_fn": game.evaluate if self.tree is not None else nilsson_eval}

    def label(self, lang: str = "en") -> str:
        return self.title.get(lang) or self.title.get("en") or self.id


def load_fixture(path: str | Path) -> Fixture:
    """Read and validate the fixture at ``path``; :class:`FixtureError` if it is unusable."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise FixtureError(path, 1, Message("fixture.too_large", size=size, limit=MAX_BYTES))
        data = path.read_bytes()
    except OSError as error:
        raise FixtureError(path, 0, Message("fixture.unreadable", reason=os_problem(error))) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise FixtureError(path, line, Message("fixture.not_utf8")) from None
    return parse_fixture(text, path)


def parse_fixture(text: str, path: str | Path = "<fixture>") -> Fixture:
    """Validate fixture ``text``; ``path`` only names it in messages."""
    from .fixtureread import read_fixture
    from .yamlsafe import YamlError

    try:
        return read_fixture(text, Path(path) if not isinstance(path, Path) else path)
    except YamlError as error:
        raise FixtureError(path, error.line, error.message) from None


def load_fixtures(paths: list[str | Path], cache: bool = False) -> list[Fixture]:
    """Every fixture under ``paths`` (files, or folders searched for ``*.yaml``), sorted by path; two with one id are
    a :class:`FixtureError` (:func:`unique_ids`).

    ``cache``: through the kit's cache (:mod:`abkit.cache`): the files are parsed again only when one changed, was
    added or went away; what this returns is the same either way (a bad file raises the same error).
    """
    files = fixture_paths(paths)
    if not cache:
        return unique_ids([load_fixture(p) for p in files])
    return cached("fixtures", files, lambda: unique_ids([load_fixture(p) for p in files]))


def unique_ids(fixtures: list[Fixture]) -> list[Fixture]:
    """``fixtures``, when no two of them share an id (a test's name is its fixture's id: two trees of one folder with
    one id would be graded as one); else :class:`FixtureError` at the second one's ``id``."""
    first: dict[str, Fixture] = {}
    for fixture in fixtures:
        if fixture.id in first:
            raise FixtureError(fixture.path or "<fixture>", fixture.lines.get("id", 1),
                               Message("fixture.duplicate_id", id=fixture.id, other=str(first[fixture.id].path)))
        first[fixture.id] = fixture
    return fixtures


def fixture_paths(paths: list[str | Path]) -> list[Path]:
    """The fixture files named by ``paths``: files as given, folders searched recursively."""
    found: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            found.extend(sorted(q for q in p.rglob("*.y*ml") if q.suffix in (".yaml", ".yml")))
        else:
            found.append(p)
    return found
