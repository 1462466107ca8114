"""Feedback text: what a student reads for a failing, crashing or unstarted test, in both languages."""

from __future__ import annotations

import json

from abkit.expected import expected_trace
from abkit.fixture import load_fixture
from abkit.loading import PUBLIC_FIXTURES, SOLUTIONS, load_module
from abkit.trace import Trace, traced_search
from abkit.compare import compare
from abkit.feedback import TestResult, render_result, student_traceback
from abkit.textree import ASCII

REFERENCE = (SOLUTIONS / "alphabeta.py").read_text(encoding="utf-8")


def run(tmp_path, source: str, fixture: str = "aima-fig-5-2") -> TestResult:
    path = tmp_path / "alphabeta.py"
    path.write_text(source, encoding="utf-8")
    fx = load_fixture(PUBLIC_FIXTURES / f"{fixture}.yaml")
    expected = expected_trace(fx, "alphabeta")
    student = traced_search(load_module(path), fx.game(), fx.tree.root, "alphabeta")
    found = compare(student, expected, fx.tree, fx.prune_on_equality)
    status = "passed" if not found else "error" if student.error else "failed"
    tb = student_traceback(student.error, [tmp_path]) if student.error else []
    return TestResult("alphabeta", f"alphabeta/{fixture}", fx.title, status, found, student, expected, fx.tree, traceback=tb)


def test_a_pass_is_one_line(tmp_path):
    assert render_result(run(tmp_path, REFERENCE), "en") == "✓ AIMA Figure 5.2 (alphabeta/aima-fig-5-2)"


def test_missed_cut_feedback_marks_the_tree(tmp_path):
    wrong = REFERENCE.replace("v = min_value(game, game.result(state, a), alpha, beta)\n            if best_action",
                              "v = min_value(game, game.result(state, a), -math.inf, beta)\n            if best_action")
    text = render_result(run(tmp_path, wrong), "en")
    assert "First difference: C was entered with α=-∞, β=+∞; the pseudocode enters it with α=3, β=+∞." in text
    assert "Also: after C1 your search generated C2; the pseudocode stops at C (MIN, α=3, β=+∞) instead: after its child C1 = 2, v = 2 ≤ α = 3" in text
    assert "Your search: value 3, action B, 13 nodes. Expected: value 3, action B, 11 nodes." in text
    assert [line.strip()[:8] for line in text.splitlines() if "the pseudocode does not generate this" in line] == ["#8  │  ├", "#9  │  └"]
    korean = render_result(run(tmp_path, wrong), "ko", markdown=True)
    assert korean.startswith("### ✗ AIMA 그림 5.2") and "처음 달라지는 곳" in korean and "```" in korean
    assert "의사코드는 이 노드를 생성하지 않습니다" in korean
    assert "|- " in render_result(run(tmp_path, wrong), "en", g=ASCII)


def test_an_exception_shows_only_the_students_frames(tmp_path):
    crashing = REFERENCE.replace("    v = math.inf\n", "    v = math.inf\n    x = 1 / 0\n")
    result = run(tmp_path, crashing)
    text = render_result(result, "en")
    assert "your search raised ZeroDivisionError" in text
    assert "You stopped there" not in text and "· not reached" in text
    assert all("abkit" not in line for line in result.traceback)
    assert any("x = 1 / 0" in line for line in result.traceback) and result.traceback[-1].startswith("ZeroDivisionError")


def test_status_lines_in_both_languages():
    for status, detail in [("not_started", {"function": "max_value"}), ("missing", {"function": "min_value", "file": "alphabeta.py"}),
                           ("timeout", {"seconds": 2}), ("crashed", {"reason": "SyntaxError"})]:
        result = TestResult("alphabeta", "alphabeta/x", {"en": "X", "ko": "엑스"}, status, detail=detail)
        en, ko = render_result(result, "en"), render_result(result, "ko")
        assert en.startswith("✗ X") and ko.startswith("✗ 엑스") and en.splitlines()[1] != ko.splitlines()[1]
        assert all(str(v) in en and str(v) in ko for v in detail.values())


def test_a_trace_survives_json_and_still_compares(tmp_path):
    wrong = REFERENCE.replace("v > beta or (v == beta and PRUNE_ON_EQUALITY)", "v > beta")
    result = run(tmp_path, wrong.replace("    v = math.inf\n", "    v = math.inf\n    assert False, 'nope'\n"))
    back = Trace.from_dict(json.loads(json.dumps(result.student.to_dict())))
    assert back.error == "AssertionError: nope"
    assert [f.kind for f in compare(back, result.expected, result.tree)] == [f.kind for f in result.findings]


def test_children_of_follows_a_trace_that_grows_or_is_replaced():
    from abkit.trace import Call
    trace = Trace("alphabeta", "A", calls=[Call("A", "MAX"), Call("B", "MIN", parent=0)])
    assert trace.children_of(0) == [1]
    trace.calls.append(Call("C", "MIN", parent=0))
    assert trace.children_of(0) == [1, 2]
    trace.calls = [Call("A", "MAX"), Call("D", "MIN", parent=0), Call("D1", "MAX", parent=1)]
    assert trace.children_of(0) == [1] and trace.children_of(1) == [2]
