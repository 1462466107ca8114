"""The fork server: one process per batch that starts each student's process by forking.

The grader's handle on it is :class:`abkit.grader.sandbox.ForkServer`, which starts it as ``python -I -B -m
abkit.grader.child --server FD SECRETS``; this is the server's side. It imports the harness and works out once what
every child would otherwise do itself (:func:`_warm_up`), and never runs student code: each child it forks restores
the server's starting state (:func:`_reset`), then does all a freshly started child does
(:func:`abkit.grader.childstart.main`). Under the kit's tests each forked child measures its own coverage.
"""

from __future__ import annotations

import gc
import json
import os
import sys
from pathlib import Path

from abkit.grader.childstart import main
from abkit.grader.runtest import know
from abkit.grader.tamper import _PREPARED, _guards, _snapshot


def serve_forks(fd: int, secrets: list[str] = ()) -> int:  # pragma: no cover - the server's loop, exercised through the sandbox
    """The fork server: for each ``start`` message (JSON and three fds: request pipe, reply pipe, log file),
    fork a child that does all a freshly started child does (:func:`_forked`) and answer its pid and a pidfd;
    for each ``reap`` message, reap that child (the grader has killed it or seen it end) and answer its status;
    a ``know`` message, before any child, holds the batch's shared requests (:func:`_server_knows`).

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
        elif message["op"] == "start":
            if not _start(sock, message, fds, pristine):
                return 0
        elif not _reap(sock, message["pid"], fds):
            return 0


def _start(sock, message: dict, fds: list[int], pristine: dict) -> bool:  # pragma: no cover - the server
    """Fork the child a ``start`` message asks for (:func:`_forked`) and answer its pid and a pidfd; False when the
    grader has gone (an interrupted batch): so does the server, and the child."""
    import socket

    pid = os.fork()
    if pid == 0:
        sock.close()
        _forked(message, fds, pristine)
    for received in fds:
        os.close(received)
    pidfd = os.pidfd_open(pid)
    try:
        socket.send_fds(sock, [json.dumps({"pid": pid}).encode()], [pidfd])
    except OSError:
        return False
    os.close(pidfd)
    return True


def _reap(sock, pid: int, fds: list[int]) -> bool:  # pragma: no cover - the server
    """Reap child ``pid`` (the grader has killed it or seen it end) and answer its exit status (None when it was
    not this server's to reap); False when the grader has gone."""
    for received in fds:
        os.close(received)
    try:
        _, status = os.waitpid(pid, 0)
        code = os.waitstatus_to_exitcode(status)
    except ChildProcessError:
        code = None
    try:
        sock.send(json.dumps({"returncode": code}).encode())
    except OSError:
        return False
    return True


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


# -- under the kit's tests, coverage follows each forked child ------------------------------------------------

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
    """In a forked child under coverage, at its end: stop its measurement and save its data."""
    coverage = sys.modules.get("coverage")
    current = coverage.Coverage.current() if coverage is not None else None
    if current is not None:
        try:
            current.stop()
            current.save()
        except Exception:  # noqa: BLE001 - losing a child's coverage data must not fail a grade
            pass
