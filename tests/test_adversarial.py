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

import csv
import hashlib
import json
import math
import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest

from abkit.loading import HIDDEN_FIXTURES, KIT_ROOT, SOLUTIONS
from grader.batch import grade_batch
from grader.confine import available
from grader.rubric import load_rubric
from grader.sandbox import Limits

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
DANGEROUS = {"fork_bomb": "seccomp", "kills_grader": "seccomp"}
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
    "patches_wrapper": ("ok", 10 - 4, "You stopped there."),
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
    "dict_state": ("crashed", "raises_in_search", "could not be read (trace.calls[1][0] is dict (2 items)"),
    "liar_action": ("crashed", "raises_in_max", "is list (1 items), where a state"),
    "resigns_reply": ("crashed", 0, "could not be read (reply.trace is missing)"),
    "nested_arrays": ("crashed", 0, "could not be read (the report is nested too deeply to be read)"),
    "huge_name": ("crashed", 0, "has length 15000000, more than the 2 allowed"),
}


def students() -> list[str]:
    """The corpus students run on this machine (the dangerous ones only where the OS contains them)."""
    return sorted(s for s in EXPECTED if s not in DANGEROUS or LAYERS.get(DANGEROUS[s]))


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
        shutil.copytree(CORPUS / name, folder / name)
    rubric = tmp_path_factory.mktemp("rubric") / "rubric.yaml"
    rubric.write_text(RUBRIC, encoding="utf-8")
    out = tmp_path_factory.mktemp("out")
    decoy = tmp_path_factory.mktemp("instructor") / "notes.txt"
    decoy.write_text("the instructor's own notes\n", encoding="utf-8")
    before = snapshot(decoy)
    started = time.monotonic()
    result = grade_batch(folder, out, load_rubric(rubric), jobs=4, limits=LIMITS)
    elapsed = time.monotonic() - started
    after = snapshot(decoy)
    rows = {r["extra_data"]["student"]: r for r in result.rows}
    return {"rows": rows, "out": out, "elapsed": elapsed, "before": before, "after": after, "result": result}


def feedback(batch, student: str) -> str:
    return (batch["out"] / student / "feedback.md").read_text(encoding="utf-8")


def test_the_batch_completes_with_a_row_for_every_student(batch):
    with open(batch["out"] / "grades.csv", encoding="utf-8", newline="") as handle:
        table = list(csv.DictReader(handle))
    assert [row["student"] for row in table] == students()
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
