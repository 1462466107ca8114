"""Slips seen on tic-tac-toe positions, told for what they are (issue 32): a value returned where an action belongs
(a square is a number too), and a depth-limited search that never calls its ``eval_fn``."""

from __future__ import annotations

from abkit.fixture import load_fixture
from abkit.loading import EXERCISES, PUBLIC_FIXTURES as PUBLIC, SOLUTIONS

from test_one_screen import midway, slip


def test_a_value_returned_for_an_action_is_told_as_such_on_a_board(abkit, tmp_path):
    folder = midway(tmp_path, slip("returns_value"))
    run = abkit("check", "alphabeta", "--verbose", "--exercises", folder, "--lang", "en")
    board = run.out.split("(alphabeta/ttt-o-blocks)\n", 1)[1].split("\n✗", 1)[0]
    assert "the chosen action is 0; expected 2. 0 is also the root's value" in board
    run = abkit("check", "alphabeta", "--verbose", "--exercises", folder, "--lang", "ko")
    assert "0은 내 MAX-VALUE/MIN-VALUE가 주는 루트의 값과도 같습니다" in run.out


def test_a_tie_broken_otherwise_is_not_called_a_value(abkit, tmp_path):
    folder = midway(tmp_path, slip("last_best"))
    run = abkit("check", "alphabeta", "--verbose", "--exercises", folder, "--lang", "en")
    assert "is also the root's value" not in run.out


def test_a_depth_limited_search_that_never_calls_eval_fn_is_told_so(abkit, tmp_path):
    folder = midway(tmp_path, slip("v_zero"))
    reference = (SOLUTIONS / "alphabeta_cutoff.py").read_text(encoding="utf-8")
    assert reference.count("return eval_fn(state)") == 2
    (folder / "alphabeta_cutoff.py").write_text(reference.replace("return eval_fn(state)", "return game.utility(state)"),
                                                encoding="utf-8")
    run = abkit("check", "alphabeta_cutoff", "--verbose", "--exercises", folder, "--lang", "en")
    nilsson = run.out.split("(alphabeta_cutoff/nilsson-depth-2)\n", 1)[1].split("\n✗", 1)[0]
    assert "First difference: your search never called eval_fn" in nilsson
    (folder / "alphabeta_cutoff.py").write_text(reference.replace("return eval_fn(state)", "return eval_fn(state) + 1"),
                                                encoding="utf-8")  # wrong, but it calls eval_fn
    wrong = abkit("check", "alphabeta_cutoff", "--verbose", "--exercises", folder, "--lang", "en")
    assert wrong.status == 1 and "never called eval_fn" not in wrong.out


def test_the_stub_shows_how_to_call_eval_fn():
    stub = (EXERCISES / "alphabeta_cutoff.py").read_text(encoding="utf-8")
    assert "EVAL(state) is eval_fn(state)" in stub and "EVAL(state)는 eval_fn(state)" in stub


def test_a_slip_seen_only_on_a_board_names_the_first_board_off_the_path(abkit, tmp_path):
    """``>`` instead of ``>=`` at MAX is caught on one public test, a tic-tac-toe position: its visit order, recorded
    in the fixture, names where the search leaves the path, with the boards, the move and the window."""
    reference = (SOLUTIONS / "alphabeta.py").read_text(encoding="utf-8")
    strict = reference.replace("if v > beta or (v == beta and PRUNE_ON_EQUALITY):", "if v > beta:")
    assert strict != reference
    folder = midway(tmp_path, strict)
    run = abkit("check", "alphabeta", "--exercises", folder, "--lang", "en")
    board = run.out.split("(alphabeta/ttt-o-blocks)\n", 1)[1]
    assert board.startswith("    First difference: your search leaves the pseudocode's path here: after the same 15 "
                            "boards in the same order, your search generated XXO/XO./XO. (square 6, from XXO/XO./.O.);"
                            " the pseudocode generates XXO/XO./..O (square 8, from XXO/XO./...) next. At XXO/XO./.O. "
                            "your search held α=-∞, β=-1.")
    run = abkit("check", "alphabeta", "--exercises", folder, "--lang", "ko")
    assert "같은 순서로 같은 판 15개를 만든 뒤, 내 탐색은 XXO/XO./.O.에서 6번 칸에 두어 XXO/XO./XO. 판을" in run.out
    mine = abkit("trace", PUBLIC / "ttt-o-blocks.yaml", "--mine", "--exercises", folder, "--lang", "en")
    assert "after the same 15 boards in the same order" in mine.out


def test_the_public_boards_record_the_order_the_pseudocode_generates_them():
    from abkit.fixture import load_fixture

    for path in sorted(PUBLIC.glob("*.yaml")):
        fixture = load_fixture(path)
        if fixture.tree is None:
            for algorithm in set(fixture.expected) & {"alphabeta", "cutoff"}:
                block = fixture.expected[algorithm]
                assert len(block["visited"]) == block["nodes"] and block["visited"][0] == fixture.root, path.name


def page_data(page) -> dict:
    """The steps a step-through page carries (its JSON block)."""
    import json
    import re

    text = page.read_text(encoding="utf-8")
    return json.loads(re.search(r'class="abk-data">(.*?)</script>', text, re.S).group(1).replace("<\\/", "</"))


def test_a_slip_on_a_board_gets_a_page_that_opens_at_the_first_board_off_the_path(abkit, tmp_path):
    """``check --html`` draws a failing search on a tic-tac-toe position as a tree of the boards both searches
    generated, and marks the step where it first leaves the path: the student's XXO/XO./XO. (16th board) beside
    the pseudocode's XXO/XO./..O, as the text feedback says it."""
    reference = (SOLUTIONS / "alphabeta.py").read_text(encoding="utf-8")
    folder = midway(tmp_path, reference.replace("if v > beta or (v == beta and PRUNE_ON_EQUALITY):", "if v > beta:"))
    for lang, note in (("en", "every other node is named by the squares played from it"),
                       ("ko", "다른 노드는 그 국면에서 둔 칸을 차례대로 적어 이름을 붙였습니다")):
        run = abkit("check", "alphabeta", "--exercises", folder, "--html", tmp_path / lang, "--lang", lang)
        page = tmp_path / lang / "alphabeta-ttt-o-blocks.html"
        assert run.status == 1 and page.is_file(), run.out
        assert note in page.read_text(encoding="utf-8")
    data = page_data(tmp_path / "en" / "alphabeta-ttt-o-blocks.html")
    mine, theirs = data["panes"][0]["steps"], data["panes"][1]["steps"]
    first = mine[data["first"]]
    assert first["m"] == "first" and first["o"] == 16 and first["g"] == "XXO\nXO.\nXO."
    assert theirs[data["align"][data["first"]]]["g"] == "XXO\nXO.\n..O"
    boards = load_fixture(PUBLIC / "ttt-o-blocks.yaml").expected["alphabeta"]["visited"]
    made = [s["g"].replace("\n", "") for s in theirs if s["k"] in ("gen", "enter", "leaf")]
    assert made == boards  # the pseudocode's side generates the boards the fixture records, in order


def test_trace_html_steps_through_a_position_board_by_board(abkit, tmp_path):
    """The reference's search on a position, drawn: each generated board once, in the order the fixture records;
    a depth-limited search's boards at the limit are estimated with EVAL, not terminal (Nilsson's depth-2 search
    from the empty board: 3 replies, 8 boards at the limit, none finished in two moves)."""
    page = tmp_path / "o-blocks.html"
    assert abkit("trace", PUBLIC / "ttt-o-blocks.yaml", "--html", page, "--lang", "en").status == 0
    steps = page_data(page)["panes"][0]["steps"]
    boards = load_fixture(PUBLIC / "ttt-o-blocks.yaml").expected["alphabeta"]["visited"]
    assert [s["g"].replace("\n", "") for s in steps if s["k"] in ("enter", "leaf")] == boards
    page = tmp_path / "nilsson.html"
    assert abkit("trace", PUBLIC / "nilsson-depth-2.yaml", "--html", page, "--lang", "ko").status == 0
    steps = page_data(page)["panes"][0]["steps"]
    assert [s["k"] for s in steps].count("eval") == 8 and "leaf" not in [s["k"] for s in steps]
    assert "깊이 제한에 닿았습니다" in steps[3]["s"]
