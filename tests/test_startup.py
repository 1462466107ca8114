"""What a command imports: nothing it does not use (issue 19: ``abkit check`` at the speed of a keystroke).

Each command line runs twice in a fresh interpreter (the first fills the kit's cache); the second's imports are
compared with what the command needs. The speed itself is measured by ``bench/check.py``, not here.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from abkit.loading import KIT_ROOT, SOLUTIONS
from abkit.cli.groups import commands
from abkit.cli.main import named_command

pytestmark = pytest.mark.slow  # every test here starts the command line in a new process and watches what it imports

COMMANDS = commands()

#: run the command line given as arguments; print the modules it imported (those of the interpreter's start and
#: of a coverage run's measuring are left out: they were there before)
PROBE = """\
import contextlib, io, sys
before = set(sys.modules)
from abkit.cli.main import main
with contextlib.redirect_stdout(io.StringIO()):
    try:
        status = main(sys.argv[1:])
    except SystemExit as exit:  # --version, --help
        status = exit.code
modules = sorted(set(sys.modules) - before)
import json
print(json.dumps({"status": status, "modules": modules}))
"""
#: what none of the student's commands below uses: YAML (read through the cache), the other subjects' modules,
#: the instructor's pipeline, the handouts, authoring, and the standard library's heavier modules (``pickle``: the
#: cache loads through its accelerator ``_pickle``)
NEVER = ("yaml", "jinja2", "typst", "abkit.fixtureread", "abkit.yamlsafe", "abkit.randomtree", "abkit.reference",
         "abkit.cli.instructor.grade", "abkit.cli.student.trace", "abkit.cli.course.fixtures", "abkit.cli.instructor.handouts",
         "abkit.grader.sandbox", "abkit.grader.batch", "abkit.grader.testplan", "abkit.grader.mistakes", "abkit.handouts",
         "abkit.authoring", "abkit.stepthrough", "shutil", "tempfile", "subprocess", "hashlib", "json", "multiprocessing", "zipfile", "locale",
         "pickle")

#: what a command that runs a student's exercise adds: the wire to the exercise's child process (JSON bodies, their
#: HMAC: abkit/wire.py), imported when the first child starts
WIRE = ("json", "hashlib")
#: run the command line given as arguments; print the exercises whose child process it started
STARTS = """\
import contextlib, io, json, sys
from abkit.studentloop import isolated
started = []
start = isolated.Isolated._start
def recorded(self):
    started.append(self.exercise.name)
    start(self)
isolated.Isolated._start = recorded
from abkit.cli.main import main
with contextlib.redirect_stdout(io.StringIO()):
    main(sys.argv[1:])
print(json.dumps(started))
"""


def imported(*args: str, cwd=KIT_ROOT) -> set[str]:
    """The modules ``abkit ARGS`` imports on its second run (the cache filled by the first)."""
    for _ in range(2):
        proc = subprocess.run([sys.executable, "-c", PROBE, *map(str, args)], cwd=cwd, capture_output=True, text=True,
                              encoding="utf-8", timeout=120, env={**os.environ, "ABKIT_LANG": "en"})
        assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout.splitlines()[-1])
    return set(report["modules"])


@pytest.fixture(scope="module")
def correct(tmp_path_factory):
    """The reference solutions as a student's finished exercises."""
    folder = tmp_path_factory.mktemp("correct")
    for path in SOLUTIONS.glob("*.py"):
        shutil.copy(path, folder / path.name)
    return folder


@pytest.mark.parametrize("args", [("check", "alphabeta"), ("check",), ("hint",), ("--version",)],
                         ids=lambda a: " ".join(a))
def test_a_student_command_imports_nothing_it_does_not_use(args, correct):
    modules = imported(*args, "--exercises", correct) if args[0] != "--version" else imported(*args)
    wire = WIRE if args in (("check", "alphabeta"), ("hint",)) else ()  # these run an exercise in a child process
    unused = sorted(m for m in modules if (m.split(".")[0] in NEVER or m in NEVER or
                                           any(m.startswith(f"{n}.") for n in NEVER)) and m.split(".")[0] not in wire)
    assert not unused, unused
    assert set(COMMANDS.values()) & modules <= {COMMANDS.get(args[0])}


@pytest.mark.parametrize("args", [("check", "alphabeta"), ("check",)], ids=lambda a: " ".join(a))
def test_a_plain_check_imports_no_argument_parser(args):
    """``abkit check [EXERCISE]`` without options (in the kit's course: the exercises' stubs) builds no parser."""
    proc = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=KIT_ROOT, capture_output=True, text=True,
                          encoding="utf-8", timeout=120, env={**os.environ, "ABKIT_LANG": "en"})
    report = json.loads(proc.stdout.splitlines()[-1])
    assert report["status"] == 1 and not {"argparse", "gettext", "abkit.cli.arguments"} & set(report["modules"])
    assert {"argparse", "abkit.cli.arguments"} <= imported(*args, "--all")


@pytest.mark.parametrize("argv, named", [
    (["check"], "check"), (["check", "alphabeta"], "check"), (["--lang", "ko", "check"], "check"),
    (["--lang=ko", "hint", "2"], "hint"), (["--cou", "DIR", "grade", "x"], "grade"), (["--course", "check", "trace"],
                                                                                    "trace"),
    (["--", "watch"], "watch"), (["--version"], ""), (["-h"], ""), ([], ""), (["nosuch", "check"], ""),
    (["--lang"], ""), (["--la", "en", "--co", "D", "pack"], "pack"), (["--verb", "check"], "check"),
])
def test_the_subject_is_read_from_the_command_line_as_argparse_reads_it(argv, named):
    assert named_command(argv) == named


def test_help_and_usage_errors_list_every_subject(abkit):
    run = abkit("--help", "--lang", "en")
    assert run.status == 0 and all(c in run.out for c in COMMANDS)
    run = abkit("nosuch", "--lang", "en")
    assert run.status == 2 and "has no command 'nosuch'" in run.err and all(c in run.err for c in COMMANDS)
    assert abkit("--lang", "en").status == 2


@pytest.mark.parametrize("args, loaded", [(("check", "alphabeta"), {"alphabeta"}), (("check",), set()),
                                          (("check", "--all"), {"minimax", "alphabeta", "alphabeta_cutoff",
                                                                "expectimax", "ordering"})],
                         ids=lambda a: " ".join(a) if isinstance(a, tuple) else "")
def test_a_check_of_unchanged_files_runs_only_the_exercises_it_shows_in_full(args, loaded, correct):
    """The one-line statuses and the progress line come from the first run's cache entry: the second starts a
    child process (which loads and runs the student's file) only for the exercises it shows in full (none when
    every exercise passes)."""
    for _ in range(2):
        proc = subprocess.run([sys.executable, "-c", STARTS, *args, "--exercises", str(correct)], cwd=KIT_ROOT,
                              capture_output=True, text=True, encoding="utf-8", timeout=120,
                              env={**os.environ, "ABKIT_LANG": "en"})
        assert proc.returncode == 0, proc.stderr
    assert set(json.loads(proc.stdout.splitlines()[-1])) == loaded


def test_a_check_of_passing_code_imports_no_traceback_formatting(correct):
    modules = imported("check", "alphabeta", "--exercises", correct)
    assert "traceback" not in modules


#: the console script run as a student's terminal runs it: nothing measures it (coverage's variables left out)
SCRIPT = [sys.executable, "-c", "from abkit.cli.main import script; script()"]


def _unmeasured() -> dict:
    return {k: v for k, v in os.environ.items() if not k.startswith("COVERAGE_")}


@pytest.mark.parametrize("args, status, says", [
    (["--version"], 0, "abkit "), (["check", "--lang", "en"], 2, "abkit init DIR"),
    (["trace", "fixtures/public/aima-fig-5-2.yaml", "--lang", "en"], 0, "value 3 · action B")])
def test_the_console_script_leaves_at_once_with_its_output_and_status(tmp_path, args, status, says):
    """``abkit`` ends without the interpreter's teardown: everything it printed arrives, with its status, whether
    its output is a pipe or a file."""
    cwd = tmp_path if args[0] == "check" else KIT_ROOT  # check outside a course: a message and status 2
    run = subprocess.run(SCRIPT + args, cwd=cwd, env=_unmeasured(), capture_output=True, text=True)
    assert run.returncode == status and says in run.stdout + run.stderr
    with open(tmp_path / "out.txt", "w") as out:
        ran = subprocess.run(SCRIPT + args, cwd=cwd, env=_unmeasured(), stdout=out, stderr=subprocess.STDOUT)
    assert ran.returncode == status
    assert (tmp_path / "out.txt").read_text(encoding="utf-8") == run.stdout + run.stderr


def test_the_console_script_stops_quietly_when_its_reader_goes_away():
    """``abkit trace FILE | head -1``: the reader leaves; the command stops without a traceback."""
    proc = subprocess.Popen(SCRIPT + ["trace", "fixtures/public/aima-fig-5-2.yaml", "--lang", "en"], cwd=KIT_ROOT,
                            env=_unmeasured(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # gone before it writes a line
    assert proc.wait(timeout=60) in (0, 1) and b"Traceback" not in proc.stderr.read()


@pytest.mark.parametrize("lang, other", [("en", "ko"), ("ko", "en")])
def test_a_check_reads_the_catalogue_of_its_language_only(lang, other, correct, monkeypatch):
    from abkit import i18n
    from abkit.studentloop.report import check

    monkeypatch.setattr(i18n, "catalogue", read := _counting(i18n.catalogue))
    lines, ok = check(correct, "alphabeta", lang)
    assert ok and lines and other not in read.langs, read.langs


def _counting(catalogue):
    """``catalogue`` (uncached), noting each language asked for."""
    def read(lang: str) -> dict:
        read.langs.add(lang)
        return catalogue.__wrapped__(lang)

    read.langs = set()
    return read
