"""The student's code in a process of its own (issue 32): every limit of ``abkit check`` holds from outside it.

A loop inside one C call never lets check's watchdog thread run; the child is ended from outside and the report
names the function and line of the student's file that was running. The results the child sends back render
exactly as the same test run in this process renders them.
"""

from __future__ import annotations

import math
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from abkit.compare import Finding
from abkit.coursefolder import current_course
from abkit.feedback import TestResult, render_result
from abkit.i18n import Message
from abkit.info import load_info
from abkit.loading import EXERCISES, SOLUTIONS
from abkit.trace import Call, CountedTrace, Trace
from abkit.tree import from_nested
from abkit.studentloop import check
from abkit.studentloop.check import Label, course_fixtures, load_student, run_case
from abkit.studentloop.childlink import SLACK
from abkit.studentloop.isolated import WAIT, Isolated
from abkit.studentloop.resultdata import from_data, to_data

from styles_harness import STYLES

#: the course file with a short time limit: each stopped test costs it
INFO = (EXERCISES / "info.yaml").read_text(encoding="utf-8").replace("time_limit: 2", "time_limit: 0.5")
C_LOOP = "    sum(range(10**12))  # one C call that does not return for hours\n"
PY_LOOP = "    while True:\n        pass\n"


def student_with(folder: Path, body: str, exercise: str = "alphabeta", function: str = "min_value") -> int:
    """The reference solutions in ``folder``, ``body`` put first in ``function``'s loop body of ``exercise``; the
    line number where it starts."""
    for path in SOLUTIONS.glob("*.py"):
        (folder / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "info.yaml").write_text(INFO, encoding="utf-8")
    path = folder / f"{exercise}.py"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    start = next(k for k, line in enumerate(lines) if line.startswith(f"def {function}("))
    at = next(k for k in range(start, len(lines)) if lines[k].lstrip().startswith("v = "))
    lines[at:at] = [body]
    path.write_text("".join(lines), encoding="utf-8")
    return at + 1


def first_result(folder: Path, exercise: str = "alphabeta") -> tuple[TestResult, float]:
    course = load_info(folder / "info.yaml")
    cases = check.test_cases(course.get(exercise), course_fixtures(course, current_course().public_fixtures))
    started = time.monotonic()
    with Isolated(course, course.get(exercise), folder, cases, ("en", "ko")) as child:
        result = child.run(0)
    return result, time.monotonic() - started


def test_the_child_is_stopped_within_the_limit_plus_a_second_by_construction():
    assert 0 < SLACK < WAIT <= 1.0  # the child dumps its stack and ends first; the parent kills it at the latest


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_a_loop_inside_one_c_call_is_stopped_from_outside_naming_the_function_and_line(tmp_path, monkeypatch,
                                                                                     method):
    monkeypatch.setenv("ABKIT_START_METHOD", method)
    line = student_with(tmp_path, C_LOOP)
    result, elapsed = first_result(tmp_path)
    assert result.status == "timeout"
    assert f"it was running min_value, line {line} of alphabeta.py." in render_result(result, "en")
    assert f"alphabeta.py 파일 {line}번째 줄의 min_value 함수입니다." in render_result(result, "ko")
    assert elapsed < 30  # stopped, not hung (bench/check.py measures how soon)


def test_a_python_loop_is_reported_with_its_function_and_line(tmp_path):
    line = student_with(tmp_path, PY_LOOP)
    result, _ = first_result(tmp_path)
    assert result.status == "timeout"
    assert re.search(rf"running min_value, line {line}|running min_value, line {line + 1}", render_result(result, "en"))


def test_a_loop_at_import_is_told_as_loading_the_file(tmp_path):
    student_with(tmp_path, "")
    path = tmp_path / "alphabeta.py"
    path.write_text("import math\nsum(range(10**12))\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    result, _ = first_result(tmp_path)
    assert result.status == "timeout"
    assert "it was still loading alphabeta.py, at line 2." in render_result(result, "en")


def test_code_that_ends_its_own_process_costs_its_test_and_the_next_test_runs(tmp_path):
    student_with(tmp_path, "    import os\n    os._exit(3)\n", exercise="minimax", function="max_value")
    course = load_info(tmp_path / "info.yaml")
    cases = check.test_cases(course.get("minimax"), course_fixtures(course, current_course().public_fixtures))
    with Isolated(course, course.get("minimax"), tmp_path, cases, ("en",)) as child:
        first, second = child.run(0), child.run(1)
    assert first.status == "crashed"
    assert "ended without sending the test's result (exit status 3)" in render_result(first, "en")
    assert second.status == "passed"  # direct calls on MIN nodes above leaves: a new child loads the file again


def test_abkit_check_reports_the_c_call_loop_and_the_other_exercises(abkit, tmp_path):
    line = student_with(tmp_path, C_LOOP)
    run = abkit("check", "--verbose", "--all", "--exercises", tmp_path, "--lang", "en")
    assert run.status == 1 and "Traceback" not in run.out + run.err
    assert f"running min_value, line {line} of alphabeta.py" in run.out
    assert "✓ AIMA Figure 5.2 (minimax/aima-fig-5-2)" in run.out  # the next exercise runs in a child of its own


def test_trace_mine_reports_the_c_call_loop(abkit, tmp_path):
    line = student_with(tmp_path, C_LOOP)
    fixture = current_course().public_fixtures / "aima-fig-5-2.yaml"
    run = abkit("trace", fixture, "--mine", "--exercises", tmp_path, "--lang", "en")
    assert "Traceback" not in run.out + run.err
    assert f"running min_value, line {line} of alphabeta.py" in run.out + run.err


@pytest.mark.slow
def test_plain_pytest_reports_the_c_call_loop_and_skips_the_rest(tmp_path):
    line = student_with(tmp_path, C_LOOP)
    (tmp_path / "conftest.py").write_text((EXERCISES / "conftest.py").read_text(encoding="utf-8"), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "alphabeta.py"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={**__import__("os").environ, "ABKIT_LANG": "en", "ABKIT_COURSE": str(current_course().root)})
    assert f"running min_value, line {line} of alphabeta.py" in proc.stdout
    assert re.search(r"1 failed, \d+ skipped", proc.stdout), proc.stdout[-2000:]


def test_result_data_rebuilds_every_kind_of_value():
    tree = from_nested([[3, 12], [2, 4]])
    trace = Trace("alphabeta", "A", visited=["A", "B", ("x", 1)], evaluated=["B1"], action="B", value=math.inf,
                  error=RecursionError("maximum recursion depth exceeded"))
    trace.calls = [Call("A", "MAX", -math.inf, math.inf, 3, None, 0, None, False, 4)]
    counted = CountedTrace("alphabeta", (0,) * 9, value=0, action=4, nodes=12, leaves=5)
    result = TestResult("alphabeta", "alphabeta/t", {"en": "T", "ko": "ㅌ"}, status="failed",
                        findings=[Finding("value", ("x", 1), 3, Message("k", tree=Label({"en": "a"}), n=2.5))],
                        student=trace, expected=counted, tree=tree,
                        detail={"seconds": "2", (1, 2): [None, -math.inf]})
    back = from_data(to_data(result))
    assert back.findings[0].node == ("x", 1) and back.findings[0].message.params["tree"].texts == {"en": "a"}
    assert back.student.visited == ["A", "B", ("x", 1)] and back.student.calls == trace.calls
    assert back.student.error == "RecursionError: maximum recursion depth exceeded" and back.student.value == math.inf
    assert (back.expected.nodes, back.expected.leaves, back.expected.root) == (12, 5, (0,) * 9)
    assert back.tree == tree and back.detail == {"seconds": "2", (1, 2): [None, -math.inf]}
    assert from_data(to_data(object())).startswith("<object object at")  # what the student's code made: its repr
    with pytest.raises(ValueError):
        from_data({"value": 1})  # untagged: nothing a harness writes


def _corpus() -> list[tuple[Path, str]]:
    """Every folder of the style corpus (correct styles and written mistakes) with each exercise it holds."""
    folders = [p for p in STYLES.iterdir() if p.is_dir() and p.name != "mistakes"]
    folders += [p for p in (STYLES / "mistakes").glob("*/*") if p.is_dir()]
    return [(folder, path.stem) for folder in sorted(folders) for path in sorted(folder.glob("*.py"))]


@pytest.mark.slow
@pytest.mark.parametrize("folder, exercise", _corpus(), ids=lambda v: v.name if isinstance(v, Path) else v)
def test_the_childs_results_read_as_this_processs_do(tmp_path, folder, exercise):
    (tmp_path / f"{exercise}.py").write_text((folder / f"{exercise}.py").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "info.yaml").write_text((EXERCISES / "info.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    course = load_info(tmp_path / "info.yaml")
    if course.get(exercise) is None:
        pytest.skip(f"{exercise} is a helper module of the style, not an exercise")
    cases = check.test_cases(course.get(exercise), course_fixtures(course, current_course().public_fixtures))
    student = load_student(course.get(exercise), tmp_path, course.time_limit)
    here = [run_case(case, student, course, tmp_path) for case in cases]
    with Isolated(course, course.get(exercise), tmp_path, cases) as child:
        there = [child.run(k) for k in range(len(cases))]
    for mine, theirs in zip(here, there):
        assert (theirs.status, theirs.passed) == (mine.status, mine.passed)
        for lang in ("en", "ko"):
            assert render_result(theirs, lang) == render_result(mine, lang)
