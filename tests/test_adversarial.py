"""The adversarial corpus (tests/adversarial/): every hostile or broken submission graded together in one batch.

Each folder is one student's realistic ``alphabeta.py`` (its docstring says what it
does). Required, each asserted: the batch completes; every student has a row with
the right status and a message that explains it; nobody scores more than their
real behaviour earns (the score of an honest twin that fails at the same place);
the batch takes no longer than the time limits allow; nothing outside the output
folder changes; a submission that searches the file system for the hidden
fixtures or the solutions reads nothing.
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import json
import math
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import pytest

from abkit.loading import HIDDEN_FIXTURES, KIT_ROOT, SOLUTIONS
from abkit.grader.batch import grade_batch
from abkit.grader.confine import available
from abkit.grader.rubric import load_rubric
from abkit.safetext import csv_cell
from abkit.grader.sandbox import CHILD, Limits

CORPUS = Path(__file__).with_name("adversarial")
LIMITS = Limits(test_seconds=3.0, student_seconds=10.0, memory_mb=512)
RUBRIC = """\
fixtures: [public]
random_trees: {count: 1, branching: 2, depth: 3}
direct_tests: 4
exercises:
  alphabeta: {values: 3, pruning: 4, nodes: 1, direct: 2}
"""
LAYERS = available()
#: run only where the OS contains them: unconfined, they would hurt the machine running the tests
DANGEROUS = {"fork_bomb": "seccomp", "kills_grader": "seccomp", "limits_server": "seccomp", "renices": "seccomp",
             "signals_others": "seccomp", "memfd_hog": "seccomp", "shm_fill": "landlock", "fills_disk": "landlock"}
#: where writes_outside tries to leave a file (it must not appear); the batch also snapshots a private decoy
DECOY = Path(tempfile.gettempdir()) / "abkit-decoy-7.txt"

#: the bound of a search that returns wrong values: every direct call fails (its returned value is graded)
WRONG_VALUES = "wrong values"
#: student -> (status, score bound, words its feedback must contain). The bound is "max" (a correct
#: search, whatever else it did), a number, or the name of its honest twin (the same search failing
#: the same way with a plain exception), whose score it may not exceed.
EXPECTED = {
    "correct": ("ok", "max", ""),
    "broken": ("ok", 1, "ValueError: not done yet"),
    "raises_in_max": ("ok", "correct", "ValueError: not finished"),
    "raises_in_min": ("ok", "correct", "ValueError: not finished"),
    "raises_in_search": ("ok", "correct", "ValueError: not finished"),
    "returns_zero": ("ok", "correct", "returned 0"),
    # time and memory
    "loops_forever": ("timeout", "raises_in_max", "stopped after 3 s"),
    "loops_at_import": ("timeout", 0, "stopped after 3 s"),
    "sleeps": ("timeout", "raises_in_max", "stopped after 3 s"),
    "eats_memory": ("ok", "raises_in_max", "MemoryError"),
    "recurses": ("ok", "raises_in_max", "RecursionError"),
    "deep_recursion": ("crashed", "raises_in_max", "ended without reporting (exit status -11)"),
    # processes, signals, threads
    "fork_bomb": ("crashed", 0, "could not be loaded: PermissionError"),
    "spawns": ("ok", "raises_in_max", "PermissionError"),
    "threads": ("ok", "raises_in_search", "can't start new thread"),
    "signal_handler": ("ok", "raises_in_search", "PermissionError"),
    "kills_grader": ("ok", "max", ""),
    # reaching the fork server, the worker or the next student (test_isolation.py grades an honest student after
    # each): every attempt is refused, so each searches correctly and earns the maximum
    "limits_server": ("ok", "max", ""),
    "renices": ("ok", "max", ""),
    "lowers_own_limits": ("ok", "max", ""),
    "signals_others": ("ok", "max", ""),
    "regains_root": ("ok", "max", ""),
    # memory outside the address-space limit, and the disk
    "memfd_hog": ("ok", "max", ""),
    "shm_fill": ("ok", "max", ""),
    "fills_disk": ("ok", "max", ""),
    # exits and exceptions
    "exits_at_import": ("crashed", 0, "could not be loaded: SystemExit: 3"),
    "os_exit_at_import": ("crashed", 0, "ended without reporting (exit status 0)"),
    "exits_in_search": ("ok", "raises_in_max", "SystemExit: done searching"),
    "os_exit_in_search": ("crashed", "raises_in_max", "ended without reporting (exit status 7)"),
    "keyboard_interrupt": ("ok", "raises_in_min", "KeyboardInterrupt"),
    "base_exception": ("ok", "raises_in_max", "Abort: giving up"),
    # output and forged reports
    "floods_output": ("ok", "max", ""),
    "fake_results": ("ok", "returns_zero", "returned 0"),
    "forges_reply": ("crashed", 0, "a report did not come from the grader"),
    "hijacks_channel": ("crashed", "raises_in_search", "a report did not come from the grader"),
    "reads_key": ("crashed", "raises_in_search", "a report did not come from the grader"),
    # the file system
    "snoops": ("ok", "raises_in_search", "snoop found 0: []"),
    "writes_outside": ("ok", "raises_in_search", "wrote 0 files outside: []"),
    # tampering
    "patches_game": ("ok", 0, "changed the game object"),
    "patches_instance": ("ok", "raises_in_search", "changed the game object"),
    "patches_wrapper": ("ok", 10 - 4, "your search generated nothing more"),
    "patches_builtins": ("ok", 0, "changed the game object"),
    "patches_tracer": ("ok", 0, "changed the game object"),
    # known residual risk (README, "Security model"): rewriting the harness in memory is not caught; it
    # earns only what its own, correct, search computed
    "rewrites_send": ("ok", "max", ""),
    # bad values and bad files
    "returns_nan": ("ok", WRONG_VALUES, "nan"),
    "returns_none": ("ok", WRONG_VALUES, "None"),
    "returns_strings": ("ok", WRONG_VALUES, "returned '"),
    "returns_huge": ("ok", WRONG_VALUES, "digits)"),
    "returns_liar": ("ok", WRONG_VALUES, "B returned 0;"),
    "syntax_error": ("crashed", 0, "could not be loaded: SyntaxError"),
    "missing_functions": ("ok", "raises_in_search", "max_value is missing from alphabeta.py"),
    "failing_import": ("crashed", 0, "could not be loaded: ModuleNotFoundError"),
    # replies the grader cannot use (issue 12): the student's process failing, never the batch's
    "unhashable_leaf": ("crashed", "raises_in_max", "could not be read (trace.evaluated[0] is list (1 items)"),
    # a probe of MAX-VALUE on a dict state that fails inside try/except: the game's log is a correct search's,
    # and the wrapper passes a call it cannot record through unrecorded (issue 11: only the game's log counts)
    "dict_state": ("ok", "max", ""),
    "liar_action": ("crashed", "raises_in_max", "is list (1 items), where a state"),
    "resigns_reply": ("crashed", 0, "could not be read (reply.trace is missing)"),
    "nested_arrays": ("crashed", 0, "could not be read (the report is nested too deeply to be read)"),
    # its 15 MB reports are cut in its own process (grader.child.MAX_REPORT): each test fails, nothing is sent
    "huge_name": ("ok", 0, "ReportTooLarge"),
    # what the batch writes and shows: ids and student text
    "grades.csv": ("ok", "max", ""),
    '=SUM(1+1)': ("ok", "max", ""),  # a formula id (a name Windows can hold too)
    "escapes": ("ok", "raises_in_max", "ValueError: not finished 31m<script>alert(1)"),  # in a code block: text
    # entries that are not regular files or folders (made at run time: git cannot hold them): never opened
    "fifo": ("invalid", 0, "skipped alphabeta.py: it is not a regular file"),
    "device": ("invalid", 0, "skipped alphabeta.py: it is not a regular file"),
    "fifo_entry": ("invalid", 0, "is neither a folder nor a regular file"),
    "link_outside": ("invalid", 0, "is a link leading outside the submissions folder"),
    "escapes_at_import": ("crashed", 0, "could not be loaded: ValueError: 31m&lt;script&gt;alert(1)&lt;/script&gt;"),
}


def _fifo(folder: Path) -> None:
    (folder / "fifo").mkdir()
    os.mkfifo(folder / "fifo" / "alphabeta.py")  # opened, it would block the grader forever


def _device(folder: Path) -> None:
    import stat

    (folder / "device").mkdir()
    os.mknod(folder / "device" / "alphabeta.py", 0o644 | stat.S_IFCHR, os.makedev(1, 8))  # /dev/random


def _fifo_entry(folder: Path) -> None:
    os.mkfifo(folder / "fifo_entry.zip")


def _link_outside(folder: Path) -> None:
    (folder / "link_outside").symlink_to(CORPUS / "correct")


#: corpus students made at run time (FIFOs, devices and links cannot be committed)
MADE = {"fifo": _fifo, "device": _device, "fifo_entry": _fifo_entry, "link_outside": _link_outside}
#: a device file needs root (CI runs as root)
ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def students() -> list[str]:
    """The corpus students run on this machine (the dangerous ones only where the OS contains them)."""
    return sorted(s for s in EXPECTED if (s not in DANGEROUS or LAYERS.get(DANGEROUS[s])) and (s != "device" or ROOT))


def snapshot(decoy: Path) -> dict[str, str]:
    """Hashes of every file a submission could try to change outside the output folder, and whether DECOY exists."""
    paths = [decoy, *sorted(CORPUS.rglob("*.py"))]
    for folder in ("fixtures", "solutions"):
        paths += sorted((KIT_ROOT / folder).rglob("*"))
    paths += [KIT_ROOT / "grader" / "child.py", KIT_ROOT / "grader" / "confine.py", KIT_ROOT / "abkit" / "__init__.py"]
    state = {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in paths if p.is_file()}
    state["known decoy"] = DECOY.read_text(encoding="utf-8") if DECOY.exists() else "absent"
    state["kit listing"] = " ".join(sorted(n for n in os.listdir(KIT_ROOT) if not n.startswith(".coverage")))
    state["tmp listing"] = " ".join(sorted(n for n in os.listdir(tempfile.gettempdir()) if "pwned" in n))
    return state


def corpus_entry_limit() -> float:
    """A generous bound on the batch's wall time: every student using all its time, one after the other."""
    return len(students()) * (LIMITS.student_seconds + 5)


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    """The corpus graded once, with the kit and decoy files snapshotted before and after."""
    folder = tmp_path_factory.mktemp("class")
    for name in students():
        if name in MADE:
            MADE[name](folder)
        else:
            shutil.copytree(CORPUS / name, folder / name)
    rubric = tmp_path_factory.mktemp("rubric") / "rubric.yaml"
    rubric.write_text(RUBRIC, encoding="utf-8")
    out = tmp_path_factory.mktemp("out")
    decoy = tmp_path_factory.mktemp("instructor") / "notes.txt"
    decoy.write_text("the instructor's own notes\n", encoding="utf-8")
    before = snapshot(decoy)
    temporary = tmp_path_factory.mktemp("tmp")  # the grader's temporary folders, to see that none is left
    processes = student_processes()
    started = time.monotonic()
    terminal = tmp_path_factory.mktemp("terminal") / "terminal.txt"
    with terminal_output(terminal), _temporary_folder(temporary):
        result = grade_batch(folder, out, load_rubric(rubric), jobs=4, limits=LIMITS)
    elapsed = time.monotonic() - started
    after = snapshot(decoy)
    rows = {r["extra_data"]["student"]: r for r in result.rows}
    return {"rows": rows, "out": out, "elapsed": elapsed, "before": before, "after": after, "result": result,
            "terminal": terminal.read_text(encoding="utf-8", errors="replace"), "tmp": sorted(temporary.iterdir()),
            "processes": student_processes() - processes}


@contextlib.contextmanager
def terminal_output(path: Path):
    """What the process writes to its stdout and stderr meanwhile (file descriptors 1 and 2: the workers' and
    the fork servers' too), captured in ``path``."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    with open(path, "wb") as capture:
        os.dup2(capture.fileno(), 1)
        os.dup2(capture.fileno(), 2)
        try:
            yield path
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            for fd, copy in zip((1, 2), saved):
                os.dup2(copy, fd)
                os.close(copy)


@contextlib.contextmanager
def _temporary_folder(folder: Path):
    saved = tempfile.tempdir
    tempfile.tempdir = str(folder)
    try:
        yield
    finally:
        tempfile.tempdir = saved


def student_processes() -> set[tuple[int, str]]:
    """The processes of this machine that run this kit's student harness or fork server (pid, command line)."""
    found = set()
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        if str(CHILD) in command:  # this kit's (another checkout's may run meanwhile)
            found.add((int(entry.name), command))
    return found


def feedback(batch, student: str) -> str:
    return (batch["out"] / "students" / student / "feedback.md").read_text(encoding="utf-8")


def test_the_batch_completes_with_a_row_for_every_student(batch):
    with open(batch["out"] / "grades.csv", encoding="utf-8", newline="") as handle:
        table = list(csv.DictReader(handle))
    assert [row["student"] for row in table] == [csv_cell(s) for s in students()]  # '=... for a formula
    assert {row["status"] for row in table} <= {"ok", "timeout", "crashed", "invalid"}


@pytest.mark.parametrize("student", students())
def test_each_student_gets_the_right_status_and_a_clear_message(batch, student):
    status, _, words = EXPECTED[student]
    row = batch["rows"][student]
    assert row["extra_data"]["status"] == status, row["output"]
    assert words in feedback(batch, student), feedback(batch, student)[:3000]


@pytest.mark.parametrize("student", students())
def test_nobody_scores_more_than_their_real_behaviour_earns(batch, student):
    _, bound, _ = EXPECTED[student]
    rows = batch["rows"]
    assert all(math.isfinite(t["score"]) for t in rows[student]["tests"])
    score, top = rows[student]["score"], rows[student]["extra_data"]["max_score"]
    if bound == "max":
        assert score == top, rows[student]["output"]
    elif bound == WRONG_VALUES:
        assert "direct calls 0/" in feedback(batch, student) and score <= top - 2
    elif isinstance(bound, str):
        assert score <= rows[bound]["score"], (score, bound, rows[bound]["score"])
    else:
        assert score <= bound
    assert score < top or bound == "max"


def test_grading_time_is_bounded_by_the_time_limits(batch):
    assert batch["elapsed"] < corpus_entry_limit()
    timeouts = [s for s in students() if EXPECTED[s][0] == "timeout"]
    for student in timeouts:
        assert "stopped after 3 s" in batch["rows"][student]["output"]


def test_no_traceback_on_the_terminal_and_nothing_left_behind(batch):
    """The batch prints no traceback (the grader's, a worker's or a fork server's), leaves no temporary folder
    (no student folder, no /tmp/abkit-server-* or abkit-batch-*) and no student process or fork server running."""
    assert "Traceback" not in batch["terminal"], batch["terminal"][-3000:]
    assert batch["tmp"] == []
    assert batch["processes"] == set()


def test_nothing_outside_the_output_folder_changes(batch):
    assert batch["before"] == batch["after"]
    assert not list(KIT_ROOT.glob("pwned-by-student*"))


def test_printing_50_mb_fills_neither_the_memory_nor_the_output_folder(batch):
    size = sum(p.stat().st_size for p in batch["out"].rglob("*") if p.is_file())
    assert size < 10_000_000
    assert "x" * 10_000 not in feedback(batch, "floods_output")


@pytest.mark.skipif(not LAYERS["landlock"], reason="this kernel offers no Landlock: the hidden files are not hidden")
def test_a_submission_that_searches_the_file_system_for_hidden_fixtures_finds_nothing(batch):
    text = feedback(batch, "snoops") + json.dumps(batch["rows"]["snoops"])
    assert "snoop found 0: []" in text
    secrets = [p.read_text(encoding="utf-8") for p in [*HIDDEN_FIXTURES.glob("*.yaml"), *SOLUTIONS.glob("*.py")]]
    lines = {line.strip() for secret in secrets for line in secret.splitlines() if len(line.strip()) > 25}
    assert not [line for line in lines if line in text]
    assert batch["result"].defences["hidden"] is True and batch["result"].defences["landlock"] == LAYERS["landlock"]


@pytest.mark.skipif(not LAYERS["seccomp"], reason="no seccomp syscall table for this machine")
def test_process_creation_is_refused_and_the_grader_survives_an_attempt_to_kill_it(batch):
    assert batch["result"].defences["seccomp"] is True
    assert "PermissionError" in feedback(batch, "fork_bomb")
    assert batch["rows"]["kills_grader"]["score"] == batch["rows"]["kills_grader"]["extra_data"]["max_score"]


def outside_code(markdown: str) -> str:
    """The lines of ``markdown`` outside fenced code blocks (where a renderer would read HTML)."""
    kept, fence = [], False
    for line in markdown.splitlines():
        if line.lstrip(" ").startswith(("```", "~~~")):
            fence = not fence
        elif not fence:
            kept.append(line)
    return "\n".join(kept)


def test_ids_and_student_text_are_shown_safely(batch):
    out = batch["out"]
    assert (out / "grades.csv").is_file() and (out / "students" / "grades.csv" / "feedback.md").is_file()
    with open(out / "grades.csv", encoding="utf-8", newline="") as handle:
        ids = [row["student"] for row in csv.DictReader(handle)]
    assert "'=SUM(1+1)" in ids and not [i for i in ids if i.startswith("=")]
    for student in ("escapes", "escapes_at_import"):
        row = batch["rows"][student]
        text = "\n".join([feedback(batch, student), row["output"], *(test["output"] for test in row["tests"])])
        assert "\x1b" not in text and "\x07" not in text and "\x9b" not in text
        shown_as_markdown = outside_code(feedback(batch, student))  # results.json's outputs are plain text
        assert "<script>" not in shown_as_markdown and "<img" not in shown_as_markdown
    assert "alert(1)" in outside_code(feedback(batch, "escapes_at_import"))  # the student's words, shown as text

