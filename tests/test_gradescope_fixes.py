"""Issue 34's Gradescope fixes: every test of results.json named once, the student named by Gradescope's metadata,
and a setup.sh that installs the kit where the system's Python refuses system-wide pip installs (PEP 668)."""

from __future__ import annotations

import doctest
import tempfile
from collections import Counter
from pathlib import Path

import pytest

from abkit.loading import SOLUTIONS


@pytest.fixture(scope="module")
def correct_results():
    """The Gradescope results.json of the reference solutions, graded as the autograder grades them."""
    from abkit.grader.grading import Grader
    from abkit.grader.reports import results_json
    from abkit.grader.rubric import load_rubric
    from abkit.grader.submissions import Submission

    rubric = load_rubric()
    grader = Grader(rubric, 0, "en")
    grader.names_are_ids = False
    with tempfile.TemporaryDirectory() as work:
        grade = grader.grade(Submission("ann@example.edu", SOLUTIONS), Path(work))
    return results_json(grade, rubric, "en")


def test_every_test_in_results_json_has_a_name_of_its_own(correct_results):
    names = Counter(test["name"] for test in correct_results["tests"])
    assert len(correct_results["tests"]) > 100
    assert [name for name, count in names.items() if count > 1] == []
    # the hidden trees written for each cut-off rule share a title: numbered, never named by their hidden ids
    assert any(name.endswith(" #2") for name in names)
    assert not [name for name in names if "adequacy-" in name or "hidden" in name]


def test_unique_names_doctests():
    from abkit.grader import reports

    examples = [test for test in doctest.DocTestFinder().find(reports) if test.name.endswith("unique_names")]
    assert examples and all(doctest.DocTestRunner().run(test).failed == 0 for test in examples)


METADATA = {"users": [{"email": "ann@example.edu", "id": 7, "name": "Ann Lee", "sid": "2024-001"},
                      {"email": "ben@example.edu", "id": 8, "name": "Ben Park", "sid": None}],
            "created_at": "2026-11-29T10:00:00Z"}


def test_the_autograder_names_the_student_from_gradescopes_metadata(tmp_path, monkeypatch):
    import json
    import shutil

    from abkit.grader.gradescope import first_submitter, run_autograder, submitters

    shutil.copytree(SOLUTIONS, tmp_path / "submission")
    (tmp_path / "submission_metadata.json").write_text(json.dumps(METADATA), encoding="utf-8")
    people = submitters(tmp_path)
    assert people == [{"name": "Ann Lee", "email": "ann@example.edu", "sid": "2024-001"},
                      {"name": "Ben Park", "email": "ben@example.edu", "sid": ""}]
    assert first_submitter(people) == "2024-001" and first_submitter(people[1:]) == "ben@example.edu"

    results = run_autograder(tmp_path, "en")
    assert results["extra_data"]["student"] == "2024-001" and results["extra_data"]["users"] == people
    assert results["output"].startswith("Handed in by Ann Lee (2024-001, ann@example.edu); Ben Park (ben@example.edu).")
    assert json.loads((tmp_path / "results" / "results.json").read_text(encoding="utf-8"))["score"] == 49


@pytest.mark.parametrize("text", ["", "not json", '{"users": "nobody"}', '{"users": [{"name": null}]}'])
def test_missing_or_foreign_metadata_grades_as_submission(tmp_path, text):
    from abkit.grader.gradescope import student_id, submitters

    if text:
        (tmp_path / "submission_metadata.json").write_text(text, encoding="utf-8")
    assert submitters(tmp_path) == [] and student_id(tmp_path) == "submission"


# -- setup.sh on an image whose Python refuses system-wide installs (PEP 668) ---------------------------------------

#: a stand-in for the image's python3: it logs each call, refuses a system-wide pip install without
#: --break-system-packages as PEP 668's Pythons do, and makes a "virtual environment" whose python logs too, unless
#: NO_VENV is set (no venv module and no apt-get to install one)
FAKE_PYTHON = r"""#!/usr/bin/env bash
echo "$(basename "$(dirname "$0")")/python3 $*" >> "$LOG"
case "$*" in
  "-c "*) exit 0 ;;
  "-m venv "*)
    [ -n "${NO_VENV:-}" ] && { echo "ensurepip is not available" >&2; exit 1; }
    mkdir -p "$3/bin" && cp "$0" "$3/bin/python" && chmod +x "$3/bin/python"; exit 0 ;;
  "-m pip install"*)
    if [ "$(basename "$(dirname "$0")")" != bin ] || [ "$(basename "$0")" = python3 ]; then
      case "$*" in *--break-system-packages*) exit 0 ;; esac
      echo "error: externally-managed-environment" >&2; exit 1
    fi
    exit 0 ;;
esac
exit 0
"""


def run_setup(tmp_path: Path, no_venv: bool) -> tuple[int, list[str], str]:
    """setup.sh of a fresh bundle run under AUTOGRADER_ROOT=tmp_path with the stand-in python3 first on PATH and no
    apt-get: its status, the python calls it made, its stderr."""
    import os
    import subprocess

    from abkit.grader.gradescope import SETUP

    tools = tmp_path / "tools"
    tools.mkdir()
    (tools / "python3").write_text(FAKE_PYTHON, encoding="utf-8")
    (tools / "python3").chmod(0o755)
    for name in ("bash", "env", "basename", "dirname", "mkdir", "cp", "chmod", "rm", "cat"):
        found = next((Path(d) / name for d in ("/usr/bin", "/bin") if (Path(d) / name).exists()), None)
        assert found, name
        (tools / name).symlink_to(found)
    (tmp_path / "source").mkdir()
    (tmp_path / "source" / "setup.sh").write_text(SETUP, encoding="utf-8")
    log = tmp_path / "calls.log"
    env = {"PATH": str(tools), "AUTOGRADER_ROOT": str(tmp_path), "LOG": str(log), **({"NO_VENV": "1"} if no_venv else {})}
    done = subprocess.run([str(tools / "bash"), str(tmp_path / "source" / "setup.sh")], env=env, capture_output=True,
                          text=True, timeout=60)
    return done.returncode, log.read_text(encoding="utf-8").splitlines(), done.stderr


def test_setup_installs_the_kit_into_a_virtual_environment_not_the_system(tmp_path):
    status, calls, stderr = run_setup(tmp_path, no_venv=False)
    assert status == 0, stderr
    assert f"tools/python3 -m venv {tmp_path}/venv" in calls
    assert f"bin/python3 -m pip install -q {tmp_path}/source" in calls  # the venv's python (copied as bin/python)
    assert not [call for call in calls if call.startswith("tools/") and "pip install" in call]


def test_setup_falls_back_to_a_system_install_past_pep_668_only_without_a_venv(tmp_path):
    status, calls, stderr = run_setup(tmp_path, no_venv=True)
    assert status == 0, stderr
    assert f"tools/python3 -m pip install -q --break-system-packages {tmp_path}/source" in calls
    assert "no virtual environment could be made" in stderr and not (tmp_path / "venv").exists()
