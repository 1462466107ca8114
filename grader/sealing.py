"""What a student's process may still show once it has been given a hidden test: nothing of its own text.

A process keeps what it is shown (a module of one exercise may remember the hidden trees it searched), and a file
loaded later in the same process may tell it: in its log, its exit status, an exception's message, its prints, a
value or an action made of text. So every exercise run in a process after a hidden test was sent to it is sealed
(:func:`seal`) before anything is judged or written, and so are the tests students see that an exercise sends after
its own first hidden test (the student's random trees). A sealed run's note says a fixed sentence instead of the
load error or the death (and its exit status); its traceback and prints are dropped (a traceback's place says why);
an exception keeps only its type (a built-in one's name, else ``Exception``); every value or node name of its
traces that the tree does not hold is replaced by a fixed mark. What is judged (values, actions, the generated
nodes) is otherwise the same.
"""

from __future__ import annotations

import builtins
import numbers

from abkit.i18n import t
from abkit.tree import Tree

#: what a sealed reply shows in place of a text the student's process made (no words: every language reads it)
MARK = "…"
#: the squares of a tic-tac-toe board (a board game's moves and states)
BOARD = 9
#: the statuses whose note the student's process made (a load error's text, a death's exit status)
SEALED_STATUSES = frozenset({"crashed"})


def shown_hidden(source: str) -> bool:
    """Whether a test of this ``source`` gives the process a tree students do not see (the hidden fixtures)."""
    return source == "hidden"


def seal(run, lang: str, tests: frozenset | None = None) -> None:
    """Seal an :class:`abkit.grader.running.ExerciseRun` in place (see the module's docstring): its note and
    traceback, and the replies to ``tests`` (ids; ``None``: every test of the run)."""
    if run.status in SEALED_STATUSES:
        run.note = t("grade.note.sealed", lang, file=run.file or "")
    run.traceback = []
    trees = {test.id: test.tree for test in run.planned}
    run.replies = {test_id: sealed_reply(reply, trees.get(test_id), lang) if tests is None or test_id in tests
                   else reply for test_id, reply in run.replies.items()}


def sealed_reply(reply: dict, tree: Tree | None, lang: str) -> dict:
    """``reply`` with nothing of the student's own text: no prints, a traceback's place told in a fixed sentence
    (in ``lang``), an error's type only, a trace's values and names the tree does not hold marked
    (:func:`sealed_trace`), an order's or a move's text marked."""
    sealed = dict(reply)
    if "output" in sealed:
        sealed["output"] = ""
    if sealed.get("traceback"):
        sealed["traceback"] = [t("grade.sealed.traceback", lang)]
    if sealed.get("error"):
        sealed["error"] = _error(sealed["error"])
        sealed["error_type"] = sealed["error"].split(":", 1)[0]
    if isinstance(sealed.get("trace"), dict):
        sealed["trace"] = sealed_trace(sealed["trace"], tree)
    if "answer" in sealed:
        sealed["answer"] = _answer(sealed["answer"], tree)
    return sealed


def sealed_trace(trace: dict, tree: Tree | None) -> dict:
    """A trace (:meth:`abkit.trace.Trace.to_dict`) whose errors keep their type only and whose action, values and
    call nodes are kept only when they are numbers or the tree's nodes (a board game's trace holds counts only)."""
    sealed = dict(trace)
    for key in ("error", "value_error"):
        if sealed.get(key):
            sealed[key] = _error(sealed[key])
    sealed["value"] = _number(sealed.get("value"))
    sealed["action"] = _node(sealed.get("action"), tree)
    sealed["calls"] = [[_node(row[0], tree), row[1], *map(_number, row[2:5]), *row[5:]]
                       for row in sealed.get("calls", []) if isinstance(row, list) and len(row) >= 5]
    return sealed


def _error(text: object) -> str:
    """An error's text reduced to its type (a built-in exception's name, else ``Exception``)."""
    name = str(text).split(":", 1)[0].strip()
    kind = getattr(builtins, name, None)
    known = isinstance(kind, type) and issubclass(kind, BaseException)
    return f"{name if known else 'Exception'}: {MARK}"


def _number(value: object) -> object:
    """A value kept when it is a number or ``None``; anything else (text) marked."""
    return value if value is None or isinstance(value, numbers.Number) else MARK


def _node(value: object, tree: Tree | None) -> object:
    """A state or an action kept when the tree holds it, or when it is ``None`` or a number on a tree (no more
    than a value tells: a root that returns its value for its action is judged, and named, as it was); anything
    else marked. Off a tree (a board game), a square (0 to 8) or a board's text is kept."""
    if value is None:
        return None
    if tree is not None and isinstance(value, numbers.Number):
        return value
    if tree is None:
        if type(value) is int:
            return value if 0 <= value < BOARD else MARK
        return value if isinstance(value, str) and len(value) == BOARD and set(value) <= set("XO.") else MARK
    return value if isinstance(value, str) and value in tree else MARK


def _answer(answer: object, tree: Tree | None) -> object:
    """An order's answer (node -> actions) or a move, each name kept only when the tree (or a board) holds it."""
    if isinstance(answer, dict):
        return {node: [_node(a, tree) for a in actions] if isinstance(actions, list) else MARK
                for node, actions in answer.items()}
    return _node(answer, tree)
