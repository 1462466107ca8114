"""The grader's side of a student's process: start it, send requests, wait with a time limit, end it.

A :class:`Sandbox` is one child process (:mod:`abkit.grader.child`) for one student:
``python -I -B`` (no user site, no ``PYTHON*`` variables), a scrubbed
environment, the student's temporary folder as working directory, resource
limits (CPU, memory, file size, no core dumps) set by the child before any
student code runs, and its stdout/stderr sent to a capped file. Requests and
replies travel over two private pipes handed over with ``pass_fds``, framed and
signed as :mod:`abkit.wire` says; every
wait has a deadline, and a child that misses one is killed with its whole
process group. The first bytes on the request pipe are a fresh secret key, read
before any student code exists; every reply must carry its MAC under that key
and its sequence number, so bytes the student's code writes into the reply
pipe are caught (:class:`Forged`). Before student code runs, the child confines
itself (:mod:`abkit.grader.confine`): what it achieved is in :attr:`Sandbox.defences`.
"""

from __future__ import annotations

import base64
import collections
import hmac
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from abkit.i18n import Message
from abkit.wire import HEADER, KEY_BYTES, MAC_BYTES, MAX_REPLY, encode, frame, signature

from abkit.grader.replies import BadReply, envelope

#: the harness each child process runs (:mod:`abkit.grader.child`), started as a module of the installed kit
CHILD = "abkit.grader.child"
#: the most values (lists, mappings and items: brackets and commas) one reply may hold; a search of a 50,000-node
#: tree (the largest a fixture may be) reports about 500,000
MAX_ITEMS = 2_000_000
#: the bytes of all of one student's replies together (a correct class's are about 150 KB): the grader keeps them
#: until the student is scored, so one frame's cap alone would let a student have it hold gigabytes
MAX_REPLIES = 32 * 1024 * 1024
#: the most bytes of one message to the fork server (a socket's send buffer holds a datagram of about 200 KiB)
KNOW_BYTES = 64 * 1024
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"0" * 9)


def has_long_number(body: bytes) -> bool:
    """Whether ``body`` has a run of 300 digits, too long for a float: such replies are parsed with
    :func:`parse_int`. (Every digit made ``0``, then one substring search: ten times a regular expression's speed.)

    >>> has_long_number(b'[' + b'9' * 299 + b']'), has_long_number(b'[1' + b'0' * 299 + b']')
    (False, True)
    """
    return b"0" * 300 in body.translate(_DIGITS_AS_ZERO)


#: environment variables a child keeps: none of the instructor's, except coverage's own (the kit's tests)
KEPT_PREFIXES = ("COVERAGE_",)
#: a folder named by this variable receives a cProfile of every student's process (``child-<pid>.prof``): how the
#: kit's own time in a child is measured (``bench/grade.py --profile``); the child writes it into a drop folder of
#: its own, as coverage's data (the confined child can write nowhere else), and it is moved there when it ends
PROFILE_CHILD = "ABKIT_PROFILE_CHILD"


@dataclass(frozen=True)
class Limits:
    """What one student's process may use.

    test_seconds: time for one request (loading a file, one test): wall-clock time, except that a process kept
    from a CPU by the machine's load is given the CPU time it lacked (:class:`TestClock`).
    student_seconds: wall-clock time for all of a student's requests together.
    memory_mb: address space; output_chars: printed text kept per request;
    log_bytes: the most the process may write to its stdout/stderr file.
    confine: whether the child confines itself (:mod:`abkit.grader.confine`) before student code runs.
    """

    test_seconds: float = 2.0
    student_seconds: float = 60.0
    memory_mb: int = 1024
    output_chars: int = 4000
    log_bytes: int = 1_000_000
    confine: bool = True


class TimedOut(Exception):
    """The child did not answer within the time limit; it has been killed."""


class Died(Exception):
    """The child ended (or broke the protocol) before answering; ``log`` is the head of its output."""

    def __init__(self, log: str, returncode: int | None) -> None:
        super().__init__(log)
        self.log, self.returncode = log, returncode


class Interrupted(Exception):
    """The batch is stopping (Ctrl-C, SIGTERM): no new student process may start."""


class Registry:
    """The student processes alive in this process, so that an interrupted batch can end them all at once."""

    def __init__(self) -> None:
        self.lock, self.live, self.stopping = threading.Lock(), set(), False

    def add(self, sandbox: "StudentProcess") -> None:
        """Register ``sandbox`` before its process starts; :class:`Interrupted` while stopping."""
        with self.lock:
            if self.stopping:
                raise Interrupted()
            self.live.add(sandbox)

    def discard(self, sandbox: "StudentProcess") -> None:
        with self.lock:
            self.live.discard(sandbox)

    def stop_all(self) -> None:
        """Refuse new processes and kill every live one (its grading thread then sees it die)."""
        with self.lock:
            self.stopping = True
            live = list(self.live)
        for sandbox in live:
            sandbox.kill()

    def reopen(self) -> None:
        with self.lock:
            self.stopping = False


#: every Sandbox of this process registers here while its child may be alive
LIVE = Registry()


class Forged(Died):
    """A reply whose MAC is wrong: something other than the harness wrote into the reply pipe."""


class Malformed(Died):
    """A signed reply the grader cannot use: too large, not JSON, nested too deeply, or not of its kind's
    shape (:mod:`abkit.grader.replies`). ``problem`` says which, in words (a :class:`~abkit.i18n.Message`)."""

    def __init__(self, problem: Message, log: str = "", returncode: int | None = None) -> None:
        super().__init__(log, returncode)
        self.problem = problem


def parse_int(text: str) -> int | str:
    """An integer of a reply; one too large for a float (a student's ``10 ** 400``) as a short text instead.

    Such a value is wrong anyway; as text it compares unequal and prints, instead of overflowing a comparison.

    >>> parse_int("-12"), parse_int("1" + "0" * 400)
    (-12, '1000000000…(401 digits)')
    """
    if len(text) < 300:
        return int(text)
    digits = text.lstrip("-")
    return f"{text[:len(text) - len(digits)]}{digits[:10]}…({len(digits)} digits)"


#: how replies are read: the common case with json's own integers, one with a long run of digits with parse_int
_DECODE = json.JSONDecoder().decode
_LONG_NUMBER_DECODE = json.JSONDecoder(parse_int=parse_int).decode


def secret_paths() -> list[str]:
    """What a student's process must not read: the course's hidden fixtures and solutions, and those of the
    courses the kit itself holds (see :func:`abkit.coursefolder.kit_secrets`)."""
    from abkit.coursefolder import NoCourse, current_course, kit_secrets

    try:
        course = current_course().secrets()
    except NoCourse:
        course = []
    return list(dict.fromkeys(str(p) for p in [*course, *kit_secrets()]))


def child_environment(workspace: Path) -> dict[str, str]:
    """A scrubbed environment: a minimal PATH, the workspace as HOME and TMPDIR, UTF-8."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(workspace), "TMPDIR": str(workspace), "LANG": "C.UTF-8",
           "LC_ALL": "C.UTF-8"}
    env.update({k: v for k, v in os.environ.items() if k.startswith(KEPT_PREFIXES)})
    return env


class ForkServer:
    """One process per batch that starts each student's process by forking (``child.py --server``).

    It is started like a student's process (``python -I -B``, a scrubbed
    environment, its own session), imports the harness once and never loads
    student code: each child it forks first restores the server's starting
    state (resource limits, nice value, CPU affinity, umask, signal mask), then
    does everything a freshly started child does (its own session and process
    group, the student's folder, environment and log, limits, confinement, the
    key) before any student code exists. A confined child cannot change the
    server (:mod:`abkit.grader.confine`), and the server is undumpable. The
    grader keeps its deadlines and its process-group kill; the server keeps
    each child unreaped until the grader asks (:meth:`reap`), so its pid (and
    process group) cannot be reused meanwhile. Thread-safe; :meth:`close` ends it.
    """

    def __init__(self, folder: Path | None = None) -> None:
        """``folder``: the server's working folder (default ``/``: it needs none, so an interrupted batch leaves
        no temporary folder behind)."""
        import socket

        folder = Path(folder or "/")
        self._socket, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.lock = threading.Lock()
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-I", "-B", "-m", CHILD, "--server", str(theirs.fileno()), json.dumps(secret_paths())],
                cwd=folder, env=child_environment(folder), stdin=subprocess.DEVNULL,
                pass_fds=(theirs.fileno(),), start_new_session=True)
        finally:
            theirs.close()

    @staticmethod
    def available() -> bool:
        return sys.platform.startswith("linux") and hasattr(os, "pidfd_open") and hasattr(os, "fork")

    def start(self, workspace: Path, env: dict, settings: dict, fds: list[int]) -> "Forked":
        """Fork a student's process; :class:`OSError` when the server cannot."""
        import socket

        message = json.dumps({"op": "start", "cwd": str(workspace), "env": env, "settings": settings}).encode()
        with self.lock:
            socket.send_fds(self._socket, [message], fds)
            data, pidfds, _, _ = socket.recv_fds(self._socket, 4096, 1)
        if not data or not pidfds:
            for fd in pidfds:
                os.close(fd)
            raise OSError("the fork server did not answer")
        return Forked(self, json.loads(data)["pid"], pidfds[0])

    def know(self, requests: list[bytes]) -> None:
        """Have the server read ``requests`` (the batch's shared tests', as they are sent) once, before it forks a
        child: its children then take them without parsing them again (:func:`abkit.grader.runtest.know`). Sent in parts
        of about :data:`KNOW_BYTES`; a request the server is not sent is parsed by each child, as any other."""
        part: list[bytes] = []
        size = 0
        for body in dict.fromkeys(requests):
            if part and size + len(body) > KNOW_BYTES:
                self._know(part)
                part, size = [], 0
            part.append(body)
            size += len(body)
        if part:
            self._know(part)

    def _know(self, bodies: list[bytes]) -> None:
        message = json.dumps({"op": "know", "bodies": [b.decode("utf-8") for b in bodies]}, ensure_ascii=False)
        data = message.encode("utf-8")
        if len(data) > 2 * KNOW_BYTES:  # (escaped quotes): too long for one datagram, left to the children
            return
        with self.lock:
            try:
                self._socket.send(data)
            except OSError:  # the server is gone: each child is started afresh and parses its requests
                pass

    def reap(self, pid: int) -> int | None:
        with self.lock:
            self._socket.send(json.dumps({"op": "reap", "pid": pid}).encode())
            data = self._socket.recv(4096)
        if not data:
            raise OSError("the fork server did not answer")
        return json.loads(data)["returncode"]

    def close(self) -> None:
        """End the server (closing its socket ends its loop); it is killed if it lingers."""
        self._socket.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover
            self.process.kill()
            self.process.wait()


class Forked:
    """A student's process forked by a :class:`ForkServer`, with what :class:`Sandbox` uses of ``Popen``."""

    def __init__(self, server: ForkServer, pid: int, pidfd: int) -> None:
        self.server, self.pid, self.pidfd = server, pid, pidfd
        self.returncode: int | None = None
        self._lock = threading.Lock()  # an interrupted batch's thread and the student's own may both wait

    def wait(self, timeout: float | None = None) -> int | None:
        """Wait until it has ended (its pidfd says so), then have the server reap it (once)."""
        with self._lock:
            if self.returncode is None:
                if not select.select([self.pidfd], [], [], timeout)[0]:
                    raise subprocess.TimeoutExpired("student process", timeout)
                try:
                    code = self.server.reap(self.pid)
                except OSError:  # the server is gone, and its children with it
                    code = None
                os.close(self.pidfd)
                self.returncode = -signal.SIGKILL if code is None else code
        return self.returncode


def _end(process) -> None:
    """Kill ``process`` and its process group, and reap it. The process itself is killed by its pid too: killed
    before it has made its own group (``setsid``), it has none yet, and killing the group alone left it waiting for
    a request while the grader waited for it to end. Its pid stays its own until it is reaped, so that kill reaches
    no other process."""
    for kill in (os.killpg, os.kill):
        try:
            kill(process.pid, signal.SIGKILL)
        except OSError:  # already gone, or (the group) not made yet
            pass
    process.wait()


def cpu_state(pid: int) -> tuple[str, float] | None:
    """Process ``pid``'s scheduler state (``R`` running or waiting for a CPU, ``D`` waiting in the kernel, ``S``
    asleep, ...) and its CPU seconds so far (user and system, all its threads), from ``/proc/PID/stat``; None where
    there is no such file (not Linux, or the process is gone)."""
    try:
        fd = os.open(f"/proc/{pid}/stat", os.O_RDONLY)
    except OSError:
        return None
    try:
        text = os.read(fd, 4096)
    finally:
        os.close(fd)
    fields = text[text.rfind(b")") + 2:].split()  # the name, in parentheses, is the process's to choose: skipped
    if len(fields) < 13:
        return None
    return fields[0].decode("ascii", "replace"), (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


#: the units of /proc/PID/stat's CPU times
CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") and "SC_CLK_TCK" in os.sysconf_names else 100
#: a busy process lacking less CPU time than this (s) has had its time: the clock's ticks are 10 ms
SLACK = 0.05


class TestClock:
    """How long a student's process may still take on its request: ``test_seconds`` of its own time, not of the
    machine's, so that the verdict on a search does not depend on what else the machine runs.

    When the wall-clock limit passes and the process is busy (state ``R`` or ``D``: running, waiting for a CPU,
    or in the kernel, as when memory is handed to it) and has had less CPU time than ``test_seconds`` since its
    last answer, the wait goes on for what it lacks, and again, never past the student's ``deadline``. A process
    asleep (``time.sleep``, a blocked read) or one that has had its CPU time is stopped at the limit. Where
    ``/proc`` is missing, wall-clock time alone decides.
    """

    __test__ = False  # not a pytest test class, whatever its name

    def __init__(self, test_seconds: float, deadline: float) -> None:
        self.test_seconds, self.deadline = test_seconds, deadline
        self.start(None)

    def start(self, pid: int | None) -> None:
        """A new process, ``pid`` (None: none to ask, wall-clock time alone), that has answered nothing yet."""
        self.pid = pid
        self.answered_at = 0.0  # when it last answered
        self.mark = 0.0  # its CPU seconds then (a new process starts at 0)

    def limit(self, sent: float) -> float:
        """The wall-clock limit of the request sent at ``sent``: ``test_seconds`` from when the process could start on
        it (sent, and the previous reply received), never past the deadline."""
        return min(max(sent, self.answered_at) + self.test_seconds, self.deadline)

    def answered(self) -> None:
        """The process has answered (a reply, or a frame of one): the next request's time counts from here."""
        self.answered_at = time.monotonic()
        seen = cpu_state(self.pid) if self.pid is not None else None
        if seen is not None:
            self.mark = seen[1]

    def later(self, limit: float) -> float:
        """A new limit, past ``limit``, while the process is busy and owed CPU time; else ``limit``."""
        seen = cpu_state(self.pid) if self.pid is not None else None
        if seen is None or seen[0] not in ("R", "D"):
            return limit
        owed = self.test_seconds - (seen[1] - self.mark)
        return limit if owed < SLACK else max(limit, min(time.monotonic() + owed, self.deadline))


def wait_ready(fd: int, writing: bool, limit: float, clock: TestClock) -> bool:
    """Wait until the pipe ``fd`` can be written (``writing``) or read, no later than ``limit`` as ``clock`` moves it
    on (:meth:`TestClock.later`); False when it is not ready by then. A pipe already ready counts even when the
    grader itself comes to it late (held from a CPU by the machine's load)."""
    while True:
        ready = select.select([] if writing else [fd], [fd] if writing else [], [],
                              max(0.0, limit - time.monotonic()))
        if ready[0] or ready[1]:
            return True
        later = clock.later(limit)
        if later <= limit:
            return False
        limit = later


class StudentProcess:
    """One student's process, started and ended: forked by a :class:`ForkServer` (``server``) or started afresh,
    with its two pipes, the run's key, its limits and its log, and ended with everything it started. What goes
    over the pipes is :class:`Sandbox`'s.
    """

    def __init__(self, workspace: Path, limits: Limits, deadline: float | None = None,
                 server: ForkServer | None = None) -> None:
        self.workspace, self.server, self.limits = Path(workspace), server, limits
        self.deadline = deadline if deadline is not None else time.monotonic() + limits.student_seconds
        self._clock = TestClock(limits.test_seconds, self.deadline)
        self.process: subprocess.Popen | None = None
        self._log_path = self.workspace.parent / f"{self.workspace.name}.log"

    def start(self) -> None:
        """Start the child and hand it the run's key; it confines itself, then waits for requests.

        :class:`Interrupted` instead when the batch is stopping.
        """
        LIVE.add(self)
        request_read, self._request = os.pipe()
        self._reply, reply_write = os.pipe()
        self._key, self._received, self._sent = os.urandom(KEY_BYTES), 0, 0
        self._buffer = bytearray()  # read from the reply pipe, not yet taken by receive()
        self._pending: collections.deque[float] = collections.deque()  # when each unanswered request was sent
        self.defences: dict | None = None
        settings = _settings(self.limits)
        env = child_environment(self.workspace)
        self._coverage, self._profile = _drops(self.workspace, env, settings)
        self.process = None
        with open(self._log_path, "wb") as log:
            self.process = _spawn(self.workspace, env, settings, (request_read, reply_write), log, self.server)
        self._clock.start(self.process.pid)
        _close(request_read, reply_write)
        try:
            os.write(self._request, self._key)  # an empty pipe takes these few bytes at once
        except OSError:  # the child has already ended (its log says why): the first request finds it dead
            pass

    def _died(self, kind: type[Died] = Died) -> Died:
        """The child, killed, as ``kind``: :class:`Died`, or :class:`Forged` when it sent what it may not."""
        self.kill()
        return kind(self.log(), self.process.returncode if self.process else None)

    def _malformed(self, problem: Message) -> "Malformed":
        """The child, killed, for a reply it signed that the grader cannot use (``problem``)."""
        self.kill()
        return Malformed(problem, self.log(), self.process.returncode if self.process else None)

    def log(self, limit: int = 2000) -> str:
        """The head of what the child wrote to its stdout/stderr outside the capture (a fatal error, say)."""
        try:
            with open(self._log_path, "rb") as log:
                return log.read(limit).decode("utf-8", "replace").strip()
        except OSError:  # pragma: no cover - the file is made before the child starts
            return ""

    def kill(self) -> None:
        """End the child and everything it started (its process group), and reap it (:func:`_end`)."""
        if self.process is not None and self.process.returncode is None:
            _end(self.process)

    def close(self) -> None:
        """Say goodbye, give the child a moment to leave, then make sure it is gone; close the pipes."""
        if self.process is not None and self.process.returncode is None:
            try:  # the child answers "bye" by exiting, which closes its end of the reply pipe
                os.write(self._request, frame(encode({"op": "bye"})))
                if select.select([self._reply], [], [], 0.5)[0] and not os.read(self._reply, 1):
                    self.process.wait(timeout=0.5)
            except (OSError, subprocess.TimeoutExpired):
                pass
        if self.process is not None:
            try:  # whatever the student's code started is in the child's process group
                os.killpg(self.process.pid, signal.SIGKILL)
            except OSError:
                pass
        self.kill()
        LIVE.discard(self)
        if getattr(self, "_coverage", None) is not None:
            _collect_coverage(*self._coverage)
        if getattr(self, "_profile", None) is not None:
            _collect_profile(*self._profile, self.process.pid if self.process else 0)
        _close(getattr(self, "_request", None), getattr(self, "_reply", None))
        self._request = self._reply = None


class Sandbox(StudentProcess):
    """One child process running one student's code; use as a context manager.

    Its requests go out framed (:mod:`abkit.wire`), sent ahead where that cannot block, and each reply is read
    within its test's time (:class:`TestClock`) and believed only once it is signed, in sequence, within the sizes
    allowed and of its kind's shape; anything else ends the process. With ``server`` (a :class:`ForkServer`),
    the child is forked by it instead of started afresh.
    """

    #: the bytes of the student's replies so far (:data:`MAX_REPLIES`), carried from one of its processes to the next
    replied = 0

    def __enter__(self) -> "Sandbox":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def request(self, message: dict | bytes, check: Callable[[dict], dict] | None = None) -> dict:
        """Send ``message`` (or its JSON, encoded) and return the reply; :class:`TimedOut` or :class:`Died` otherwise.

        Only when no request sent ahead (:meth:`send_ahead`) is still unanswered. ``check``: as :meth:`receive`'s.
        """
        self.send(message)
        return self.receive(check)

    def send(self, message: dict | bytes) -> None:
        """Send ``message``, waiting (within a test's time limit) for room in the pipe; its reply is :meth:`receive`'s."""
        data = _frame(message)
        self._write(data, self._clock.limit(time.monotonic()))
        self._pending.append(time.monotonic())

    def send_ahead(self, message: dict | bytes) -> bool:
        """Send ``message`` behind those not yet answered if that cannot block (it fits in one atomic pipe write and
        the pipe has room for it), so that the child starts on it as soon as it has answered them; False, and
        nothing sent, otherwise. Its reply comes, in order, from :meth:`receive`."""
        data = _frame(message)
        if len(data) > select.PIPE_BUF or not select.select([], [self._request], [], 0)[1]:
            return False
        try:
            os.write(self._request, data)  # at most PIPE_BUF bytes into a writable pipe: all at once
        except OSError:
            raise self._died() from None
        self._pending.append(time.monotonic())
        return True

    def receive(self, check: Callable[[dict], dict] | None = None, more: bool = False) -> dict:
        """The reply to the oldest unanswered request; its time limit runs from when the child could start on it
        (sent, and the previous reply, or frame of one, received).

        The reply is read only when it is at most :data:`MAX_REPLY` bytes, signed, JSON, and what every reply may
        carry (:func:`abkit.grader.replies.envelope`); ``check`` (one of :mod:`abkit.grader.replies`' schemas) then checks what
        its kind carries. Anything else ends the process: :class:`Malformed` (or :class:`Forged`), never another
        exception. ``more``: the reply comes in frames (a ``games`` request's moves, each sent as soon as it is
        chosen), this is one of them, and :meth:`ended` says when there are no more.
        """
        body = self._signed(more)
        try:
            reply = decode_reply(body)
        except BadReply as bad:
            raise self._malformed(bad.message) from None
        if type(reply) is dict and reply.get("id") != self._sent + more:  # a replayed report
            raise self._died(Forged)
        try:
            envelope(reply)
            if check is not None:
                check(reply)
        except BadReply as bad:
            raise self._malformed(bad.message) from None
        if "defences" in reply and self.defences is None and not reply.get("tampered"):  # a report it was free to edit
            self.defences = reply["defences"]
        self._clock.answered()
        return reply

    def _signed(self, more: bool) -> bytes:
        """The next reply's body (a frame of it when ``more``), read within its request's time limit and the sizes
        allowed (:data:`MAX_REPLY`, :data:`MAX_REPLIES`), its MAC checked under the run's key and its sequence number
        (:func:`abkit.wire.signature`); its request ended (:meth:`ended`) unless ``more``."""
        limit = self._clock.limit(self._pending[0])
        head = self._read(HEADER.size, limit)
        size = HEADER.unpack(head)[0]
        if size > MAX_REPLY:  # refused before a byte of it is read
            raise self._malformed(Message("faults.reply.size", size=size, limit=MAX_REPLY))
        self.replied += size
        if self.replied > MAX_REPLIES:
            raise self._malformed(Message("faults.reply.total", limit=MAX_REPLIES))
        data = self._read(size + MAC_BYTES, limit)
        body, mac = data[:size], data[size:]
        expected = signature(self._key, self._received, body)
        self._received += 1
        if not more:
            self.ended()
        if not hmac.compare_digest(mac, expected):
            raise self._died(Forged)
        return body

    def ended(self) -> None:
        """The oldest unanswered request has its whole reply (its last frame read, or, when it comes in frames,
        all of them): the next reply answers the next request."""
        self._pending.popleft()
        self._sent += 1

    def _write(self, data: bytes, limit: float) -> None:
        """Write to the request pipe without ever blocking past ``limit`` (a pipe takes PIPE_BUF bytes when writable)."""
        while data:
            if not wait_ready(self._request, True, limit, self._clock):
                self.kill()
                raise TimedOut()
            try:
                data = data[os.write(self._request, data[:select.PIPE_BUF]):]
            except OSError:
                raise self._died() from None

    def _read(self, size: int, limit: float) -> bytes:
        """The next ``size`` bytes of the reply pipe, waiting no later than ``limit``. Whatever the pipe holds is
        read at once (a reply's head, body and MAC usually come in one read; replies sent ahead, several)."""
        buffer = self._buffer
        while len(buffer) < size:
            if not wait_ready(self._reply, False, limit, self._clock):
                self.kill()
                raise TimedOut()
            chunk = os.read(self._reply, min(max(size - len(buffer), 1 << 16), 1 << 20))
            if not chunk:
                raise self._died()
            buffer += chunk
        data = bytes(buffer[:size])
        del buffer[:size]
        return data


# -- the kit's own tests run under coverage, which follows subprocesses ----------------

def _drops(workspace: Path, env: dict[str, str], settings: dict) -> tuple:
    """The folders the confined child may write to, added to its ``settings``: the coverage data's
    (:func:`_coverage_drop`) and the profile's (:func:`_profile_drop`), each ``None`` when not measuring."""
    coverage, profile = _coverage_drop(workspace, env), _profile_drop(workspace)
    if coverage is not None:
        settings["writable"] = [str(coverage[0])]
    if profile is not None:
        settings["writable"] = [*settings.get("writable", []), str(profile[0])]
        settings["profile"] = str(profile[0] / "child.prof")
    return coverage, profile


def _coverage_drop(workspace: Path, env: dict[str, str]) -> tuple[Path, Path] | None:
    """When coverage measures the kit's tests: a folder the confined child may write its data to, and the real one.

    The child cannot write into the kit (that is the point of confining it), so
    the data file named in coverage's serialized configuration (the
    ``patch = subprocess`` mechanism) is redirected, and moved back when it ends.
    """
    serialized = env.get("COVERAGE_PROCESS_CONFIG")
    if serialized is None:
        return None
    try:
        config = json.loads(base64.b64decode(serialized))
        target = Path(os.path.abspath(config["data_file"]))
    except (ValueError, KeyError, TypeError):  # pragma: no cover - another coverage version
        return None
    drop = workspace.parent / f"{workspace.name}.coverage"
    drop.mkdir(exist_ok=True)
    config["data_file"] = str(drop / target.name)
    env["COVERAGE_PROCESS_CONFIG"] = base64.b64encode(json.dumps(config).encode()).decode()
    return drop, target


def _collect_coverage(drop: Path, target: Path) -> None:
    """Move the child's coverage data files next to this process's own (``coverage combine`` finds them there)."""
    for path in drop.glob(f"{target.name}*"):
        try:
            shutil.move(str(path), str(target.parent / path.name))
        except OSError:  # pragma: no cover
            pass


def _profile_drop(workspace: Path) -> tuple[Path, Path] | None:
    """When :data:`PROFILE_CHILD` names a folder: a drop folder the confined child may write its profile to, and
    that folder."""
    target = os.environ.get(PROFILE_CHILD)
    if not target:
        return None
    drop = workspace.parent / f"{workspace.name}.profile"
    drop.mkdir(exist_ok=True)
    return drop, Path(target)


def _collect_profile(drop: Path, target: Path, pid: int) -> None:  # pragma: no cover - measuring the kit only
    """Move the child's profile into the folder :data:`PROFILE_CHILD` names."""
    try:
        target.mkdir(parents=True, exist_ok=True)
        shutil.move(str(drop / "child.prof"), str(target / f"child-{pid}.prof"))
    except OSError:
        pass


def _settings(limits: Limits) -> dict:
    """What a child is told of its limits and of the files it must never read."""
    return {"cpu": int(limits.student_seconds) + 2, "memory": limits.memory_mb * 1024 * 1024,
            "fsize": limits.log_bytes, "output": limits.output_chars, "confine": limits.confine,
            "secrets": secret_paths()}


def _spawn(workspace: Path, env: dict, settings: dict, fds: tuple[int, int], log, server: ForkServer | None):
    """The child process, forked by ``server`` if there is one (and it is alive), else started afresh; its
    output goes to ``log``, ``fds`` are its ends of the request and reply pipes."""
    if server is not None:
        try:
            return server.start(workspace, env, settings, [*fds, log.fileno()])
        except OSError:  # the server is gone: start this child afresh
            pass
    return subprocess.Popen([sys.executable, "-I", "-B", "-m", CHILD, *map(str, fds), json.dumps(settings)],
                            cwd=workspace, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                            pass_fds=fds, start_new_session=True)


def _frame(message: dict | bytes) -> bytes:
    """A request as the child reads it (:mod:`abkit.wire`): its length, then its JSON (``message``, or its JSON
    already encoded)."""
    return frame(message if isinstance(message, bytes) else encode(message))


def decode_reply(body: bytes) -> object:
    """A signed reply's JSON; :class:`~abkit.grader.replies.BadReply` when it is not JSON or nests deeper than the parser
    goes.

    (A decoder made once: json.loads with an argument makes a new one, and its scanner, per call.) The C scanner
    bounds its own nesting with the interpreter's recursion limit: a reply nested deeper raises RecursionError,
    which never leaves here.
    """
    items = body.count(b",") + body.count(b"[") + body.count(b"{")  # (counted in C: a pass over the bytes)
    if items > MAX_ITEMS:  # each becomes an object: 16 MiB of "[]," would hold 350 MB
        raise BadReply(Message("faults.reply.items", count=items, limit=MAX_ITEMS))
    try:
        decode = _LONG_NUMBER_DECODE if has_long_number(body) else _DECODE
        return decode(body.decode("utf-8"))
    except RecursionError:
        raise BadReply(Message("faults.reply.deep")) from None
    except (ValueError, MemoryError):  # (UnicodeDecodeError is a ValueError)
        raise BadReply(Message("faults.reply.json")) from None


def _close(*fds: int | None) -> None:
    for fd in fds:
        if fd is not None:
            try:
                os.close(fd)
            except OSError:  # pragma: no cover
                pass
