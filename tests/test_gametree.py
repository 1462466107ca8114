"""A search on a tic-tac-toe position drawn as a tree (abkit/gametree.py): boards placed below the board they came
from, named by the squares played, the same board reached twice kept apart, leaves valued honestly."""

from __future__ import annotations

from abkit.feedback import TestResult
from abkit.fixture import load_fixture
from abkit.gametree import draw_game, recorded_path
from abkit.loading import PUBLIC_FIXTURES as PUBLIC
from abkit.studentloop.resultdata import from_data, to_data
from abkit.tictactoe import TicTacToe, nilsson_eval
from abkit.trace import Call, CountedTrace, Trace

#: one empty square left, X to move: square 8 fills the board without a line (worked by hand)
LAST = "XXOOOXXO."


def o_blocks():
    fixture = load_fixture(PUBLIC / "ttt-o-blocks.yaml")
    block = fixture.expected["alphabeta"]
    return fixture, recorded_path(fixture.game(), fixture.root, "alphabeta", block["visited"], None, block["value"],
                                  block["action"])


def test_every_board_generated_is_one_node_and_a_board_reached_twice_is_two():
    """ttt-o-blocks: 75 boards generated, 31 of them terminal (the fixture's counts); XXO/OOX/X.. is reached as
    O 2, X 5, O 3, X 6 and as O 2, X 6, O 3, X 5 (by hand from the recorded order): two nodes, named by their moves."""
    fixture, path = o_blocks()
    drawing = draw_game(fixture.game(), [path])
    assert len(drawing.tree) == 75 and len(drawing.tree.leaves()) == 31
    assert drawing.boards["2536"] == drawing.boards["2635"] == "XXOOOXX.."
    assert drawing.tree.root == "XX./.O./..." and drawing.tree.root_player == "MIN"  # O to move
    assert drawing.traces[0].visited[:4] == ["XX./.O./...", "2", "23", "235"]
    assert drawing.traces[0].action == "2" and drawing.traces[0].value == 0


def test_the_pseudocode_path_evaluates_what_the_fixture_counts():
    """What a recorded path evaluates follows from its boards: the terminal ones, and at a depth limit the boards
    there; as many as each public position's ``leaves``."""
    for name in ("ttt-o-blocks", "ttt-o-wins", "ttt-x-wins-now", "ttt-block", "nilsson-depth-2", "nilsson-stage-2",
                 "nilsson-stage-3"):
        fixture = load_fixture(PUBLIC / f"{name}.yaml")
        for algorithm in {"alphabeta", "cutoff"} & set(fixture.expected):
            block, game = fixture.expected[algorithm], fixture.game()
            path = recorded_path(game, fixture.root, algorithm, block["visited"], fixture.depth)
            assert len(path.evaluated) == block["leaves"], name


def test_a_board_at_the_depth_limit_is_estimated_not_terminal():
    """Nilsson's depth-2 search from the empty board: no line can be made in two moves, so its 8 leaves are EVAL
    estimates (dashed, stepped as EVAL), valued by e(p)."""
    fixture = load_fixture(PUBLIC / "nilsson-depth-2.yaml")
    block, game = fixture.expected["cutoff"], fixture.game()
    path = recorded_path(game, fixture.root, "cutoff", block["visited"], fixture.depth)
    tree = draw_game(game, [path], nilsson_eval).tree
    assert len(tree.leaves()) == 8 and not any(tree.terminal(leaf) for leaf in tree.leaves())
    assert tree.utilities["04"] == tree.heuristics["04"] == nilsson_eval("X...O....")


def test_a_state_evaluated_twice_is_one_node_and_calls_follow_their_callers():
    game = TicTacToe()
    trace = Trace("alphabeta", LAST, visited=[LAST, "XXOOOXXOX"], evaluated=["XXOOOXXOX", "XXOOOXXOX"], action=8,
                  value=0, calls=[Call(LAST, "MAX", None, None, 0, None), Call("XXOOOXXOX", "MIN", None, None, 0, 0)])
    drawn = draw_game(game, [trace]).traces[0]
    assert drawn.visited == ["XXO/OOX/XO.", "8"] and drawn.evaluated == ["8", "8"] and drawn.action == "8"
    assert [c.node for c in drawn.calls] == ["XXO/OOX/XO.", "8"] and drawn.calls[1].parent == 0
    trace.calls[1] = Call("XXOOOXXOO", "MIN", None, None, 0, 0)  # not a board one move makes: no calls drawn
    assert draw_game(game, [trace]).traces[0].calls == []


def test_what_cannot_be_drawn_honestly_is_not_drawn():
    game = TicTacToe()
    assert draw_game(game, [Trace("alphabeta", LAST, visited=["XXOOOXXOX"])]) is None  # not from the root
    assert draw_game(game, [Trace("alphabeta", LAST, visited=[LAST, "XXOOOXXOO"])]) is None  # O cannot move here
    assert draw_game(game, [CountedTrace("alphabeta", LAST, nodes=2, leaves=1)]) is None
    opened = Trace("alphabeta", ".........", visited=[".........", "X........"])  # never finished, never estimated
    assert draw_game(game, [opened]) is None
    assert draw_game(game, [opened], nilsson_eval) is not None
    fixture, path = o_blocks()
    assert draw_game(fixture.game(), [path], most=74) is None and draw_game(fixture.game(), [path], most=75)


def test_a_drawing_crosses_the_pipe_from_the_students_process_unchanged():
    fixture, path = o_blocks()
    drawing = draw_game(fixture.game(), [path])
    result = TestResult("alphabeta", "alphabeta/ttt-o-blocks", status="failed", drawing=drawing)
    assert from_data(to_data(result)) == result
