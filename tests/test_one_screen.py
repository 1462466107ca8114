"""One screen per mistake (issue 32): ``abkit check`` midway through the course (minimax solved, alpha-beta with one
slip, the rest not started) prints at most 30 lines in either language, whatever the slip; ``--verbose`` prints
every test.

The slips: every alpha-beta mistake of the catalogue as a student wrote it (tests/styles/mistakes), an endless
recursion, a Python loop and a loop inside one C call.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from abkit.loading import EXERCISES, SOLUTIONS

from styles_harness import STYLES

SCREEN = 30
REFERENCE = (SOLUTIONS / "alphabeta.py").read_text(encoding="utf-8")
MIN_BODY = "    v = math.inf\n    for a in game.actions(state):"
#: slips written here: the name, and the reference's text with one edit
WRITTEN = {
    "endless_recursion": REFERENCE.replace("v = max(v, min_value(game, game.result(state, a), alpha, beta))",
                                           "v = max(v, max_value(game, state, alpha, beta))"),
    "alpha_never_raised": REFERENCE.replace("        alpha = max(alpha, v)\n    return v", "    return v"),
    "python_loop": REFERENCE.replace(MIN_BODY, "    while True:\n        pass\n" + MIN_BODY),
    "c_call_loop": REFERENCE.replace(MIN_BODY, "    sum(range(10**12))\n" + MIN_BODY),
}
WRITTEN_BY_STUDENTS = sorted(p.parent.parent.name for p in (STYLES / "mistakes").glob("*/module/alphabeta.py"))


def midway(folder: Path, alphabeta: str) -> Path:
    """The stubs, minimax solved and ``alphabeta`` as given: the state the issue measured."""
    for path in EXERCISES.glob("*.py"):
        shutil.copy(path, folder / path.name)
    shutil.copy(EXERCISES / "info.yaml", folder / "info.yaml")
    shutil.copy(SOLUTIONS / "minimax.py", folder / "minimax.py")
    (folder / "alphabeta.py").write_text(alphabeta, encoding="utf-8")
    return folder


def slip(name: str) -> str:
    if name in WRITTEN:
        assert WRITTEN[name] != REFERENCE, name
        return WRITTEN[name]
    return (STYLES / "mistakes" / name / "module" / "alphabeta.py").read_text(encoding="utf-8")


@pytest.mark.slow
@pytest.mark.parametrize("name", WRITTEN_BY_STUDENTS + list(WRITTEN))
def test_a_slip_midway_fits_one_screen_in_both_languages(abkit, tmp_path, name):
    folder = midway(tmp_path, slip(name))
    for lang in ("en", "ko"):
        run = abkit("check", "--exercises", folder, "--lang", lang)
        lines = run.out.splitlines()
        assert run.status == 1 and len(lines) <= SCREEN, (lang, len(lines), run.out)
        assert not [line for line in lines if line.startswith("✓ ") and "(alphabeta/" in line]  # passes counted
        below, heading = {"en": ("(its traceback is shown below)", "Where your code failed"),
                          "ko": ("(아래에 트레이스백이 있습니다)", "코드가 실패한 곳")}[lang]
        for k, line in enumerate(lines):  # a sentence that points below: a traceback follows in the same test
            if below in line:
                assert any(heading in later for later in lines[k + 1:k + 4]), run.out


def test_the_first_failing_test_in_full_the_others_one_line_each(abkit, tmp_path):
    folder = midway(tmp_path, slip("v_zero"))
    run = abkit("check", "alphabeta", "--exercises", folder, "--lang", "en")
    lines = run.out.splitlines()
    failing = [line for line in lines if line.startswith("✗ ")]
    assert failing[0] == "✗ AIMA Figure 5.2 (alphabeta/aima-fig-5-2)"
    assert "The tree your search explored" in run.out and run.out.count("First difference:") == 1
    assert all(line.count("\n") == 0 for line in failing[1:]) and len(failing) <= 4
    assert any(re.match(r"✗ \d+ more tests whose first difference is of the same kind \(", line) for line in failing)
    assert "'abkit check alphabeta --verbose' shows every test" in run.out
    verbose = abkit("check", "alphabeta", "--verbose", "--exercises", folder, "--lang", "en")
    assert verbose.out.count("(alphabeta/") == 30 and verbose.out.count("First difference:") > 10


def test_a_tree_too_tall_for_the_screen_is_cut_around_the_first_difference(abkit, tmp_path):
    folder = midway(tmp_path, slip("no_pass_down"))
    run = abkit("check", "alphabeta", "--exercises", folder, "--lang", "en")
    tree = run.out.split("leaves the pseudocode's path):\n", 1)[1].split("\n✗ ", 1)[0].splitlines()
    assert len(tree) == 13 and "⚠" in "\n".join(tree)
    assert re.search(r"⋮ \(\d+ lines? of the tree left out: --verbose shows it all\)", "\n".join(tree))


def test_a_passing_exercise_says_so_in_one_line(abkit, tmp_path):
    folder = midway(tmp_path, REFERENCE)
    run = abkit("check", "alphabeta", "--exercises", folder, "--lang", "en")
    assert run.status == 0 and run.out.splitlines()[:2] == ["== alphabeta · Alpha-beta search ==",
                                                           "alphabeta: every public test passes (30 tests)."]


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_every_traceback_promised_below_is_below_in_the_full_report_too(abkit, tmp_path, lang):
    """After a RecursionError the same error in later tests points at the test that shows its traceback."""
    folder = midway(tmp_path, slip("endless_recursion"))
    run = abkit("check", "alphabeta", "--verbose", "--exercises", folder, "--lang", lang)
    below, heading = {"en": ("(its traceback is shown below)", "Where your code failed"),
                      "ko": ("(아래에 트레이스백이 있습니다)", "코드가 실패한 곳")}[lang]
    tests = run.out.split("\n✗ ")
    promised = [test for test in tests if below in test]
    assert promised and all(heading in test for test in promised)
    assert sum(heading in test for test in tests) == len(promised)  # each traceback shown once, where promised
