"""Reading a fixture file: a composed YAML document checked field by field and turned into a
:class:`~abkit.fixtureformat.Fixture` (the format: ``fixtures/README.md``). Every problem is a
:class:`~abkit.fixtureformat.FixtureError` with the line it is on.

:func:`abkit.fixture.load_fixture` and :func:`~abkit.fixture.parse_fixture` call it; it is a module of its own so that
a command that only uses fixtures already read (``abkit check``, from the cache) never imports YAML.
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .algorithms import Algorithm
from .fixtureformat import (ALGORITHMS, DEFAULT_ROOT_NAME, EXPECTED_FIELDS, GAME_FIELDS, GAMES, KEYS, MAX_TREE_NODES, Fixture,
                      FixtureError)
from .game import CHANCE, MAX, MIN
from .i18n import Message
from .tictactoe import parse_board
from .tree import Tree, child_name
from .yamlsafe import STR, compose, describe, is_number, line_of, looks_numeric, number, plain, scalar

if TYPE_CHECKING:
    from typing import Any


def read_fixture(text: str, path: Path) -> Fixture:
    """The fixture in ``text`` (the file at ``path``, or ``<fixture>``), checked; :class:`FixtureError` if it is
    unusable."""
    return _Reader(path).read(compose(text))


#: what YAML may read a bare node name as, instead of a name (each has its words: fixture.kind.*)
YAML_KINDS = ("int", "float", "bool", "null", "timestamp")


def _kind(key: Node) -> Message:
    """What YAML read ``key`` as, in words."""
    kind = key.tag.rsplit(":", 1)[-1]
    return Message(f"fixture.kind.{kind if kind in YAML_KINDS else 'other'}")


class _TreeReader:
    """Reads a fixture's game: its tree (names, levels, leaves, the root's player) or its board."""

    def tree_part(self, doc: Node, fields: dict[str, Node]) -> Tree:
        """The tree of a ``game: tree`` fixture, with its levels, heuristics and probabilities."""
        for key in ("position", "symmetry"):
            if key in fields:
                raise self.fail(fields[key], "fixture.not_for_trees", key=key)
        if "tree" not in fields:
            raise self.fail(doc, "fixture.no_tree")
        root_player = self.root_player(fields.get("root"))
        levels = self.levels(fields["levels"], root_player if "root" in fields else None) if "levels" in fields else ()
        root_player = levels[0] if levels else root_player
        root_name = self.text(fields["root_name"]) if "root_name" in fields else DEFAULT_ROOT_NAME
        self.tree_from(fields["tree"], root_name)
        tree = Tree(self.root, self.children, self.utilities, root_player, levels=levels)
        if "heuristics" in fields:
            tree.heuristics.update(self.heuristics(fields["heuristics"]))
        chance = [n for n, d in tree.depths().items() if n in tree.children and tree.player_at(d) == CHANCE]
        tree.probabilities.update(self.probabilities(fields.get("probabilities"), tree, chance, doc))
        return tree

    def position(self, doc: Node, fields: dict[str, Node]) -> str:
        """The board of a ``game: tictactoe`` fixture."""
        for key in ("tree", "root", "root_name", "levels", "heuristics", "probabilities"):
            if key in fields:
                raise self.fail(fields[key], "fixture.not_for_games", key=key)
        if "position" not in fields:
            raise self.fail(doc, "fixture.no_position")
        try:
            return parse_board(self.text(fields["position"]))
        except ValueError as error:
            raise self.fail(fields["position"], "fixture.bad_position", reason=getattr(error, "message", str(error))) \
                from None

    def root_player(self, node: Node | None) -> str:
        if node is None:
            return MAX
        value = scalar(node) if isinstance(node, ScalarNode) else None
        if isinstance(value, str) and value.lower() in ("max", "min"):
            return MAX if value.lower() == "max" else MIN
        raise self.fail(node, "fixture.bad_root", found=describe(node))

    def levels(self, node: Node, root: str | None) -> tuple[str, ...]:
        if not isinstance(node, SequenceNode) or not node.value:
            raise self.fail(node, "fixture.bad_levels")
        levels = []
        for item in node.value:
            value = scalar(item) if isinstance(item, ScalarNode) else None
            if not isinstance(value, str) or value.lower() not in ("max", "min", "chance"):
                raise self.fail(item, "fixture.bad_levels")
            levels.append(value.upper())
        if levels[0] == CHANCE or (root is not None and levels[0] != root):
            raise self.fail(node, "fixture.levels_root")
        return tuple(levels)

    def name(self, key: Node) -> str:
        """A node name from a mapping key: a non-empty string YAML did not read as something else."""
        if key.tag != STR:
            raise self.fail(key, "fixture.name_not_string", found=key.value, kind=_kind(key))
        if not key.value.strip() or "\n" in key.value:
            raise self.fail(key, "fixture.bad_name", found=repr(key.value))
        return key.value

    def claim(self, name: str, line: int) -> None:
        if name in self.where:
            raise self.fail(line, "fixture.duplicate_node", name=name, first=self.where[name])
        self.where[name] = line

    def tree_from(self, node: Node, root_name: str) -> None:
        """Fill ``children``/``utilities`` from the ``tree:`` value, without recursion."""
        if isinstance(node, MappingNode):
            if len(node.value) != 1:
                raise self.fail(node, "fixture.one_root", count=len(node.value))
            key, node = node.value[0]
            self.root = self.name(key)
            self.claim(self.root, line_of(key))
        else:
            self.root = root_name
            self.claim(self.root, line_of(node))
        stack = [(self.root, node)]
        while stack:
            name, value = stack.pop()
            if is_number(value):
                self.utilities[name] = number(value)
                continue
            kids = self.kids(name, value)
            self.children[name] = tuple(kid for kid, _ in kids)
            stack.extend(reversed(kids))

    def kids(self, parent: str, node: Node) -> list[tuple[str, Node]]:
        """The named children of ``parent`` whose subtree is ``node``."""
        if isinstance(node, MappingNode):
            kids = [(self.name(k), v) for k, v in node.value]
            for (kid, _), (k, _) in zip(kids, node.value):
                self.claim(kid, line_of(k))
        elif isinstance(node, SequenceNode):
            kids = [(child_name(parent, i, len(node.value), parent == self.root), v)
                    for i, v in enumerate(node.value)]
            for (kid, v) in kids:
                self.claim(kid, line_of(v))
        elif looks_numeric(node):
            raise self.fail(node, "yaml.number_as_text", found=node.value)
        else:
            raise self.fail(node, "fixture.bad_subtree", name=parent, found=describe(node))
        if not kids:
            raise self.fail(node, "fixture.no_children", name=parent)
        return kids

    def node_key(self, key: Node) -> str:
        name = scalar(key)
        if not isinstance(name, str) or name not in self.where:
            raise self.fail(key, "fixture.unknown_node", name=str(name))
        return name


class _ValueReader:
    """Reads the numbers a fixture's tree carries besides its leaves: chance probabilities, heuristic values at
    the depth limit, and weighted features. (Mixed into :class:`_Reader` after :class:`_TreeReader`: it names
    nodes with ``node_key``.)"""

    def probabilities(self, node: Node | None, tree: Tree, chance: list[str], doc: Node) -> dict[str, float]:
        """Child -> probability under CHANCE nodes: as given (summing to 1 per node), else uniform."""
        given: dict[str, tuple[float, int]] = {}
        if node is not None:
            if not isinstance(node, MappingNode):
                raise self.fail(node, "fixture.not_mapping_field", field="probabilities")
            for key, value in node.value:
                name = self.node_key(key)
                given[name] = (self.probability(value), line_of(key))
        parents = tree.parents()
        for name, (_, line) in given.items():
            if parents.get(name) not in chance:
                raise self.fail(line, "fixture.not_an_outcome", name=name)
        result: dict[str, float] = {}
        for node_name in chance:
            kids = tree.children[node_name]
            listed = [k for k in kids if k in given]
            if not listed:
                result.update({k: 1 / len(kids) for k in kids})
                continue
            line = min(given[k][1] for k in listed)
            if len(listed) != len(kids):
                missing = ", ".join(k for k in kids if k not in given)
                raise self.fail(line, "fixture.probability_missing", name=node_name, missing=missing)
            total = sum(given[k][0] for k in kids)
            if not math.isclose(total, 1.0, abs_tol=1e-9):
                raise self.fail(line, "fixture.probability_sum", name=node_name, total=round(total, 6))
            result.update({k: given[k][0] for k in kids})
        return result

    def probability(self, node: Node) -> float:
        """A probability: a number in [0, 1], or a fraction written as text (``"1/6"``)."""
        if isinstance(node, ScalarNode) and node.tag == STR and "/" in node.value:
            try:
                value = float(Fraction(node.value.replace(" ", "")))
            except (ValueError, ZeroDivisionError):
                raise self.fail(node, "fixture.bad_probability", found=describe(node)) from None
        else:
            value = number(node)
        if not 0 <= value <= 1:
            raise self.fail(node, "fixture.bad_probability", found=describe(node))
        return value

    def check_frontier(self, node: Node, tree: Tree, depth: int) -> None:
        """Every internal node where a depth-``depth`` search stops needs a heuristic value."""
        missing = [n for n, d in tree.depths().items() if d == depth and n in tree.children and n not in tree.heuristics]
        if missing:
            raise self.fail(node, "fixture.no_heuristic", depth=depth, names=", ".join(missing))

    def heuristics(self, node: Node) -> dict[str, float]:
        if not isinstance(node, MappingNode):
            raise self.fail(node, "fixture.not_mapping_field", field="heuristics")
        return {self.node_key(k): number(v) for k, v in node.value}

    def weighted(self, fields: dict[str, Node], tree: Tree | None) -> tuple[dict[str, float], dict[str, dict]]:
        """``weights:`` (feature -> weight) and ``features:`` (node -> feature -> count): an evaluation
        built from weighted features. Each node listed must be worth exactly the weighted sum of its
        features (a leaf its utility, an inner node its heuristic value)."""
        for key in ("weights", "features"):
            if key not in fields:
                raise self.fail(fields["weights" if key == "features" else "features"], "fixture.weights_pair")
            if not isinstance(fields[key], MappingNode):
                raise self.fail(fields[key], "fixture.not_mapping_field", field=key)
        if tree is None:
            raise self.fail(fields["weights"], "fixture.not_for_games", key="weights")
        weights = {self.text(k): number(v) for k, v in fields["weights"].value}
        features: dict[str, dict[str, float]] = {}
        for key, counts in fields["features"].value:
            node = self.node_key(key)
            if not isinstance(counts, MappingNode):
                raise self.fail(counts, "fixture.not_mapping_field", field=f"features: {node}")
            features[node] = {}
            for name_node, count in counts.value:
                name = self.text(name_node)
                if name not in weights:
                    raise self.fail(name_node, "fixture.unknown_feature", name=name, known=", ".join(weights))
                features[node][name] = number(count)
            total = sum(weights[f] * c for f, c in features[node].items())
            given = tree.utilities.get(node, tree.heuristics.get(node))
            if given is None:
                raise self.fail(key, "fixture.features_no_value", node=node, total=round(total, 9))
            if abs(total - given) > 1e-9:
                raise self.fail(key, "fixture.features_disagree", node=node, total=round(total, 9), given=given)
        return weights, features


class _ExpectedReader:
    """Reads a fixture's ``expected:`` block: per algorithm its fields, windows and orders, checked against the tree."""

    def expected(self, node: Node, fixture: Fixture) -> tuple[dict, dict[str, int]]:
        tree = fixture.tree
        if not isinstance(node, MappingNode):
            raise self.fail(node, "fixture.not_mapping_field", field="expected")
        expected: dict[str, dict[str, Any]] = {}
        lines: dict[str, int] = {}
        for key, block in node.value:
            algorithm = scalar(key)
            if algorithm not in ALGORITHMS:
                raise self.fail(key, "fixture.unknown_algorithm", found=algorithm, known=", ".join(ALGORITHMS))
            if not isinstance(block, MappingNode):
                raise self.fail(block, "fixture.not_mapping_field", field=f"expected.{algorithm}")
            self.check_algorithm(key, algorithm, fixture)
            expected[algorithm] = {}
            lines[f"expected.{algorithm}"] = line_of(key)
            for fkey, value in block.value:
                name = scalar(fkey)
                known = EXPECTED_FIELDS if tree is not None else GAME_FIELDS
                if name not in known:
                    raise self.fail(fkey, "fixture.unknown_expected", found=name, known=", ".join(known))
                expected[algorithm][name] = self.expected_value(EXPECTED_FIELDS[name], value, fixture)
                lines[f"expected.{algorithm}.{name}"] = line_of(fkey)
        return expected, lines

    def boards(self, node: SequenceNode, fixture: Fixture) -> list[str]:
        """A game's states in a list (``visited`` of a board position): each a tic-tac-toe board as the game writes
        its states, nine squares of ``X``, ``O`` and ``.``."""
        from .tictactoe import BoardError, parse_board

        boards = []
        for item in node.value:
            board = scalar(item) if isinstance(item, ScalarNode) else None
            try:
                known = isinstance(board, str) and parse_board(board) == board
            except BoardError:
                known = False
            if not known:
                raise self.fail(item, "fixture.bad_board", found=describe(item))
            boards.append(board)
        return boards

    def windows(self, node: Node) -> dict[str, list]:
        """``node: [alpha, beta, value]`` per visited node: the window it was entered with, what it returned."""
        if not isinstance(node, MappingNode):
            raise self.fail(node, "fixture.not_mapping_field", field="windows")
        windows = {}
        for key, item in node.value:
            name = self.node_key(key)
            if not isinstance(item, SequenceNode) or len(item.value) != 3:
                raise self.fail(item, "fixture.bad_window", name=name)
            alpha, beta, value = item.value
            windows[name] = [number(alpha, infinite=True), number(beta, infinite=True), number(value)]
            if not windows[name][0] <= windows[name][1]:  # CS188 rule: alpha can rise to beta
                raise self.fail(item, "fixture.empty_window", name=name)
        return windows

    def check_algorithm(self, key: Node, algorithm: str, fixture: Fixture) -> None:
        """Whether ``algorithm`` can run on this fixture at all."""
        chance, spec = fixture.tree is not None and CHANCE in fixture.tree.levels, Algorithm(algorithm)
        if chance != spec.chance:
            raise self.fail(key, "fixture.chance_needs_expectimax" if chance else "fixture.expectimax_needs_chance")
        if spec.depth_limited and fixture.depth is None:
            raise self.fail(key, "fixture.cutoff_needs_depth")

    def orders(self, node: Node, tree: Tree) -> dict[str, list[str]]:
        """``node: [children, most promising first]``: what ordering the actions by EVAL gives."""
        if not isinstance(node, MappingNode):
            raise self.fail(node, "fixture.not_mapping_field", field="orders")
        orders = {}
        for key, item in node.value:
            name = self.node_key(key)
            order = [plain(x) for x in item.value] if isinstance(item, SequenceNode) else None
            if order is None or sorted(map(str, order)) != sorted(tree.children.get(name, ())):
                raise self.fail(item, "fixture.bad_order", name=name)
            orders[name] = order
        return orders

    def expected_value(self, kind: str, node: Node, fixture: Fixture) -> Any:
        tree = fixture.tree
        if kind == "number":
            return number(node)
        if kind == "count":
            value = scalar(node) if isinstance(node, ScalarNode) else None
            if type(value) is not int or value < 0:
                raise self.fail(node, "fixture.not_count", found=describe(node))
            return value
        if kind == "windows":
            return self.windows(node)
        if kind == "orders":
            return self.orders(node, tree)
        if kind == "action":
            value = scalar(node) if isinstance(node, ScalarNode) else describe(node)
            legal = tree.children.get(tree.root, ()) if tree is not None else fixture.game().actions(fixture.position)
            if value is not None and value not in legal:
                raise self.fail(node, "fixture.bad_action", found=str(value), root=fixture.root)
            return value
        if not isinstance(node, SequenceNode):
            raise self.fail(node, "fixture.not_list", found=describe(node))
        if tree is None:
            return self.boards(node, fixture)
        names = []
        for item in node.value:
            name = plain(item)
            if name not in self.where:
                raise self.fail(item, "fixture.unknown_node", name=str(name))
            names.append(name)
        return names


class _Reader(_TreeReader, _ValueReader, _ExpectedReader):
    """Turns a composed YAML document into a :class:`Fixture`, checking as it goes."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.children: dict[str, tuple[str, ...]] = {}
        self.utilities: dict[str, float] = {}
        self.where: dict[str, int] = {}  # node name -> line

    def fail(self, node_or_line: Node | int, key: str, /, **params: Any) -> FixtureError:
        line = node_or_line if isinstance(node_or_line, int) else line_of(node_or_line)
        return FixtureError(self.path, line, Message(key, **params))

    def read(self, doc: Node | None) -> Fixture:
        if doc is None:
            raise self.fail(1, "fixture.empty")
        if not isinstance(doc, MappingNode):
            raise self.fail(doc, "fixture.not_mapping")
        fields: dict[str, Node] = {}
        id_line = 1
        for key, value in doc.value:
            name = scalar(key)
            if name not in KEYS:
                raise self.fail(key, "fixture.unknown_key", key=name, known=", ".join(KEYS))
            fields[name] = value
            id_line = line_of(key) if name == "id" else id_line
        game = self.text(fields["game"]) if "game" in fields else "tree"
        if game not in GAMES:
            raise self.fail(fields["game"], "fixture.bad_game", found=game, known=", ".join(GAMES))
        fixture_id = self.text(fields["id"]) if "id" in fields else self.path.stem
        path = self.path if str(self.path) != "<fixture>" else None
        if game == "tree":
            fixture = Fixture(path, fixture_id, self.tree_part(doc, fields))
            if len(fixture.tree) > MAX_TREE_NODES:  # a search of it could not be reported whole: graded as an error
                raise self.fail(fields["tree"], "fixture.too_many_nodes", count=len(fixture.tree), limit=MAX_TREE_NODES)
        else:
            fixture = Fixture(path, fixture_id, None, game_name=game, position=self.position(doc, fields))
            if "symmetry" in fields:
                fixture.symmetry = self.flag(fields["symmetry"])
        fixture.title = self.texts(fields["title"]) if "title" in fields else {}
        fixture.source = self.text(fields["source"]) if "source" in fields else ""
        fixture.description = self.texts(fields["description"]) if "description" in fields else {}
        if "prune_on_equality" in fields:
            fixture.prune_on_equality = self.flag(fields["prune_on_equality"])
        if "depth" in fields:
            fixture.depth = self.count(fields["depth"], minimum=1)
        if "notes" in fields:
            fixture.notes = self.notes(fields["notes"])
        if "tags" in fields:
            fixture.tags = self.tags(fields["tags"])
        if "expected" in fields:
            fixture.expected, fixture.lines = self.expected(fields["expected"], fixture)
        fixture.lines["id"] = id_line
        if "weights" in fields or "features" in fields:
            fixture.weights, fixture.features = self.weighted(fields, fixture.tree)
        if fixture.tree is not None and fixture.depth is not None:
            # iterative deepening stops at every depth up to the last; one cut-off search only there
            depths = range(1, fixture.depth + 1) if Algorithm.ORDERING in fixture.expected else [fixture.depth]
            for depth in depths:
                self.check_frontier(fields["depth"], fixture.tree, depth)
        return fixture

    # -- header fields -------------------------------------------------------

    def count(self, node: Node, minimum: int = 0) -> int:
        value = scalar(node) if isinstance(node, ScalarNode) else None
        if type(value) is not int or value < minimum:
            raise self.fail(node, "fixture.not_count", found=describe(node))
        return value

    def text(self, node: Node) -> str:
        if isinstance(node, ScalarNode) and node.tag == STR:
            return node.value
        raise self.fail(node, "fixture.not_text", found=describe(node))

    def texts(self, node: Node) -> dict[str, str]:
        """A text, or a mapping of language -> text; a bare text serves every language."""
        if isinstance(node, ScalarNode):
            text = self.text(node)
            return {"en": text, "ko": text}
        if not isinstance(node, MappingNode):
            raise self.fail(node, "fixture.not_text", found=describe(node))
        texts = {}
        for key, value in node.value:
            lang = scalar(key)
            if lang not in ("en", "ko"):
                raise self.fail(key, "fixture.bad_lang", found=lang)
            texts[lang] = self.text(value)
        return texts

    def flag(self, node: Node) -> bool:
        value = scalar(node) if isinstance(node, ScalarNode) else None
        if isinstance(value, bool):
            return value
        raise self.fail(node, "fixture.not_bool", found=describe(node))

    def tags(self, node: Node) -> list[str]:
        if not isinstance(node, SequenceNode):
            raise self.fail(node, "fixture.not_list", found=describe(node))
        return [self.text(item) for item in node.value]

    # -- the tree ------------------------------------------------------------

    # -- per-node data -------------------------------------------------------

    def notes(self, node: Node) -> dict[str, dict[str, str]]:
        if not isinstance(node, MappingNode):
            raise self.fail(node, "fixture.not_mapping_field", field="notes")
        return {self.node_key(k): self.texts(v) for k, v in node.value}
