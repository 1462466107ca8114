"""The fixture format: the fields a fixture file may hold, its limits, and the :class:`Fixture` a file becomes.

The format is the contract's (§2) plus the extensions documented in ``fixtures/README.md``. Reading a file
(:mod:`abkit.fixtureread`) and loading files by path (:mod:`abkit.fixture`) both build on this module; it imports
neither, so nothing here needs YAML.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from .algorithms import Algorithm
from .errors import LocatedError
from .tictactoe import SymmetryMerged, TicTacToe, nilsson_eval
from .tree import Tree, TreeGame

if TYPE_CHECKING:
    from typing import Any

#: the most nodes a fixture's tree may have: a graded search reports at most this many states (abkit.wire.MAX_RECORD;
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
#: the fields a fixture on a whole game (not a drawn tree) may expect: its states are boards, not names; ``visited``
#: lists the boards the search generates, in order (the game's own states, ``XX..O....``)
GAME_FIELDS = ("value", "action", "nodes", "leaves", "visited")
#: the algorithms an ``expected:`` block may name (:class:`~abkit.algorithms.Algorithm`)
ALGORITHMS = Algorithm.names()


class FixtureError(LocatedError):
    """A fixture file that cannot be used: ``path:line: message`` (:class:`~abkit.errors.LocatedError`)."""


@dataclass
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
