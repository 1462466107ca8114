"""A test's result as plain data and back: what the student's process sends ``abkit check`` (:mod:`.isolated`).

A :class:`~abkit.feedback.TestResult` holds traces, findings, messages and trees. Each becomes a JSON object tagged
with ``"$"`` (its kind) so that the parent rebuilds the same objects: tuples stay tuples and a mapping keeps keys
that are not text (a tic-tac-toe state). An exception becomes its text (``"RecursionError: …"``), as a trace read
back from the grader's wire holds it (:meth:`abkit.trace.Trace.from_dict`); any other value the student's code made
becomes its ``repr``. Every JSON object in the data is tagged, so nothing the student's code returned can pass for
one of the kit's objects.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from abkit.compare import Finding
from abkit.feedback import TestResult
from abkit.gametree import GameDrawing
from abkit.i18n import Message
from abkit.trace import Call, CountedTrace, Trace
from abkit.tree import Tree

from abkit.studentloop.check import Label

#: the kit's records rebuilt field by field (their fields that ``__init__`` takes, and a trace's ``tampered``)
RECORDS = {cls.__name__: cls for cls in (TestResult, Finding, Trace, Call, Tree, GameDrawing)}
#: how much of a value's ``repr`` is kept
REPR_CHARS = 200


def to_data(value: Any) -> Any:
    """``value`` as JSON-ready data (:func:`from_data` rebuilds it)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, list):
        return [to_data(v) for v in value]
    if isinstance(value, tuple):
        return {"$": "tuple", "items": [to_data(v) for v in value]}
    if isinstance(value, dict):
        return {"$": "dict", "items": [[to_data(k), to_data(v)] for k, v in value.items()]}
    if isinstance(value, Label):
        return {"$": "Label", "texts": dict(value.texts)}
    if isinstance(value, Message):
        return {"$": "Message", "key": value.key, "params": to_data(value.params)}
    if isinstance(value, CountedTrace):
        return {"$": "CountedTrace", "fields": to_data({
            "algorithm": value.algorithm, "root": value.root, "value": value.value, "action": value.action,
            "nodes": value.node_count, "leaves": value.leaf_count, "error": value.error,
            "value_error": value.value_error}), "tampered": value.tampered, "eval_calls": value.eval_calls}
    if type(value).__name__ in RECORDS and type(value) is RECORDS[type(value).__name__]:
        fields = {f.name: to_data(getattr(value, f.name)) for f in dataclasses.fields(value)
                  if f.init and not f.name.startswith("_")}
        return {"$": type(value).__name__, "fields": fields}
    if isinstance(value, BaseException):
        return {"$": "text", "text": f"{type(value).__name__}: {value}" if str(value) else type(value).__name__}
    return {"$": "text", "text": repr(value)[:REPR_CHARS]}


def from_data(data: Any) -> Any:
    """The value :func:`to_data` described. ValueError for data it could not have written."""
    if data is None or isinstance(data, (bool, int, float, str)):
        return data
    if isinstance(data, list):
        return [from_data(v) for v in data]
    if not isinstance(data, dict):
        raise ValueError(f"not result data: {type(data).__name__}")
    kind = data.get("$")
    if kind == "tuple":
        return tuple(from_data(v) for v in data["items"])
    if kind == "dict":
        return {_key(from_data(k)): from_data(v) for k, v in data["items"]}
    if kind == "Label":
        return Label(dict(data["texts"]))
    if kind == "Message":
        return Message(str(data["key"]), **from_data(data["params"]))
    if kind == "text":
        return str(data["text"])
    if kind == "CountedTrace":
        trace = CountedTrace(**from_data(data["fields"]))
        trace.tampered, trace.eval_calls = bool(data.get("tampered")), int(data.get("eval_calls", 0))
        return trace
    if kind in RECORDS:
        return RECORDS[kind](**{name: from_data(v) for name, v in data["fields"].items()})
    raise ValueError(f"not result data: {kind!r}")


def _key(key: Any) -> Any:
    """A mapping's key as rebuilt (a list, which cannot be one, only from data not written here)."""
    if isinstance(key, list):
        raise ValueError("a list cannot be a key")
    return key
