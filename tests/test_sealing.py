"""What a student's process has been shown never reaches a later exercise's output (tests/leaks/): a minimax.py that
remembers every leaf it is shown, hidden trees' included, and an alphabeta.py loaded next in the same process that
tells them: in its log and exit status at import (the death-log route), in its exit's message, or in every later
test's exception and prints. Neither ``feedback.md`` nor Gradescope's ``results.json`` holds what it told."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from abkit.i18n import t
from abkit.tree import from_nested
from abkit.grader.sealing import MARK, sealed_reply

LEAKS = Path(__file__).with_name("leaks")
STUDENTS = ("death_log", "exit_message", "raises_later")
RUBRIC = """\
fixtures: [public, hidden]
random_trees: {count: 1, branching: 3, depth: 3}
direct_tests: 4
visibility: {public: visible, hidden: after_published, random: visible}
exercises:
  minimax: {values: 6, nodes: 1, direct: 3}
  alphabeta: {values: 3, pruning: 4, nodes: 1, direct: 2, games: 1}
"""
#: what each of the second files writes before what it remembers
TOLD = "LEAKED"


@pytest.fixture(scope="module", params=("en", "ko"))
def graded(tmp_path_factory, request):
    """The three students graded as one class, in one language; (the output folder, the language)."""
    from abkit.cli.main import main

    root = tmp_path_factory.mktemp("leaks")
    shutil.copytree(LEAKS, root / "class")
    (root / "rubric.yaml").write_text(RUBRIC, encoding="utf-8")
    assert main(["grade", str(root / "class"), "--out", str(root / "out"), "--rubric", str(root / "rubric.yaml"),
                 "--lang", request.param, "-j", "2"]) == 0
    return root / "out", request.param


@pytest.mark.parametrize("student", STUDENTS)
def test_nothing_told_after_hidden_tests_reaches_feedback_or_gradescope(graded, student):
    out, lang = graded
    folder = out / "students" / student
    for path in folder.iterdir():
        assert TOLD not in path.read_text(encoding="utf-8"), path.name
    results = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    visible = [test for test in results["tests"] if test["visibility"] == "visible"]
    assert visible and not any(TOLD in test["output"] for test in visible)
    feedback = (folder / "feedback.md").read_text(encoding="utf-8")
    alphabeta = feedback.split("## alphabeta", 1)[1]
    if student == "raises_later":  # each test's traceback says why it is not shown
        assert t("grade.sealed.traceback", lang) in alphabeta
    else:  # the death (or the exit at import) in a fixed sentence: no exit status
        assert t("grade.note.sealed", lang, file="alphabeta.py") in alphabeta
        assert "3" not in alphabeta.split("\n\n", 2)[1]


def test_the_death_log_route_is_told_in_its_first_exercise_as_before(tmp_path):
    """Sealing is for what comes after hidden tests: alphabeta.py alone (no minimax.py before it) is told as it
    always was, its exit status and all."""
    from abkit.cli.main import main

    (tmp_path / "class" / "alone").mkdir(parents=True)
    shutil.copy(LEAKS / "death_log" / "alphabeta.py", tmp_path / "class" / "alone")
    (tmp_path / "rubric.yaml").write_text(RUBRIC, encoding="utf-8")
    assert main(["grade", str(tmp_path / "class"), "--out", str(tmp_path / "out"), "--rubric",
                 str(tmp_path / "rubric.yaml"), "--lang", "en"]) == 0
    feedback = (tmp_path / "out" / "students" / "alone" / "feedback.md").read_text(encoding="utf-8")
    assert "(exit status 3)" in feedback


def test_a_sealed_reply_keeps_what_is_judged_and_marks_the_rest():
    tree = from_nested([[3, 12], [2, 4]])
    trace = {"algorithm": "alphabeta", "root": "A", "action": "LEAKED 3", "value": "12 4", "visited": ["A", "B"],
             "evaluated": [], "calls": [["A", "MAX", -1e309, 1e309, 3, None, 0, 0, True, 1],
                                        ["LEAKED", "MIN", "x", 2, None, 0, 1, 0, False, None]],
             "error": "Custom_B1_3: LEAKED", "value_error": "ValueError: LEAKED"}
    reply = {"id": 4, "output": "LEAKED", "traceback": ["LEAKED"], "trace": trace, "tampered": False}
    sealed = sealed_reply(reply, tree, "en")
    assert TOLD not in json.dumps(sealed) and sealed["output"] == ""
    kept = sealed["trace"]
    assert kept["error"] == f"Exception: {MARK}" and kept["value_error"] == f"ValueError: {MARK}"
    assert (kept["action"], kept["value"], kept["visited"]) == (MARK, MARK, ["A", "B"])
    assert kept["calls"][0] == trace["calls"][0] and kept["calls"][1][:5] == [MARK, "MIN", MARK, 2, None]
    assert sealed_reply({"id": 1, "answer": 4}, None, "en")["answer"] == 4
    assert sealed_reply({"id": 1, "answer": 31337}, None, "en")["answer"] == MARK


def test_a_test_students_see_sent_after_the_exercises_own_hidden_tests_tells_nothing(tmp_path):
    """Within one exercise the student's random trees (shown at once) come after the hidden fixtures: their
    exception messages are sealed, the public trees' before them are not."""
    from abkit.cli.main import main

    shutil.copytree(LEAKS.with_name("leaks_within"), tmp_path / "class")
    (tmp_path / "rubric.yaml").write_text(RUBRIC.replace("  minimax: {values: 6, nodes: 1, direct: 3}\n", ""),
                                          encoding="utf-8")
    assert main(["grade", str(tmp_path / "class"), "--out", str(tmp_path / "out"), "--rubric",
                 str(tmp_path / "rubric.yaml"), "--lang", "en"]) == 0
    results = json.loads((tmp_path / "out" / "students" / "tells_in_random" / "results.json").read_text(
        encoding="utf-8"))
    told = {test["name"]: TOLD in test["output"] for test in results["tests"] if test["visibility"] == "visible"}
    assert any(told.values())  # the public trees' messages, told before any hidden test: shown as they were
    assert not any(said for name, said in told.items() if "random tree" in name)
    assert any("random tree" in name for name in told)
