"""State kept between calls (tests/statekept/): each exercise's first public tree is searched again, in the same
process, once every public tree has been searched; a search whose second run differs from its first is told so in
one sentence, and the second run counts like any test."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from abkit.i18n import t
from abkit.loading import SOLUTIONS

KEPT = Path(__file__).with_name("statekept")
STUDENTS = ("global_best", "seen_default", "depth_default", "node_budget")
RUBRIC = """\
fixtures: [public, hidden]
random_trees: {count: 1, branching: 3, depth: 3}
direct_tests: 4
exercises:
  alphabeta: {values: 3, pruning: 4, nodes: 1, direct: 2}
"""
AGAIN = "alphabeta/public/aima-fig-5-2/again"


@pytest.fixture(scope="module", params=("en", "ko"))
def graded(tmp_path_factory, request):
    """The four students and the reference graded as one class, in one language; (the output folder, language)."""
    from abkit.cli.main import main

    root = tmp_path_factory.mktemp("statekept")
    shutil.copytree(KEPT, root / "class")
    (root / "class" / "reference").mkdir()
    shutil.copy(SOLUTIONS / "alphabeta.py", root / "class" / "reference")
    (root / "rubric.yaml").write_text(RUBRIC, encoding="utf-8")
    assert main(["grade", str(root / "class"), "--out", str(root / "out"), "--rubric", str(root / "rubric.yaml"),
                 "--lang", request.param]) == 0
    return root / "out", request.param


@pytest.mark.parametrize("student", STUDENTS)
def test_a_search_that_keeps_state_between_calls_is_told_so(graded, student):
    out, lang = graded
    feedback = (out / "students" / student / "feedback.md").read_text(encoding="utf-8")
    assert feedback.count(t("grade.repeat.differs", lang)) == 1
    results = json.loads((out / "students" / student / "results.json").read_text(encoding="utf-8"))
    again = [test for test in results["tests"] if test["name"].endswith(t("grade.test.again", lang, title=""))]
    assert len(again) == 1 and again[0]["score"] < again[0]["max_score"] and AGAIN in again[0]["output"]


def test_the_second_run_counts_like_any_test_and_the_reference_passes_it(graded):
    out, lang = graded
    results = json.loads((out / "students" / "reference" / "results.json").read_text(encoding="utf-8"))
    again = [test for test in results["tests"] if test["name"].endswith(t("grade.test.again", lang, title=""))]
    assert len(again) == 1 and again[0]["score"] == again[0]["max_score"] > 0
    assert t("grade.repeat.differs", lang) not in (out / "students" / "reference" / "feedback.md").read_text(
        encoding="utf-8")


@pytest.mark.parametrize("lang", ("en", "ko"))
@pytest.mark.parametrize("student", STUDENTS)
def test_check_tells_state_kept_between_calls_as_grading_does(abkit, tmp_path, student, lang):
    for solution in SOLUTIONS.glob("*.py"):
        shutil.copy(solution, tmp_path / solution.name)
    shutil.copy(KEPT / student / "alphabeta.py", tmp_path / "alphabeta.py")
    run = abkit("check", "--verbose", "alphabeta", "--exercises", tmp_path, "--lang", lang)
    assert run.status == 1 and run.out.count(t("grade.repeat.differs", lang)) == 1


def test_check_runs_the_first_tree_again_and_the_reference_passes_it(abkit, tmp_path):
    for solution in SOLUTIONS.glob("*.py"):
        shutil.copy(solution, tmp_path / solution.name)
    run = abkit("check", "--verbose", "alphabeta", "--exercises", tmp_path, "--lang", "en", "--all")
    assert run.status == 0 and t("grade.repeat.differs", "en") not in run.out
    assert "alphabeta/aima-fig-5-2/again" in run.out
