"""Fixture files: one game tree per YAML file, with what the searches should do on it.

The format is the contract's (§2) plus the extensions documented in
``fixtures/README.md``: a compact nested-list tree with generated names,
per-node notes, static values of internal nodes. Every problem is reported as
:class:`FixtureError` with the file, the line and a sentence in the reader's
language; nothing here raises anything else for a bad file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .game import MAX, MIN
from .i18n import Message
from .tree import Tree, TreeGame, child_name
from .yamlsafe import STR, YamlError, compose, describe, is_number, line_of, looks_numeric, number, plain, scalar

MAX_BYTES = 32 * 1024 * 1024
DEFAULT_ROOT_NAME = "A"
KEYS = ("id", "title", "source", "description", "root", "root_name", "prune_on_equality",
        "tree", "heuristics", "notes", "tags", "expected")
#: expected-block field -> the kind of value it holds
EXPECTED_FIELDS = {"value": "number", "action": "action", "visited": "names",
                   "evaluated": "names", "pruned": "names", "nodes": "count", "windows": "windows"}
ALGORITHMS = ("minimax", "alphabeta")


class FixtureError(ValueError):
    """A fixture file that cannot be used: ``path:line: message``."""

    def __init__(self, path: str | Path, line: int, message: Message) -> None:
        self.path = str(path)
        self.line = line
        self.message = message
        super().__init__(self.render())

    def render(self, lang: str | None = None) -> str:
        return f"{self.path}:{self.line}: {self.message.render(lang)}"


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
    tree: Tree
    title: dict[str, str] = field(default_factory=dict)
    source: str = ""
    description: dict[str, str] = field(default_factory=dict)
    prune_on_equality: bool = True
    expected: dict[str, dict[str, Any]] = field(default_factory=dict)
    notes: dict[str, dict[str, str]] = field(default_factory=dict)
    tags: list[str] = field(default_factory=list)
    lines: dict[str, int] = field(default_factory=dict)

    def game(self) -> TreeGame:
        return TreeGame(self.tree)

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
        raise FixtureError(path, 0, Message("fixture.unreadable", reason=error.strerror or str(error))) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise FixtureError(path, line, Message("fixture.not_utf8")) from None
    return parse_fixture(text, path)


def parse_fixture(text: str, path: str | Path = "<fixture>") -> Fixture:
    """Validate fixture ``text``; ``path`` only names it in messages."""
    try:
        return _Reader(Path(path) if not isinstance(path, Path) else path).read(compose(text))
    except YamlError as error:
        raise FixtureError(path, error.line, error.message) from None


def load_fixtures(paths: list[str | Path]) -> list[Fixture]:
    """Every fixture under ``paths`` (files, or folders searched for ``*.yaml``), sorted by path."""
    return [load_fixture(p) for p in fixture_paths(paths)]


def fixture_paths(paths: list[str | Path]) -> list[Path]:
    """The fixture files named by ``paths``: files as given, folders searched recursively."""
    found: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            found.extend(sorted(q for q in p.rglob("*.y*ml") if q.suffix in (".yaml", ".yml")))
        else:
            found.append(p)
    return found


class _Reader:
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
        for key, value in doc.value:
            name = scalar(key)
            if name not in KEYS:
                raise self.fail(key, "fixture.unknown_key", key=name, known=", ".join(KEYS))
            fields[name] = value
        if "tree" not in fields:
            raise self.fail(doc, "fixture.no_tree")
        root_player = self.root_player(fields.get("root"))
        root_name = self.text(fields["root_name"]) if "root_name" in fields else DEFAULT_ROOT_NAME
        self.tree_from(fields["tree"], root_name)
        tree = Tree(self.root, self.children, self.utilities, root_player)
        fixture = Fixture(self.path if str(self.path) != "<fixture>" else None,
                          self.text(fields["id"]) if "id" in fields else self.path.stem, tree)
        fixture.title = self.texts(fields["title"]) if "title" in fields else {}
        fixture.source = self.text(fields["source"]) if "source" in fields else ""
        fixture.description = self.texts(fields["description"]) if "description" in fields else {}
        if "prune_on_equality" in fields:
            fixture.prune_on_equality = self.flag(fields["prune_on_equality"])
        if "heuristics" in fields:
            tree.heuristics.update(self.heuristics(fields["heuristics"]))
        if "notes" in fields:
            fixture.notes = self.notes(fields["notes"])
        if "tags" in fields:
            fixture.tags = self.tags(fields["tags"])
        if "expected" in fields:
            fixture.expected, fixture.lines = self.expected(fields["expected"], tree)
        return fixture

    # -- header fields -------------------------------------------------------

    def root_player(self, node: Node | None) -> str:
        if node is None:
            return MAX
        value = scalar(node) if isinstance(node, ScalarNode) else None
        if isinstance(value, str) and value.lower() in ("max", "min"):
            return MAX if value.lower() == "max" else MIN
        raise self.fail(node, "fixture.bad_root", found=describe(node))

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

    def name(self, key: Node) -> str:
        """A node name from a mapping key: a non-empty string YAML did not read as something else."""
        if key.tag != STR:
            raise self.fail(key, "fixture.name_not_string", found=key.value,
                            kind=key.tag.rsplit(":", 1)[-1])
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

    # -- per-node data -------------------------------------------------------

    def node_key(self, key: Node) -> str:
        name = scalar(key)
        if not isinstance(name, str) or name not in self.where:
            raise self.fail(key, "fixture.unknown_node", name=str(name))
        return name

    def heuristics(self, node: Node) -> dict[str, float]:
        if not isinstance(node, MappingNode):
            raise self.fail(node, "fixture.not_mapping_field", field="heuristics")
        return {self.node_key(k): number(v) for k, v in node.value}

    def notes(self, node: Node) -> dict[str, dict[str, str]]:
        if not isinstance(node, MappingNode):
            raise self.fail(node, "fixture.not_mapping_field", field="notes")
        return {self.node_key(k): self.texts(v) for k, v in node.value}

    def expected(self, node: Node, tree: Tree) -> tuple[dict, dict[str, int]]:
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
            expected[algorithm] = {}
            lines[f"expected.{algorithm}"] = line_of(key)
            for fkey, value in block.value:
                name = scalar(fkey)
                if name not in EXPECTED_FIELDS:
                    raise self.fail(fkey, "fixture.unknown_expected", found=name,
                                    known=", ".join(EXPECTED_FIELDS))
                expected[algorithm][name] = self.expected_value(EXPECTED_FIELDS[name], value, tree)
                lines[f"expected.{algorithm}.{name}"] = line_of(fkey)
        return expected, lines

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

    def expected_value(self, kind: str, node: Node, tree: Tree) -> Any:
        if kind == "number":
            return number(node)
        if kind == "count":
            value = scalar(node) if isinstance(node, ScalarNode) else None
            if type(value) is not int or value < 0:
                raise self.fail(node, "fixture.not_count", found=describe(node))
            return value
        if kind == "windows":
            return self.windows(node)
        if kind == "action":
            value = scalar(node) if isinstance(node, ScalarNode) else describe(node)
            if value is not None and value not in tree.children.get(tree.root, ()):
                raise self.fail(node, "fixture.bad_action", found=str(value), root=tree.root)
            return value
        if not isinstance(node, SequenceNode):
            raise self.fail(node, "fixture.not_list", found=describe(node))
        names = []
        for item in node.value:
            name = plain(item)
            if name not in self.where:
                raise self.fail(item, "fixture.unknown_node", name=str(name))
            names.append(name)
        return names
