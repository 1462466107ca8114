"""The wire between a grader and a student's process: how requests and replies are framed, signed and bounded.

Both ends import this module: the grader's (:mod:`abkit.grader.sandbox`) and the student's process
(:mod:`abkit.grader.child`). The format, exactly:

- Two pipes, one each way. The first :data:`KEY_BYTES` (32) bytes the grader writes on the request pipe are the
  run's secret key, fresh for each process and written before any student code exists.
- A **request** is a frame: :data:`HEADER` (the body's length in bytes, 4 bytes, big-endian, unsigned), then the
  body: one JSON object in UTF-8, non-ASCII characters as they are (:func:`encode`, :func:`frame`). ``{"op":
  "bye"}`` (or the end of the pipe) ends the process.
- A **reply** is a frame followed by its MAC: :data:`MAC_BYTES` (32) bytes of HMAC-SHA256 under the run's key of
  :data:`SEQUENCE` (the reply's sequence number, 8 bytes, big-endian: 0 for the first frame the process sends, one
  more for each frame after it) followed by the body (:func:`signature`). Bytes written into the reply pipe by
  anything without the key, and a reply replayed, fail the check.
- A reply's body is one JSON object. ``id`` is the count of requests the process has received, this one included
  (every frame of a reply that comes in frames carries its request's); besides it, what the process made:
  ``output`` (the student's prints, capped), ``tampered`` (whether the harness or the game was changed), and by
  the request's kind ``loaded``, ``functions``, ``defences`` (a ``load``), ``trace`` (a search or a call: at most
  :data:`MAX_RECORD` nodes generated, leaves evaluated and calls, else cut there by :func:`truncate`), ``answer``
  (an ``order``, one move of ``games``), and ``error``, ``error_type``, ``traceback`` when the student's code
  failed. What each kind may hold is checked by :mod:`abkit.grader.replies`.
- Sizes: a reply's body as sent is at most :data:`MAX_REPORT` bytes; a larger one is replaced, in the student's
  process, by :func:`oversized`'s (its trace cut to the root, its answer and output dropped, an error
  ``ReportTooLarge``). The grader refuses any frame over :data:`MAX_REPLY` bytes before it reads a byte of it.
- A tree travels as :func:`tree_to_data`'s plain data: its shape and leaf utilities, and its heuristic values,
  levels and probabilities when it has them; never an expected answer.
"""

from __future__ import annotations

import hmac
import json
import os
import struct
from typing import TYPE_CHECKING

from .tree import Tree

if TYPE_CHECKING:
    from .trace import Trace

#: a frame's head: the length of the body that follows
HEADER = struct.Struct(">I")
#: the run's key, and every reply's MAC (HMAC-SHA256(key, sequence number + body)), are this many bytes
KEY_BYTES = MAC_BYTES = 32
#: a reply's sequence number, as its MAC covers it
SEQUENCE = struct.Struct(">Q")
#: the most nodes or calls a trace sent back may hold
MAX_RECORD = 50_000
#: the most bytes a reply's body may have as the student's process sends it (half of :data:`MAX_REPLY`)
MAX_REPORT = 8 * 1024 * 1024
#: the most bytes of one frame the grader reads
MAX_REPLY = 16 * 1024 * 1024


def encode(message: dict) -> bytes:
    """A message's body: its JSON in UTF-8, non-ASCII characters as they are."""
    return json.dumps(message, ensure_ascii=False).encode("utf-8")


def frame(body: bytes) -> bytes:
    """A body framed: its length (:data:`HEADER`), then the body."""
    return HEADER.pack(len(body)) + body


def signature(key: bytes, sequence: int, body: bytes) -> bytes:
    """The MAC of the reply numbered ``sequence`` with this ``body``: HMAC-SHA256 under ``key``."""
    return hmac.digest(key, SEQUENCE.pack(sequence) + body, "sha256")


class Channel:
    """The student's process's end: requests read from one file descriptor, replies framed, capped and signed
    onto the other under the run's key.

    ``known``: requests already parsed, by their bodies' bytes (:func:`abkit.grader.runtest.know`): such a request
    is taken as it is, without parsing it again.
    """

    def __init__(self, read_fd: int, write_fd: int, known: dict[bytes, dict] | None = None) -> None:
        self.read_fd, self.write_fd = read_fd, write_fd
        self.key, self.sent = b"", 0
        self.known = known if known is not None else {}

    def receive_key(self) -> None:
        """Read the run's secret key: the first bytes the parent writes, before any student code exists."""
        self.key = self._read(KEY_BYTES) or b""

    def receive(self) -> dict | None:
        """The next request, or None at the end of the pipe."""
        head = self._read(HEADER.size)
        if head is None:
            return None
        body = self._read(HEADER.unpack(head)[0]) or b"{}"
        known = self.known.get(body)
        return known if known is not None else json.loads(body)

    def send(self, message: dict) -> None:
        """Send ``message`` as the next reply (:func:`oversized`'s in its place when its body is over
        :data:`MAX_REPORT` bytes), signed with the next sequence number."""
        body = encode(message)
        if len(body) > MAX_REPORT:
            body = encode(oversized(message, len(body)))
        data = frame(body) + signature(self.key, self.sent, body)
        self.sent += 1
        while data:
            data = data[os.write(self.write_fd, data):]

    def _read(self, size: int) -> bytes | None:
        chunks, left = [], size
        while left:
            chunk = os.read(self.read_fd, left)
            if not chunk:
                return None
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)


def oversized(message: dict, size: int) -> dict:
    """In place of a reply of ``size`` bytes, more than :data:`MAX_REPORT`: the same reply without what the student's
    code made (its trace cut to the root, its answer and output dropped), with an error that says why."""
    text = f"ReportTooLarge: the report had {size:,} bytes, more than {MAX_REPORT:,}"
    reply = {k: message[k] for k in ("id", "tampered", "loaded", "functions", "defences") if k in message}
    reply.update(error=text, error_type="ReportTooLarge", traceback=[], output="")
    if "answer" in message:
        reply["answer"] = None
    trace = message.get("trace")
    if isinstance(trace, dict):
        reply["trace"] = {"algorithm": trace.get("algorithm"), "root": trace.get("root"), "action": None,
                          "value": None, "visited": [trace.get("root")], "evaluated": [], "calls": [], "error": text}
        if "counts" in trace:
            reply["trace"]["counts"] = [0, 0]
    return reply


def truncate(trace: Trace, limit: int = MAX_RECORD) -> None:
    """Keep a runaway search's record to a size the parent can read; say so in ``error``."""
    if max(len(trace.visited), len(trace.evaluated), len(trace.calls)) > limit:
        trace.visited, trace.evaluated, trace.calls = trace.visited[:limit], trace.evaluated[:limit], trace.calls[:limit]
        trace.calls = [c for c in trace.calls if c.parent is None or c.parent < limit]
        if trace.error is None:
            trace.error = f"TraceTooLong: more than {limit} nodes or calls"


def tree_to_data(tree: Tree) -> dict:
    """The plain data a child needs to rebuild ``tree``: its shape and leaf utilities, nothing else, plus the
    heuristic values of its inner nodes, who moves at each level and the outcomes' probabilities when it has them."""
    data = {"root": tree.root, "root_player": tree.root_player,
            "children": {k: list(v) for k, v in tree.children.items()}, "utilities": dict(tree.utilities)}
    extra = {"levels": list(tree.levels), "heuristics": dict(tree.heuristics), "probabilities": dict(tree.probabilities)}
    return {**data, **{k: v for k, v in extra.items() if v}}


def tree_from_data(data: dict) -> Tree:
    """The inverse of :func:`tree_to_data`."""
    return Tree(data["root"], {k: tuple(v) for k, v in data["children"].items()}, dict(data["utilities"]),
                data["root_player"], heuristics=dict(data.get("heuristics", {})), levels=tuple(data.get("levels", ())),
                probabilities=dict(data.get("probabilities", {})))
