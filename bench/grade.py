"""Benchmark: grade 200 synthetic correct submissions with -j 2 (targets: >= 10 submissions/s, within 3x of the floor).

The floor is measured in the same run: starting one bare interpreter
(``python -c pass``) per submission, two at a time, which is the least any
grader that runs each student in their own process can cost. The graded run is
the real thing: every test of both exercises, the reference comparison, the
per-student files, the gradebook and the summary.
Run: python bench/grade.py [--students N] [--jobs J]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from abkit.loading import SOLUTIONS
from grader.batch import grade_batch
from grader.rubric import load_rubric


def make_class(folder: Path, students: int) -> None:
    """``students`` correct submissions (the reference solutions, each file a little different)."""
    for k in range(students):
        student = folder / f"s{k:04d}"
        student.mkdir(parents=True)
        for name in ("alphabeta.py", "minimax.py"):
            text = (SOLUTIONS / name).read_text(encoding="utf-8")
            (student / name).write_text(f"# student {k}\n{text}", encoding="utf-8")


def floor(students: int, jobs: int) -> float:
    """Seconds to start and end one bare interpreter per student, ``jobs`` at a time."""
    start = time.perf_counter()
    with ThreadPoolExecutor(jobs) as pool:
        list(pool.map(lambda _: subprocess.run([sys.executable, "-c", "pass"], check=True), range(students)))
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--jobs", "-j", type=int, default=2)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="abkit-bench-"))
    try:
        make_class(work / "class", args.students)
        bare = floor(args.students, args.jobs)
        start = time.perf_counter()
        result = grade_batch(work / "class", work / "out", load_rubric(), jobs=args.jobs)
        graded = time.perf_counter() - start
    finally:
        shutil.rmtree(work, ignore_errors=True)
    full = sum(1 for r in result.rows if r["score"] == r["extra_data"]["max_score"])
    rate, floor_rate = args.students / graded, args.students / bare
    tests = sum(len(r["tests"]) for r in result.rows) / len(result.rows)
    print(f"{args.students} correct submissions, -j {args.jobs}, {tests:.0f} tests each; full marks: {full}")
    print(f"floor (one bare interpreter per submission): {bare:6.2f} s  {floor_rate:7.1f} submissions/s")
    print(f"abkit grade:                                 {graded:6.2f} s  {rate:7.1f} submissions/s")
    print(f"ratio to the floor: {floor_rate / rate:.2f}x (target <= 3x); target >= 10 submissions/s: "
          f"{'met' if rate >= 10 else 'NOT met'}")
    return 0 if full == args.students else 1


if __name__ == "__main__":
    sys.exit(main())
