"""``abkit check``, ``hint`` and ``watch`` as a student meets them: stubs, known mistakes, crashes, loops."""

from __future__ import annotations

import re
import subprocess
import sys
import types

import pytest

from abkit.loading import EXERCISES, SOLUTIONS
from abkit.expected import direct_calls
from abkit.studentloop.check import Watchdog, subtrace
from abkit.cli.student import watch as watch_command
from helpers import NO_PASS, ROOT_NO_PASS, STRICT, edited

ALPHABETA = (SOLUTIONS / "alphabeta.py").read_text(encoding="utf-8")
MINIMAX = (SOLUTIONS / "minimax.py").read_text(encoding="utf-8")
INFO = (EXERCISES / "info.yaml").read_text(encoding="utf-8")
#: the course file with the minimax exercise alone: under a tiny time limit the other exercises' searches would
#: be interrupted too, and every interrupt of the watchdog is one more chance to land outside the student's code
MINIMAX_ONLY = INFO.split("  - name: alphabeta\n")[0]

#: fail-hard returns as a textual edit of the reference (the issue's three mistakes are in helpers.py)
FAIL_HARD = [("if v < alpha or (v == alpha and PRUNE_ON_EQUALITY):\n            return v",
              "if v < alpha or (v == alpha and PRUNE_ON_EQUALITY):\n            return alpha")]


def only(fixture: str, info: str = INFO) -> str:
    """The course file with every exercise's tests narrowed to one fixture (a slow failure, once)."""
    assert 'fixtures: ["*.yaml"]' in info
    return info.replace('fixtures: ["*.yaml"]', f'fixtures: ["{fixture}.yaml"]')


@pytest.fixture
def student(tmp_path):
    """A folder of exercise files: the reference unless told otherwise; returns its path."""

    def make(alphabeta: str = ALPHABETA, minimax: str = MINIMAX, info: str = INFO):
        (tmp_path / "alphabeta.py").write_text(alphabeta, encoding="utf-8")
        (tmp_path / "minimax.py").write_text(minimax, encoding="utf-8")
        (tmp_path / "info.yaml").write_text(info, encoding="utf-8")
        for name in ("alphabeta_cutoff.py", "expectimax.py", "ordering.py"):
            (tmp_path / name).write_text((SOLUTIONS / name).read_text(encoding="utf-8"), encoding="utf-8")
        return tmp_path

    return make


def test_the_stubs_read_as_not_started(abkit):
    for lang, words in (("en", "Not started yet: alpha_beta_search still raises NotImplementedError"),
                        ("ko", "아직 시작하지 않았습니다: alpha_beta_search")):
        run = abkit("check", "--all", "--lang", lang)
        assert run.status == 1 and words in run.out and "Traceback" not in run.out
        assert run.out.count("NotImplementedError") == 5  # once per exercise, the rest collapsed


def test_a_fresh_stub_points_at_its_todo_not_a_traceback(abkit):
    """The current exercise of a new student is the first; the message names the file and line of the TODO."""
    lines = (EXERCISES / "minimax.py").read_text(encoding="utf-8").splitlines()
    todo = next(k for k, line in enumerate(lines, 1) if 'raise NotImplementedError("minimax_decision")' in line)
    assert "TODO" in lines[todo - 2]
    run = abkit("check", "--lang", "en")
    assert run.status == 1 and "Traceback" not in run.out and "File " not in run.out
    assert (f"Not started yet: minimax_decision still raises NotImplementedError at the TODO in exercises/minimax.py, "
            f"line {todo}. Replace the TODO with your code.") in run.out
    run = abkit("check", "--lang", "ko")
    assert f"minimax_decision 함수가 exercises/minimax.py 파일 {todo}번째 줄의 TODO에서" in run.out


def test_the_reference_passes_every_public_test(abkit, student):
    run = abkit("check", "--verbose", "--all", "--exercises", student(), "--lang", "en")
    assert run.status == 0 and "✗" not in run.out
    assert "minimax: every public test passes (37 tests)." in run.out
    assert "expectimax: every public test passes (3 tests)." in run.out
    assert "alphabeta/aima-fig-5-2/direct" in run.out
    assert "Progress: 5/5 exercises [####################]" in run.out
    assert "hidden trees" in run.out and "not a full grade" in run.out


def test_with_every_exercise_passing_check_shows_one_line_each(abkit, student):
    run = abkit("check", "--exercises", student(), "--lang", "en")
    assert run.status == 0 and "==" not in run.out
    assert "✓ minimax · Minimax decision: passed (37 public tests)" in run.out
    assert "✓ expectimax · Expectiminimax for games of chance: passed (3 public tests)" in run.out
    assert "Progress: 5/5 exercises" in run.out and "expectimax +5 hidden trees," in run.out


@pytest.mark.parametrize("edits,lang,words", [
    (STRICT, "en", "after C1 your search generated C2; the pseudocode stops at C (MIN, α=3, β=+∞) instead: after its "
                   "child C1 = 3, v = 3 ≤ α = 3, so it returns at once (cut off: C2)."),
    (STRICT, "ko", "그러나 의사코드는 C (MIN, α=3, β=+∞)에서 멈춥니다. 자식 C1(값 3)까지 탐색하고 나면 v = 3 ≤ α = 3이므로"),
    (NO_PASS, "en", "the pseudocode stops at C1a (MIN, α=5, β=+∞) instead: after its child C1a1 = 3, v = 3 ≤ α = 5, so it "
                    "returns at once (cut off: C1a2)."),
    (NO_PASS, "en", "Pass the current α and β on to the recursive call"),
    (ROOT_NO_PASS, "en", "The root must pass its updated α"),
    (ROOT_NO_PASS, "ko", "내 탐색은 C1 다음에 C2 노드를 생성했습니다."),
    (FAIL_HARD, "en", "C returned 3; the pseudocode returns 2"),
])
def test_known_mistakes_name_the_node_and_the_cut(abkit, student, edits, lang, words):
    run = abkit("check", "--verbose", "alphabeta", "--exercises", student(edited(ALPHABETA, edits)), "--lang", lang)
    assert run.status == 1 and words in run.out
    assert "== minimax" not in run.out and "✓ minimax" not in run.out  # only the exercise asked for
    assert ("Progress: 4/5 exercises" if lang == "en" else "진행: 연습 문제 5개 중 4개 완료") in run.out  # all of them


def test_a_root_value_off_is_said_of_the_call_that_gave_it(abkit, student):
    """The search loops over the root's actions itself (and chooses well); the root's value is its MAX-VALUE called
    on the root after the search, with α and β swapped: the finding names that call, not the search."""
    swapped = [("v = max(v, min_value(game, game.result(state, a), alpha, beta))",
                "v = max(v, min_value(game, game.result(state, a), beta, alpha))")]
    folder = student(edited(ALPHABETA, swapped))
    run = abkit("check", "--verbose", "alphabeta", "--exercises", folder, "--lang", "en")
    assert ("First difference: max_value(game, 'A', -∞, +∞), called on the root after the search to check its value, "
            "returned 14; expected 3.") in run.out and "the value of the root is" not in run.out
    assert ("C1a was entered with α=+∞, β=5; the pseudocode enters it with α=5, β=+∞. Its α is above its β, which no "
            "call of the pseudocode has: check the order in which α and β are passed") in run.out
    run = abkit("check", "--verbose", "alphabeta", "--exercises", folder, "--lang", "ko")
    assert "탐색이 끝난 뒤 루트의 값을 확인하려고 호출한 max_value(game, 'A', -∞, +∞)의 결과는 14, 정답은 3입니다." in run.out
    assert "α가 β보다 큰데, 의사코드에는 그런 호출이 없습니다." in run.out


def test_an_exception_is_told_once_with_its_traceback_and_no_advice_on_what_it_stopped(abkit, student):
    """A search that raises at C evaluated nothing after it because it raised: no finding tells it to call UTILITY;
    the traceback is shown at the first test, and the later tests say it is there."""
    raising = [("    v = math.inf\n", "    v = math.inf\n    if state == 'C':\n        raise ValueError('oops')\n")]
    for lang, below, above in (("en", "(its traceback is shown below)",
                                "as in the test alphabeta/aima-fig-5-2 above (its traceback is shown there)"),
                               ("ko", "(아래에 트레이스백이 있습니다)",
                                "alphabeta/aima-fig-5-2 테스트에서처럼 탐색 코드에서 ValueError 예외가 발생했습니다")):
        run = abkit("check", "--verbose", "alphabeta", "--exercises", student(edited(ALPHABETA, raising)), "--lang", lang)
        assert run.status == 1 and "UTILITY" not in run.out
        shown = run.out.count("Where your code failed" if lang == "en" else "코드가 실패한 곳")
        assert shown == 1 and run.out.count(below) == 1 and run.out.count(above) > 5
        assert run.out.index(below) < run.out.index(above)


NO_TERMINAL_TEST = [("    # BEGIN SOLUTION\n    if game.terminal_test(state):\n        return game.utility(state)\n"
                     "    v = -math.inf", "    # BEGIN SOLUTION\n    v = -math.inf")]
UTILITY_TWICE = [("    if game.terminal_test(state):\n        return game.utility(state)\n    v = math.inf",
                  "    if game.terminal_test(state):\n        game.utility(state)\n        return game.utility(state)\n"
                  "    v = math.inf")]


@pytest.mark.parametrize("exercise,edits,english,not_said,korean", [
    # MAX-VALUE without its terminal test returns -∞ at a leaf: told what a terminal state returns
    ("minimax", NO_TERMINAL_TEST, "B1 returned -∞; the pseudocode returns 3: B1 is a terminal state, where MAX-VALUE and "
     "MIN-VALUE return UTILITY(B1) at once.", "best child value",
     "B1은 단말 상태이므로 MAX-VALUE와 MIN-VALUE는 곧바로 UTILITY(B1) 값을 돌려줍니다."),
    # UTILITY called twice on each leaf: told as a second call, not as another state's evaluation
    ("alphabeta", UTILITY_TWICE, "First difference: your search called UTILITY on B1 a second time: the pseudocode "
     "calls UTILITY once on each terminal state it reaches", "where the pseudocode calls UTILITY on B2",
     "내 탐색은 B1에 UTILITY 함수를 두 번째로 호출했습니다."),
])
def test_a_finding_says_what_the_search_did(abkit, student, exercise, edits, english, not_said, korean):
    source = {"minimax": MINIMAX, "alphabeta": ALPHABETA}[exercise]
    folder = student(**{exercise: edited(source, edits)})
    run = abkit("check", "--verbose", exercise, "--exercises", folder, "--lang", "en")
    searches = [block for block in run.out.split("\n✗")[1:] if "called directly" not in block.splitlines()[0]]
    assert english in run.out and not any(not_said in block for block in searches)  # (a direct call on B may say
    # B's best child value: B is no leaf)
    assert korean in abkit("check", "--verbose", exercise, "--exercises", folder, "--lang", "ko").out


def test_what_the_code_prints_stays_with_its_test(abkit, student):
    """Prints are kept per test: a failing test shows the first ten lines and how many there were, a passing one how
    many it printed; nothing is poured out ahead of the report."""
    printing = STRICT + [("    for a in game.actions(state):\n        v = max(v,",
                          "    for a in game.actions(state):\n        print('at', state, a)\n        v = max(v,")]
    run = abkit("check", "--verbose", "alphabeta", "--exercises", student(edited(ALPHABETA, printing)), "--lang", "en")
    assert run.out.startswith("== alphabeta")  # no print before the report
    assert "✓ AIMA Figure 5.2 (alphabeta/aima-fig-5-2)\n    (your code printed 3 lines during this test: shown for " \
           "failing tests only)" in run.out
    assert "✗ Ties at the root (alphabeta/root-ties)" in run.out
    failing = run.out.split("✗ Ties at the root (alphabeta/root-ties)")[1].split("\n✓")[0].split("\n✗")[0]
    assert "    Your code printed, during this test:\n      at A B\n      at A C\n      at A D\n" in failing
    assert "Your code printed 96 lines during this test; the first 10:" in run.out  # a tic-tac-toe position
    run = abkit("check", "--verbose", "alphabeta", "--exercises", student(edited(ALPHABETA, printing)), "--lang", "ko")
    assert "이 테스트 동안 코드가 96줄을 출력했습니다. 처음 10줄:" in run.out


def test_a_max_value_that_never_updates_alpha_is_caught_on_a_public_tree(abkit, student):
    """MAX-VALUE without ``alpha = max(alpha, v)``: the deep cut-off tree's C1c is entered with the root's α instead
    of C1's own, and the finding says which node passed it on unchanged."""
    no_update = [("            return v\n        alpha = max(alpha, v)\n", "            return v\n")]
    run = abkit("check", "alphabeta", "--exercises", student(edited(ALPHABETA, no_update)), "--lang", "en")
    assert "✗ A deep cut-off (alphabeta/deep-cutoff)\n    First difference: C1c was entered with α=5, β=+∞; the " \
           "pseudocode enters it with α=7, β=+∞. C1 passed on the window it was entered with, unchanged: check that a " \
           "MAX node updates α after each child" in run.out


@pytest.mark.parametrize("typed", ["minimax.py", "exercises/minimax.py", "exercises\\minimax.py"])
def test_an_exercise_may_be_named_by_its_file(abkit, student, typed):
    run = abkit("check", typed, "--exercises", student(), "--lang", "en")
    assert run.status == 0 and "== minimax · Minimax decision ==" in run.out and "== alphabeta" not in run.out
    assert abkit("check", "negamax.py", "--exercises", student(), "--lang", "en").status == 2


def test_the_root_mistake_passes_the_direct_calls(abkit, student):
    """Direct calls of MIN-VALUE with the right window isolate the root's loop as the culprit."""
    run = abkit("check", "--verbose", "alphabeta", "--exercises", student(edited(ALPHABETA, ROOT_NO_PASS)), "--lang", "en")
    assert "✓ AIMA Figure 5.2 · MAX-VALUE/MIN-VALUE called directly" in run.out
    assert "✗ AIMA Figure 5.2 (alphabeta/aima-fig-5-2)" in run.out


def test_a_direct_call_names_the_call_and_its_fail_soft_value(abkit, student):
    run = abkit("check", "alphabeta", "--exercises", student(edited(ALPHABETA, FAIL_HARD)), "--lang", "en")
    assert "Called directly: min_value(game, 'C', 3, +∞)." in run.out
    assert "Your call: value 3, 2 nodes. Expected: value 2, 2 nodes." in run.out


def test_the_tree_is_drawn_once_per_exercise(abkit, student):
    run = abkit("check", "alphabeta", "--exercises", student(edited(ALPHABETA, ROOT_NO_PASS)), "--lang", "en")
    assert run.out.count("The tree your search explored") == 1
    assert "#8  │  ├─ C2 = 4   ⚠ the pseudocode does not generate this" in run.out


def test_an_exception_shows_the_students_lines_only(abkit, student):
    crashing = ALPHABETA.replace("    v = math.inf\n", "    v = math.inf\n    x = 1 / 0\n")
    run = abkit("check", "alphabeta", "--exercises", student(crashing), "--lang", "en")
    assert run.status == 1 and "your search raised ZeroDivisionError" in run.out
    assert "x = 1 / 0" in run.out and "ZeroDivisionError: division by zero" in run.out
    assert "grader" not in run.out.replace("grader also", "") and "abkit/" not in run.out


def test_endless_recursion_is_explained_and_its_traceback_trimmed(abkit, student):
    looping = edited(ALPHABETA, [("v = max(v, min_value(game, game.result(state, a), alpha, beta))",
                                  "v = max(v, min_value(game, state, alpha, beta))"),
                                 ("v = min(v, max_value(game, game.result(state, a), alpha, beta))",
                                  "v = min(v, max_value(game, state, alpha, beta))")])
    run = abkit("check", "alphabeta", "--exercises", student(looping, info=only("deep-cutoff")), "--lang", "en")
    assert "RecursionError" in run.out and "The recursion never ended" in run.out
    assert "... [+" in run.out and len(run.out.splitlines()) < 80


def test_an_endless_loop_is_stopped_at_the_time_limit(abkit, student):
    looping = MINIMAX.replace("    v = math.inf\n", "    v = math.inf\n    while True:\n        pass\n")
    info = only("aima-fig-5-2", MINIMAX_ONLY).replace("time_limit: 2", "time_limit: 0.05")
    run = abkit("check", "minimax", "--exercises", student(minimax=looping, info=info), "--lang", "en")
    assert run.status == 1 and "The search did not finish on AIMA Figure 5.2 within 0.05 s, so 2 other tests of minimax did " \
        "not run. The usual cause" in run.out  # (the others: its direct calls, and the same tree searched again)


def test_an_endless_loop_at_import_is_stopped_too(abkit, student):
    info = MINIMAX_ONLY.replace("time_limit: 2", "time_limit: 0.05")
    run = abkit("check", "minimax", "--exercises", student(minimax="while True:\n    pass\n", info=info), "--lang", "ko")
    assert run.status == 1 and "0.05초 뒤에 중단했습니다" in run.out


@pytest.mark.parametrize("source,words", [
    ("def minimax_decision(game, state)\n", "Your code could not run: SyntaxError"),
    ("import no_such_module_here\n", "Your code could not run: ModuleNotFoundError"),
    ("raise SystemExit(3)\n", "Your code could not run: SystemExit(3)"),
    ("def max_value(game, state):\n    return 0\n", "minimax_decision is missing from minimax.py"),
    (MINIMAX.replace("    if game.terminal_test(state):\n        return None", "    raise SystemExit(1)"),
     "Your code ended the program with SystemExit(1) (sys.exit or exit): a search returns its value; it must not end "
     "the program.\n    Where your code failed (your files only):\n"),
])
def test_a_file_that_cannot_run_says_why(abkit, student, source, words):
    run = abkit("check", "minimax", "--exercises", student(minimax=source), "--lang", "en")
    assert run.status == 1 and words in run.out and "Traceback (most recent" not in run.out


def test_a_missing_file_is_named(abkit, student):
    folder = student()
    (folder / "minimax.py").unlink()
    run = abkit("check", "minimax", "--exercises", folder, "--lang", "en")
    assert run.status == 1 and "minimax.py is missing from" in run.out


@pytest.mark.parametrize("args,words", [
    (("check", "negamax"), "there is no exercise named 'negamax'. The exercises are: minimax, alphabeta, alphabeta_cutoff, expectimax, ordering."),
    (("check", "--exercises", "/no/such/folder"), "the folder /no/such/folder does not exist."),
    (("hint", "alphabeta", "0"), "N must be between 1 and 4, not 0."),
    (("hint", "negamax"), "no exercise named"),
    (("watch", "--interval", "0"), "--interval must be more than 0 seconds"),
])
def test_bad_input_is_a_message_and_status_2(abkit, args, words):
    run = abkit(*args, "--lang", "en")
    assert run.status == 2 and words in run.err and "Traceback" not in run.err


@pytest.mark.parametrize("info,words", [
    ("exercises: []\n", "'exercises' must be a non-empty list"),
    ("time_limit: -1\nexercises: [{name: x}]\n", "'time_limit' must be a positive number"),
    ("exercises: [{name: 1x}]\n", "exercise 1: 'name' must be a Python file name"),
    ("exercises: [{name: x, algorithm: negamax}]\n", "'algorithm' must be one of minimax, alphabeta, cutoff, expectimax, ordering"),
    ("exercises: [{name: x, algorithm: minimax, hints: {en: [a], ko: []}}]\n", "the same number of hints"),
    ("exercises: [{name: x, algorithm: minimax, hints: {en: [a], ko: [b]}, title: x}]\n", "'title' needs"),
    (INFO + INFO[INFO.index("  - name: minimax"):INFO.index("  - name: alphabeta")], "two exercises have the same name"),
    ("exercises: [\n", "cannot read it"),
])
def test_a_broken_info_file_is_path_and_problem(abkit, student, info, words):
    # (a `rule:` here, the course's rule named again or another: tests/test_course_rule.py)
    folder = student(info=info)
    run = abkit("check", "--exercises", folder, "--lang", "en")
    assert run.status == 2 and f"{folder / 'info.yaml'}: " in run.err and words in run.err


def test_hints_are_staged_in_both_languages(abkit):
    run = abkit("hint", "alphabeta", "--lang", "en")
    assert run.status == 0 and run.out.startswith("Hint 1 of 4 for alphabeta (Alpha-beta search):")
    assert "'abkit hint alphabeta 2' shows the next hint" in run.out and "Hint 2" not in run.out
    run = abkit("hint", "alphabeta", "9", "--lang", "ko")
    assert run.out.count("힌트 4개 중") == 4 and "마지막 힌트" in run.out


def _watch_a_fix(folder, saved, capsys) -> tuple[list, str]:
    """Run ``abkit watch`` on alphabeta: ``saved`` (a file of ``folder``) is written fixed after the second poll,
    Ctrl-C comes at the fourth; the polls' intervals and what was printed."""
    sleeps = []

    def sleep(seconds):
        sleeps.append(seconds)
        if len(sleeps) == 2:
            (folder / saved).write_text(ALPHABETA + "\n# fixed\n", encoding="utf-8")
        if len(sleeps) == 4:
            raise KeyboardInterrupt

    args = types.SimpleNamespace(exercises=str(folder), exercise="alphabeta", interval=0.25, lang="en")
    assert watch_command.run(args, sleep=sleep) == 0
    return sleeps, capsys.readouterr().out


def _fixed_between_checks(out: str) -> bool:
    first, second = out.split("Watching")[0], out.split("Watching", 1)[1]
    return "✗ Ties at the root" in first and "✗" not in second and "All public tests pass. Still watching" in second


def test_watch_checks_again_after_a_save_and_stops_on_ctrl_c(capsys, student):
    folder = student(alphabeta=edited(ALPHABETA, STRICT))
    sleeps, out = _watch_a_fix(folder, "alphabeta.py", capsys)
    assert sleeps == [0.25] * 4 and out.count("== alphabeta") == 2
    assert _fixed_between_checks(out)
    assert out.rstrip().endswith("Stopped watching.")


def test_watch_imports_an_edited_helper_module_again(capsys, student):
    """A helper the student's file imports is imported afresh at each re-check, as a new ``abkit check`` would."""
    folder = student(alphabeta="from abkit_watch_helper import *\n")
    (folder / "abkit_watch_helper.py").write_text(edited(ALPHABETA, STRICT), encoding="utf-8")
    try:
        _, out = _watch_a_fix(folder, "abkit_watch_helper.py", capsys)
    finally:
        sys.modules.pop("abkit_watch_helper", None)
    assert _fixed_between_checks(out)


def test_watch_checks_again_a_file_saved_while_a_check_ran(tmp_path):
    """A save made during a (slow) check is not taken as the state that check saw: it is checked once it is over."""
    from abkit.studentloop.watch import watch

    code = tmp_path / "alphabeta.py"
    code.write_text("broken\n", encoding="utf-8")
    checked = []

    def check():
        checked.append(code.read_text(encoding="utf-8"))
        if len(checked) == 1:  # the student saves the fix while the first check is still running
            code.write_text("fixed, and longer\n", encoding="utf-8")

    def sleep(seconds):
        if len(checked) > 1 or sleep.calls == 3:
            raise KeyboardInterrupt
        sleep.calls += 1
    sleep.calls = 0
    with pytest.raises(KeyboardInterrupt):
        watch(tmp_path, check, sleep=sleep)
    assert checked == ["broken\n", "fixed, and longer\n"]


def test_a_real_ctrl_c_is_not_a_timeout():
    with pytest.raises(KeyboardInterrupt), Watchdog(60) as dog:
        raise KeyboardInterrupt
    assert not dog.fired


def test_direct_calls_and_their_expected_subtrace():
    from abkit.expected import expected_trace
    from abkit.fixture import load_fixture
    from abkit.loading import PUBLIC_FIXTURES

    fixture = load_fixture(PUBLIC_FIXTURES / "deep-cutoff.yaml")
    assert direct_calls(fixture) == [("C", 5, float("inf")), ("C1", 5, float("inf")), ("C1a", 5, float("inf")),
                                     ("C1b", 5, float("inf")), ("C1c", 7, float("inf"))]
    part = subtrace(expected_trace(fixture, "alphabeta"), "C1", 5, float("inf"))
    assert part.visited == ["C1", "C1a", "C1a1", "C1b", "C1b1", "C1b2", "C1c", "C1c1"] and part.value == 7
    assert part.evaluated == ["C1a1", "C1b1", "C1b2", "C1c1"]
    assert [c.parent for c in part.calls] == [None, 0, 1, 0, 3, 3, 0, 6]


def test_plain_pytest_on_exercises_reports_check_feedback():
    """``pytest exercises/`` collects the public tests; the kit's own ``pytest`` (testpaths = tests) does not."""
    import os
    import subprocess
    import sys

    from abkit.loading import KIT_ROOT

    env = {**os.environ, "ABKIT_LANG": "en", "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "exercises/minimax.py", "-q"],
                          cwd=KIT_ROOT, capture_output=True, text=True, encoding="utf-8", env=env, timeout=120)
    assert proc.returncode == 1 and "exercises/minimax.py::aima-fig-5-2" in proc.stdout
    assert "Not started yet: minimax_decision still raises NotImplementedError" in proc.stdout
    assert "Traceback" not in proc.stdout


@pytest.mark.slow
def test_a_loop_that_swallows_the_stop_is_ended_for_good(student):
    # A bare except inside an endless loop catches the watchdog's interrupt: the child process is ended from
    # outside, and the check goes on to report it, saying where the code was.
    swallowing = "while True:\n    try:\n        while True:\n            pass\n    except BaseException:\n        pass\n"
    info = MINIMAX_ONLY.replace("time_limit: 2", "time_limit: 0.05")
    folder = student(minimax=swallowing, info=info)
    proc = subprocess.run([sys.executable, "-m", "abkit.cli", "check", "minimax", "--exercises", str(folder), "--lang", "en"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and "Traceback" not in proc.stdout + proc.stderr
    assert "Stopped after 0.05 s" in proc.stdout
    assert re.search(r"still loading minimax\.py, at line [1-6]\.", proc.stdout), proc.stdout


def _solution(name: str) -> str:
    return (SOLUTIONS / f"{name}.py").read_text(encoding="utf-8")


#: a mistake in each exercise beyond the trees: the exercise, its file, the edits, the language, the words
BEYOND = [
    ("alphabeta_cutoff", [("alpha, beta, depth - 1, eval_fn)", "alpha, beta, depth, eval_fn)")], "en",
     "at B1 the depth limit is reached (CUTOFF-TEST is true): the pseudocode returns EVAL(B1) = 5"),
    ("alphabeta_cutoff", [("        return eval_fn(state)\n", "        return game.utility(state)\n")], "ko",
     "탐색 코드에서 ValueError 예외가 발생했습니다"),
    ("expectimax", [("sum(game.probability(state, r) * expectiminimax(game, game.result(state, r)) for r in "
                     "game.actions(state))", "max(expectiminimax(game, game.result(state, r)) for r in game.actions(state))")],
     "en", "a CHANCE node is worth Σ P(r)·value over its outcomes r"),
    ("ordering", [("(-k[0] if maximizing else k[0], k[1])", "(-k[0], k[1])")], "ko",
     "B (MIN) 노드에서 ordered_actions가 돌려준 순서는 [B2, B1, B3]이고, 정답은 [B3, B1, B2]입니다."),
    ("ordering", [("    if best in actions:\n", "    if False:\n")], "en",
     "at A iterative deepening first tries the action that was best there in the previous iteration (then the others "
     "in ACTIONS order): D comes next, you generated B."),
    ("alphabeta", STRICT, "en", "Tic-tac-toe: O must block (alphabeta/ttt-o-blocks)\n    First difference: your search "
                                "leaves the pseudocode's path here: after the same 15 boards in the same order, your "
                                "search generated XXO/XO./XO. (square 6, from XXO/XO./.O.)"),
    ("alphabeta", [("    return best_action\n", "    return game.actions(state)[0]\n")],  # the first move, always
     "ko", "자기 자신과 둔 대국에서 X 쪽이 이겼습니다(둔 칸: 1 2 3 4 5 6, 마지막 판 XOX/OXO/X..)."),
]


@pytest.mark.parametrize("exercise, edits, lang, words", BEYOND, ids=lambda x: x if isinstance(x, str) else None)
def test_mistakes_beyond_the_trees_are_explained(abkit, student, exercise, edits, lang, words):
    folder = student()
    (folder / f"{exercise}.py").write_text(edited(_solution(exercise), edits), encoding="utf-8")
    run = abkit("check", "--verbose", exercise, "--exercises", folder, "--lang", lang)
    assert run.status == 1 and words in run.out, run.out


def test_a_watchdog_that_fires_as_the_code_finishes_leaves_nothing_running():
    # The race: the timer goes off while the with-block is being left. Nothing may be left to fire later.
    watchdog = Watchdog(60)
    with watchdog:
        pass
    watchdog._fire()           # a timer thread that was already past its start when __exit__ ran
    assert watchdog._hard is None and not watchdog.fired
    late = Watchdog(60)
    late.__enter__()
    late.fired = True
    late._hard = None
    late.__exit__(None, None, None)
    late._kill()               # a grace timer that lost the race with __exit__: it must not end the process


@pytest.mark.parametrize("file, helper", [("alphabeta_cutoff", "cutoff_test"), ("expectimax", "expectiminimax"),
                                          ("expectimax", "chance_value"), ("ordering", "actions_in_order")])
def test_a_helper_of_the_stub_is_the_students_to_rename(abkit, student, file, helper):
    """Only what the tests call is required (a search's entry, MAX-VALUE, MIN-VALUE, CHANCE-VALUE, ordered_actions):
    a stub's helper renamed or written inline is correct code, as grading already judged it."""
    import re

    folder = student()
    source = (SOLUTIONS / f"{file}.py").read_text(encoding="utf-8")
    (folder / f"{file}.py").write_text(re.sub(rf"\b{helper}\b", "_mine", source), encoding="utf-8")
    run = abkit("check", file, "--exercises", folder, "--lang", "en")
    assert run.status == 0 and "✗" not in run.out and "missing" not in run.out
    (folder / f"{file}.py").write_text(source.replace("def max_value(", "def maximum("), encoding="utf-8")
    run = abkit("check", file, "--exercises", folder, "--lang", "en")
    assert run.status == 1 and f"max_value is missing from {file}.py" in run.out


def test_a_depth_limited_root_value_names_the_depth_and_the_drawing_draws_one_search(abkit, student):
    """MAX-VALUE passing depth on undecremented: the search itself matches, the root's value (a call of its own,
    after the search) does not. The call is named with the depth it was given, and the drawn tree is the search's
    alone: its root, which the search looped over itself, shows no value from that other call."""
    folder = student()
    source = (SOLUTIONS / "alphabeta_cutoff.py").read_text(encoding="utf-8")
    (folder / "alphabeta_cutoff.py").write_text(source.replace(
        "v = max(v, min_value(game, game.result(state, a), alpha, beta, depth - 1, eval_fn))",
        "v = max(v, min_value(game, game.result(state, a), alpha, beta, depth, eval_fn))"), encoding="utf-8")
    run = abkit("check", "alphabeta_cutoff", "--exercises", folder, "--lang", "en")
    assert "max_value(game, 'A', -∞, +∞, 2, eval_fn), called on the root after the search to check its value, " \
           "returned 6; expected 2." in run.out
    assert "\n      #1 A  MAX\n" in run.out
