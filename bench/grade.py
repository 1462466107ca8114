"""Benchmark: `abkit grade` on a class of correct submissions, beside floors and a peer measured in the same run.

Every figure is measured here, on this machine, in this run:

- the bare interpreter floor: one system ``python3 -I -c pass`` per submission, ``-j`` at a time (the fastest
  system interpreter found outside the kit's virtual environment, named in the output; the venv's own start
  is slower, its editable install's ``.pth`` hook imports much of the standard library);
- the in-process floor: the searches of every test the grader runs for each student (the same test plan,
  ``abkit.grader.testplan``), run by the reference solutions in this one process the way the student's process runs
  them (``abkit.grader.runtest.run_test``; board positions counted; the played games move by move), without sandbox,
  pipes, JSON or files: the work no grader of these tests can avoid. Beside it, not in it: the reference's own
  searches on each student's random trees, which the grader needs too;
- the peer: the pytest file instructors usually write (``bench/peers/test_student.py``), one pytest process per
  student on the same tests (plugins not auto-loaded);
- abkit: ``grade_batch`` (every test, the reference comparison, each student's files, the gradebook), at
  ``-j 1`` and ``-j J``, with the CPU time a student costs this process and every process the batch started
  (``getrusage``: less moved by other work on the machine than the wall-clock figures).

Targets, on the tree exercises (minimax, alphabeta) at ``-j 2``: per student at ``-j 1`` at most 1.5x the
in-process floor; at most 3x the bare floor; at least 8x the pytest loop; ``-j J`` at least 0.8*J times ``-j 1``.
The five exercises are graded and reported too. ``--memory`` also grades 200 and 2,000 submissions and reports the
batch's peak resident memory (every process of it, sampled from /proc), which must not grow with the class.
``--profile DIR`` profiles one ``-j 1`` run instead (cProfile of this process, and of each student's process
through ``ABKIT_PROFILE_CHILD``) and prints where the time goes.

Run: python bench/grade.py [--students N] [-j J] [--memory] [--profile DIR]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from abkit.loading import KIT_ROOT, SOLUTIONS, load_module
from abkit.play import play_games
from abkit.tree import TreeGame
from abkit.grader.batch import grade_batch
from abkit.grader.runtest import BOARD_GAMES, answer, run_test
from abkit.grader.rubric import load_rubric
from abkit.grader.testplan import TestPlan
from timing import machine, system_pythons, timed  # bench/timing.py: run as python bench/<name>.py

TREE_EXERCISES = ("minimax", "alphabeta")
PEER = Path(__file__).resolve().parent / "peers" / "test_student.py"


def make_class(folder: Path, students: int, exercises) -> None:
    """``students`` correct submissions (the reference solutions, each file a little different)."""
    texts = {e: (SOLUTIONS / f"{e}.py").read_text(encoding="utf-8") for e in exercises}
    for k in range(students):
        student = folder / f"s{k:04d}"
        student.mkdir(parents=True)
        for exercise, text in texts.items():
            (student / f"{exercise}.py").write_text(f"# student {k}\n{text}", encoding="utf-8")


# -- the bare interpreter floor ---------------------------------------------------------------------------------

def start_time(python: str, repeat: int = 15) -> float:
    """The median wall time of ``python -I -c pass``."""
    return timed(lambda: subprocess.run([python, "-I", "-c", "pass"], check=True), repeat)[1]


def bare_floor(python: str, students: int, jobs: int) -> float:
    """Seconds to start and end one bare interpreter per student, ``jobs`` at a time."""
    start = time.perf_counter()
    with ThreadPoolExecutor(jobs) as pool:
        list(pool.map(lambda _: subprocess.run([python, "-I", "-c", "pass"], check=True), range(students)))
    return time.perf_counter() - start


# -- the in-process floor ---------------------------------------------------------------------------------------

def in_process_floor(rubric, students: int) -> tuple[float, float, int]:
    """Per student: (seconds of the searches its process must run, seconds of the reference's searches on its
    random trees, tests), the tests planned by the grader's own test plan and run here on the reference
    solutions (loaded once), the way ``abkit.grader.child`` runs them; each figure the mean over ``students``."""
    plan = TestPlan(rubric, 0)
    modules = {e: load_module(SOLUTIONS / f"{e}.py") for e in rubric.points}
    suites = [plan.tests_for(f"s{k:04d}") for k in range(students)]
    searches = reference = 0.0
    for suite in suites:
        start = time.perf_counter()
        for exercise, tests in suite.items():
            for test in tests:
                run_as_child(modules[exercise], test)
        middle = time.perf_counter()
        for tests in suite.values():
            for test in tests:
                if test.source == "random" and test.kind != "play":
                    plan.expected(test)
        searches += middle - start
        reference += time.perf_counter() - middle
    return searches / students, reference / students, sum(len(t) for t in suites[0].values())


def run_as_child(module, test) -> object:
    """What the student's process computes for ``test`` (``abkit.grader.serve.serve``), from the test itself."""
    if test.kind == "play":
        return play_games(lambda state: answer(module, test.message(state=state))["answer"], test.seed,
                          start=test.state)
    if test.kind == "orders":
        return answer(module, test.message())
    request = {"op": "call" if test.function else "search", "algorithm": test.algorithm, "state": test.state,
               "counts": test.tree is None, "depth": test.depth, "function": test.function,
               "window": list(test.window)}
    game = TreeGame(test.tree) if test.tree is not None else BOARD_GAMES[test.game]()
    return run_test(module, request, game)


# -- the peer: pytest once per student ----------------------------------------------------------------------------

def pytest_loop(folder: Path, jobs: int) -> tuple[float, int]:
    """Seconds to run the peer's pytest file once per student of ``folder``, ``jobs`` at a time; students whose
    run did not pass every test (0 on correct code)."""
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}

    def one(student: Path) -> int:
        proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(PEER)],
                              cwd=KIT_ROOT, env={**env, "ABKIT_PEER_STUDENT": str(student)}, capture_output=True)
        return proc.returncode

    start = time.perf_counter()
    with ThreadPoolExecutor(jobs) as pool:
        codes = list(pool.map(one, sorted(folder.iterdir())))
    return time.perf_counter() - start, sum(1 for c in codes if c != 0)


# -- abkit, and its memory ------------------------------------------------------------------------------------

class Sampler:
    """The peak resident memory of this process and all its descendants together (sampled from /proc)."""

    def __init__(self, every: float = 0.01) -> None:
        self.every, self.peak, self.stop = every, 0, threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def __enter__(self) -> "Sampler":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join()

    def run(self) -> None:
        page = os.sysconf("SC_PAGE_SIZE")
        while not self.stop.wait(self.every):
            self.peak = max(self.peak, sum(resident(pid) for pid in descendants(os.getpid())) * page)


def descendants(root: int) -> list[int]:
    """``root`` and every process below it (from each process's parent id in /proc)."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as stat:
                    ppid = int(stat.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            parents.setdefault(ppid, []).append(int(entry))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += parents.get(pid, [])
    return found


def resident(pid: int) -> int:
    """Resident pages of ``pid`` (0 once it has ended)."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as statm:
            return int(statm.read().split()[1])
    except (OSError, IndexError, ValueError):
        return 0


def grade(work: Path, name: str, students: int, jobs: int, rubric, sample: bool = False) -> dict:
    """Grade a fresh class of ``students``; seconds, students with full marks, tests each (and the peak memory)."""
    make_class(work / name, students, list(rubric.points))
    sampler = Sampler() if sample else None
    before = cpu_times()
    start = time.perf_counter()
    if sampler:
        with sampler:
            result = grade_batch(work / name, work / f"{name}-out", rubric, jobs=jobs)
    else:
        result = grade_batch(work / name, work / f"{name}-out", rubric, jobs=jobs)
    seconds = time.perf_counter() - start
    grader_cpu, other_cpu = (after - then for after, then in zip(cpu_times(), before))
    full = sum(1 for r in result.rows if r["score"] == r["extra_data"]["max_score"])
    tests = sum(len(r["tests"]) for r in result.rows) / len(result.rows)
    shutil.rmtree(work / name)
    shutil.rmtree(work / f"{name}-out")
    return {"seconds": seconds, "full": full, "tests": tests, "peak": sampler.peak if sampler else 0,
            "cpu": (grader_cpu / students, other_cpu / students)}


def cpu_times() -> tuple[float, float]:
    """CPU seconds (user + system) of this process, and of its ended children and theirs (the batch's workers,
    fork servers and students' processes, each counted once it has been reaped: all of them when the batch is over)."""
    import resource

    mine, theirs = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return mine.ru_utime + mine.ru_stime, theirs.ru_utime + theirs.ru_stime


# -- the report -------------------------------------------------------------------------------------------------

def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def classes(rubric) -> dict:
    return {"tree exercises (minimax, alphabeta)":
            dataclasses.replace(rubric, points={e: rubric.points[e] for e in TREE_EXERCISES}),
            f"all {len(rubric.points)} exercises": rubric}


def report_class(label: str, rubric, args, work: Path, python: str, peer: bool) -> tuple[bool, bool]:
    """Measure and print one class: its floors, the peer (``peer``), abkit at -j 1 and -j J; whether every
    submission had full marks, and whether every target was met."""
    n, jobs = args.students, args.jobs
    bare = [bare_floor(python, n, jobs)]
    searches, reference, tests = in_process_floor(rubric, min(n, 50))
    one = grade(work, "one", n, 1, rubric)
    many = grade(work, "many", n, jobs, rubric)
    bare.append(bare_floor(python, n, jobs))
    loop = pytest_loop(class_folder(work, n, rubric), jobs) if peer else None
    rate1, rate = n / one["seconds"], n / many["seconds"]
    per_student = one["seconds"] / n
    floor_rate = n / statistics.mean(bare)
    ok = one["full"] == many["full"] == n
    print(f"\n{label}: {n} correct submissions, {tests} tests each (abkit counted {many['tests']:.0f})")
    print(f"  bare floor ({python} -I -c pass per submission, -j {jobs}): "
          f"{' and '.join(f'{n / b:.0f}' for b in bare)}/s before and after; mean {floor_rate:.0f}/s")
    print(f"  in-process floor (the tests' searches on the reference solutions, one process, no sandbox, IPC or "
          f"files): {searches * 1000:.1f} ms/student = {1 / searches:.0f}/s")
    print(f"    (besides: the reference's searches on each student's random trees: {reference * 1000:.1f} ms/student)")
    targets = [per_student / searches <= 1.5, floor_rate / rate <= 3, rate / rate1 >= 0.8 * jobs]
    print(f"  abkit -j 1: {one['seconds']:6.2f} s = {rate1:6.1f}/s = {per_student * 1000:5.1f} ms/student = "
          f"{per_student / searches:.2f}x the in-process floor (target <= 1.5x: {verdict(targets[0])})")
    for setting, run in (("-j 1", one), (f"-j {jobs}", many)):
        print(f"    CPU a student at {setting}: this process {run['cpu'][0] * 1000:.1f} ms, the workers, fork servers "
              f"and students' processes {run['cpu'][1] * 1000:.1f} ms")
    print(f"  abkit -j {jobs}: {many['seconds']:6.2f} s = {rate:6.1f}/s = {floor_rate / rate:.2f}x the bare floor "
          f"(target <= 3x: {verdict(targets[1])})")
    print(f"  scaling -j 1 -> -j {jobs}: {rate / rate1:.2f}x = {rate / rate1 / jobs:.2f}*N "
          f"(target >= 0.8*N: {verdict(targets[2])})")
    if loop is not None:
        seconds, failing = loop
        ok &= failing == 0
        targets.append(rate / (n / seconds) >= 8)
        print(f"  peer: pytest once per student (bench/peers/test_student.py, -j {jobs}): {seconds:6.2f} s = "
              f"{n / seconds:5.1f}/s; abkit is {rate / (n / seconds):.1f}x faster (target >= 8x: "
              f"{verdict(targets[-1])}){f'; {failing} runs FAILED' if failing else ''}")
    return ok, all(targets)


def class_folder(work: Path, students: int, rubric) -> Path:
    folder = work / "peer-class"
    shutil.rmtree(folder, ignore_errors=True)
    make_class(folder, students, list(rubric.points))
    return folder


def report_memory(rubric, args, work: Path) -> bool:
    """Grade 200 and 2,000 submissions at -j J and print the batch's peak resident memory; whether it stays flat
    (the larger class within 10 % + 20 MiB of the smaller's)."""
    peaks = {}
    for n in (200, 2000):
        result = grade(work, f"mem{n}", n, args.jobs, rubric, sample=True)
        peaks[n] = result["peak"]
        print(f"  {n:5} submissions, -j {args.jobs}: {result['seconds']:6.1f} s, peak resident memory of the batch "
              f"(every process, summed) {result['peak'] / 2 ** 20:6.1f} MiB")
    flat = peaks[2000] <= peaks[200] * 1.1 + 20 * 2 ** 20
    print(f"  2,000 vs 200: {peaks[2000] / peaks[200]:.2f}x (target: flat: {verdict(flat)})")
    return flat


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--jobs", "-j", type=int, default=2)
    parser.add_argument("--memory", action="store_true", help="also grade 200 and 2,000 submissions for memory")
    parser.add_argument("--profile", type=Path, help="profile one -j 1 run into this folder instead")
    args = parser.parse_args()
    rubric = load_rubric()
    if args.profile:
        return profile(args, classes(rubric)["tree exercises (minimax, alphabeta)"])
    pythons = {p: start_time(p) for p in system_pythons()}
    python = min(pythons, key=pythons.get)
    print(f"machine: {machine()}")
    print("system interpreters (median start, -I -c pass): "
          + ", ".join(f"{p} {s * 1000:.1f} ms" for p, s in pythons.items()) + f"; the floor uses {python}")
    work = Path(tempfile.mkdtemp(prefix="abkit-bench-"))
    try:
        ok = True
        for k, (label, class_rubric) in enumerate(classes(rubric).items()):
            full, met = report_class(label, class_rubric, args, work, python, peer=k == 0)
            ok &= full and (met or k > 0)  # the targets are the tree exercises'; every class must get full marks
        if args.memory:
            print("\nmemory (tree exercises):")
            ok &= report_memory(classes(rubric)["tree exercises (minimax, alphabeta)"], args, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if ok else 1


def profile(args, rubric) -> int:
    """One -j 1 run under cProfile (this process), each student's process profiled through ABKIT_PROFILE_CHILD;
    the top functions of both."""
    import cProfile
    import pstats

    from abkit.grader.sandbox import PROFILE_CHILD

    folder = args.profile.resolve()
    shutil.rmtree(folder, ignore_errors=True)
    (folder / "children").mkdir(parents=True)
    work = Path(tempfile.mkdtemp(prefix="abkit-bench-"))
    os.environ[PROFILE_CHILD] = str(folder / "children")
    try:
        make_class(work / "class", args.students, list(rubric.points))
        cProfile.runctx("grade_batch(work / 'class', work / 'out', rubric, jobs=1)", globals(),
                        {"work": work, "rubric": rubric}, str(folder / "parent.prof"))
    finally:
        del os.environ[PROFILE_CHILD]
        shutil.rmtree(work, ignore_errors=True)
    for name, files in (("the grader (this process)", [folder / "parent.prof"]),
                        ("the students' processes", sorted((folder / "children").glob("*.prof")))):
        print(f"\n== {name}: {len(files)} profile(s), top functions by own time ==")
        pstats.Stats(*map(str, files), stream=sys.stdout).strip_dirs().sort_stats("tottime").print_stats(25)
    return 0


if __name__ == "__main__":
    sys.exit(main())
