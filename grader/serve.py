"""The student's process's loop: each request read, answered by the student's code, checked, and sent back.

Requests (load a file, search a tree or a tic-tac-toe position, call MAX-VALUE/MIN-VALUE on a subtree, order
actions, play games) come in on the request pipe and every reply goes out on the reply pipe, through an
:class:`abkit.wire.Channel`; the student's prints go to a capped buffer (:mod:`abkit.grader.capture`), so they
can never look like a reply. The child compares nothing: the parent does.
"""

from __future__ import annotations

import gc
import operator
import sys
from types import ModuleType

from abkit.loading import load_module
from abkit.play import playing
from abkit.trace import Trace
from abkit.wire import Channel, truncate

from abkit.grader.capture import CappedText
from abkit.grader.runtest import CONTRACT, _game_for, answer, run_test
from abkit.grader.tamper import _PREPARED, _fingerprint, _guards, _intact, _snapshot, _tampered


def serve(channel: Channel, output: CappedText, roots: list[str], defences: dict | None = None) -> None:
    """Answer requests until ``bye`` or the end of the request pipe.

    Student code runs inside :func:`abkit.grader.runtest.run_test` (and :func:`~abkit.grader.runtest.answer`) and
    wherever its objects are touched (their ``repr``, finalizers): all before the integrity checks. The
    checks and the sending then run with functions captured here, before any
    student code existed; in a confined child no thread or signal handler can
    run student code in between (:mod:`abkit.grader.confine`).
    """
    modules: dict[str, ModuleType] = {}
    before, guards = _held_still(defences)
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
        if games is not None:  # the next move of the games, sent at once (the grader judges the games)
            reply, move = _move(games, move, modules, request, roots)
            if reply is None:  # the games are over: nothing more to send for this request
                games = None
                continue
            if "error" in reply:  # (the games end with the move that failed)
                games = None
        else:  # (what a search alone held is finalized as it returns, before the checks)
            reply = _answered(modules, request, roots, defences, before, tampered)
        pause()  # until the reply is sent, no collection runs a student's finalizer
        if not intact(guards) or (tracer(), profiler()) != hooks:
            reply["tampered"] = True
        reply["output"] = output.take()
        reply["id"] = received
        channel.send(reply)
        resume()


def _held_still(defences: dict | None) -> tuple:
    """What :func:`serve` holds the harness to: the recording classes' names (:func:`abkit.grader.tamper._snapshot`)
    and the guards (:func:`~abkit.grader.tamper._guards`, the fork server's when it took them), to which the
    confinement report ``defences`` is added: a student who edits it has tampered."""
    before, guards = _PREPARED[0] if _PREPARED else (_snapshot(), _guards())
    if defences:
        defences.update({key: tuple(value) for key, value in defences.items() if isinstance(value, list)})
        keys = tuple(defences)
        guards = (guards[0] + ((operator.itemgetter(*keys, keys[0]), defences, (*map(defences.get, keys),
                                                                               defences[keys[0]])),), guards[1])
    return before, guards


def _move(games, move, modules: dict[str, ModuleType], request: dict, roots: list[str]) -> tuple[dict | None, object]:
    """The next move of a ``games`` request's games (``games``, told the last ``move``): its reply (``answer``, or
    the error that ends the games) and the move chosen; ``(None, None)`` when the games are over."""
    try:
        state = games.send(move)
    except StopIteration:
        return None, None
    try:
        move = answer(modules[request["exercise"]], {**request, "state": state})["answer"]
    except BaseException as error:  # noqa: BLE001 - the student's code raised, exited or was interrupted
        return _error_reply(error, roots), None
    return {"answer": move}, move


def _answered(modules: dict[str, ModuleType], request: dict, roots: list[str], defences: dict | None,
              before: tuple, tampered) -> dict:
    """The reply to a ``load``, ``order``, ``search`` or ``call`` request."""
    if request["op"] == "load":
        return _loaded(modules, request, roots, defences)
    if request["op"] == "order":
        try:
            return answer(modules[request["exercise"]], request)
        except BaseException as error:  # noqa: BLE001 - the student's code raised, exited or was interrupted
            return _error_reply(error, roots)
    return _searched(modules[request["exercise"]], request, roots, before, tampered)


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
    """The reply to a ``search`` or ``call`` request: its trace, whether the game, the wrapper it was searched
    through or the recorder's classes were changed (``tampered``: :func:`abkit.grader.tamper._tampered`, as
    :func:`serve` captured it, and the trace's own ``tampered``), the error's traceback."""
    game = _game_for(request)
    fingerprint = _fingerprint(game)
    reply: dict = {}
    try:
        trace = run_test(module, request, game)
    except BaseException as error:  # noqa: BLE001 - exit or interrupt inside the search
        trace = Trace(request["algorithm"], request["state"], visited=[request["state"]], error=error)
    truncate(trace)
    if isinstance(trace.error, BaseException):
        reply.update(_error_reply(trace.error, roots))
    elif isinstance(trace.value_error, BaseException):  # the search went well; valuing its root did not
        reply["traceback"] = _error_reply(trace.value_error, roots)["traceback"]
    reply["trace"] = trace.to_dict()
    reply["tampered"] = tampered(before, game, fingerprint) or trace.tampered is True
    return reply


def _error_reply(error: BaseException, roots: list[str]) -> dict:
    """What a reply says of the student's code's ``error``: its text, its type's name, its traceback (trimmed to
    the student's files, under ``roots``)."""
    from abkit.tracebacks import student_traceback  # only when something failed: keeps start-up light
    text = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    return {"error": text, "error_type": type(error).__name__, "traceback": student_traceback(error, roots)}
