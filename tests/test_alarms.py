"""The watchdogs' one alarm thread (studentloop/check.py: ``Alarms``), and the terminal width the help is wrapped to
without importing shutil: what `abkit check` does instead of what cost it time at every start or test."""

from __future__ import annotations

import os
import shutil
import sys
import threading
import time

import pytest

from abkit.cli.arguments import terminal_columns
from abkit.studentloop.check import Alarms, Watchdog


class Dog:
    """Stands for a :class:`Watchdog`: records when the alarm thread fires it."""

    def __init__(self, name: str, fired: list, done: threading.Event, last: bool = False) -> None:
        self.name, self.fired, self.done, self.last = name, fired, done, last

    def _fire(self) -> None:
        self.fired.append(self.name)
        if self.last:
            self.done.set()


def test_each_alarm_fires_once_at_its_time_in_order_and_a_cancelled_one_never():
    alarms, fired, done = Alarms(), [], threading.Event()
    late, early, cancelled = Dog("late", fired, done, last=True), Dog("early", fired, done), Dog("cancelled", fired, done)
    alarms.set(late, 0.15)
    alarms.set(cancelled, 0.05)
    alarms.set(early, 0.02)
    alarms.cancel(cancelled)
    assert done.wait(10)
    time.sleep(0.1)
    assert fired == ["early", "late"]


def test_an_alarm_set_again_fires_at_its_new_time():
    alarms, fired, done = Alarms(), [], threading.Event()
    dog = Dog("dog", fired, done, last=True)
    alarms.set(dog, 60)
    started = time.monotonic()
    alarms.set(dog, 0.02)
    assert done.wait(10) and time.monotonic() - started < 30 and fired == ["dog"]


def test_one_thread_serves_every_watchdog_of_a_process(monkeypatch):
    starts = []
    start = threading.Thread.start
    monkeypatch.setattr(threading.Thread, "start", lambda thread: (starts.append(thread.name), start(thread)))
    for _ in range(20):
        with Watchdog(60):
            pass
    assert starts in ([], ["abkit-watchdog"])  # none when the process's alarm thread runs already


def test_a_watchdog_still_stops_an_endless_loop():
    dog = Watchdog(0.05)
    with pytest.raises(KeyboardInterrupt), dog:
        while True:
            pass
    assert dog.fired and dog.reason == "time"


def spin(seconds: float) -> None:
    """Busy for ``seconds``, in a frame of its own, as a student's endless search is.

    Python 3.13 (CPython issue 130279) raises an interrupt that arrives at the back edge of a ``while`` loop that
    ends a ``try`` block outside that block: written inline, the test's own ``except`` would miss it. From a called
    function the interrupt reaches the caller at the call, inside the ``try``, as from a student's code.
    """
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        pass


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this system")
def test_a_forked_process_serves_its_alarms_with_a_thread_of_its_own():
    with Watchdog(60):  # the parent's thread runs
        pass
    pid = os.fork()
    if pid == 0:  # the child: its watchdog must fire, though the parent's thread was not forked with it
        code = 1
        try:
            dog = Watchdog(0.05)
            try:
                with dog:
                    spin(10)
            except KeyboardInterrupt:
                code = 0 if dog.fired else 2
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


@pytest.mark.parametrize("columns", ["100", "0", "nonsense", None])
def test_the_help_is_as_wide_as_shutil_says_the_terminal_is(monkeypatch, columns):
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert terminal_columns() == shutil.get_terminal_size().columns


def test_the_help_width_falls_back_to_80_without_a_terminal(monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.setattr(sys, "__stdout__", None)
    assert terminal_columns() == 80 == shutil.get_terminal_size().columns
