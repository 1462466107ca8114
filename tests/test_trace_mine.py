"""``abkit trace`` without solutions (the student edition) and ``abkit trace --mine``.

Without solutions, trace draws the search a public fixture records; it must draw exactly what the reference
does, which is checked here against the reference for every public fixture and every search it records.
"""

from __future__ import annotations

import json
import shutil

import pytest

from abkit.fixture import fixture_paths, load_fixture
from abkit.loading import EXERCISES, PUBLIC_FIXTURES, SOLUTIONS
from abkit.studentloop import fixturetrace
from abkit.reference import reference_trace
from abkit.textree import render_summary, render_tree
from helpers import STRICT, edited

AIMA = PUBLIC_FIXTURES / "aima-fig-5-2.yaml"
CASES = [(path.name, algorithm) for path in fixture_paths([PUBLIC_FIXTURES])
         for algorithm in load_fixture(path).expected if fixturetrace.recorded(load_fixture(path), algorithm)]


@pytest.fixture
def no_solutions(monkeypatch):
    """The course as the student edition has it: no reference solution."""
    monkeypatch.setattr(fixturetrace, "has_reference", lambda algorithm: False)


@pytest.mark.parametrize("name, algorithm", CASES)
def test_the_recorded_search_draws_what_the_reference_does(no_solutions, name, algorithm):
    fixture = load_fixture(PUBLIC_FIXTURES / name)
    game = fixture.game()
    reference = reference_trace(game, fixture.root, algorithm, fixture.prune_on_equality,
                                **fixture.search_params(algorithm, game))
    recorded = fixturetrace.search_trace(fixture, algorithm, fixture.prune_on_equality, name)
    for lang in ("en", "ko"):
        if fixture.tree is not None:
            assert render_tree(recorded, fixture.tree, fixture.prune_on_equality, lang) == \
                render_tree(reference, fixture.tree, fixture.prune_on_equality, lang)
        assert render_summary(recorded, fixture.tree, lang) == render_summary(reference, fixture.tree, lang)
    summary, want = fixturetrace.summary(recorded, fixture), reference.summary(fixture.tree)
    assert summary["value"] == pytest.approx(want["value"]) and summary["nodes"] == want["nodes"]
    if fixture.tree is None:  # a whole game records counts, not its states: unknown, not empty
        assert summary["visited"] is None and summary["evaluated"] is None
    else:
        assert {k: summary[k] for k in ("action", "visited", "evaluated", "pruned")} == \
            {k: want[k] for k in ("action", "visited", "evaluated", "pruned")}


def test_without_solutions_trace_draws_the_recorded_search(abkit, no_solutions):
    run = abkit("trace", AIMA, "--lang", "en")
    assert run.status == 0 and "#6  ├─ C  MIN  [α=3, β=+∞]  → 2   ✂ cut: 2 ≤ α=3" in run.out
    run = abkit("trace", AIMA, "--json")
    assert json.loads(run.out)["pruned"] == ["C2", "C3"]


@pytest.mark.parametrize("args, words", [
    (("--rule", "cs188"), "which is under its own rule (aima) only; leave out --rule."),
    (("--algorithm", "ordering"), "records no whole search for ordering. It can draw: cutoff (--algorithm)."),
])
def test_without_solutions_what_the_fixture_does_not_record_is_refused_in_words(abkit, no_solutions, args, words):
    fixture = AIMA if "--rule" in args else PUBLIC_FIXTURES / "ordering-deepening.yaml"
    run = abkit("trace", fixture, *args, "--lang", "en")
    assert run.status == 2 and words in run.err and "Traceback" not in run.err
    assert "학생용" in abkit("trace", fixture, *args, "--lang", "ko").err


def test_without_solutions_the_default_search_is_one_the_fixture_records(abkit, no_solutions):
    fixture = load_fixture(PUBLIC_FIXTURES / "ordering-deepening.yaml")
    assert fixturetrace.default_algorithm(fixture) == "cutoff"
    run = abkit("trace", PUBLIC_FIXTURES / "ordering-deepening.yaml", "--lang", "en")
    assert run.status == 0 and "depth-limited alpha-beta search" in run.out
    assert fixturetrace.default_algorithm(load_fixture(AIMA)) == "alphabeta"


def test_with_solutions_the_default_is_the_fixtures_own_search():
    assert fixturetrace.default_algorithm(load_fixture(PUBLIC_FIXTURES / "ordering-deepening.yaml")) == "cutoff"
    assert fixturetrace.default_algorithm(load_fixture(PUBLIC_FIXTURES / "expectimax-dice.yaml")) == "expectimax"
    assert fixturetrace.default_algorithm(load_fixture(AIMA)) == "alphabeta"


@pytest.fixture
def mine(tmp_path):
    """A student's exercises/ folder: stubs, with the files given (minimax solved unless given: trace --mine runs
    the search of the exercise the student is working on, the first that does not pass)."""

    def make(**files: str):
        for path in EXERCISES.glob("*.py"):
            shutil.copy(path, tmp_path / path.name)
        shutil.copy(EXERCISES / "info.yaml", tmp_path / "info.yaml")
        for name, text in {"minimax": solution("minimax"), **files}.items():
            (tmp_path / f"{name}.py").write_text(text, encoding="utf-8")
        return tmp_path

    return make


def solution(name: str) -> str:
    return (SOLUTIONS / f"{name}.py").read_text(encoding="utf-8")


def test_mine_draws_the_students_search_with_the_first_difference(abkit, mine):
    folder = mine(alphabeta=edited(solution("alphabeta"), STRICT))
    run = abkit("trace", PUBLIC_FIXTURES / "rule-split-min.yaml", "--mine", "--exercises", folder, "--lang", "en")
    assert run.status == 1
    assert run.out.startswith("Equality at a MIN node (AIMA rule) · your search (alphabeta.py), as the game recorded "
                              "it; ⚠ marks where it leaves the pseudocode's path\n")
    assert "#7    └─ C2 = 1   ⚠ the pseudocode does not generate this" in run.out
    assert "First difference: after C1 your search generated C2; the pseudocode stops at C (MIN, α=3, β=+∞)" in run.out
    assert "value 3 · action B · nodes 7 · states evaluated 4 · pruned: none" in run.out


def test_mine_on_a_correct_search_says_it_is_the_same(abkit, mine):
    run = abkit("trace", AIMA, "--mine", "--exercises", mine(alphabeta=solution("alphabeta")), "--lang", "ko")
    assert run.status == 0 and "#7  │  ├─ C1 = 2" in run.out and "⚠" not in run.out.split("\n", 1)[1]
    assert "이 트리에서 내 탐색은 의사코드와 같은 상태를 같은 순서로 생성하고 평가하며, 같은 행동을 고릅니다." in run.out
    run = abkit("trace", AIMA, "--mine", "--algorithm", "minimax", "--exercises", mine(minimax=solution("minimax")))
    assert run.status == 0 and "(minimax.py)" in run.out


def test_mine_on_a_stub_points_at_the_todo(abkit, mine):
    run = abkit("trace", AIMA, "--mine", "--exercises", mine(), "--lang", "en")
    assert run.status == 1 and "Not started yet: alpha_beta_search still raises NotImplementedError at the TODO" in run.out
    assert "#1" not in run.out and "Traceback" not in run.out


def test_mine_on_a_whole_game_compares_the_counts(abkit, mine, tmp_path):
    folder = mine(alphabeta=edited(solution("alphabeta"), STRICT))
    run = abkit("trace", PUBLIC_FIXTURES / "ttt-o-blocks.yaml", "--mine", "--exercises", folder, "--lang", "en")
    assert run.status == 1 and "your search generated 97 nodes (the root and every RESULT); the pseudocode generates 75" \
        in run.out
    assert "a whole game is not drawn, so its counts are compared" in run.out and "⚠" not in run.out  # nothing marked
    run = abkit("trace", PUBLIC_FIXTURES / "ttt-o-blocks.yaml", "--mine", "--exercises", folder, "--html",
                tmp_path / "page.html", "--lang", "en")
    assert run.status == 1 and (tmp_path / "page.html").is_file()  # the boards it generated, drawn as a tree
    run = abkit("trace", PUBLIC_FIXTURES / "ttt-o-blocks.yaml", "--mine", "--algorithm", "minimax", "--exercises",
                folder, "--html", tmp_path / "minimax.html", "--lang", "en")
    assert run.status == 2 and "records only the outcome and counts of minimax" in run.err
    assert "Fixtures with boards for: alphabeta" in run.err and not (tmp_path / "minimax.html").exists()


FAIL_HARD = (("        if v < alpha or (v == alpha and PRUNE_ON_EQUALITY):\n            return v\n",
              "        if v < alpha or (v == alpha and PRUNE_ON_EQUALITY):\n            return alpha\n"),)


def test_mine_marks_a_value_the_pseudocode_does_not_return_and_never_names_v(abkit, mine):
    """A fail-hard MIN-VALUE returns α where it cuts: the drawing shows what C returned and what the pseudocode's
    C returns; the cut is told by the returned value (the code's v, 2, was never seen)."""
    run = abkit("trace", AIMA, "--mine", "--exercises", mine(alphabeta=edited(solution("alphabeta"), FAIL_HARD)),
                "--lang", "en")
    assert "C  MIN  [α=3, β=+∞]  → 3   ✂ cut: 3 ≤ α=3   ⚠ the pseudocode returns 2 here" in run.out
    assert "v=" not in run.out
    ko = abkit("trace", AIMA, "--mine", "--exercises", mine(alphabeta=edited(solution("alphabeta"), FAIL_HARD)),
               "--lang", "ko").out
    assert "✂ 가지치기: 3 ≤ α=3   ⚠ 의사코드는 여기서 2를 돌려줍니다" in ko


def test_mine_writes_the_step_through_page_of_a_difference(abkit, mine, tmp_path):
    page = tmp_path / "mine.html"
    folder = mine(alphabeta=edited(solution("alphabeta"), STRICT))
    run = abkit("trace", PUBLIC_FIXTURES / "rule-split-min.yaml", "--mine", "--exercises", folder, "--html", page,
                "--lang", "en")
    assert run.status == 1 and f"wrote {page}" in run.out and "C2" in page.read_text(encoding="utf-8")
    page.unlink()
    run = abkit("trace", AIMA, "--mine", "--exercises", mine(alphabeta=solution("alphabeta")), "--html", page)
    assert run.status == 0 and "No page written: your search does what the pseudocode does" in run.out
    assert not page.exists()


@pytest.mark.parametrize("file, args, words", [
    ("ordering-deepening.yaml", ("--algorithm", "ordering"), "records no whole ordering search to compare yours with"),
    ("aima-fig-5-2.yaml", ("--json",), "leave out --rule and --json."),
])
def test_mine_refuses_what_it_cannot_compare_in_words(abkit, mine, file, args, words):
    run = abkit("trace", PUBLIC_FIXTURES / file, "--mine", *args, "--exercises", mine(), "--lang", "en")
    assert run.status == 2 and words in run.err and "Traceback" not in run.err


def test_mine_on_a_fixture_written_for_the_other_rule(abkit, mine, tmp_path):
    """With the course's solutions, the fixture's expectations are recomputed under the course's rule (AIMA here):
    AIMA code does what the pseudocode does on rule-split-min-cs188, strict code generates C2 (which AIMA cuts).
    Without them (the student edition) it is refused in words."""
    file = PUBLIC_FIXTURES / "rule-split-min-cs188.yaml"
    run = abkit("trace", file, "--mine", "--exercises", mine(alphabeta=solution("alphabeta")), "--lang", "en")
    assert run.status == 0
    run = abkit("trace", file, "--mine", "--exercises", mine(alphabeta=edited(solution("alphabeta"), STRICT)),
                "--lang", "en")
    assert run.status == 1 and "after C1 your search generated C2" in run.out
    edition = tmp_path / "edition"
    assert abkit("release", "student", "--out", edition, "--lang", "en").status == 0
    assert not (edition / "fixtures" / "public" / file.name).exists()  # replaced there by rule-split-min
    copy = edition / "mine" / file.name  # a student's own copy of it
    copy.parent.mkdir()
    copy.write_bytes(file.read_bytes())
    run = abkit("--course", edition, "trace", copy, "--mine", "--exercises", edition / "exercises", "--lang", "en")
    assert run.status == 2 and "is written for the other cut-off rule; your course grades under aima." in run.err


def test_mine_for_an_algorithm_no_exercise_runs(abkit, mine, tmp_path):
    folder = mine()
    info = (folder / "info.yaml").read_text(encoding="utf-8")
    (folder / "info.yaml").write_text(info.split("  - name: alphabeta\n")[0], encoding="utf-8")
    run = abkit("trace", AIMA, "--mine", "--exercises", folder, "--lang", "en")
    assert run.status == 2 and "no exercise of this course runs alphabeta" in run.err


def test_a_minimax_search_that_skips_a_child_is_drawn_not_searched_not_pruned(abkit, mine):
    """Minimax never prunes: a child the code skipped is 'not searched' (✂ pruned claimed a cut-off)."""
    skip_last = (("    for a in game.actions(state):\n        v = min(v, max_value(",
                  "    for a in game.actions(state)[:-1]:\n        v = min(v, max_value("),)
    folder = mine(minimax=edited(solution("minimax"), skip_last))
    run = abkit("trace", AIMA, "--mine", "--algorithm", "minimax", "--exercises", folder, "--lang", "en")
    assert "└─ B3  · not searched   ⚠ the pseudocode searches this" in run.out and "✂" not in run.out
    assert "not searched: B3, C3, D3" in run.out and "pruned" not in run.out
    run = abkit("trace", AIMA, "--mine", "--algorithm", "minimax", "--exercises", folder, "--lang", "ko")
    assert "└─ B3  · 탐색하지 않음   ⚠ 의사코드는 여기를 탐색합니다" in run.out


def test_iterative_deepening_that_stops_an_iteration_early_is_told_so(abkit, mine):
    """The ordering exercise's search stops before its last iteration: told as the iteration the pseudocode runs
    next, not with minimax's words ('minimax searches every child') or 'none of its children has been searched'."""
    short = (("    for d in range(1, depth + 1):", "    for d in range(1, depth):"),)
    folder = mine(ordering=edited(solution("ordering"), short))
    run = abkit("check", "ordering", "--exercises", folder, "--lang", "en")
    assert "the pseudocode then searches the root again, one ply deeper (the iteration to depth 2)" in run.out
    assert "minimax" not in run.out.lower()
    run = abkit("check", "ordering", "--exercises", folder, "--lang", "ko")
    assert "루트를 한 수 더 깊게 다시 탐색하며(깊이 2까지의 반복)" in run.out and "미니맥스" not in run.out


def test_mine_runs_the_search_of_the_exercise_the_student_is_on(abkit, mine):
    """Without --algorithm, --mine runs the current exercise's search (as check and hint find it), when the fixture
    records it: on fresh stubs, minimax; an option is never taken by a prefix (--exercise is not --exercises)."""
    folder = mine(minimax=(EXERCISES / "minimax.py").read_text(encoding="utf-8"))
    run = abkit("trace", AIMA, "--mine", "--exercises", folder, "--lang", "en")
    assert run.status == 1 and "Not started yet: minimax_decision" in run.out and "(minimax.py)" in run.out
    run = abkit("trace", AIMA, "--mine", "--exercise", "minimax", "--lang", "en")
    assert run.status == 2 and "unrecognized arguments: --exercise minimax" in run.err
