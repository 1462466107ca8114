"""The pipes between ``abkit check`` and the process that runs a student's exercise (:mod:`.isolated`).

Two ways to start the child, one format on the pipes (:mod:`abkit.wire`, as grading's: the parent writes the run's
key, then each request as a frame; the child answers each with a frame and its MAC):

- **fork** (Linux, macOS): :func:`os.fork`, the requests and replies on two :func:`os.pipe`\\ s and faulthandler's
  dump on a third; the child is the parent's copy, with nothing to import or read again.
- **spawn** (Windows, or ``ABKIT_START_METHOD=spawn``): a new interpreter through :mod:`multiprocessing`, each
  request and reply one message of a :func:`multiprocessing.Pipe`, the dump in a temporary file.

:func:`serve` is the child's loop, the same for both. Nothing here is imported until a child is started: a check
whose statuses all come from the cache starts none.
"""

from __future__ import annotations

import faulthandler
import os
import sys
from pathlib import Path

from abkit.wire import HEADER, KEY_BYTES, MAC_BYTES, Channel, encode, frame

#: seconds after the time limit at which the child dumps its stack and ends
SLACK = 0.5


def start_method() -> str:
    """``fork`` where the system has it, else ``spawn``; ``ABKIT_START_METHOD`` chooses (the tests use it)."""
    chosen = os.environ.get("ABKIT_START_METHOD")
    if chosen in ("fork", "spawn"):
        return chosen
    return "fork" if hasattr(os, "fork") else "spawn"


class ForkedLink:
    """The parent's end of a forked child's pipes."""

    def __init__(self, job: tuple) -> None:
        request_r, request_w = os.pipe()
        reply_r, reply_w = os.pipe()
        dump_r, dump_w = os.pipe()
        key = os.urandom(KEY_BYTES)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the child: never returns into the parent's code
            status = 0
            try:
                for fd in (request_w, reply_r, dump_r):
                    os.close(fd)
                channel = Channel(request_r, reply_w)
                channel.receive_key()
                serve(channel, dump_w, *job)
            except BaseException:  # noqa: BLE001 - whatever happened, the parent reads it as the child's end
                status = 70
            finally:
                os._exit(status)
        for fd in (request_r, reply_w, dump_w):
            os.close(fd)
        self.pid, self.key, self._request, self._reply, self._dump = pid, key, request_w, reply_r, dump_r
        os.set_blocking(dump_r, False)
        self.send_raw(key)

    def send(self, message: dict) -> None:
        self.send_raw(frame(encode(message)))

    def send_raw(self, data: bytes) -> None:
        while data:
            data = data[os.write(self._request, data):]

    def receive(self, wait: float) -> bytes | None:
        """One reply (its frame and MAC), or None when none has come within ``wait`` seconds; EOFError at the end
        of the pipe."""
        import select
        import time

        deadline = time.monotonic() + wait
        head = self._read(HEADER.size, deadline, select)
        if head is None:
            return None
        rest = self._read(HEADER.unpack(head)[0] + MAC_BYTES, deadline, select)
        return None if rest is None else head + rest

    def _read(self, size: int, deadline: float, select) -> bytes | None:
        import time

        chunks, left = [], size
        while left:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([self._reply], [], [], remaining)[0]:
                return None
            chunk = os.read(self._reply, left)
            if not chunk:
                raise EOFError
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)

    def end(self) -> int | None:
        """Kill the child if it still runs; its exit status (None when it was killed)."""
        import signal
        import time

        code = None
        for _ in range(20):  # a child that ended on its own is reaped at once; one that did not gets 0.2 s
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                code = os.waitstatus_to_exitcode(status)
                break
            time.sleep(0.01)
        else:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        for fd in (self._request, self._reply):
            os.close(fd)
        return code

    def dump(self) -> str:
        """What faulthandler wrote (read once; the pipe is closed)."""
        chunks = []
        try:
            while chunk := os.read(self._dump, 65536):
                chunks.append(chunk)
        except BlockingIOError:
            pass
        os.close(self._dump)
        return b"".join(chunks).decode("utf-8", errors="replace")


class SpawnedLink:
    """The parent's end of a spawned child (a new interpreter): a :mod:`multiprocessing` pipe and a dump file."""

    def __init__(self, job: tuple) -> None:
        import multiprocessing
        import tempfile

        handle, name = tempfile.mkstemp(prefix="abkit-check-", suffix=".txt")
        os.close(handle)
        context = multiprocessing.get_context("spawn")
        self._conn, child = context.Pipe()
        self._path = Path(name)
        self.key = os.urandom(KEY_BYTES)
        self._process = context.Process(target=serve_spawned, args=(child, name, *job), daemon=True)
        self._process.start()
        child.close()
        self._conn.send_bytes(self.key)

    def send(self, message: dict) -> None:
        self._conn.send_bytes(frame(encode(message)))

    def receive(self, wait: float) -> bytes | None:
        try:
            return self._conn.recv_bytes() if self._conn.poll(wait) else None
        except OSError:
            raise EOFError from None

    def end(self) -> int | None:
        code = None
        self._process.join(0.2)
        if self._process.is_alive():
            self._process.kill()
            self._process.join()
        else:
            code = self._process.exitcode
        self._conn.close()
        return code

    def dump(self) -> str:
        try:
            return self._path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""
        finally:
            self._path.unlink(missing_ok=True)


class ConnectionChannel(Channel):
    """:class:`abkit.wire.Channel` over a :mod:`multiprocessing` pipe: each request and each reply one message."""

    def __init__(self, conn) -> None:
        super().__init__(-1, -1)
        self.conn = conn

    def receive_key(self) -> None:
        self.key = self.conn.recv_bytes()

    def receive(self) -> dict | None:
        import json

        try:
            data = self.conn.recv_bytes()
        except (EOFError, OSError):
            return None
        return json.loads(data[HEADER.size:])

    def send(self, message: dict) -> None:
        from abkit.wire import signature

        body = encode(message)
        self.conn.send_bytes(frame(body) + signature(self.key, self.sent, body))
        self.sent += 1


def serve_spawned(conn, dump: str, *job) -> None:
    """A spawned child's start: its channel over ``conn``, faulthandler's dump into the file ``dump``."""
    channel = ConnectionChannel(conn)
    channel.receive_key()
    with open(dump, "w", encoding="utf-8") as log:
        serve(channel, log, *job)


def serve(channel: Channel, dump, root: str, course, exercise, folder: str, cases: list, langs: tuple) -> None:
    """The child: say it started, then run each test asked for and send its result, until ``bye`` or the end of
    the pipe. The first test's request is answered twice: whether the file loaded, then the result. ``dump``:
    where faulthandler writes the stack when a test outlives its limit by :data:`SLACK` seconds (the child then
    ends)."""
    from abkit.coursefolder import chosen_course

    from abkit.studentloop.check import load_student, run_case
    from abkit.studentloop.limits import MemoryGuard
    from abkit.studentloop.resultdata import to_data

    with chosen_course(Path(root)), MemoryGuard(course.memory_limit):
        channel.send({"id": -1, "started": True})
        student = None
        while (request := channel.receive()) is not None and request.get("op") == "case":
            k = int(request["index"])
            if student is None:
                faulthandler.dump_traceback_later(course.time_limit + SLACK, exit=True, file=dump)
                student = load_student(exercise, Path(folder), course.time_limit)
                faulthandler.cancel_dump_traceback_later()
                channel.send({"id": k, "loaded": student.failure is None})
            faulthandler.dump_traceback_later(course.time_limit + SLACK, exit=True, file=dump)
            try:
                result = run_case(cases[k], student, course, Path(folder), langs)
            finally:
                faulthandler.cancel_dump_traceback_later()
            channel.send({"id": k, "result": to_data(result)})
