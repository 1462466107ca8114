"""The sandboxed side of grading: one student's exercise files run here, in their own process.

:mod:`abkit.grader.sandbox` starts this file as ``python -I -B child.py REQUEST_FD REPLY_FD LIMITS``.
Requests (load a file, search a tree or a tic-tac-toe position, call
MAX-VALUE/MIN-VALUE on a subtree, order actions, play games) come
in on one private pipe and every reply goes out on another, as length-prefixed
JSON; the student's prints go to a capped buffer, so they can never look like a
reply. The child receives only the game it searches (a tree, no expected
answers: a tree with its heuristic values and probabilities, or the name of a
board game, from which it builds the game and EVAL itself) and compares
nothing: the parent does. It imports only the core.
"""

from __future__ import annotations

import builtins
import gc
import hmac
import io
import json
import operator
import os
import struct
import sys
from pathlib import Path
from types import FunctionType, ModuleType
from typing import Iterator

import abkit.trace as _trace_module
from abkit.algorithms import Algorithm
from abkit.game import Budgeted
from abkit.loading import load_module
from abkit.play import playing
from abkit.tictactoe import SymmetryMerged, TicTacToe, nilsson_eval
from abkit.trace import (Trace, TracingGame, _plain, counted_search, traced_call,
                         traced_search)
from abkit.tree import Tree, TreeGame

HEADER = struct.Struct(">I")
#: every reply ends with HMAC-SHA256(key, sequence number + body): the key comes first on the request pipe
KEY_BYTES = MAC_BYTES = 32
SEQUENCE = struct.Struct(">Q")
#: the most nodes or calls a trace sent back may hold, and the most bytes a reply may have (half the parent's limit)
MAX_RECORD = 50_000
MAX_REPORT = 8 * 1024 * 1024
#: the functions a submission is expected to define (contract §1)
CONTRACT = ("minimax_decision", "alpha_beta_search", "max_value", "min_value", "alpha_beta_cutoff_search",
            "cutoff_test", "expectiminimax_decision", "expectiminimax", "chance_value", "ordered_actions",
            "iterative_deepening_search", "actions_in_order")
#: board games a request may name, and the evaluation function each is searched with to a depth limit
BOARD_GAMES = {"tictactoe": TicTacToe, "tictactoe-symmetric": SymmetryMerged}
#: the most states a traced search of a board game may generate: a search that does not prune is stopped well
#: within a test's time limit, even traced under coverage (tic-tac-toe after a corner opening: alpha-beta 2,338
#: under the AIMA rule; from the empty board 18,297, so that position is not graded; minimax 549,946)
GAME_BUDGET = 10_000
#: the fork server's :func:`_snapshot` and :func:`_guards`, taken once before it forks any child (each child is a
#: copy of the server, whose harness no student code has ever touched); empty in a child started afresh. (A list
#: filled in place: the module's own names are among what the guards hold still.)
_PREPARED: list = []
#: the same for one move of a played game, searched without tracing (after a corner opening, O's reply takes
#: alpha-beta 2,338 states under the AIMA rule and 15,993 under CS188's)
MOVE_BUDGET = 20_000


# -- what runs a test (also used by the parent for the reference and the mistakes) --

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


def game_from_request(request: dict):
    """The game a request names: its ``tree``, or a board game by name (``game``)."""
    if "tree" in request:
        return TreeGame(tree_from_data(request["tree"]))
    return BOARD_GAMES[request["game"]]()


#: the requests every student's process of a batch is sent alike (the shared tests'), read once by the fork server
#: before it forks any child (:func:`know`): their bytes -> the request as data (one object for tests whose requests
#: are the same bytes); and, by the request's id, the request itself and its tree's fields, each mapping as a tuple
#: of its items (nothing a test does can change them). A child reads such a request without parsing it and builds
#: each test's game from those fields (:func:`_game_for`). Empty in a child started afresh: every request is parsed
#: and built there.
_KNOWN: dict[bytes, dict] = {}
_KNOWN_TREES: dict[int, tuple] = {}


def know(bodies: list[bytes]) -> None:
    """Remember ``bodies`` (requests, as the grader encodes them) and the trees they name (:data:`_KNOWN`)."""
    for body in bodies:
        request = _KNOWN.setdefault(body, json.loads(body))
        if "tree" in request:
            fields = vars(tree_from_data(request["tree"])).items()  # (a tree's other fields: text and tuples)
            frozen = tuple((name, type(value) is dict, tuple(value.items()) if type(value) is dict else value)
                           for name, value in fields)
            _KNOWN_TREES.setdefault(id(request), (request, frozen))


def _game_for(request: dict):
    """The game ``request`` names, new: for a known request, built from its tree's kept fields, each mapping a new
    dict (equal to :func:`game_from_request`'s, without parsing), else :func:`game_from_request`."""
    known = _KNOWN_TREES.get(id(request))
    if known is None or known[0] is not request:
        return game_from_request(request)
    return TreeGame(Tree(**{name: dict(value) if mapping else value for name, mapping, value in known[1]}))


def search_params(request: dict, game) -> dict:
    """The extra arguments of a depth-limited search: ``depth`` from the request, EVAL built here
    (the tree's heuristic values, or Nilsson's e(p) on tic-tac-toe)."""
    if request.get("depth") is None:
        return {}
    return {"depth": request["depth"], "eval_fn": game.evaluate if isinstance(game, TreeGame) else nilsson_eval}


def run_test(module: ModuleType, request: dict, game: TreeGame) -> Trace:
    """The trace of one test request (``op`` ``search`` or ``call``) on ``module``, searching ``game``.

    A search's value is the module's MAX-VALUE/MIN-VALUE called on the root right after it, in this same
    run (:func:`abkit.trace.root_value`); a direct call's value is what that call returned.
    A board game is searched with a budget of :data:`GAME_BUDGET` states, and only its counts are kept
    (``counts`` in the request): a whole game's states are too many to send.
    """
    if request["op"] == "search":
        searched = game if isinstance(game, TreeGame) else Budgeted(game, GAME_BUDGET)
        search = counted_search if request.get("counts") else traced_search
        return search(module, searched, request["state"], request["algorithm"], **search_params(request, game))
    return traced_call(module, game, request["state"], request["algorithm"], request["function"],
                       tuple(request.get("window", [])))


def answer(module: ModuleType, request: dict) -> dict:
    """What an ``order`` request, or one move of a ``games`` request, asks of the student's code, as plain data
    (``answer``).

    ``order``: ``ordered_actions(game, node, EVAL)`` for each of the request's ``nodes``.
    otherwise: the exercise's search chooses one move of a played game, within :data:`MOVE_BUDGET` states.
    Exceptions propagate to the caller.
    """
    game = game_from_request(request)
    if request["op"] == "order":
        eval_fn = search_params({"depth": 0}, game)["eval_fn"]
        return {"answer": {node: _plain_list(module.ordered_actions(game, node, eval_fn)) for node in request["nodes"]}}
    entry = getattr(module, Algorithm(request["algorithm"]).entry)
    return {"answer": _plain(entry(Budgeted(game, MOVE_BUDGET), request["state"]))}


def _plain_list(value: object) -> object:
    """A list or tuple as a list of plain values (JSON); anything else as text."""
    return [_plain(x) for x in value] if isinstance(value, (list, tuple)) else _plain(value)


# -- the child's loop ----------------------------------------------------------

class CappedText(io.TextIOBase):
    """A text stream that keeps the first ``limit`` characters written to it and counts the rest."""

    def __init__(self, limit: int) -> None:
        self.limit, self.parts, self.size = limit, [], 0

    def write(self, text: str) -> int:
        text = str(text)
        room = self.limit - self.size
        if room > 0:
            self.parts.append(text[:room])
        self.size += len(text)
        return len(text)

    def writable(self) -> bool:
        return True

    def take(self) -> str:
        """What was kept since the last call (with a note of how much was dropped); empties the buffer."""
        text = "".join(self.parts)
        if self.size > self.limit:
            text += f"\n[... {self.size - self.limit} more characters]"
        self.parts, self.size = [], 0
        return text


def _snapshot() -> tuple:
    """The names the recording classes define, with a live view of each class's namespace: a student's code may
    not add one (what each name is bound to, and the recorder's module, are :func:`_intact`'s to check)."""
    return tuple((vars(cls), frozenset(vars(cls))) for cls in (TracingGame, TreeGame))


def _fingerprint(game: TreeGame) -> tuple:
    """What the game object holds: its class, and a copy of each of its mappings (:func:`_held`)."""
    return type(game), tuple(map(dict.copy, _held(game)))


def _held(game: TreeGame) -> Iterator[dict]:
    """The game's mappings, one after the other: its attributes and, on a tree, the tree's fields, its children,
    utilities, heuristic values and probabilities, and the players (each reached only when the ones before it are
    as they were: the tree is still the harness's own)."""
    yield vars(game)
    if isinstance(game, TreeGame):
        tree = game.tree
        yield from (vars(tree), tree.children, tree.utilities, tree.heuristics, tree.probabilities, game._players)


def _tampered(before: tuple, game: TreeGame, fingerprint: tuple, any_=any, map_=map, is_not=operator.is_not) -> bool:
    """True when a name was added to (or removed from) the game's class or the recorder's, or the game it was given
    was changed: one of its mappings (:func:`_held`) has an entry added, removed or changed. The game's and the
    tree's attributes are compared by identity (an equal replacement shows too), the tree's mappings with the dict's
    own equality (its entries are plain names and numbers); a mapping's own methods are never called."""
    if any_(space.keys() != names for space, names in before):
        return True
    kind, copies = fingerprint
    try:
        if type(game) is not kind:
            return True
        held = 0
        for space, copy in zip(_held(game), copies):
            if dict.__len__(space) != len(copy):
                return True
            if held < 2:  # the game's attributes and the tree's fields: the very objects
                if any_(map_(is_not, dict.keys(space), copy)) or any_(map_(is_not, dict.values(space), copy.values())):
                    return True
            elif dict.__eq__(space, copy) is not True:
                return True
            held += 1
        return held != len(copies)
    except Exception:  # noqa: BLE001 - the student replaced an attribute with something unreadable
        return True


def _guards() -> tuple:
    """What the harness itself relies on, as ``(names, attributes)``: ``names`` a tuple of ``(getter, mapping,
    values)``, one per namespace (``getter(mapping)`` looks up all its recorded keys at once, ``values`` what they
    were bound to), ``attributes`` a tuple of ``(getter, functions, values)``, one per function attribute.

    Every name of the recorder's and this harness's modules and classes, the
    JSON and HMAC functions the replies go through, the builtins their code uses, and the
    code and defaults of every function among them (``__globals__`` cannot be rebound): a student who
    rebinds any of these (to hide work from the recorder or to forge a reply)
    is caught by :func:`_intact`. Tuples, so that the record cannot be edited.
    """
    import json.encoder
    spaces = [vars(m) for m in (_trace_module, sys.modules[__name__], json, json.encoder, hmac)]
    spaces += [vars(c) for c in (TracingGame, TreeGame, Trace, Tree, Channel, CappedText, json.JSONEncoder)]
    groups = [(space, list(space.items())) for space in spaces]
    functions = tuple({id(v): v for _, items in groups for _, v in items if isinstance(v, FunctionType)}.values())
    used = set().union(*(_names(f.__code__) for f in functions))  # the builtins this code can reach
    groups.append((vars(builtins), [(key, value) for key, value in vars(builtins).items() if key in used]))
    names = tuple((operator.itemgetter(*keys, keys[0]), space, (*values, values[0]))  # (always a tuple, even of one)
                  for space, items in groups if items for keys, values in [tuple(zip(*items))])
    attributes = tuple((operator.attrgetter(name), functions, tuple(getattr(f, name) for f in functions))
                       for name in ("__code__", "__defaults__", "__kwdefaults__"))
    return names, attributes


def _names(code) -> set[str]:
    """The global and attribute names ``code`` (and the functions defined in it) refers to."""
    names = set(code.co_names)
    for constant in code.co_consts:
        if hasattr(constant, "co_names"):
            names |= _names(constant)
    return names


def _intact(guards: tuple, any_=any, map_=map, is_not=operator.is_not) -> bool:
    """True when nothing :func:`_guards` recorded was rebound or removed (fast: a lookup of all of a namespace's
    names at once, the comparisons in C)."""
    names, attributes = guards
    try:
        for getter, mapping, values in names:
            if any_(map_(is_not, getter(mapping), values)):
                return False
        for getter, objects, values in attributes:
            if any_(map_(is_not, map_(getter, objects), values)):
                return False
        return True
    except Exception:  # noqa: BLE001 - a recorded name was deleted
        return False


def _limit(limits: dict) -> list[str]:  # pragma: no cover - runs only in the child, before any student code
    """The child's signals and resource limits (:func:`set_limits`); the limits the system refused."""
    try:
        import resource
        import signal
    except ImportError:
        return ["resource: no such module"]
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # an over-long write fails instead of killing the child
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a student's os.kill(SIGINT) cannot interrupt the harness
    return set_limits(limits, resource)


def set_limits(limits: dict, resource) -> list[str]:
    """Set CPU time, address space (memory), file size and core-dump limits from ``limits``; each one the system
    refuses (macOS refuses ``RLIMIT_AS``) as ``"RLIMIT_AS: ValueError: ..."``, for ``abkit grade`` to say."""
    refused = []
    for name, value in (("RLIMIT_CPU", limits.get("cpu")), ("RLIMIT_AS", limits.get("memory")),
                        ("RLIMIT_FSIZE", limits.get("fsize")), ("RLIMIT_CORE", 0)):
        if value is None:
            continue
        if not hasattr(resource, name):
            refused.append(f"{name}: not on this system")
            continue
        try:
            resource.setrlimit(getattr(resource, name), (value, value))
        except (ValueError, OSError) as error:
            refused.append(f"{name}: {type(error).__name__}: {error}")
    return refused


class Channel:
    """Length-prefixed JSON messages over two file descriptors; each reply carries a MAC under the run's key."""

    def __init__(self, read_fd: int, write_fd: int) -> None:
        self.read_fd, self.write_fd = read_fd, write_fd
        self.key, self.sent = b"", 0

    def receive_key(self) -> None:
        """Read the run's secret key: the first bytes the parent writes, before any student code exists."""
        self.key = self._read(KEY_BYTES) or b""

    def receive(self) -> dict | None:
        head = self._read(HEADER.size)
        if head is None:
            return None
        body = self._read(HEADER.unpack(head)[0]) or b"{}"
        known = _KNOWN.get(body)
        return known if known is not None else json.loads(body)

    def send(self, message: dict) -> None:
        body = json.dumps(message, ensure_ascii=False).encode("utf-8")
        if len(body) > MAX_REPORT:
            body = json.dumps(_oversized(message, len(body)), ensure_ascii=False).encode("utf-8")
        mac = hmac.digest(self.key, SEQUENCE.pack(self.sent) + body, "sha256")
        self.sent += 1
        data = HEADER.pack(len(body)) + body + mac
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


def _oversized(message: dict, size: int) -> dict:
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


def _truncate(trace: Trace, limit: int = MAX_RECORD) -> None:
    """Keep a runaway search's record to a size the parent can read; say so in ``error``."""
    if max(len(trace.visited), len(trace.evaluated), len(trace.calls)) > limit:
        trace.visited, trace.evaluated, trace.calls = trace.visited[:limit], trace.evaluated[:limit], trace.calls[:limit]
        trace.calls = [c for c in trace.calls if c.parent is None or c.parent < limit]
        if trace.error is None:
            trace.error = f"TraceTooLong: more than {limit} nodes or calls"


def _error_reply(error: BaseException, roots: list[str]) -> dict:
    from abkit.tracebacks import student_traceback  # only when something failed: keeps start-up light
    text = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    return {"error": text, "error_type": type(error).__name__, "traceback": student_traceback(error, roots)}


def serve(channel: Channel, output: CappedText, roots: list[str], defences: dict | None = None) -> None:
    """Answer requests until ``bye`` or the end of the request pipe.

    Student code runs inside :func:`run_test` and wherever its objects are
    touched (their ``repr``, finalizers): all before the integrity checks. The
    checks and the sending then run with functions captured here, before any
    student code existed; in a confined child no thread or signal handler can
    run student code in between (:mod:`abkit.grader.confine`).
    """
    modules: dict[str, ModuleType] = {}
    before, guards = _PREPARED[0] if _PREPARED else (_snapshot(), _guards())
    if defences:  # the confinement report, guarded as the harness is: a student who edits it has tampered
        defences.update({key: tuple(value) for key, value in defences.items() if isinstance(value, list)})
        keys = tuple(defences)
        guards = (guards[0] + ((operator.itemgetter(*keys, keys[0]), defences, (*map(defences.get, keys),
                                                                               defences[keys[0]])),), guards[1])
    intact, tampered = _intact, _tampered
    pause, resume, tracer, profiler = gc.disable, gc.enable, sys.gettrace, sys.getprofile
    hooks = (tracer(), profiler())
    received = 0
    games, move = None, None  # a ``games`` request's games while they are played: each move is a frame of its reply
    while True:
        if games is None:
            request = channel.receive()
            if request is None or request.get("op") == "bye":
                return
            received += 1
            if request["op"] == "games":
                games, move = playing(request["seed"], start=request["state"]), None
        reply: dict = {}
        if games is not None:  # the next move of the games, sent at once (the grader judges the games)
            try:
                state = games.send(move)
            except StopIteration:  # the games are over: nothing more to send for this request
                games = None
                continue
            try:
                move = reply["answer"] = answer(modules[request["exercise"]], {**request, "state": state})["answer"]
            except BaseException as error:  # noqa: BLE001 - the student's code raised, exited or was interrupted
                reply.update(_error_reply(error, roots))
                games = None  # (the games end with the move that failed)
            pause()  # until the reply is sent, no collection runs a student's finalizer
        elif request["op"] == "load":
            reply = _loaded(modules, request, roots, defences)
            pause()  # until the reply is sent, no collection runs a student's finalizer
        elif request["op"] == "order":
            try:
                reply.update(answer(modules[request["exercise"]], request))
            except BaseException as error:  # noqa: BLE001 - the student's code raised, exited or was interrupted
                reply.update(_error_reply(error, roots))
            pause()  # until the reply is sent, no collection runs a student's finalizer
        else:  # (what the search alone held is finalized as it returns, before the checks)
            reply = _searched(modules[request["exercise"]], request, roots, before, tampered)
            pause()  # until the reply is sent, no collection runs a student's finalizer
        if not intact(guards) or (tracer(), profiler()) != hooks:
            reply["tampered"] = True
        reply["output"] = output.take()
        reply["id"] = received
        channel.send(reply)
        resume()


def _loaded(modules: dict[str, ModuleType], request: dict, roots: list[str], defences: dict | None) -> dict:
    """The reply to a ``load`` request: the student's module imported into ``modules`` (the contract's functions it
    defines), or the error that stopped it, and the child's ``defences``."""
    reply: dict = {"defences": defences}
    try:
        module = modules[request["exercise"]] = load_module(request["path"])
        reply["loaded"] = True
        reply["functions"] = [name for name in CONTRACT if callable(getattr(module, name, None))]
    except BaseException as error:  # noqa: BLE001 - a syntax error, a failed import, an exit at import
        reply.update(_error_reply(error, roots), loaded=False)
    return reply


def _searched(module: ModuleType, request: dict, roots: list[str], before: tuple, tampered) -> dict:
    """The reply to a ``search`` or ``call`` request: its trace, whether the game or the recorder's classes were
    changed (``tampered``: :func:`_tampered`, as :func:`serve` captured it), the error's traceback."""
    game = _game_for(request)
    fingerprint = _fingerprint(game)
    reply: dict = {}
    try:
        trace = run_test(module, request, game)
    except BaseException as error:  # noqa: BLE001 - exit or interrupt inside the search
        trace = Trace(request["algorithm"], request["state"], visited=[request["state"]], error=error)
    _truncate(trace)
    if isinstance(trace.error, BaseException):
        reply.update(_error_reply(trace.error, roots))
    elif isinstance(trace.value_error, BaseException):  # the search went well; valuing its root did not
        reply["traceback"] = _error_reply(trace.value_error, roots)["traceback"]
    reply["trace"] = trace.to_dict()
    reply["tampered"] = tampered(before, game, fingerprint)
    return reply


def _confine(limits: dict) -> dict | None:  # pragma: no cover - runs only in the child, before any student code
    """Apply :func:`abkit.grader.confine.confine` unless the parent said not to; what it achieved, as plain data."""
    if not limits.get("confine", True):
        return None
    from abkit.coursefolder import KIT_CODE
    from abkit.grader.confine import confine

    secrets = [Path(p) for p in limits.get("secrets", [])]
    return confine(os.getcwd(), KIT_CODE, secrets, limits.get("writable", []), drop_root=True).to_dict()


def main(argv: list[str]) -> int:  # pragma: no cover - the child's entry point, exercised through the sandbox
    limits = json.loads(argv[3])
    channel = Channel(int(argv[1]), int(argv[2]))
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


# -- the fork server: one process per batch that starts each student's process by forking --------------------

def _restart_coverage() -> None:  # pragma: no cover - runs only in a forked child under the kit's tests
    """Under coverage (the kit's tests), stop the server's measurement in this forked child and start its own,
    from the per-student ``COVERAGE_PROCESS_CONFIG`` (its data file in the student's writable drop folder)."""
    coverage = sys.modules.get("coverage")
    if coverage is None or "COVERAGE_PROCESS_CONFIG" not in os.environ:
        return
    current = coverage.Coverage.current()
    if current is not None:
        current._auto_save = False  # the server's data is the server's to save
        current.stop()
    coverage.process_startup(force=True)


def _save_coverage() -> None:  # pragma: no cover - runs only in a forked child under the kit's tests
    coverage = sys.modules.get("coverage")
    current = coverage.Coverage.current() if coverage is not None else None
    if current is not None:
        try:
            current.stop()
            current.save()
        except Exception:  # noqa: BLE001 - losing a child's coverage data must not fail a grade
            pass


def _forked(start: dict, fds: list[int], pristine: dict) -> None:  # pragma: no cover - the forked child
    """In the forked child: become what :mod:`abkit.grader.sandbox` would have started, then serve; never returns."""
    code = 1
    try:
        request_read, reply_write, log = fds
        os.setsid()  # its own session and process group, which the grader kills as a whole
        _reset(pristine)  # whatever an earlier child did, this one starts as the server did
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(log, 1)  # from here on, whatever goes wrong is written to the student's log, not the grader's stderr
        os.dup2(log, 2)
        os.close(null)
        os.close(log)
        os.chdir(start["cwd"])  # gone when the grader was interrupted while this process started
        os.environ.clear()
        os.environ.update(start["env"])
        _restart_coverage()
        code = main(["child.py", str(request_read), str(reply_write), json.dumps(start["settings"])])
    except BaseException:  # noqa: BLE001 - the harness failed before serving: say so in the log
        import traceback
        os.write(2, traceback.format_exc().encode("utf-8", "replace"))
    _save_coverage()
    os._exit(code)


def serve_forks(fd: int, secrets: list[str] = ()) -> int:  # pragma: no cover - the server's loop, exercised through the sandbox
    """The fork server: for each ``start`` message (JSON and three fds: request pipe, reply pipe, log file),
    fork a child that does all a freshly started child does (:func:`_forked`) and answer its pid and a pidfd;
    for each ``reap`` message, reap that child (the grader has killed it or seen it end) and answer its status.

    The server never runs student code: it only forks, before any is loaded. It ends with its socket.
    """
    import socket
    from abkit.grader.confine import _die_with_parent

    try:
        _die_with_parent()  # the server, and with it every student process, dies with the grader
    except OSError:
        pass
    signal_module = __import__("signal")
    signal_module.signal(signal_module.SIGINT, signal_module.SIG_IGN)
    pristine = _pristine()
    _warm_up(secrets)
    gc.freeze()  # what the server holds stays shared with its children, never scanned by their collections
    sock = socket.socket(fileno=fd)
    while True:
        try:
            data, fds, _flags, _address = socket.recv_fds(sock, 1 << 20, 3)
        except OSError:
            return 0
        if not data:
            return 0
        message = json.loads(data)
        if message["op"] == "know":  # the batch's shared requests, before any child is forked
            _server_knows(message["bodies"], fds)
            continue
        if message["op"] == "start":
            pid = os.fork()
            if pid == 0:
                sock.close()
                _forked(message, fds, pristine)
            for received in fds:
                os.close(received)
            pidfd = os.pidfd_open(pid)
            try:
                socket.send_fds(sock, [json.dumps({"pid": pid}).encode()], [pidfd])
            except OSError:  # the grader left meanwhile (an interrupted batch): so does the server, and the child
                return 0
            os.close(pidfd)
        else:  # reap
            for received in fds:
                os.close(received)
            try:
                _, status = os.waitpid(message["pid"], 0)
                code = os.waitstatus_to_exitcode(status)
            except ChildProcessError:
                code = None
            try:
                sock.send(json.dumps({"returncode": code}).encode())
            except OSError:
                return 0


def _server_knows(bodies: list[str], fds: list[int]) -> None:  # pragma: no cover - the server, once per batch
    """The fork server reads the batch's shared requests (:func:`know`); what it could not read, children parse."""
    for received in fds:
        os.close(received)
    try:
        know([body.encode("utf-8") for body in bodies])
    except Exception:  # noqa: BLE001 - (the grader's own requests): a failure costs only the parsing saved
        pass
    gc.freeze()  # (what every child shares stays shared)


def _pristine() -> dict:  # pragma: no cover - the server, once, before any child exists
    """The state every child starts from (the server's own at its start): resource limits, nice value, CPU
    affinity, umask. The server makes itself undumpable: a child of its user cannot open its memory."""
    import resource

    from abkit.grader.confine import _undumpable

    try:
        _undumpable()
    except OSError:
        pass
    limits = {getattr(resource, n): resource.getrlimit(getattr(resource, n)) for n in dir(resource)
              if n.startswith("RLIMIT_")}
    umask = os.umask(0o022)
    os.umask(umask)
    return {"limits": limits, "nice": os.getpriority(os.PRIO_PROCESS, 0), "cpus": os.sched_getaffinity(0),
            "umask": umask}


def _reset(pristine: dict) -> None:  # pragma: no cover - a forked child, before student code
    """Give this process the server's starting state (:func:`_pristine`): every resource limit, the nice value, the
    CPU affinity, the umask, an empty signal mask. (Children cannot change the server, but nothing is assumed; what
    only root may restore is restored when the grader runs as root.)"""
    import contextlib
    import resource
    import signal

    for which, value in pristine["limits"].items():
        if resource.getrlimit(which) != value:
            with contextlib.suppress(OSError, ValueError):  # (a hard limit lowered from outside stays lowered)
                resource.setrlimit(which, value)
    if os.getpriority(os.PRIO_PROCESS, 0) != pristine["nice"]:
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, 0, pristine["nice"])
    if os.sched_getaffinity(0) != pristine["cpus"]:
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, pristine["cpus"])
    os.umask(pristine["umask"])
    signal.pthread_sigmask(signal.SIG_SETMASK, ())


def _warm_up(secrets: list[str] = ()) -> None:  # pragma: no cover - runs in the fork server, once
    """Import and work out once what every child would otherwise do itself; ``secrets``: the paths its children's
    confinement will hide (the course's hidden fixtures and solutions, as :func:`abkit.grader.sandbox.secret_paths`)."""
    import difflib  # noqa: F401 - a missing attribute's "Did you mean" (abkit.tracebacks)
    import resource  # noqa: F401
    import signal  # noqa: F401
    import traceback  # noqa: F401

    import itertools

    import abkit.grader.confine as confine_module
    import abkit.tracebacks  # noqa: F401
    from abkit.coursefolder import KIT_CODE

    compile("", "<warm-up>", "exec")  # compile() builds the ast module's types at its first call: once, here
    confine_module.prepare(KIT_CODE, [Path(p) for p in secrets])  # as each child's _confine will ask
    _PREPARED[:] = [(_snapshot(), _guards())]  # what serve() holds the harness to: taken before any child exists
    from abkit.tictactoe import EMPTY, TicTacToe, winner

    for board in itertools.product("XO.", repeat=9):  # every board's winner, remembered once for all children
        winner("".join(board))
    game, todo, seen = TicTacToe(), [EMPTY], {EMPTY}  # and every legal position's moves, successors and end
    while todo:
        game.terminal_test(state := todo.pop())
        for action in game.actions(state):
            if (successor := game.result(state, action)) not in seen:
                seen.add(successor)
                todo.append(successor)


if __name__ == "__main__":  # pragma: no cover
    if sys.argv[1:2] == ["--server"]:
        sys.exit(serve_forks(int(sys.argv[2]), json.loads(sys.argv[3]) if len(sys.argv) > 3 else []))
    sys.exit(main(sys.argv))
