"""The start of a student's process: its key read, its limits set, itself confined and its output captured, before
any student code exists; then :func:`abkit.grader.serve.serve`.

``main`` is what ``python -I -B -m abkit.grader.child REQUEST_FD REPLY_FD LIMITS`` runs, and what each child the fork
server forks runs (:mod:`abkit.grader.forkserver`).
"""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path

from abkit.wire import Channel

from abkit.grader.capture import CappedText
from abkit.grader.childlimits import _limit
from abkit.grader.runtest import _KNOWN
from abkit.grader.serve import serve


def _confine(limits: dict) -> dict | None:  # pragma: no cover - runs only in the child, before any student code
    """Apply :func:`abkit.grader.confine.confine` unless the parent said not to; what it achieved, as plain data."""
    if not limits.get("confine", True):
        return None
    from abkit.coursefolder import KIT_CODE
    from abkit.grader.confine import confine

    secrets = [Path(p) for p in limits.get("secrets", [])]
    return confine(os.getcwd(), KIT_CODE, secrets, limits.get("writable", []), drop_root=True).to_dict()


def main(argv: list[str]) -> int:  # pragma: no cover - the child's entry point, exercised through the sandbox
    """Become a student's process as ``argv`` (``[program, REQUEST_FD, REPLY_FD, LIMITS as JSON]``) says, then
    serve its requests; the exit status."""
    limits = json.loads(argv[3])
    channel = Channel(int(argv[1]), int(argv[2]), known=_KNOWN)
    channel.receive_key()
    refused = _limit(limits)
    defences = _confine(limits)
    if defences is not None:  # always there, so that no key can be added to the report without changing it
        defences["refused"] = refused
    output = CappedText(limits.get("output", 20_000))
    sys.stdout = sys.stderr = output
    sys.stdin = io.StringIO("")
    sys.setrecursionlimit(limits.get("recursion", 1000))
    if limits.get("profile"):  # the kit's time measured (grader.sandbox.PROFILE_CHILD): serve under cProfile
        import cProfile
        profiler = cProfile.Profile()
        profiler.runcall(serve, channel, output, [os.getcwd()], defences)
        profiler.dump_stats(limits["profile"])
        return 0
    serve(channel, output, [os.getcwd()], defences)
    return 0
