"""The sandbox's per-test time limit: a search that loops forever on one test costs that test, not the student's run.

The course and rubric are test_grade_partial's cut-down ones: minimax on aima-fig-5-2, min-root and root-ties, then
nine direct calls, on B, C and D of each, the last three ``min_value`` on root-ties' (each has two children). The student's
``min_value`` loops forever only there: when it is called from outside any search (a direct call) on a node with two
actions. (Inside a search, and when the root's value is asked of ``max_value`` after it, ``min_value`` is called
from MINIMAX-DECISION or MAX-VALUE; the root's value of min-root is asked of ``min_value`` from outside, but that
root has three actions, as aima-fig-5-2's B, C and D have.) A timed-out test ends its
exercise (grade.note.timeout: "The remaining tests of this exercise were not run"): the looping test is
``min_value(B)`` on root-ties, the plan's seventh direct call, and the nine tests before it are answered.

With the per-test limit (3 s here) the process is stopped on that test: it fails with the timeout finding, the
nine before it pass and the two after it are not run (values 6, nodes 1, direct 6 of 9: 9 of 10), and the student's whole budget (30 s) is far from
spent, so the note is the per-test one, not the budget's. Without the per-test limit the same loop would run until
the student's budget ran out: the note would be the budget's and ``budget`` would be set, which this test refuses.

The limit is the process's own time (grader/sandbox.py's TestClock): a process kept from a CPU by the machine's load is
given the CPU time it lacked, one asleep is not. Its rules are tested with a stand-in for /proc, and once for real: a
class graded on one CPU shared with four processes that compute without end.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time

import pytest

from abkit.loading import SOLUTIONS
from abkit.grader import sandbox
from abkit.grader.sandbox import Limits, TestClock, cpu_state
from tests.helpers import edited
from tests.test_grade_partial import DIRECT, SEARCHES, grade_cut_down

LIMITS = Limits(test_seconds=3.0, student_seconds=30.0)

#: min_value loops forever when called directly (no search around it) on a node with two actions
LOOPS_ON_ONE_DIRECT_CALL = [
    ("def min_value(game, state):\n",
     "DEPTH = [0]\n\n\ndef min_value(game, state):\n"
     "    if DEPTH[0] == 0 and len(game.actions(state)) == 2:\n"
     "        while True:  # loops forever on this one call\n"
     "            pass\n"
     "    DEPTH[0] += 1\n"
     "    try:\n"
     "        return _min_value(game, state)\n"
     "    finally:\n"
     "        DEPTH[0] -= 1\n\n\n"
     "def _min_value(game, state):\n"),
    ("v = min_value(game, game.result(state, a))\n            if best_action is None or v > best_value",
     "DEPTH[0] += 1\n            v = min_value(game, game.result(state, a))\n            DEPTH[0] -= 1\n"
     "            if best_action is None or v > best_value"),
    ("v = max(v, min_value(game, game.result(state, a)))",
     "DEPTH[0] += 1\n        v = max(v, min_value(game, game.result(state, a)))\n        DEPTH[0] -= 1"),
]


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("timeout")
    reference = (SOLUTIONS / "minimax.py").read_text(encoding="utf-8")
    for student, source in (("loops", edited(reference, LOOPS_ON_ONE_DIRECT_CALL)), ("correct", reference)):
        (root / "class" / student).mkdir(parents=True)
        (root / "class" / student / "minimax.py").write_text(source, encoding="utf-8")
    return grade_cut_down(root, LIMITS)


@pytest.mark.slow
def test_one_looping_test_times_out_and_the_others_pass(graded):
    grade, tests = graded["loops"]
    by_name = {t["name"]: t for t in tests}
    looping = by_name[DIRECT[6]]
    assert looping["status"] == "failed" and looping["score"] == 0
    assert "Stopped after 3 s: the search seems to loop forever" in looping["output"]
    assert all(by_name[name]["status"] == "passed" for name in (*SEARCHES, *DIRECT[:6]))
    assert all(by_name[name]["status"] == "failed" for name in DIRECT[7:])  # not run after it
    # values 6 * 3/3 + nodes 1 * 3/3 + direct 3 * 6/9 = 9 of 10
    assert grade["status"] == "timeout" and grade["score"] == pytest.approx(9) and grade["max_score"] == 10


@pytest.mark.slow
def test_the_per_test_limit_stopped_it_not_the_students_budget(graded):
    grade, tests = graded["loops"]
    output = {t["name"]: t for t in tests}[DIRECT[6]]["output"]
    assert "that all of a student's tests may take together ran out" not in output
    assert "that all of a student's tests may take together ran out" not in grade.get("note", "")
    other, _ = graded["correct"]  # the batch goes on: the next student is graded in full
    assert (other["status"], other["score"]) == ("ok", 10)


# ---- the limit counts the process's own time, not the machine's load ------------------------------------------

def test_a_busy_process_kept_from_a_cpu_is_owed_the_cpu_time_it_lacked(monkeypatch):
    # test_seconds 1, CPU at the last answer 2.0 s: running (R) at 2.4 s it has had 0.4 s and is owed 0.6 s
    clock = TestClock(1.0, deadline=time.monotonic() + 100)
    clock.start(12345)
    monkeypatch.setattr(sandbox, "cpu_state", lambda pid: ("R", 2.0))
    clock.answered()
    limit = time.monotonic()
    monkeypatch.setattr(sandbox, "cpu_state", lambda pid: ("R", 2.4))
    assert clock.later(limit) == pytest.approx(time.monotonic() + 0.6, abs=0.05)
    monkeypatch.setattr(sandbox, "cpu_state", lambda pid: ("D", 2.4))  # in the kernel (memory handed to it): the same
    assert clock.later(limit) == pytest.approx(time.monotonic() + 0.6, abs=0.05)


@pytest.mark.parametrize("state, cpu", [("S", 2.4), ("T", 2.4), ("Z", 2.4), ("R", 3.0), ("R", 3.5)],
                         ids=["asleep", "stopped", "ended", "had-its-time", "had-more"])
def test_a_process_asleep_or_that_had_its_time_is_stopped_at_the_limit(monkeypatch, state, cpu):
    clock = TestClock(1.0, deadline=time.monotonic() + 100)
    clock.start(12345)
    monkeypatch.setattr(sandbox, "cpu_state", lambda pid: ("R", 2.0))
    clock.answered()
    monkeypatch.setattr(sandbox, "cpu_state", lambda pid: (state, cpu))
    limit = time.monotonic()
    assert clock.later(limit) == limit


def test_the_time_owed_never_goes_past_the_students_deadline(monkeypatch):
    deadline = time.monotonic() + 0.2
    clock = TestClock(1.0, deadline)
    clock.start(12345)
    monkeypatch.setattr(sandbox, "cpu_state", lambda pid: ("R", 0.0))
    assert clock.later(time.monotonic()) == deadline
    clock.start(None)  # no process to ask (or no /proc): wall-clock time alone
    limit = time.monotonic()
    assert clock.later(limit) == limit


@pytest.mark.skipif(not os.path.exists(f"/proc/{os.getpid()}/stat"), reason="/proc/PID/stat is Linux's")
def test_cpu_state_reads_a_process_whatever_it_calls_itself(tmp_path):
    # the name in /proc/PID/stat is the process's to choose: one that reads like the fields after it changes nothing
    code = ("import sys, time\nopen('/proc/self/comm', 'w').write(') R 1 1 1 1')\nprint('named', flush=True)\n"
            "time.sleep(30)\n")
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "named\n"
        seen = [cpu_state(child.pid)]
        while seen[-1][0] != "S" and len(seen) < 500:  # from its print to its sleep it may still be running
            time.sleep(0.01)
            seen.append(cpu_state(child.pid))
        state, cpu = seen[-1]
        assert state == "S" and 0 <= cpu < 5  # asleep, whatever its name says
        assert b") R 1 1 1 1" in open(f"/proc/{child.pid}/stat", "rb").read()  # the name did read like fields
    finally:
        child.kill()
        child.wait()
    mine = cpu_state(os.getpid())
    assert mine[0] == "R" and abs(mine[1] - time.process_time()) < 0.1  # running: the one reading it


#: minimax_decision first computes for 0.6 s of CPU time, then searches as the reference does
COMPUTES = [("    # BEGIN SOLUTION\n    if game.terminal_test(state):\n        return None",
             "    # BEGIN SOLUTION\n    import time\n    until = time.process_time() + 0.6\n"
             "    while time.process_time() < until:\n        pass\n"
             "    if game.terminal_test(state):\n        return None")]


@contextlib.contextmanager
def one_cpu_shared_with(burners: int):
    """This process (and every process it starts: the batch's workers, the fork server, the students') on one CPU,
    which ``burners`` processes that compute without end share with it."""
    saved = os.sched_getaffinity(0)
    cpu = {max(saved)}
    os.sched_setaffinity(0, cpu)
    loads = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(burners)]
    try:
        for load in loads:
            os.sched_setaffinity(load.pid, cpu)
        yield
    finally:
        for load in loads:
            load.kill()
            load.wait()
        os.sched_setaffinity(0, saved)


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "sched_setaffinity") or not os.path.exists(f"/proc/{os.getpid()}/stat"),
                    reason="the load is made by pinning processes to one CPU, and the limit reads /proc (Linux)")
def test_the_verdict_does_not_depend_on_the_machines_load(tmp_path):
    # Each search takes 0.6 s of CPU, under a 1 s limit. On a CPU shared with 4 processes that never stop, the
    # student's process gets about a fifth of it: 0.6 s of its time is about 3 s on the clock, and a wall-clock limit
    # would stop it on its first search. It was kept from a CPU, not slow: every test passes, 10 of 10.
    # The looping student's process is still stopped: it has had its 1 s (of CPU) on the test it loops on.
    reference = (SOLUTIONS / "minimax.py").read_text(encoding="utf-8")
    for student, source in (("computes", edited(reference, COMPUTES)),
                            ("loops", edited(reference, LOOPS_ON_ONE_DIRECT_CALL))):
        (tmp_path / "class" / student).mkdir(parents=True)
        (tmp_path / "class" / student / "minimax.py").write_text(source, encoding="utf-8")
    with one_cpu_shared_with(burners=4):
        graded = grade_cut_down(tmp_path, Limits(test_seconds=1.0, student_seconds=60.0))
    grade, tests = graded["computes"]
    assert (grade["status"], grade["score"]) == ("ok", 10), [t.get("output", "") for t in tests]
    grade, tests = graded["loops"]
    assert grade["status"] == "timeout" and grade["score"] == pytest.approx(9)
    assert "Stopped after 1 s: the search seems to loop forever" in {t["name"]: t for t in tests}[DIRECT[6]]["output"]
