"""Benchmark: ``abkit check`` as a student types it, beside the bare interpreter start measured in the same run.

What is measured, each the median of REPEAT fresh processes (run round-robin, every command once per round, so the
machine's load falls on all alike), after one warm-up run each:

- floors: ``python3 -I -c pass`` of every system interpreter outside this virtual environment (its base
  interpreter, /usr/bin's, ...): the floor is the fastest, so no ratio flatters (an interpreter whose site-packages
  runs a slow ``.pth`` is listed with its hooks, not used); and each virtual environment's interpreter (what its
  editable install's ``.pth`` costs every start).
- the kit, a clone installed with ``pip install -e ".[test]"`` (this virtual environment): its console script
  ``abkit``, in a course folder copied from the kit (exercises, fixtures with the hidden ones, marker).
- the student edition (``abkit release student``) installed as its README says (``pip install -e ".[test]"`` in a
  virtual environment of its own): its console script, in the edition's folder.

Each in three states of the student's files: the fresh stubs; working on alphabeta (minimax solved, alphabeta
pruning only on a strict inequality at MIN: some tests fail and the first failure's tree is drawn); all solved
(every public test runs, the played games too: the most a check does). ``abkit check EXERCISE`` is
``abkit check alphabeta``. Bytecode and the kit's cache (abkit/cache.py, here in a folder of the benchmark's own)
are as on a student's machine after the first check: ``PYTHONDONTWRITEBYTECODE`` is unset for the commands, and
the warm-up run fills both; one row shows the check with the cache turned off. Target: ``abkit check EXERCISE`` at
most 6x the floor.
Run: python bench/check.py [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from abkit.loading import EXERCISES, KIT_ROOT, SOLUTIONS
from timing import machine, site_hooks, system_pythons  # bench/timing.py: run as python bench/<name>.py

TARGET = 6
EXERCISE = "alphabeta"
#: a classic mistake: MIN prunes only when v < alpha (the CS188 rule), so the AIMA rule's ties are not cut
MISTAKE = ("        if v < alpha or (v == alpha and PRUNE_ON_EQUALITY):\n", "        if v < alpha:\n")
STATES = ("fresh stubs", "working on alphabeta", "all solved")
#: what each state's ``abkit check`` says: its exit status and the progress line (the benchmark checks the real thing)
SAYS = {"fresh stubs": (1, "Progress: 0/5"), "working on alphabeta": (1, "Progress: 1/5"),
        "all solved": (0, "Progress: 5/5")}
#: one re-check of a running ``abkit watch`` after a save: the same process checks again (timed inside it)
WATCH = ("import sys, time; from abkit.studentloop.report import check; check(None, sys.argv[1], 'en'); "
         "t = time.perf_counter(); check(None, sys.argv[1], 'en'); print(time.perf_counter() - t)")


@dataclass
class Command:
    """One command line to time: ``argv`` run in ``cwd``; ``status`` and ``says`` check what it did."""

    label: str
    argv: list[str]
    cwd: Path
    status: int = 0
    says: str = ""
    env: dict[str, str] = field(default_factory=dict)
    inner: bool = False  # the command prints its own time (seconds) on its last line
    times: list[float] = field(default_factory=list)

    def run(self, base: dict[str, str]) -> float:
        start = time.perf_counter()
        proc = subprocess.run(self.argv, cwd=self.cwd, capture_output=True, env={**base, **self.env})
        wall = time.perf_counter() - start
        out = proc.stdout.decode("utf-8", "replace")
        if proc.returncode != self.status or self.says not in out:
            raise SystemExit(f"{self.label}: exit {proc.returncode}, expected {self.status} and {self.says!r}:\n"
                             f"{out[-2000:]}{proc.stderr.decode('utf-8', 'replace')[-2000:]}")
        return float(out.split()[-1]) if self.inner else wall

    @property
    def median(self) -> float:
        return statistics.median(self.times)


def student_files(state: str) -> dict[str, str]:
    """The student's exercise files in ``state`` (name -> text)."""
    stubs = {p.name: p.read_text(encoding="utf-8") for p in EXERCISES.glob("*.py") if p.name != "conftest.py"}
    solved = {name: (SOLUTIONS / name).read_text(encoding="utf-8") for name in stubs}
    if state == "fresh stubs":
        return stubs
    if state == "all solved":
        return solved
    wrong = solved["alphabeta.py"].replace(*MISTAKE)
    assert wrong != solved["alphabeta.py"], "the mistake's line is no longer in solutions/alphabeta.py"
    return {**stubs, "minimax.py": solved["minimax.py"], "alphabeta.py": wrong}


def kit_course(work: Path, state: str) -> Path:
    """A course folder copied from the kit (as a clone is one), with the student's files in ``state``."""
    folder = work / f"kit-{state.replace(' ', '-')}"
    shutil.copytree(KIT_ROOT / "exercises", folder / "exercises", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(KIT_ROOT / "fixtures", folder / "fixtures")
    shutil.copy(KIT_ROOT / "abkit-course.toml", folder)
    for name, text in student_files(state).items():
        (folder / "exercises" / name).write_text(text, encoding="utf-8")
    return folder


#: how a student may install the edition: as its README says (an editable install, whose ``.pth`` runs setuptools'
#: import finder at every start), an editable install with a plain path ``.pth``, and a copy (not editable)
MODES = {"-e": ["-e", ".[test]"], "-e compat": ["-e", ".[test]", "--config-settings", "editable_mode=compat"],
         "copy": [".[test]"]}


def edition(work: Path) -> dict[str, Path]:
    """The student edition in each state (``abkit release student``; the student's files as the state has them)."""
    from abkit.coursefolder import use_course
    from abkit.authoring.release import build_student_edition

    use_course(KIT_ROOT)
    first = work / "edition"
    build_student_edition(first)
    folders = {}
    for state in STATES:
        folder = first if state == STATES[0] else work / f"edition-{state.replace(' ', '-')}"
        if folder != first:
            shutil.copytree(first, folder)
        for name, text in student_files(state).items():
            (folder / "exercises" / name).write_text(text, encoding="utf-8")
        folders[state] = folder
    return folders


def install(work: Path, folder: Path, mode: str, base: dict[str, str]) -> Path:
    """The edition at ``folder`` installed into a new virtual environment (``mode``: one of :data:`MODES`); its
    ``abkit``."""
    venv = work / f"venv {mode}"
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    pip = [venv / "bin" / "python", "-m", "pip", "install", "-q", "--disable-pip-version-check", *MODES[mode]]
    proc = subprocess.run(pip, cwd=folder, capture_output=True, text=True, env=base)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(map(str, pip))} in the edition failed:\n{proc.stdout}{proc.stderr}")
    return venv / "bin" / "abkit"


def install_commands(where: str, abkit: Path, folders: dict[str, Path]) -> list[Command]:
    """What a student types, in each state, with the console script ``abkit`` of one install."""
    commands = []
    for state in STATES:
        commands.append(Command(f"{where}|check {EXERCISE}|{state}", [str(abkit), "check", EXERCISE], folders[state],
                                *SAYS[state]))
    stubs, working = folders[STATES[0]], folders[STATES[1]]
    commands += [
        Command(f"{where}|check|fresh stubs", [str(abkit), "check"], stubs, *SAYS["fresh stubs"]),
        Command(f"{where}|check {EXERCISE}, cache off|working on alphabeta", [str(abkit), "check", EXERCISE], working,
                1, "Progress: 1/5", env={"ABKIT_CACHE_DIR": "off"}),
        Command(f"{where}|hint|fresh stubs", [str(abkit), "hint"], stubs, 0, "minimax"),
        Command(f"{where}|trace aima-fig-5-2|fresh stubs", [str(abkit), "trace", "fixtures/public/aima-fig-5-2.yaml"],
                stubs, 0, "value 3 · action B"),
        Command(f"{where}|watch: a re-check after a save|working on alphabeta",
                [str(abkit.parent / "python"), "-P", "-c", WATCH, EXERCISE], working, inner=True),
        Command(f"{where}|--version|", [str(abkit), "--version"], stubs, 0, "abkit "),
    ]
    return commands


def measure(commands: list[Command], repeat: int, base: dict[str, str]) -> None:
    """Warm each command up once, then time every command once per round, ``repeat`` rounds."""
    for command in commands:
        command.run(base)
    for _ in range(repeat):
        for command in commands:
            command.times.append(command.run(base))


def report(floors: list[Command], venvs: list[Command], commands: list[Command]) -> bool:
    """Print the floors, every command beside the floor, and whether ``abkit check EXERCISE`` meets the target."""
    floor = min(floors, key=lambda c: c.median)
    print("interpreter starts, -I -c pass (the floor is the fastest bare start; .pth files its site runs in brackets):")
    for c in floors + venvs:
        hooks = ", ".join(dict.fromkeys(site_hooks(c.argv[0]))) or "none"
        mark = "  <- the floor" if c is floor else f" = {c.median / floor.median:.1f}x"
        print(f"  {c.label:62} {c.median * 1000:6.1f} ms{mark}  [{hooks}]")
    wheres = list(dict.fromkeys(c.label.split("|")[0] for c in commands))
    print(f"\n{'':61}" + "".join(f"{w:>22}" for w in wheres))
    rows = list(dict.fromkeys("|".join(c.label.split("|")[1:]) for c in commands))
    met = True
    for row in rows:
        cells = []
        for where in wheres:
            c = next((c for c in commands if c.label == f"{where}|{row}"), None)
            if c is None:
                cells.append("")
                continue
            ratio = c.median / floor.median
            judged = row.startswith(f"check {EXERCISE}|")
            met &= not judged or ratio <= TARGET
            cells.append(f"{c.median * 1000:7.1f} ms {ratio:5.1f}x{' *' if judged else '  '}")
        name, state = row.split("|")
        print(f"  abkit {name:30} {state:21} " + "".join(f"{cell:>22}" for cell in cells))
    verdict = "met" if met else "MISSED"
    print(f"\n* abkit check {EXERCISE}: target <= {TARGET}x the floor ({TARGET * floor.median * 1000:.1f} ms) in every "
          f"state and install: {verdict}")
    return met


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15, help="runs per command (the median is shown)")
    parser.add_argument("--installs", action="store_true",
                        help="also the edition installed with a plain path .pth (editable_mode=compat) and as a copy")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="abkit-bench-check-"))
    base = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "COVERAGE_PROCESS_START")}
    base.update(ABKIT_LANG="en", ABKIT_CACHE_DIR=str(work / "cache"))
    try:
        print(f"machine: {machine()}")
        floors = [Command(f"{p} ({_version(p)})", [p, "-I", "-c", "pass"], work) for p in system_pythons()]
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", work / "empty"], check=True)
        floors.append(Command("the base interpreter in an empty virtual environment", [str(work / "empty" / "bin" /
                                                                                             "python"), "-I", "-c", "pass"], work))
        folders = edition(work)
        installed = {mode: install(work, folders[STATES[0]], mode, base) for mode in MODES
                     if args.installs or mode == "-e"}
        kit_abkit = Path(sys.executable).parent / "abkit"
        venvs = [Command("the kit's virtual environment (-e)", [sys.executable, "-I", "-c", "pass"], work)]
        venvs += [Command(f"the edition's virtual environment ({mode})", [str(abkit.parent / "python"), "-I", "-c",
                                                                          "pass"], work) for mode, abkit in installed.items()]
        commands = install_commands("the kit (-e)", kit_abkit, {s: kit_course(work, s) for s in STATES})
        commands += install_commands("student edition (-e)", installed["-e"], folders)
        for mode in (m for m in installed if m != "-e"):
            commands += [c for c in install_commands(f"edition ({mode})", installed[mode], folders)
                         if c.label.split("|")[1] in (f"check {EXERCISE}", "--version")]
        measure(floors + venvs + commands, args.repeat, base)
        print(f"median of {args.repeat} runs each, round-robin; every student command is an installed console script "
              f"`abkit`, run in a course folder")
        return 0 if report(floors, venvs, commands) else 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _version(python: str) -> str:
    return subprocess.run([python, "-I", "-c", "import platform; print(platform.python_version())"],
                          capture_output=True, text=True).stdout.strip()


if __name__ == "__main__":
    sys.exit(main())
