"""Shared helpers: run the CLI in-process and capture what a user would see."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest

# The kit's cache (abkit/cache.py) of the tests' run lives in a folder of its own, gone when the run ends: the tests
# never read or write the user's cache, and every run starts cold (subprocesses inherit the variable).
os.environ["ABKIT_CACHE_DIR"] = tempfile.mkdtemp(prefix="abkit-test-cache-")
atexit.register(shutil.rmtree, os.environ["ABKIT_CACHE_DIR"], True)

from abkit.loading import FIXTURES, KIT_ROOT  # noqa: E402
from abkit.cli.main import main  # noqa: E402


class Run:
    """The outcome of one ``abkit`` call: exit status, stdout, stderr."""

    def __init__(self, status: int, out: str, err: str) -> None:
        self.status, self.out, self.err = status, out, err

    def __repr__(self) -> str:
        return f"Run(status={self.status}, out={self.out!r}, err={self.err!r})"


@pytest.fixture
def abkit(capsys):
    """Call ``abkit`` with arguments; returns a :class:`Run`."""

    def run(*args: str) -> Run:
        try:
            status = main([str(a) for a in args])
        except SystemExit as exit_:  # argparse's usage errors and --help
            status = exit_.code if isinstance(exit_.code, int) else 1
        captured = capsys.readouterr()
        return Run(status, captured.out, captured.err)

    return run


@pytest.fixture
def fixture_copy(tmp_path):
    """Copy a shipped fixture into a temporary folder; returns the copy's path."""

    def copy(relative: str) -> Path:
        target = tmp_path / Path(relative).name
        shutil.copy(FIXTURES / relative, target)
        return target

    return copy


@pytest.fixture
def write(tmp_path):
    """Write text to a file in a temporary folder; returns its path."""

    def make(text: str, name: str = "f.yaml") -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return make


__all__ = ["KIT_ROOT"]

# CI runs hypothesis derandomized, so a green run is reproducible; locally it explores.
from hypothesis import settings  # noqa: E402

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("HYPOTHESIS_PROFILE"):
    settings.load_profile(os.environ["HYPOTHESIS_PROFILE"])


#: Slow tests in the protected test files, which are not edited: marked ``slow`` here instead, by file (every test
#: in it) or by node id (every parametrization of that test function). The other slow tests carry the mark in their
#: own file. ``slow`` is a test that takes over about 0.3 s, or shares a module fixture that does (a class graded, a
#: course or edition built, PDFs rendered, a browser driven), so that ``pytest -m "not slow"`` stays quick.
SLOW_PROTECTED = {
    "tests/test_adversarial.py",  # every test reads one batch of the whole adversarial corpus
    "tests/test_interrupt.py",  # batches interrupted and killed, then graded again
    "tests/test_isolation.py::test_an_honest_student_graded_after_each_attacker_gets_what_it_gets_alone",
    "tests/test_faults.py::test_a_student_no_worker_can_take_gets_a_grader_fault_row_and_the_others_are_graded",
    "tests/test_faults.py::test_any_signed_reply_is_a_graded_test_or_a_crashed_student_never_an_exception",
    "tests/test_faults.py::test_several_students_are_graded_again_at_once_and_an_unknown_one_is_named",
    "tests/test_faults.py::"
    "test_a_grader_fault_on_one_student_is_that_students_row_named_in_the_summary_with_the_regrade_command",
    # the four tests of the module fixture ``adversaries`` (a class of misbehaving students graded), then classes
    "tests/test_grade_sandbox.py::test_every_adversary_is_graded_and_the_batch_goes_on",
    "tests/test_grade_sandbox.py::test_misbehaving_code_earns_no_alpha_beta_points_it_did_not_deserve",
    "tests/test_grade_sandbox.py::test_printing_a_lot_costs_nothing",
    "tests/test_grade_sandbox.py::test_each_misbehaviour_is_explained_in_the_feedback",
    "tests/test_grade_sandbox.py::test_workers_started_afresh_grade_like_forked_ones_and_like_one_process",
    "tests/test_grade_sandbox.py::test_the_gradescope_bundle_runs_like_on_gradescope",
    "tests/test_grade_sandbox.py::"
    "test_a_failing_worker_costs_only_its_student_who_is_named_with_the_command_to_grade_them_again",
    "tests/test_grade_sandbox.py::test_a_batch_leaves_no_temporary_folder_and_removes_those_of_killed_batches",
    "tests/test_grade_sandbox.py::test_workers_killed_between_or_during_students_are_replaced_and_cost_nothing",
}


def pytest_collection_modifyitems(config, items):
    """Mark the slow tests of the protected files (:data:`SLOW_PROTECTED`); a name there that matches no collected
    test is an error, so the list cannot go stale unnoticed."""
    unmatched = set(SLOW_PROTECTED)
    for item in items:
        path, _, rest = item.nodeid.partition("::")
        function = f"{path}::{rest.split('[')[0]}"
        for key in (path, function):
            if key in SLOW_PROTECTED:
                item.add_marker(pytest.mark.slow)
                unmatched.discard(key)
    collected = {item.nodeid.partition("::")[0] for item in items}
    stale = sorted(k for k in unmatched if k.partition("::")[0] in collected)
    if stale:
        raise pytest.UsageError("tests/conftest.py SLOW_PROTECTED names tests that do not exist: " + ", ".join(stale))
