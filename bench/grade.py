"""Benchmark: grade 200 synthetic correct submissions with -j 2 (targets: >= 10 submissions/s, within 3x of the floor).

The floor is measured in the same run, before and after the graded runs (their
mean is the floor): starting one bare interpreter (``python -c pass``) per
submission, two at a time, which is the least any grader that runs each student
in their own process can cost. The graded run is the real thing: every test,
the reference comparison, the per-student files, the gradebook and the summary.
Two classes are graded, each beside the same floor: the two tree exercises
(minimax, alphabeta: what the kit had when the targets were set) and all five
(with the tic-tac-toe positions and played games).
Run: python bench/grade.py [--students N] [--jobs J]
"""

from __future__ import annotations

import argparse
import dataclasses
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from abkit.loading import SOLUTIONS
from grader.batch import grade_batch
from grader.rubric import load_rubric


TREE_EXERCISES = ("minimax", "alphabeta")


def make_class(folder: Path, students: int, exercises) -> None:
    """``students`` correct submissions (the reference solutions, each file a little different)."""
    for k in range(students):
        student = folder / f"s{k:04d}"
        student.mkdir(parents=True)
        for name in (f"{e}.py" for e in exercises):
            text = (SOLUTIONS / name).read_text(encoding="utf-8")
            (student / name).write_text(f"# student {k}\n{text}", encoding="utf-8")


def floor(students: int, jobs: int) -> float:
    """Seconds to start and end one bare interpreter per student, ``jobs`` at a time."""
    start = time.perf_counter()
    with ThreadPoolExecutor(jobs) as pool:
        list(pool.map(lambda _: subprocess.run([sys.executable, "-c", "pass"], check=True), range(students)))
    return time.perf_counter() - start


def run(work: Path, name: str, students: int, jobs: int, rubric) -> tuple[float, int, float]:
    """Grade a fresh class of the rubric's exercises; (seconds, students with full marks, tests each)."""
    make_class(work / name, students, list(rubric.points))
    start = time.perf_counter()
    result = grade_batch(work / name, work / f"{name}-out", rubric, jobs=jobs)
    graded = time.perf_counter() - start
    full = sum(1 for r in result.rows if r["score"] == r["extra_data"]["max_score"])
    return graded, full, sum(len(r["tests"]) for r in result.rows) / len(result.rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--jobs", "-j", type=int, default=2)
    args = parser.parse_args()
    rubric = load_rubric()
    classes = {"tree exercises (minimax, alphabeta)":
               dataclasses.replace(rubric, points={e: rubric.points[e] for e in TREE_EXERCISES}),
               f"all {len(rubric.points)} exercises": rubric}
    work = Path(tempfile.mkdtemp(prefix="abkit-bench-"))
    ok = True
    try:
        graded = {}
        bare = [floor(args.students, args.jobs)]  # before the graded runs, and after: the machine's noise shows
        for k, (label, class_rubric) in enumerate(classes.items()):
            graded[label] = run(work, f"class{k}", args.students, args.jobs, class_rubric)
        bare.append(floor(args.students, args.jobs))
        floor_rate = args.students / statistics.mean(bare)
        print(f"floor (one bare interpreter per submission, -j {args.jobs}): "
              f"{' and '.join(f'{args.students / b:.1f}' for b in bare)} submissions/s before and after "
              f"the graded runs; mean {floor_rate:.1f}/s")
        for label, (seconds, full, tests) in graded.items():
            rate = args.students / seconds
            ok &= full == args.students
            print(f"{label}: {args.students} correct submissions, {tests:.0f} tests each, full marks: {full}")
            print(f"  abkit grade: {seconds:6.2f} s  {rate:7.1f} submissions/s  = {floor_rate / rate:.2f}x the floor "
                  f"(targets: >= 10/s {'met' if rate >= 10 else 'NOT met'}, <= 3x "
                  f"{'met' if floor_rate / rate <= 3 else 'NOT met'})")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
