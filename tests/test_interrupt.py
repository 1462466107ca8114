"""Interrupting a real batch (SIGINT as Ctrl-C sends it, SIGTERM, SIGKILL) at several points loses nothing graded.

A real ``abkit grade`` process grades a small, slow class; it is signalled after a
given number of students have been reported. After each interruption: every saved
``results.json`` is whole, ``grades.csv`` is absent or a complete gradebook (never
half a file), no student process is left behind, and running the same command again
grades only the students left and completes the gradebook.
"""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from abkit.loading import KIT_ROOT, SOLUTIONS

STUDENTS = [f"s{k:02d}" for k in range(10)]
SLOW = (SOLUTIONS / "alphabeta.py").read_text(encoding="utf-8").replace(
    "    # BEGIN SOLUTION\n    if game.terminal_test(state):\n        return None\n",
    "    # BEGIN SOLUTION\n    import time\n    time.sleep(0.03)\n    if game.terminal_test(state):\n        return None\n", 1)
RUBRIC = "fixtures: [public]\nrandom_trees: {count: 0}\ndirect_tests: 2\nexercises: {alphabeta: {values: 1}}\n"


@pytest.fixture
def batch(tmp_path):
    """A slow class (each search sleeps a little), a rubric, a private TMPDIR and the command that grades them."""
    assert "time.sleep(0.03)" in SLOW
    for student in STUDENTS:
        (tmp_path / "class" / student).mkdir(parents=True)
        (tmp_path / "class" / student / "alphabeta.py").write_text(f"# {student}\n{SLOW}", encoding="utf-8")
    (tmp_path / "rubric.yaml").write_text(RUBRIC, encoding="utf-8")
    (tmp_path / "tmp").mkdir()
    command = [sys.executable, "-m", "abkit.cli", "grade", str(tmp_path / "class"), "--out", str(tmp_path / "out"),
               "-j", "2", "--rubric", str(tmp_path / "rubric.yaml"), "--lang", "en"]
    env = {**os.environ, "TMPDIR": str(tmp_path / "tmp"), "PYTHONPATH": str(KIT_ROOT)}
    return tmp_path, command, env


def run_until(command, env, lines: int | None, sig: int | None, extra=()) -> tuple[int, str, str]:
    """Run the batch; after ``lines`` progress lines send ``sig``; returns (exit status, stdout, stderr)."""
    process = subprocess.Popen([*command, *extra], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               cwd=KIT_ROOT)
    seen = []
    try:
        if sig is not None:
            while len([x for x in seen if x.startswith("[")]) < lines:
                line = process.stdout.readline()
                assert line, (seen, process.stderr.read())
                seen.append(line)
            process.send_signal(sig)
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:  # pragma: no cover - only when an assertion failed above
            process.kill()
            process.wait()
    return process.returncode, "".join(seen) + out, err


def children_left(tmp: Path) -> list[int]:
    """Student processes still running whose working folder is under ``tmp``."""
    left = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if os.readlink(entry / "cwd").startswith(str(tmp)):
                    left.append(int(entry.name))
            except OSError:
                continue
    return left


def check_folder(out: Path, complete: bool) -> int:
    """Every saved result is whole; grades.csv is absent or has every student; returns how many are saved."""
    saved = 0
    for student in STUDENTS:
        path = out / "students" / student / "results.json"
        if path.exists():
            data = json.loads(path.read_text(encoding="utf-8"))
            assert data["extra_data"]["student"] == student and data["score"] == 1
            saved += 1
    gradebook = out / "grades.csv"
    if complete or gradebook.exists():
        text = gradebook.read_text(encoding="utf-8")
        assert text.endswith("\n")
        rows = list(csv.DictReader(text.splitlines()))
        assert [r["student"] for r in rows] == STUDENTS and all(r["status"] == "ok" for r in rows)
    return saved


def wait_for_no_children(tmp: Path) -> list[int]:
    deadline = time.monotonic() + 15
    while children_left(tmp) and time.monotonic() < deadline:
        time.sleep(0.1)
    return children_left(tmp)


@pytest.mark.skipif(not Path("/proc/self/cwd").exists(), reason="needs /proc to find left-over processes")
def test_interruptions_at_several_points_lose_nothing_and_a_rerun_completes(batch):
    tmp_path, command, env = batch
    out = tmp_path / "out"
    saved = 0
    for lines, sig in ((1, signal.SIGINT), (2, signal.SIGTERM), (1, signal.SIGKILL)):
        status, stdout, stderr = run_until(command, env, lines, sig)
        assert "Traceback" not in stderr, stderr
        if sig == signal.SIGKILL:
            assert status == -signal.SIGKILL
        else:
            assert status == 130 and "interrupted:" in stderr and "run the same command again" in stderr, stderr
        now = check_folder(out, complete=False)
        assert now >= saved + lines, (sig, now, saved)
        saved = now
        assert wait_for_no_children(tmp_path / "tmp") == []
    assert saved < len(STUDENTS)
    status, stdout, stderr = run_until(command, env, None, None)
    assert status == 0, stderr
    assert f"{saved} kept from an earlier run" in stdout
    assert check_folder(out, complete=True) == len(STUDENTS)


@pytest.mark.skipif(not Path("/proc/self/cwd").exists(), reason="needs /proc to find left-over processes")
def test_a_kill_while_the_gradebook_is_rewritten_leaves_the_old_or_the_new_one(batch):
    tmp_path, command, env = batch
    assert run_until(command, env, None, None)[0] == 0
    for delay in (0.0, 0.02, 0.05):
        process = subprocess.Popen([*command, "--force"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True, cwd=KIT_ROOT)
        lines = 0
        while lines < len(STUDENTS):  # the last student reported: the class files are being written
            line = process.stdout.readline()
            assert line, process.stderr.read()
            lines += line.startswith("[")
        time.sleep(delay)
        process.kill()
        process.communicate(timeout=60)
        check_folder(tmp_path / "out", complete=True)
        assert not [p for p in (tmp_path / "out").iterdir() if p.name == "grades.csv" and p.stat().st_size == 0]
    assert wait_for_no_children(tmp_path / "tmp") == []
