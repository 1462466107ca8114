"""Benchmark: wall time of ``abkit check`` on every public test of every exercise (correct code).

Beside it, in the same run: a bare ``python -c pass`` (the floor every command
pays). Measured twice: the full kit (``python -m grader check --exercises DIR``,
every command registered) and the student edition written by ``abkit release``
(only check/hint/watch), which is what students run. Each figure is the median of
REPEAT runs of a fresh process. Targets: <= 1 s and <= 10x the bare interpreter. On correct code the
check runs every test (each exercise's status must be true); the tests are counted from ``check --all``.
Run: python bench/check.py
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from abkit.loading import EXERCISES, SOLUTIONS
from abkit.info import load_info
from authoring.release import build_student_edition

REPEAT = 9
NAMES = tuple(e.file for e in load_info(EXERCISES / "info.yaml").exercises)


def median_wall(command: list[str], cwd: Path, expect: int = 0) -> float:
    env = {**os.environ, "ABKIT_LANG": "en"}
    times = []
    for _ in range(REPEAT):
        start = time.perf_counter()
        proc = subprocess.run(command, cwd=cwd, capture_output=True, env=env)
        times.append(time.perf_counter() - start)
        assert proc.returncode == expect, proc.stdout.decode() + proc.stderr.decode()
    return statistics.median(times)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        correct = tmp / "correct"
        correct.mkdir()
        for name in NAMES:
            shutil.copy(SOLUTIONS / name, correct / name)
        edition = tmp / "edition"
        build_student_edition(edition)
        for name in NAMES:
            shutil.copy(SOLUTIONS / name, edition / "exercises" / name)
        kit = Path(__file__).resolve().parents[1]
        out = subprocess.run([sys.executable, "-m", "grader", "check", "--all", "--exercises", str(correct)], cwd=kit,
                             capture_output=True, text=True, encoding="utf-8").stdout
        tests = sum(line.startswith(("✓", "ok ")) for line in out.splitlines())
        bare = median_wall([sys.executable, "-c", "pass"], tmp)
        full = median_wall([sys.executable, "-m", "grader", "check", "--exercises", str(correct)], kit)
        student = median_wall([sys.executable, "-m", "grader", "check"], edition)
    print(f"public tests run by one check: {tests} ({len(NAMES)} exercises, correct code); median of {REPEAT} runs each")
    print(f"bare python -c pass:                      {bare * 1000:7.1f} ms")
    for label, wall in (("abkit check, full kit", full), ("abkit check, student edition", student)):
        verdict = "met" if wall <= 1 and wall <= 10 * bare else "MISSED"
        print(f"{label + ':':41} {wall * 1000:7.1f} ms = {wall / bare:4.1f}x bare   (target <= 1 s and <= 10x: {verdict})")


if __name__ == "__main__":
    main()
