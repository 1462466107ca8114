"""Fixture tools an instructor can trust (issue 29): ``abkit fixtures verify`` refuses a fixture that expects nothing,
and ``abkit fixtures expect`` writes the missing ``expected:`` block under the course's cut-off rule, never replacing
one that is there. Every expectation below is worked by hand in its comment."""

from __future__ import annotations

from pathlib import Path

import pytest

from abkit.fixture import load_fixture
from tests.helpers import course_under

INF = float("inf")

#: AIMA Figure 5.2 without its answers (a comment of the instructor's, to be kept)
FIG_5_2 = "# AIMA Fig. 5.2, answers to come\nid: fig52\ntitle: Figure 5.2\ntree: [[3, 12, 8], [2, 4, 6], [14, 5, 2]]\n"
#: a tree on which the two cut-off rules part ways: after B = min(3, 5) = 3, alpha = 3 at the root and C1 = 3 equals
#: it; AIMA's MIN returns there (3 <= alpha), CS188's goes on to C2 (3 < 3 is false)
SPLIT = "id: split\nprune_on_equality: true\ntree: [[3, 5], [3, 1]]\n"


@pytest.fixture
def aima(tmp_path, monkeypatch):
    monkeypatch.delenv("ABKIT_COURSE", raising=False)
    with course_under("aima", tmp_path / "course") as course:
        monkeypatch.chdir(course)
        yield course


def put(course: Path, name: str, text: str) -> Path:
    path = course / "fixtures" / "public" / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("lang, words", [("en", "no expected: block, so nothing in this fixture is checked"),
                                         ("ko", "expected: 항목이 없어서 이 픽스처는 아무것도 점검하지 못합니다")])
def test_verify_refuses_a_fixture_that_expects_nothing(abkit, aima, lang, words):
    path = put(aima, "fig52.yaml", FIG_5_2)
    run = abkit("fixtures", "verify", path, "--lang", lang)
    assert run.status == 1 and f"{path}:1: {words}" in run.out and f"abkit fixtures expect {path}" in run.out
    run = abkit("fixtures", "verify", "--lang", "en")  # the whole course: one fixture short, and said so
    assert run.status == 1 and "1 expectation is missing (listed above)" in run.out


def test_verify_refuses_a_block_without_its_value(abkit, aima):
    path = put(aima, "fig52.yaml", FIG_5_2 + "expected:\n  minimax: {value: 3}\n  alphabeta:\n    nodes: 11\n")
    run = abkit("fixtures", "verify", path, "--lang", "en")
    assert run.status == 1 and f"{path}:7: this expected block has no value" in run.out
    assert "0 disagreements" in run.out  # what it does expect holds: the missing value alone fails it


def test_expect_writes_figure_5_2s_answers_under_the_aima_rule_and_keeps_the_file(abkit, aima):
    path = put(aima, "fig52.yaml", FIG_5_2)
    run = abkit("fixtures", "expect", path, "--lang", "en")
    assert run.status == 0
    assert f"wrote expected minimax, alphabeta into {path}: the reference's answers under the course's AIMA rule" \
           in run.out
    text = path.read_text(encoding="utf-8")
    assert text.startswith(FIG_5_2) and "prune_on_equality: true" in text
    fixture = load_fixture(path)
    # minimax: B = min(3, 12, 8) = 3, C = 2, D = 2; the root takes B, value 3; 1 + 3 + 9 = 13 states
    assert fixture.expected["minimax"] == {"value": 3, "action": "B", "nodes": 13}
    # alpha-beta (AIMA Fig. 5.5): B's leaves all; alpha = 3; C1 = 2 <= 3 cuts C2, C3; D1 = 14, D2 = 5, D3 = 2
    ab = fixture.expected["alphabeta"]
    assert (ab["value"], ab["action"], ab["nodes"]) == (3, "B", 11) and fixture.prune_on_equality is True
    assert ab["visited"] == ["A", "B", "B1", "B2", "B3", "C", "C1", "D", "D1", "D2", "D3"]
    assert ab["evaluated"] == ["B1", "B2", "B3", "C1", "D1", "D2", "D3"] and ab["pruned"] == ["C2", "C3"]
    # C is entered with [alpha, beta] = [3, +inf] and returns 2; D2 with [3, 14] (D1 = 14 set beta) and is 5
    assert ab["windows"]["C"] == [3, INF, 2] and ab["windows"]["D2"] == [3, 14, 5]
    assert abkit("fixtures", "verify", path).status == 0
    run = abkit("fixtures", "expect", path, "--lang", "ko")  # nothing more to write: nothing is replaced
    assert run.status == 0 and "쓸 것이 없습니다" in run.out and path.read_text(encoding="utf-8") == text


def test_expect_writes_under_the_cs188_rule_in_a_cs188_course(abkit, tmp_path, monkeypatch):
    monkeypatch.delenv("ABKIT_COURSE", raising=False)
    with course_under("cs188", tmp_path / "course") as course:
        path = put(course, "split.yaml", SPLIT)
        run = abkit("fixtures", "expect", path, "--lang", "ko")
        assert run.status == 0 and "CS188 규칙" in run.out
        fixture = load_fixture(path)
        assert fixture.prune_on_equality is False and path.read_text(encoding="utf-8").count("prune_on_equality") == 1
        ab = fixture.expected["alphabeta"]
        # CS188: C1 = 3 is not < alpha = 3, so C2 = 1 is searched too: C = 1, nothing pruned, 7 states
        assert ab["visited"] == ["A", "B", "B1", "B2", "C", "C1", "C2"] and ab["pruned"] == [] and ab["nodes"] == 7
        assert (ab["value"], ab["action"]) == (3, "B") and ab["windows"]["C2"] == [3, 3, 1]
        assert abkit("fixtures", "verify", path).status == 0


def test_expect_under_aima_prunes_at_equality(abkit, aima):
    path = put(aima, "split.yaml", SPLIT.replace("true", "false"))  # the file said CS188: no expectation, so the
    assert abkit("fixtures", "expect", path).status == 0               # course's rule decides
    fixture = load_fixture(path)
    ab = fixture.expected["alphabeta"]
    # AIMA: C1 = 3 <= alpha = 3 returns at once; C2 pruned; 6 states
    assert fixture.prune_on_equality is True and ab["pruned"] == ["C2"] and ab["nodes"] == 6


def test_expect_never_replaces_an_expectation(abkit, aima):
    text = FIG_5_2 + "expected:\n  minimax: {value: 4, action: B, nodes: 13}\n"  # wrong on purpose: verify's to find
    path = put(aima, "fig52.yaml", text)
    run = abkit("fixtures", "expect", path, "--lang", "en")
    assert run.status == 0 and "nothing to write" in run.out and path.read_text(encoding="utf-8") == text
    assert abkit("fixtures", "verify", path).status == 1


def test_expect_on_a_depth_limited_tree_a_chance_tree_and_a_board(abkit, aima):
    # depth 1, B = 4 and C = 6 estimated, MAX to move: value 6, action C; C's estimate 6 > B's, so C first when ordered
    cut = put(aima, "cut.yaml", "id: cut\ndepth: 1\ntree: {A: {B: {B1: 1, B2: 9}, C: {C1: 5, C2: 2}}}\n"
                                "heuristics: {B: 4, C: 6}\n")
    # MAX over a fair coin: B = (2 + 8) / 2 = 5, C = (7 + 1) / 2 = 4: value 5, action B; 1 + 2 + 4 = 7 states
    chance = put(aima, "coin.yaml", "id: coin\nlevels: [max, chance]\ntree: {A: {B: {B1: 2, B2: 8}, C: {C1: 7, C2: 1}}}\n"
                                    "probabilities: {B1: 0.5, B2: 0.5, C1: 0.5, C2: 0.5}\n")
    # X to move with X X . on top: X wins at once in cell 2 (value 1); the move is found first of all
    board = put(aima, "win.yaml", "id: win\ngame: tictactoe\nposition: \"XX./OO./...\"\n")
    run = abkit("fixtures", "expect", cut, chance, board, "--lang", "en")
    assert run.status == 0 and "wrote expected cutoff, ordering into" in run.out
    cut_block = load_fixture(cut).expected
    assert cut_block["cutoff"]["value"] == 6 and cut_block["cutoff"]["action"] == "C"
    assert cut_block["ordering"]["orders"] == {"A": ["C", "B"]} and cut_block["cutoff"]["visited"] == ["A", "B", "C"]
    coin = load_fixture(chance).expected["expectimax"]
    assert (coin["value"], coin["action"], coin["nodes"]) == (5, "B", 7)
    win = load_fixture(board).expected
    assert list(win) == ["alphabeta"] and (win["alphabeta"]["value"], win["alphabeta"]["action"]) == (1, 2)
    assert abkit("fixtures", "verify", cut, chance, board).status == 0


def test_expect_leaves_a_file_it_cannot_extend_as_it_was(abkit, aima):
    text = "{id: flow, tree: [1, 2]}\n"  # one flow mapping: nothing can be added after it
    path = put(aima, "flow.yaml", text)
    run = abkit("fixtures", "expect", path, "--lang", "en")
    assert run.status == 2 and f"cannot write an expected: block into {path}" in run.err
    assert path.read_text(encoding="utf-8") == text and "Traceback" not in run.err
