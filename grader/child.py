"""The sandboxed side of grading: one student's exercise files run here, in their own process.

:mod:`abkit.grader.sandbox` starts this module as ``python -I -B -m abkit.grader.child REQUEST_FD REPLY_FD LIMITS``
(or, once per batch, as the fork server: ``--server FD SECRETS``). The child receives only the game it searches (a
tree, no expected answers: a tree with its heuristic values and probabilities, or the name of a board game, from
which it builds the game and EVAL itself) and compares nothing: the parent does. It imports only the core and its
own parts, each with one job:

- :mod:`abkit.wire` — requests and replies framed, signed and bounded (the same module on the grader's side);
- :mod:`abkit.grader.childstart` — the start: key, limits (:mod:`abkit.grader.childlimits`), confinement
  (:mod:`abkit.grader.confine`), the student's output captured (:mod:`abkit.grader.capture`);
- :mod:`abkit.grader.serve` — the loop: each request answered, checked and sent back;
- :mod:`abkit.grader.runtest` — what runs one test (the grader runs the reference with it too);
- :mod:`abkit.grader.tamper` — whether the student's code changed the game, the recorder or the harness;
- :mod:`abkit.grader.forkserver` — the fork server, which starts each student's process by forking.
"""

from __future__ import annotations

import json
import sys

# (the names the kit's tests and tools import from here, each from the part that holds it)
from abkit.wire import HEADER, MAX_RECORD, MAX_REPORT, SEQUENCE, tree_to_data  # noqa: F401

from abkit.grader.childstart import main
from abkit.grader.forkserver import serve_forks
from abkit.grader.runtest import BOARD_GAMES, CONTRACT, answer, run_test  # noqa: F401
from abkit.grader.tamper import _fingerprint, _snapshot, _tampered  # noqa: F401

if __name__ == "__main__":  # pragma: no cover
    if sys.argv[1:2] == ["--server"]:
        sys.exit(serve_forks(int(sys.argv[2]), json.loads(sys.argv[3]) if len(sys.argv) > 3 else []))
    sys.exit(main(sys.argv))
