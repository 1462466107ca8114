"""``abkit check``, ``hint`` and ``watch`` on the current exercise; a search that does not end; the stubs' words.

The current exercise is the first in ``info.yaml``'s order that does not pass all its public tests: shown in full,
every other exercise in one line (passed, not started, failing), then ``Progress: N/5 exercises``.
"""

from __future__ import annotations

import doctest
import shutil
import time
import types

import pytest

from abkit.loading import EXERCISES, SOLUTIONS, load_module
from abkit.cli.student import watch as watch_command
from abkit.info import load_info
from abkit.studentloop.report import FAILING, NOT_STARTED, PASSED, exercise_runs
from helpers import STRICT, edited

NAMES = load_info(EXERCISES / "info.yaml").names()
INFO = (EXERCISES / "info.yaml").read_text(encoding="utf-8")
LOOP = "    while True:\n        pass\n"


def source(name: str, solved: bool) -> str:
    return ((SOLUTIONS if solved else EXERCISES) / f"{name}.py").read_text(encoding="utf-8")


@pytest.fixture
def folder(tmp_path):
    """A student's exercises/: the first ``solved`` exercises are the reference, the rest fresh stubs; ``files``
    replace single files; ``info`` the course file."""

    def make(solved: int = 0, info: str = INFO, **files: str):
        for k, name in enumerate(NAMES):
            (tmp_path / f"{name}.py").write_text(files.get(name, source(name, k < solved)), encoding="utf-8")
        (tmp_path / "info.yaml").write_text(info, encoding="utf-8")
        return tmp_path

    return make


def test_fresh_stubs_show_the_first_exercise_in_full_and_one_line_each_after_it(abkit, folder):
    run = abkit("check", "--exercises", folder(), "--lang", "en")
    lines = run.out.splitlines()
    assert run.status == 1 and lines[0] == "== minimax · Minimax decision ==" and len(lines) < 40
    assert "minimax: 0 of 37 public tests pass. Stuck? Try 'abkit hint minimax'." in lines
    assert lines.index("○ alphabeta · Alpha-beta search: not started") > lines.index("minimax: 0 of 37 public tests pass. "
                                                                                     "Stuck? Try 'abkit hint minimax'.")
    assert sum(line.endswith(": not started") for line in lines) == 4 and "== alphabeta" not in run.out
    assert "Progress: 0/5 exercises [--------------------]" in lines
    # (16: the hidden trees minimax is graded on under the course's rule, those written for CS188 included, the
    # CS188 copy of rule-split-max replaced by it)
    assert "(minimax +16 hidden trees, and random trees of its own)" in run.out  # the current exercise's only


def test_the_current_exercise_moves_on_when_one_passes(abkit, folder):
    run = abkit("check", "--exercises", folder(solved=1), "--lang", "en")
    lines = run.out.splitlines()
    assert run.status == 1 and lines[0] == "✓ minimax · Minimax decision: passed (37 public tests)"
    assert lines[2] == "== alphabeta · Alpha-beta search ==" and "== minimax" not in run.out
    assert "Progress: 1/5 exercises [####----------------]" in lines
    run = abkit("check", "--exercises", folder(solved=1), "--lang", "ko")
    assert "✓ minimax · 미니맥스 결정: 통과(공개 테스트 37개)" in run.out and "== alphabeta · 알파베타 탐색 ==" in run.out
    assert "진행: 연습 문제 5개 중 1개 완료 [####----------------]" in run.out
    assert "○ ordering · EVAL과 반복 심화로 수 순서 정하기: 아직 시작하지 않음" in run.out


def test_a_failing_exercise_after_the_current_one_names_its_first_failing_test(abkit, folder):
    wrong = edited(source("alphabeta", True), STRICT)
    run = abkit("check", "--exercises", folder(alphabeta=wrong), "--lang", "en")
    assert "== minimax" in run.out and "== alphabeta" not in run.out
    assert ("✗ alphabeta · Alpha-beta search: failing (the first test that fails: Ties at the root; "
            "'abkit check alphabeta' shows why)") in run.out
    run = abkit("check", "--exercises", folder(solved=1, alphabeta=wrong), "--lang", "en")
    assert "== alphabeta · Alpha-beta search ==" in run.out and "First difference: after C1 your search" in run.out


def test_all_shows_every_exercise_and_a_named_one_is_shown_alone(abkit, folder):
    run = abkit("check", "--all", "--exercises", folder(solved=2), "--lang", "en")
    assert all(f"== {name} " in run.out for name in NAMES) and "Progress: 2/5 exercises" in run.out
    assert "minimax: every public test passes (37 tests)." in run.out and run.status == 1
    run = abkit("check", "alphabeta", "--exercises", folder(solved=2), "--lang", "en")
    assert run.status == 0 and "== alphabeta" in run.out and "== minimax" not in run.out and "○" not in run.out
    assert "Progress: 2/5 exercises" in run.out and "(alphabeta +18 hidden trees," in run.out


def test_an_exercise_status_runs_only_as_far_as_its_first_failing_test(folder):
    course = load_info(EXERCISES / "info.yaml")
    wrong = edited(source("alphabeta", True), STRICT)
    minimax, alphabeta, cutoff, *_ = exercise_runs(course, folder(solved=3, alphabeta=wrong))
    assert (minimax.status, alphabeta.status, cutoff.status) == (PASSED, FAILING, PASSED)
    assert len(minimax.results) == minimax.total == 37 and len(cutoff.results) == cutoff.total
    assert 0 < len(alphabeta.results) < alphabeta.total and not alphabeta.results[-1].passed
    assert len(alphabeta.run_all()) == alphabeta.total  # then shown in full: every test


def test_an_exercise_half_written_is_failing_not_not_started(folder):
    """minimax_decision written, MAX-VALUE/MIN-VALUE still TODOs: the terminal root passes, the rest meets a TODO."""
    stub = source("minimax", False)
    decision = source("minimax", True).split("def max_value")[0]
    half = decision + "def max_value" + stub.split("def max_value", 1)[1]
    (run,) = [r for r in exercise_runs(load_info(EXERCISES / "info.yaml"), folder(minimax=half)) if r.name == "minimax"]
    assert run.status == FAILING and {r.status for r in run.run_all()} == {"passed", "not_started"}
    assert exercise_runs(load_info(EXERCISES / "info.yaml"), folder())[1].status == NOT_STARTED


def test_hint_without_an_exercise_hints_the_current_one(abkit, folder):
    run = abkit("hint", "--exercises", folder(), "--lang", "en")
    assert run.status == 0 and run.out.startswith("Hint 1 of 3 for minimax (Minimax decision):")
    run = abkit("hint", "2", "--exercises", folder(solved=1), "--lang", "en")
    assert run.out.count("for alphabeta (Alpha-beta search):") == 2 and "Hint 3" not in run.out
    run = abkit("hint", "--exercises", folder(solved=5), "--lang", "ko")
    assert run.status == 0 and "모든 연습 문제가 공개 테스트를 통과합니다" in run.out and "abkit hint ordering" in run.out
    assert abkit("hint", "expectimax", "--exercises", folder(), "--lang", "en").out.startswith("Hint 1 of ")


def test_watch_follows_the_current_exercise(capsys, folder):
    student = folder()
    sleeps = []

    def sleep(seconds):
        sleeps.append(seconds)
        if len(sleeps) == 1:
            shutil.copy(SOLUTIONS / "minimax.py", student / "minimax.py")
        if len(sleeps) == 3:
            raise KeyboardInterrupt

    args = types.SimpleNamespace(exercises=str(student), exercise=None, interval=0.1, lang="en", every=False)
    assert watch_command.run(args, sleep=sleep) == 0
    first, second = capsys.readouterr().out.split("Watching", 1)
    assert "== minimax" in first and "== alphabeta" not in first
    assert "✓ minimax · Minimax decision: passed" in second and "== alphabeta" in second


@pytest.mark.slow
def test_a_search_that_never_ends_stops_its_exercise_with_one_message(abkit, folder):
    """The first test's time-out ends the exercise: the tree, the usual cause, how many tests were not run; then
    the other exercises' lines. 33 more time-outs would have taken 33 times the limit."""
    looping = source("minimax", True).replace("    v = math.inf\n", "    v = math.inf\n" + LOOP)
    info = INFO.replace("time_limit: 2", "time_limit: 0.2")
    start = time.monotonic()
    run = abkit("check", "--exercises", folder(minimax=looping, info=info), "--lang", "en")
    assert time.monotonic() - start < 0.2 * 5 + 2  # one time-out, not seventeen
    assert run.status == 1 and run.out.count("did not finish") == 1
    assert ("The search did not finish on AIMA Figure 5.2 within 0.2 s, so 36 other tests of minimax did not "
            "run. The usual cause is an endless recursion (calls that never reach a terminal state)") in run.out
    assert "minimax: 0 of 37 public tests pass." in run.out and "○ alphabeta · Alpha-beta search: not started" in run.out
    run = abkit("check", "--exercises", folder(minimax=looping, info=info), "--lang", "ko")
    assert ("AIMA 그림 5.2 트리에서 탐색이 0.2초 안에 끝나지 않아 minimax의 나머지 테스트 36개는 실행하지 "
            "않았습니다. 흔한 원인은 끝없는 재귀") in run.out


def test_a_later_exercise_that_never_ends_is_one_failing_line(abkit, folder):
    looping = source("alphabeta", True).replace("    v = math.inf\n", "    v = math.inf\n" + LOOP, 1)
    info = INFO.replace("time_limit: 2", "time_limit: 0.2")
    run = abkit("check", "--exercises", folder(alphabeta=looping, info=info), "--lang", "en")
    assert "== minimax" in run.out and "did not finish" not in run.out
    assert "✗ alphabeta · Alpha-beta search: failing (" in run.out


@pytest.mark.slow
def test_plain_pytest_skips_the_rest_of_a_file_after_a_search_that_never_ends(tmp_path):
    import os
    import subprocess
    import sys

    from abkit.loading import PUBLIC_FIXTURES

    (tmp_path / "abkit-course.toml").write_text('kit_version = "0"\n', encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    shutil.copytree(PUBLIC_FIXTURES, tmp_path / "fixtures" / "public")
    exercises = tmp_path / "exercises"
    exercises.mkdir()
    shutil.copy(EXERCISES / "conftest.py", exercises / "conftest.py")
    (exercises / "info.yaml").write_text(INFO.replace("time_limit: 2", "time_limit: 0.2"), encoding="utf-8")
    looping = source("minimax", True).replace("    v = math.inf\n", "    v = math.inf\n" + LOOP)
    (exercises / "minimax.py").write_text(looping, encoding="utf-8")
    env = {**os.environ, "ABKIT_LANG": "en", "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rs", "exercises/minimax.py"],
                          cwd=tmp_path, capture_output=True, text=True, encoding="utf-8", env=env, timeout=120)
    assert proc.returncode == 1 and "1 failed, 36 skipped" in proc.stdout, proc.stdout
    assert "The search did not finish on AIMA Figure 5.2 within 0.2 s" in proc.stdout
    assert "not run: the search of minimax was stopped in an earlier test (minimax/aima-fig-5-2)" in proc.stdout


def test_the_stubs_say_what_the_games_methods_return_with_a_doctest_that_runs():
    for name in NAMES:
        text = (EXERCISES / f"{name}.py").read_text(encoding="utf-8")
        words = text.split('"""')[1]
        for method, answer in (("to_move", '"MAX" or "MIN"'), ("actions", "the list of the actions"),
                               ("result", "the state that action a leads to"), ("terminal_test", "True when"),
                               ("utility", "the value of a terminal state for MAX")):
            assert f"game.{method}(" in words and answer in words, (name, method)
        assert "\"MAX\" 또는 \"MIN\"" in words
        result = doctest.testmod(load_module(EXERCISES / f"{name}.py"), optionflags=doctest.ELLIPSIS)
        assert result.attempted == 3 and result.failed == 0, name
