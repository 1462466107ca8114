"""Beyond drawn trees: tic-tac-toe positions, depth-limited search with EVAL, and games of chance."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from abkit.fixture import FixtureError, parse_fixture
from abkit.game import CHANCE, MAX, IllegalMoveError
from abkit.tictactoe import EMPTY, SymmetryMerged, TicTacToe, canonical, nilsson_eval, parse_board, play
from abkit.tree import Tree, TreeGame, backed_up_values, from_nested
from abkit.reference import reference, reference_trace


# -- Nilsson's evaluation and depth-2 analysis (seed 001) -----------------------

@pytest.mark.parametrize("board,value", [
    ("....X....", 8 - 4),          # X in the centre, O nowhere: all 8 lines open for X, 4 for O
    ("O...X....", 5 - 4),          # Nilsson's figure 3: centre, O in a corner -> 1
    (".O..X....", 6 - 4),          # centre, O on an edge -> 2
    ("X...O....", 4 - 5),          # X in a corner, O in the centre -> -1
    (".X..O....", 4 - 6),          # X on an edge, O in the centre -> -2
    ("XXX.OO...", math.inf), ("OOOXX.X..", -math.inf), (EMPTY, 0),
])
def test_nilsson_evaluation(board, value):
    assert nilsson_eval(board) == value


@pytest.mark.parametrize("game", [SymmetryMerged(), TicTacToe()], ids=["merged", "unmerged"])
def test_nilsson_depth_2_search_picks_the_centre(game):
    trace = reference_trace(game, EMPTY, "cutoff", depth=2, eval_fn=nilsson_eval)
    assert (trace.value, trace.action) == (1, 4)


def test_symmetry_merging_gives_nilssons_three_first_moves():
    game = SymmetryMerged()
    assert game.actions(EMPTY) == [0, 1, 4]                    # a corner, an edge, the centre
    assert len(game.actions("....X....")) == 2                 # O: a corner or an edge
    assert canonical("X........") == canonical("........X")


# -- playing whole games -------------------------------------------------------

def agent(algorithm):
    module = reference(algorithm)
    entry = module.alpha_beta_search if algorithm == "alphabeta" else module.minimax_decision
    return lambda game, state: entry(game, state)


def test_alpha_beta_against_itself_is_a_draw():
    states = play(TicTacToe(), {MAX: agent("alphabeta"), "MIN": agent("alphabeta")})
    assert TicTacToe().utility(states[-1]) == 0 and len(states) == 10


@pytest.mark.parametrize("seed", range(6))
def test_alpha_beta_never_loses_to_a_random_player(seed):
    rng = random.Random(seed)
    random_player = lambda game, state: rng.choice(game.actions(state))
    game = TicTacToe()
    as_x = play(game, {MAX: agent("alphabeta"), "MIN": random_player})
    as_o = play(game, {MAX: random_player, "MIN": agent("alphabeta")})
    assert game.utility(as_x[-1]) >= 0 and game.utility(as_o[-1]) <= 0


def test_illegal_moves_and_bad_boards():
    game = TicTacToe()
    for action in (9, "4", 0):
        with pytest.raises(IllegalMoveError):
            game.result("X........", action)
    with pytest.raises(IllegalMoveError):
        play(game, {MAX: lambda g, s: 0, "MIN": lambda g, s: 0})
    for text in ("XX", "OO.......", "XXX......"):
        with pytest.raises(ValueError):
            parse_board(text)
    assert game.actions("XXXOO....") == [] and game.display("XO.......") == "XO.\n...\n..."


# -- expectiminimax --------------------------------------------------------------

probability_trees = st.builds(
    lambda values, weights: (values, weights),
    st.lists(st.lists(st.lists(st.integers(-9, 9), min_size=1, max_size=3), min_size=1, max_size=4), min_size=1, max_size=3),
    st.lists(st.integers(1, 5), min_size=4, max_size=4))


@settings(max_examples=150, deadline=None)
@given(probability_trees)
def test_expectiminimax_equals_the_backed_up_expectation(case):
    nested, weights = case
    tree = from_nested(nested)
    levels = (MAX, CHANCE, "MIN")
    probabilities = {}
    for chance_node in tree.children["A"]:
        kids = tree.children[chance_node]
        w = [weights[i % len(weights)] for i in range(len(kids))]
        probabilities.update({k: x / sum(w) for k, x in zip(kids, w)})
    tree = Tree(tree.root, tree.children, tree.utilities, MAX, levels=levels, probabilities=probabilities)
    trace = reference_trace(TreeGame(tree), "A", "expectimax")
    truth = backed_up_values(tree)
    assert trace.value == pytest.approx(truth["A"])
    best = max(truth[k] for k in tree.children["A"])
    assert truth[trace.action] == pytest.approx(best)
    assert trace.visited == list(tree.preorder())


# -- the loader on the new keys -----------------------------------------------------

def test_game_fixture_and_chance_fixture_load():
    fx = parse_fixture("game: tictactoe\nposition: \"XX./OO./...\"\nexpected:\n  alphabeta: {value: 1, action: 2, leaves: 13}\n")
    assert fx.tree is None and fx.root == "XX.OO...." and isinstance(fx.game(), TicTacToe)
    fx = parse_fixture("levels: [max, chance, min]\ntree: [[[1, 2], [3]], [[4]]]\nprobabilities: {B1: 0.25, B2: '3/4'}\n")
    assert fx.tree.probabilities == {"B1": 0.25, "B2": 0.75, "C1": 1.0}
    assert TreeGame(fx.tree).to_move("B") == CHANCE and TreeGame(fx.tree).probability("B", "B2") == 0.75


BAD = [
    ("levels: [max, chance]\ntree: [[1, 2]]\nprobabilities: {B1: 0.5, B2: 0.4}\n", 3, "add up to 0.9, not 1"),
    ("levels: [max, chance]\ntree: [[1, 2]]\nprobabilities: {B1: 0.5}\n", 3, "missing: B2"),
    ("levels: [max, chance]\ntree: [[1, 2]]\nprobabilities: {B1: '1/0', B2: 1}\n", 3, "fraction"),
    ("levels: [max, chance]\ntree: [[1, 2]]\nprobabilities: {B1: 1.5, B2: 0}\n", 3, "from 0 to 1"),
    ("levels: [max, chance]\ntree: [[1, 2]]\nprobabilities: {B: 1}\n", 3, "not an outcome"),
    ("levels: [max, chance]\ntree: [[1, 2]]\nprobabilities: [1]\n", 3, "'probabilities:' must be a mapping"),
    ("levels: [chance, max]\ntree: [1]\n", 1, "must start with the player at the root"),
    ("root: min\nlevels: [max, min]\ntree: [1]\n", 2, "agree with 'root:'"),
    ("levels: [max, dice]\ntree: [1]\n", 1, "list of max, min and chance"),
    ("levels: []\ntree: [1]\n", 1, "list of max, min and chance"),
    ("levels: [max, chance]\ntree: [[1]]\nexpected:\n  alphabeta: {value: 1}\n", 4, "only 'expectimax'"),
    ("tree: [[1]]\nexpected:\n  expectimax: {value: 1}\n", 3, "needs a tree with chance nodes"),
    ("tree: [[1]]\nexpected:\n  cutoff: {value: 1}\n", 3, "needs 'depth:'"),
    ("depth: 1\ntree: [[1, 2]]\n", 1, "stops at B, which have no heuristic value"),
    ("depth: 0\ntree: [1]\n", 1, "whole number"),
    ("game: chess\n", 1, "unknown game 'chess'"),
    ("game: tictactoe\n", 1, "needs a 'position:'"),
    ("game: tictactoe\nposition: XXX\n", 2, "9 squares"),
    ("game: tictactoe\nposition: X........\ntree: [1]\n", 3, "belongs to a tree fixture"),
    ("tree: [1]\nposition: X........\n", 2, "belongs to a game fixture"),
    ("game: tictactoe\nposition: X........\nexpected:\n  alphabeta: {evaluated: [A]}\n", 4,
     "unknown expected field 'evaluated'"),
    ("game: tictactoe\nposition: X........\nexpected:\n  alphabeta: {visited: [A]}\n", 4,
     "not a board as the game writes its states"),
    ("game: tictactoe\nposition: X........\nexpected:\n  alphabeta: {action: 0}\n", 4, "not a child of the root"),
]


@pytest.mark.parametrize("text,line,words", BAD, ids=[w for _, _, w in BAD])
def test_new_keys_are_validated_with_path_and_line(text, line, words):
    with pytest.raises(FixtureError) as caught:
        parse_fixture(text, "x.yaml")
    assert (caught.value.line, words in caught.value.render("en")) == (line, True), caught.value.render("en")
    assert caught.value.render("ko") != caught.value.render("en")


def test_tree_game_rejects_what_it_does_not_have():
    game = TreeGame(from_nested([[1, 2]]))
    with pytest.raises(ValueError):
        game.utility("A")
    with pytest.raises(ValueError):
        game.evaluate("B")
    with pytest.raises(IllegalMoveError):
        game.probability("A", "Z")
