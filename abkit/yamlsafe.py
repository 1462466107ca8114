"""A YAML reader for files the kit did not write: keeps line numbers, refuses tricks.

PyYAML's composer recurses (the C one overflows the C stack on deeply nested
input) and follows aliases, which can build cycles or exponentially large
trees. This module builds the node graph from the parser's event stream with an
explicit stack, a nesting limit, no aliases and no repeated mapping keys.
"""

from __future__ import annotations

import math
import re

import yaml
from yaml import events as ev
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .i18n import Message

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
MAX_DEPTH = 500
_CONSTRUCT = yaml.constructor.SafeConstructor()
STR, INT, FLOAT, BOOL, NULL = (f"tag:yaml.org,2002:{t}" for t in ("str", "int", "float", "bool", "null"))
#: a plain decimal integer (no sign +, no leading 0, no _): what trees are mostly made of
_DECIMAL = re.compile(r"-?(?:0|[1-9][0-9]*)\Z").match


class YamlError(ValueError):
    """Malformed YAML; ``line`` is 1-based, ``message`` a :class:`Message`."""

    def __init__(self, line: int, message: Message) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


#: what the YAML parsers (libyaml's and PyYAML's) say, by their words, and the kit's message for it:
#: the parser's English never reaches a reader, who gets the kit's words in their language
PARSER_PROBLEMS = (
    (r"\\t|tab character", "yaml.problem.tab"),
    (r"mapping values are not allowed", "yaml.problem.colon"),
    (r"could not find expected ':'|expected ':'", "yaml.problem.no_colon"),
    (r"expected ',' or '\]'|flow sequence", "yaml.problem.sequence"),
    (r"expected ',' or '\}'|flow mapping", "yaml.problem.mapping"),
    (r"escape", "yaml.problem.escape"),
    (r"quoted scalar", "yaml.problem.quote"),
    (r"block sequence entries are not allowed|expected '-' indicator|block collection", "yaml.problem.dash"),
    (r"expected key|expected <block end>|block mapping|simple key", "yaml.problem.indent"),
    (r"node content|expected the node", "yaml.problem.value"),
    (r"cannot start any token|unexpected ':'|non-alphabetical|anchor|alias", "yaml.problem.character"),
    (r"tag", "yaml.problem.tag"),
    (r"control characters|special characters|unicode|utf-8|utf-16|octet", "yaml.problem.encoding"),
    (r"document|directive|stream", "yaml.problem.document"),
)


def parser_problem(error: yaml.YAMLError, text: str = "") -> Message:
    """The YAML parser's complaint in the kit's words: a :class:`Message` by what the parser said
    (``text``: the document, to see the character the parser stopped at).

    >>> parser_problem(yaml.MarkedYAMLError(problem="mapping values are not allowed in this context")).key
    'yaml.problem.colon'
    >>> parser_problem(yaml.YAMLError("something new")).key
    'yaml.problem.other'
    """
    said = " ".join(str(part) for part in (getattr(error, "context", None), getattr(error, "problem", None))
                    if part) or str(error)
    mark = getattr(error, "problem_mark", None)
    if mark is not None and 0 <= mark.index < len(text) and text[mark.index] == "\t":
        return Message("yaml.problem.tab")
    return Message(next((key for pattern, key in PARSER_PROBLEMS if re.search(pattern, said, re.I)),
                        "yaml.problem.other"))


def line_of(node: Node) -> int:
    """The 1-based line a node starts on."""
    return node.start_mark.line + 1


def compose(text: str) -> Node | None:
    """The single document in ``text`` as a node graph (``None`` for an empty file).

    Raises :class:`YamlError` for a syntax error, more than one document, an
    alias, a mapping key given twice, or nesting deeper than ``MAX_DEPTH``.
    """
    try:  # PyYAML's own reader refuses control characters as soon as it is made
        loader = LOADER(text)
    except yaml.YAMLError as error:
        raise YamlError(1, Message("yaml.syntax", problem=parser_problem(error))) from None
    try:
        return _compose(loader)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark else 1
        problem = error.problem or error.context or ""
        if "nesting depth" in problem:  # PyYAML >= 6.0.3 refuses deep nesting itself: the kit's own words
            raise YamlError(line, Message("yaml.depth", limit=MAX_DEPTH)) from None
        raise YamlError(line, Message("yaml.syntax", problem=parser_problem(error, text))) from None
    except yaml.YAMLError as error:  # pragma: no cover - the C parser marks its errors
        raise YamlError(1, Message("yaml.syntax", problem=parser_problem(error))) from None
    finally:
        loader.dispose()


def _compose(loader) -> Node | None:
    root: Node | None = None
    documents = 0
    stack: list[Node] = []
    keys: list[dict] = []  # per open mapping: key -> line of its first use
    while True:
        event = loader.get_event()
        if isinstance(event, ev.StreamEndEvent):
            return root
        if isinstance(event, ev.DocumentStartEvent):
            documents += 1
            if documents > 1:
                raise YamlError(event.start_mark.line + 1, Message("yaml.documents"))
            continue
        if isinstance(event, (ev.StreamStartEvent, ev.DocumentEndEvent)):
            continue
        if isinstance(event, ev.AliasEvent):
            raise YamlError(event.start_mark.line + 1, Message("yaml.alias", anchor=event.anchor))
        if isinstance(event, (ev.MappingEndEvent, ev.SequenceEndEvent)):
            node = stack.pop()
            node.end_mark = event.end_mark
            if isinstance(node, MappingNode):
                keys.pop()
            if not stack:
                root = node
            continue
        node = _node(loader, event)
        if stack:
            parent = stack[-1]
            if isinstance(parent, SequenceNode):
                parent.value.append(node)
            elif len(parent.value) and parent.value[-1][1] is None:
                parent.value[-1] = (parent.value[-1][0], node)
            else:
                _check_key(node, keys[-1])
                parent.value.append((node, None))
        if isinstance(node, (MappingNode, SequenceNode)):
            if len(stack) >= MAX_DEPTH:
                raise YamlError(line_of(node), Message("yaml.depth", limit=MAX_DEPTH))
            stack.append(node)
            if isinstance(node, MappingNode):
                keys.append({})
        elif not stack:
            root = node


def _node(loader, event) -> Node:
    tag = event.tag
    if isinstance(event, ev.ScalarEvent):
        if tag is None and not event.style and _DECIMAL(event.value):  # plain style: None or ""
            tag = INT  # what the resolver would say, without its dozen regular expressions
        elif tag is None or tag == "!":
            tag = loader.resolve(ScalarNode, event.value, event.implicit)
        return ScalarNode(tag, event.value, event.start_mark, event.end_mark, style=event.style)
    if isinstance(event, ev.SequenceStartEvent):
        return SequenceNode(tag or "tag:yaml.org,2002:seq", [], event.start_mark, None)
    return MappingNode(tag or "tag:yaml.org,2002:map", [], event.start_mark, None)


def _check_key(key: Node, seen: dict) -> None:
    if not isinstance(key, ScalarNode):
        raise YamlError(line_of(key), Message("yaml.complex_key"))
    if key.value in seen:
        raise YamlError(line_of(key), Message("yaml.duplicate_key", key=key.value, first=seen[key.value]))
    seen[key.value] = line_of(key)


def scalar(node: ScalarNode):
    """The Python value of a plain scalar: str, int, float, bool or None.

    Any other tag (timestamps, binary, ``!!python/...``) is refused.
    """
    if node.tag == STR:
        return node.value
    if node.tag in (INT, FLOAT, BOOL, NULL):
        return _CONSTRUCT.yaml_constructors[node.tag](_CONSTRUCT, node)
    raise YamlError(line_of(node), Message("yaml.tag", tag=node.tag))


def is_number(node: Node) -> bool:
    """True for a scalar YAML reads as an int or a float (not a bool)."""
    return isinstance(node, ScalarNode) and node.tag in (INT, FLOAT)


def number(node: Node, infinite: bool = False) -> float | int:
    """A finite number (or ±inf when ``infinite``), or :class:`YamlError` saying what was found instead."""
    if not is_number(node):
        if looks_numeric(node):
            raise YamlError(line_of(node), Message("yaml.number_as_text", found=node.value))
        raise YamlError(line_of(node), Message("yaml.not_number", found=describe(node)))
    if node.tag == INT and _DECIMAL(node.value):
        return int(node.value)
    value = scalar(node)
    if math.isnan(value) or (math.isinf(value) and not infinite):
        raise YamlError(line_of(node), Message("yaml.not_finite", found=node.value))
    return value


def looks_numeric(node: Node) -> bool:
    """A text scalar Python would read as a number (YAML 1.1 reads ``1e3`` as text)."""
    if not (isinstance(node, ScalarNode) and node.tag == STR and not node.style):
        return False
    try:
        float(node.value)
    except ValueError:
        return False
    return True


def describe(node: Node) -> str:
    """A short quote of a node for messages."""
    if isinstance(node, ScalarNode):
        text = node.value if len(node.value) <= 40 else node.value[:37] + "..."
        return repr(text)
    return "[...]" if isinstance(node, SequenceNode) else "{...}"


def plain(node: Node):
    """The Python value of a node that holds ordinary data (no tree)."""
    if isinstance(node, ScalarNode):
        return scalar(node)
    if isinstance(node, SequenceNode):
        return [plain(item) for item in node.value]
    return {scalar(k): plain(v) for k, v in node.value}
