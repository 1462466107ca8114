"""Gradescope's local trial (issue 17): the folder layout docs/instructors.md documents, run as Gradescope runs it.

    <root>/source/                    the bundle (abkit export gradescope), unzipped
    <root>/submission/                the student's files as uploaded (any depth; a packed hand-in unzipped)
    <root>/submission_metadata.json   optional: Gradescope's, whose first user's sid (else e-mail) seeds the random trees
    <root>/results/results.json       what run_autograder writes

    AUTOGRADER_ROOT=<root> bash <root>/source/run_autograder
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from abkit.loading import SOLUTIONS
from tests.helpers import NO_PASS, edited

EXERCISES = ("minimax", "alphabeta", "alphabeta_cutoff", "expectimax", "ordering")


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    from abkit.cli.main import main

    out = tmp_path_factory.mktemp("gradescope") / "autograder.zip"
    assert main(["export", "gradescope", "--out", str(out), "--lang", "en"]) == 0
    return out


def lay_out(bundle: Path, root: Path, files: dict[str, str], email: str) -> Path:
    """``root`` laid out as Gradescope's /autograder for one submission of ``files`` (relative path -> text)."""
    with zipfile.ZipFile(bundle) as archive:
        archive.extractall(root / "source")
    for name, text in files.items():
        (root / "submission" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "submission" / name).write_text(text, encoding="utf-8")
    (root / "submission_metadata.json").write_text(json.dumps({"users": [{"email": email, "name": "x"}]}),
                                                   encoding="utf-8")
    return root


def run_autograder(root: Path) -> dict:
    env = {**os.environ, "AUTOGRADER_ROOT": str(root), "ABKIT_PYTHON": sys.executable}
    env.pop("ABKIT_COURSE", None)
    done = subprocess.run(["bash", str(root / "source" / "run_autograder")], env=env, capture_output=True, text=True,
                          timeout=180)
    assert done.returncode == 0, done.stderr
    return json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))


@pytest.mark.slow
def test_run_autograder_on_a_correct_and_a_wrong_submission_in_the_documented_layout(bundle, tmp_path):
    correct = {f"{name}.py": (SOLUTIONS / f"{name}.py").read_text(encoding="utf-8") for name in EXERCISES}
    wrong = dict(correct, **{"alphabeta.py": edited(correct["alphabeta.py"], NO_PASS)})
    good = run_autograder(lay_out(bundle, tmp_path / "good", correct, "ann@example.edu"))
    bad = run_autograder(lay_out(bundle, tmp_path / "bad", {f"hw/{k}": v for k, v in wrong.items()},
                                 "ben@example.edu"))

    assert good["score"] == 49 and good["tests"] and all(test["status"] == "passed" for test in good["tests"])
    assert sum(test["score"] for test in good["tests"]) == pytest.approx(49, abs=0.01)  # each rounded to 4 places
    assert {test["visibility"] for test in good["tests"]} == {"visible", "after_published"}
    assert good["extra_data"]["student"] == "ann@example.edu" and good["extra_data"]["status"] == "ok"

    assert 38 <= bad["score"] < 49 and bad["extra_data"]["exercises"]["alphabeta"]["score"] < 11
    failed = [test for test in bad["tests"] if test["status"] == "failed"]
    assert failed and all(test["name"].startswith("alphabeta: ") for test in failed)
    assert all(test["output"] and (test["score"] < test["max_score"] or test["max_score"] == 0) for test in failed)
    assert any(test["score"] < test["max_score"] for test in failed)  # (a random tree's test is shown, worth 0)
    assert all(test["status"] == "passed" for test in bad["tests"] if not test["name"].startswith("alphabeta"))
    assert "Named mistake: α and β are not passed down" in bad["output"]
    assert sum(test["score"] for test in bad["tests"]) == pytest.approx(bad["score"], abs=0.01)


@pytest.mark.slow
def test_a_packed_hand_in_uploaded_to_gradescope_is_checked_against_its_manifest(bundle, abkit, tmp_path,
                                                                                monkeypatch):
    """Gradescope unzips the uploaded zip into submission/: the manifest is checked, but not the student id (Gradescope
    names the submission by e-mail)."""
    from abkit.authoring.release import build_student_edition

    edition = tmp_path / "edition"
    build_student_edition(edition)
    for name in EXERCISES:
        shutil.copy(SOLUTIONS / f"{name}.py", edition / "exercises" / f"{name}.py")
    monkeypatch.chdir(edition)
    monkeypatch.delenv("ABKIT_COURSE", raising=False)
    assert abkit("pack", "--id", "2024-001", "--lang", "en").status == 0
    with zipfile.ZipFile(edition / "2024-001.zip") as archive:
        files = {name: archive.read(name).decode("utf-8") for name in archive.namelist()}
    results = run_autograder(lay_out(bundle, tmp_path / "gs", files, "ann@example.edu"))
    assert results["score"] == 49 and results["extra_data"]["handin"]["status"] == "ok"
    files["exercises/minimax.py"] += "\n# changed after packing\n"
    results = run_autograder(lay_out(bundle, tmp_path / "gs2", files, "ann@example.edu"))
    assert results["extra_data"]["handin"]["problems"] == ["exercises/minimax.py changed after packing (its SHA-256 "
                                                           "is not the manifest's)"]
    assert "This hand-in does not match its manifest" in results["output"]
