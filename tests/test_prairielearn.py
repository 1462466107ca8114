"""PrairieLearn's local trial (issue 34): the export as docs/instructors.md documents it, run as PrairieLearn runs it.

    <out>/questions/abkit/<exercise>/info.json, question.html     what students' questions hold (nothing else)
    <out>/serverFilesCourse/abkit/                                 the grader: run.sh, the kit, rubric, solutions,
                                                                   public and hidden fixtures (never sent to students)

    <root>/serverFilesCourse/abkit/     <out>/serverFilesCourse/abkit, copied (PrairieLearn copies what info.json names)
    <root>/student/<exercise>.py        the student's upload
    <root>/data/data.json               the question's data (its variant_seed names the submission)
    <root>/results/results.json         what run.sh writes

    GRADE_ROOT=<root> bash <root>/serverFilesCourse/abkit/run.sh <exercise>
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from abkit.loading import SOLUTIONS
from tests.helpers import NO_PASS, edited

EXERCISES = ("minimax", "alphabeta", "alphabeta_cutoff", "expectimax", "ordering")
KIT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def export(tmp_path_factory) -> Path:
    from abkit.cli.main import main

    out = tmp_path_factory.mktemp("prairielearn") / "course"
    assert main(["export", "prairielearn", "--out", str(out), "--lang", "en"]) == 0
    return out


def lay_out(export: Path, root: Path, exercise: str, text: str | None, seed: int = 7) -> Path:
    """``root`` laid out as PrairieLearn's /grade for one upload of ``exercise`` (``text``; None: nothing)."""
    shutil.copytree(export / "serverFilesCourse" / "abkit", root / "serverFilesCourse" / "abkit")
    (root / "student").mkdir()
    if text is not None:
        (root / "student" / f"{exercise}.py").write_text(text, encoding="utf-8")
    (root / "data").mkdir()
    (root / "data" / "data.json").write_text(json.dumps({"variant_seed": seed, "params": {}, "submitted_answers": {}}),
                                             encoding="utf-8")
    return root


def run_question(root: Path, exercise: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "GRADE_ROOT": str(root), "ABKIT_PYTHON": sys.executable}
    env.pop("ABKIT_COURSE", None)
    return subprocess.run(["bash", str(root / "serverFilesCourse" / "abkit" / "run.sh"), exercise], env=env,
                          capture_output=True, text=True, timeout=180, cwd=root)


def graded(root: Path, exercise: str) -> dict:
    done = run_question(root, exercise)
    assert done.returncode == 0, done.stderr
    return json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))


def hidden_ids() -> set[str]:
    ids = set()
    for path in (KIT / "fixtures" / "hidden").glob("*.yaml"):
        ids.add(path.stem)
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
        if isinstance(document, dict) and document.get("id"):
            ids.add(str(document["id"]))
    return ids


def test_each_exercise_is_an_externally_graded_question_of_the_documented_form(export):
    uuids = set()
    for exercise in EXERCISES:
        info = json.loads((export / "questions" / "abkit" / exercise / "info.json").read_text(encoding="utf-8"))
        assert info["type"] == "v3" and info["gradingMethod"] == "External" and info["title"]
        options = info["externalGradingOptions"]
        assert options["enabled"] is True and options["image"] == "abkit-grader"
        assert 0 < options["timeout"] <= 600  # PrairieLearn's ceiling
        assert options["serverFilesCourse"] == ["abkit/"] and (export / "serverFilesCourse" / "abkit").is_dir()
        command, argument = options["entrypoint"]
        assert command == "/grade/serverFilesCourse/abkit/run.sh" and argument == exercise
        assert (export / "serverFilesCourse" / "abkit" / "run.sh").stat().st_mode & 0o111
        html = (export / "questions" / "abkit" / exercise / "question.html").read_text(encoding="utf-8")
        assert f'<pl-file-upload file-names="{exercise}.py">' in html and "<pl-external-grader-results>" in html
        uuids.add(info["uuid"])
    assert len(uuids) == len(EXERCISES)


def test_nothing_hidden_lands_where_a_student_can_read_it(export):
    """PrairieLearn sends students a question's rendered question.html and clientFiles*; serverFilesCourse never."""
    student_side = [p for p in export.rglob("*") if p.is_file() and "serverFilesCourse" not in p.parts]
    assert sorted({p.name for p in student_side}) == ["info.json", "question.html"]
    assert not [p for p in export.rglob("clientFiles*")]
    shown = "\n".join(p.read_text(encoding="utf-8") for p in student_side)
    leaked = [name for name in hidden_ids() if name in shown]
    assert not leaked and "def alphabeta" not in shown and "expected" not in shown
    server = export / "serverFilesCourse" / "abkit"
    hidden = sorted(p.name for p in (KIT / "fixtures" / "hidden").glob("*.yaml"))
    assert hidden and sorted(p.name for p in (server / "fixtures" / "hidden").glob("*.yaml")) == hidden
    assert (server / "solutions" / "alphabeta.py").is_file()


@pytest.mark.slow
def test_a_wrong_submission_graded_in_prairielearns_layout(export, tmp_path):
    wrong = edited((SOLUTIONS / "alphabeta.py").read_text(encoding="utf-8"), NO_PASS)
    results = graded(lay_out(export, tmp_path / "grade", "alphabeta", wrong), "alphabeta")

    assert results["gradable"] is True and 0 <= results["score"] < 1
    tests = results["tests"]
    assert tests and all(test["name"] for test in tests) and len({test["name"] for test in tests}) == len(tests)
    assert all(test["name"].startswith("alphabeta: ") for test in tests)
    assert all(set(test) >= {"name", "points", "max_points", "message", "output"} for test in tests)
    assert all(0 <= test["points"] <= test["max_points"] for test in tests)
    total = sum(test["max_points"] for test in tests)
    assert sum(test["points"] for test in tests) / total == pytest.approx(results["score"], abs=1e-3)
    assert results["message"].startswith("alphabeta: ") and "Named mistake: α and β are not passed down" in results["output"]

    hidden = [test for test in tests if "hidden test" in test["name"]]
    assert hidden and any(test["points"] < test["max_points"] for test in hidden)
    assert all(test["output"] == "" and "Expected" not in test["message"] for test in hidden)
    text = json.dumps(results, ensure_ascii=False)
    assert hidden_ids() and "/hidden/" not in text and not [name for name in hidden_ids() if name in text]
    failed = [test for test in tests if test["points"] < test["max_points"] and test not in hidden]
    assert failed and all(test["output"].startswith("✗ ") for test in failed)  # visible tests do say what differed


@pytest.mark.slow
def test_a_correct_submission_scores_one_and_a_broken_one_is_not_gradable(export, tmp_path):
    correct = graded(lay_out(export, tmp_path / "good", "minimax", (SOLUTIONS / "minimax.py").read_text(
        encoding="utf-8")), "minimax")
    assert correct["score"] == 1 and correct["gradable"] is True
    assert all(test["points"] == test["max_points"] for test in correct["tests"])

    broken = graded(lay_out(export, tmp_path / "bad", "minimax", "def minimax_decision(:\n"), "minimax")
    assert broken["gradable"] is False and broken["score"] == 0 and broken["format_errors"]


def test_an_unknown_exercise_is_one_sentence_and_status_2(export, tmp_path):
    done = run_question(lay_out(export, tmp_path / "grade", "alphabeta", "x = 1\n"), "chess")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().count("\n") == 0 and "'chess'" in done.stderr
    assert not (tmp_path / "grade" / "results").exists()


def test_bad_out_folders_are_refused_in_one_sentence(abkit, tmp_path):
    a_file = tmp_path / "file.txt"
    a_file.write_text("x", encoding="utf-8")
    run = abkit("export", "prairielearn", "--out", a_file, "--lang", "en")
    assert run.status == 2 and "Traceback" not in run.err and run.err.strip().count("\n") == 0

    theirs = tmp_path / "course" / "serverFilesCourse" / "abkit"
    theirs.mkdir(parents=True)
    (theirs / "notes.txt").write_text("mine", encoding="utf-8")
    run = abkit("export", "prairielearn", "--out", tmp_path / "course", "--lang", "en")
    assert run.status == 2 and "was not written by abkit export prairielearn" in run.err
    assert (theirs / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_exporting_again_replaces_the_grader_and_keeps_the_questions_ids(abkit, tmp_path):
    out = tmp_path / "course"
    assert abkit("export", "prairielearn", "--out", out, "--lang", "ko").status == 0
    first = json.loads((out / "questions" / "abkit" / "alphabeta" / "info.json").read_text(encoding="utf-8"))
    (out / "serverFilesCourse" / "abkit" / "fixtures" / "hidden" / "stale.yaml").write_text("x", encoding="utf-8")
    run = abkit("export", "prairielearn", "--out", out, "--lang", "ko")
    assert run.status == 0 and "문항 5개" in run.out
    again = json.loads((out / "questions" / "abkit" / "alphabeta" / "info.json").read_text(encoding="utf-8"))
    assert again["uuid"] == first["uuid"] and not (out / "serverFilesCourse" / "abkit" / "fixtures" / "hidden"
                                                    / "stale.yaml").exists()
    html = (out / "questions" / "abkit" / "alphabeta" / "question.html").read_text(encoding="utf-8")
    assert "올리세요" in html
