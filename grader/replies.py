"""What a student's process may report: one schema per reply kind, checked before the grader uses a reply.

A reply is signed by the harness in the student's process, but that process runs
the student's code, which can reach the harness (its channel, its key) and make
it sign anything. So the grader trusts a reply's *shape* no more than its
content: every reply is checked here before any of it is used, and one that does
not fit raises :class:`BadReply`, which the grader turns into the student's
process failing (``crashed``, with the problem in words), never an exception of
its own. What a reply may hold (see :func:`abkit.grader.serve.serve` and
:meth:`abkit.trace.Trace.to_dict`):

- every reply (:func:`envelope`): ``id`` (an int), ``output`` (text), ``tampered``
  (bool), ``error``/``error_type`` (text), ``traceback`` (a list of text),
  ``defences`` (a flat mapping, or None);
- load (:func:`load`): ``loaded`` (bool), ``functions`` (names of the contract);
- search, call (:func:`search`): ``trace``, a trace's plain data: node names are
  plain, hashable values (text no longer than the test's longest name, numbers,
  bool, None), numbers (±inf and NaN included), at most
  :data:`~abkit.wire.MAX_RECORD` generated nodes, leaves and calls, each call
  a row of ten fields whose parent is an earlier call;
- order (:func:`order`): ``answer``, a mapping of the asked nodes to a list of plain values (or one);
- move (:func:`move`): ``answer``, one plain value.

Free text (output, errors, tracebacks, values kept as their ``repr``) is cut to a
length instead: an honest process can send long text, and cut text still reads.
"""

from __future__ import annotations

import operator
from itertools import compress, repeat
from typing import Any, Iterable

from abkit.i18n import Message
from abkit.wire import MAX_RECORD

from abkit.grader.runtest import CONTRACT

#: the most characters kept of one free text (an error message, a value's repr, one traceback line)
TEXT = 2_000
#: the most characters kept of a test's printed output (the child keeps far fewer: Limits.output_chars)
OUTPUT = 20_000
#: the most traceback lines kept
LINES = 200
#: the players a call may be made for
PLAYERS = ("MAX", "MIN", "CHANCE")
#: the largest position a count or index may hold (a record is at most MAX_RECORD long; counts of a board game less)
INDEX = 1 << 31


class BadReply(ValueError):
    """A reply that does not fit its kind's schema; ``message`` says where and how (a :class:`Message`)."""

    def __init__(self, message: Message) -> None:
        super().__init__(message.render("en"))
        self.message = message


def _bad(path: str, wanted: str, value: object) -> BadReply:
    return BadReply(Message("faults.reply.type", path=path, wanted=wanted, got=_kind(value)))


def _kind(value: object) -> str:
    """A short description of what a value is (never its content, which may be huge)."""
    if isinstance(value, str):
        return f"str ({len(value)} characters)"
    if isinstance(value, (list, dict)):
        return f"{type(value).__name__} ({len(value)} items)"
    return repr(value) if isinstance(value, (int, float, bool, type(None))) and len(repr(value)) < 40 \
        else type(value).__name__


def text(value: object, path: str, limit: int = TEXT) -> str:
    """``value`` as kept: text cut to ``limit`` characters (with a note of how many there were); else BadReply.

    >>> text("abc", "error"), text("x" * 12, "error", 5)
    ('abc', 'xxxxx…(12 characters)')
    """
    if type(value) is not str:
        raise _bad(path, "str", value)
    return value if len(value) <= limit else f"{value[:limit]}…({len(value)} characters)"


def plain(value: object, path: str) -> Any:
    """A value a search returned or was called with (a number, ±inf, NaN, bool, None, or text: kept cut)."""
    if type(value) is str:
        return text(value, path)
    if type(value) in (int, float, bool) or value is None:
        return value
    raise _bad(path, "number, str, bool or null", value)


def index(value: object, path: str, optional: bool = False) -> int | None:
    """A count or a position: an int in ``0..INDEX`` (``None`` too when ``optional``)."""
    if value is None and optional:
        return None
    if type(value) is not int or not 0 <= value <= INDEX:
        raise _bad(path, "int ≥ 0" + (" or null" if optional else ""), value)
    return value


def nodes(values: object, path: str, longest: int, limit: int = MAX_RECORD) -> list:
    """A list of node names: at most ``limit`` plain, hashable values, text no longer than ``longest``."""
    if type(values) is not list:
        raise _bad(path, "list", values)
    if len(values) > limit:
        raise BadReply(Message("faults.reply.long", path=path, size=len(values), limit=limit))
    if not values:
        return values
    if set(map(type, values)) == _TEXT:  # the common case, checked in C
        if max(map(len, values)) > longest:
            at = next(i for i, v in enumerate(values) if len(v) > longest)
            raise BadReply(Message("faults.reply.long", path=f"{path}[{at}]", size=len(values[at]), limit=longest))
        return values
    for i, value in enumerate(values):
        node(value, f"{path}[{i}]", longest)
    return values


def node(value: object, path: str, longest: int) -> Any:
    """One node name (a state): text no longer than ``longest``, a number, bool or None."""
    if type(value) is str:
        if len(value) > longest:
            raise BadReply(Message("faults.reply.long", path=path, size=len(value), limit=longest))
        return value
    if type(value) in (int, float, bool) or value is None:
        return value
    raise _bad(path, "a state (str, number, bool or null)", value)


def _mapping(reply: object, path: str = "reply") -> dict:
    if type(reply) is not dict:
        raise _bad(path, "object", reply)
    return reply


def _field(data: dict, key: str, path: str) -> Any:
    try:
        return data[key]
    except KeyError:
        raise BadReply(Message("faults.reply.missing", path=f"{path}.{key}")) from None


#: every key a reply may carry; others are dropped as it is read (the grader keeps a student's replies until it is
#: scored, and a key it never reads must not hold memory for it)
REPLY_KEYS = frozenset({"id", "tampered", "loaded", "functions", "defences", "output", "error", "error_type",
                        "traceback", "trace", "answer"})
#: every key of a reply's trace (:meth:`abkit.trace.Trace.to_dict`, a counted trace's counts)
TRACE_KEYS = frozenset({"algorithm", "root", "visited", "evaluated", "calls", "action", "value", "error",
                        "value_error", "counts"})


def envelope(reply: object) -> dict:
    """What every reply may carry, checked (free text cut in place), anything else dropped; the reply. The ``id`` is
    the caller's."""
    reply = _mapping(reply)
    for key in [k for k in reply if k not in REPLY_KEYS]:
        del reply[key]
    if "output" in reply:
        reply["output"] = text(reply["output"], "output", OUTPUT)
    if "tampered" in reply and type(reply["tampered"]) is not bool:
        raise _bad("tampered", "bool", reply["tampered"])
    for key in ("error", "error_type"):
        if reply.get(key) is not None:
            reply[key] = text(reply[key], key)
    if "traceback" in reply:
        lines = reply["traceback"]
        if type(lines) is not list:
            raise _bad("traceback", "list", lines)
        reply["traceback"] = [text(line, f"traceback[{i}]") for i, line in enumerate(lines[:LINES])]
    if reply.get("defences") is not None:
        reply["defences"] = _defences(reply["defences"])
    return reply


#: the confinement report's fields the grader reads (grader.confine.Defences, the refused limits): their types
DEFENCE_SHAPES = {"landlock": ((int,), "int"), "seccomp": ((bool,), "bool"), "hidden": ((bool, type(None)), "bool or null"),
                  "reasons": ((list,), "list of text"), "refused": ((list,), "list of text")}


def _defences(data: object) -> dict:
    """What the process said about its confinement: a flat mapping of plain values and lists of text."""
    data = _mapping(data, "defences")
    if len(data) > 32:
        raise BadReply(Message("faults.reply.long", path="defences", size=len(data), limit=32))
    kept = {}
    for key, value in data.items():
        path = f"defences.{text(key, 'defences', 64)}"
        shape = DEFENCE_SHAPES.get(key)
        if shape is not None and type(value) not in shape[0]:  # the report the grader prints and compares
            raise _bad(path, shape[1], value)
        if type(value) is list:
            kept[key] = [text(v, f"{path}[{i}]", 500) for i, v in enumerate(value[:32])]
        else:
            kept[key] = plain(value, path)
    return kept


#: what a reply of one kind carries that a reply of another never does
KIND_KEYS = frozenset({"trace", "answer", "loaded", "functions"})


def _only(reply: dict, *keys: str) -> None:
    """Drop from ``reply`` what replies of other kinds carry (unchecked, it would only take memory)."""
    for key in KIND_KEYS.difference(keys):
        reply.pop(key, None)


def load(reply: dict) -> dict:
    """A ``load`` reply: ``loaded``, and the contract's functions the file defines."""
    _only(reply, "loaded", "functions")
    loaded = _field(reply, "loaded", "reply")
    if type(loaded) is not bool:
        raise _bad("loaded", "bool", loaded)
    functions = reply.get("functions", [])
    if type(functions) is not list or not all(type(f) is str and f in CONTRACT for f in functions):
        raise _bad("functions", f"list of {', '.join(CONTRACT)}", functions)
    return reply


def search(reply: dict, longest: int, root: str, algorithm: str) -> dict:
    """A ``search`` or ``call`` reply: ``trace``, the plain data of a :class:`~abkit.trace.Trace` (or a
    counted one) of ``algorithm`` from ``root`` (a whole trace starts with it) whose node names are at most
    ``longest`` characters long."""
    _only(reply, "trace")
    trace = _mapping(_field(reply, "trace", "reply"), "trace")
    for key in [k for k in trace if k not in TRACE_KEYS]:
        del trace[key]
    if _field(trace, "algorithm", "trace") != algorithm:
        raise _bad("trace.algorithm", algorithm, trace["algorithm"])
    if _field(trace, "root", "trace") != root:
        raise _bad("trace.root", root, trace["root"])
    for key in ("action", "value"):
        trace[key] = plain(_field(trace, key, "trace"), f"trace.{key}")
    if _field(trace, "error", "trace") is not None:
        trace["error"] = text(trace["error"], "trace.error")
    visited = nodes(_field(trace, "visited", "trace"), "trace.visited", longest)
    if "counts" not in trace and (not visited or visited[0] != root):
        raise _bad("trace.visited[0]", root, visited[0] if visited else None)
    nodes(_field(trace, "evaluated", "trace"), "trace.evaluated", longest)
    _calls(_field(trace, "calls", "trace"), longest)
    if "counts" in trace:
        counts = trace["counts"]
        if type(counts) is not list or len(counts) != 2:
            raise _bad("trace.counts", "[nodes, leaves]", counts)
        for i, count in enumerate(counts):
            index(count, f"trace.counts[{i}]", optional=True)
    return reply


def _calls(rows: object, longest: int) -> None:
    """Every call's row: ``[node, player, alpha, beta, value, parent, visited_at, evaluated_at, synthetic,
    returned_at]`` (:class:`abkit.trace.Call`), the parent an earlier call."""
    if type(rows) is not list:
        raise _bad("trace.calls", "list", rows)
    if len(rows) > MAX_RECORD:
        raise BadReply(Message("faults.reply.long", path="trace.calls", size=len(rows), limit=MAX_RECORD))
    if _plain_calls(rows, longest):
        return
    for i, row in enumerate(rows):  # the slow way: cut long text, or say exactly what is wrong
        path = f"trace.calls[{i}]"
        if type(row) is not list or len(row) != 10:
            raise _bad(path, "list of 10 fields", row)
        node(row[0], f"{path}[0]", longest)
        if row[1] not in PLAYERS or type(row[1]) is not str:
            raise _bad(f"{path}[1]", " | ".join(PLAYERS), row[1])
        for k in (2, 3, 4):
            if type(row[k]) is str:
                row[k] = text(row[k], f"{path}[{k}]")
            elif not (type(row[k]) in (int, float, bool) or row[k] is None):
                raise _bad(f"{path}[{k}]", "number, str, bool or null", row[k])
        parent = row[5]
        if parent is not None and (type(parent) is not int or not 0 <= parent < i):
            raise _bad(f"{path}[5]", f"null or an int below {i}", parent)
        index(row[6], f"{path}[6]")
        index(row[7], f"{path}[7]")
        if type(row[8]) is not bool:
            raise _bad(f"{path}[8]", "bool", row[8])
        index(row[9], f"{path}[9]", optional=True)


_TEXT = frozenset((str,))
_LIST = frozenset((list,))
_TEN = frozenset((10,))
_PLAYER_SET = frozenset(PLAYERS)
_NUMBERS = frozenset((int, float, bool, type(None)))
_INT = frozenset((int,))
_BOOL = frozenset((bool,))
_INT_OR_NONE = frozenset((int, type(None)))
_NONE = frozenset((type(None),))


def _plain_calls(rows: list, longest: int) -> bool:
    """Whether every row is what an honest process sends, with no text to cut: checked a column at a time, in C
    where it can be (a search's replies are most of what the grader reads); False sends them the slow way.

    The rows' fields (:class:`abkit.trace.Call`): a node name (text), a player, three plain numbers (or None), the
    parent (None or the index of an earlier row), two positions, ``synthetic`` (a bool), where it returned (None or
    a position); positions are ints in ``0..INDEX``."""
    if not rows:
        return True
    if set(map(type, rows)) != _LIST or set(map(len, rows)) != _TEN:
        return False
    node, player, alpha, beta, value, parent, visited_at, evaluated_at, synthetic, returned_at = zip(*rows)
    numbers, positions = alpha + beta + value, visited_at + evaluated_at
    try:  # (a player that is not hashable raises TypeError: not an honest row)
        if set(map(type, node)) != _TEXT or max(map(len, node)) > longest or not set(player) <= _PLAYER_SET:
            return False  # (only text equals a player's name)
    except TypeError:
        return False
    if not set(map(type, numbers)) <= _NUMBERS or set(map(type, positions)) != _INT \
            or set(map(type, synthetic)) != _BOOL or min(positions) < 0 or max(positions) > INDEX:
        return False
    returned_types = set(map(type, returned_at))
    if not returned_types <= _INT_OR_NONE:
        return False
    if int in returned_types:
        returned = [r for r in returned_at if r is not None] if type(None) in returned_types else returned_at
        if min(returned) < 0 or max(returned) > INDEX:
            return False
    parent_types = set(map(type, parent))
    if not parent_types <= _INT_OR_NONE:
        return False
    if parent_types == _NONE:
        return True
    inner = list(map(operator.is_not, parent, repeat(None)))  # the calls made from another one
    parents, positions = list(compress(parent, inner)), compress(range(len(parent)), inner)
    return min(parents) >= 0 and not any(map(operator.ge, parents, positions))


def order(reply: dict, asked: Iterable[str], longest: int) -> dict:
    """An ``order`` reply: ``answer``, each asked node's actions (a list of plain values, or one plain value),
    or an error."""
    _only(reply, "answer")
    if reply.get("error"):
        return reply
    answer = _mapping(_field(reply, "answer", "reply"), "answer")
    asked = set(asked)
    for key, value in answer.items():
        if key not in asked:
            raise BadReply(Message("faults.reply.unasked", path="answer", node=text(key, "answer", 40)))
        path = f"answer.{key}"
        if type(value) is list:
            if len(value) > MAX_RECORD:
                raise BadReply(Message("faults.reply.long", path=path, size=len(value), limit=MAX_RECORD))
            value[:] = [_action(v, f"{path}[{i}]", longest) for i, v in enumerate(value)]
        else:
            answer[key] = _action(value, path, longest)
    return reply


def _action(value: object, path: str, longest: int) -> Any:
    """An action the student's code returned: a plain value; text longer than any action is cut (never equal)."""
    if type(value) is str:
        return text(value, path, max(longest, 64))
    return plain(value, path)


def move(reply: dict, longest: int) -> dict:
    """A ``move`` reply: ``answer``, the move chosen (a plain value), or an error."""
    _only(reply, "answer")
    if not reply.get("error"):
        reply["answer"] = _action(_field(reply, "answer", "reply"), "answer", longest)
    return reply
