"""The reference solutions against published numbers (../shared/docs/oracles.md), not against themselves.

Counting conventions, as in oracles.md: "nodes" = states the search was called
on, root included (RESULT calls + 1); "leaves" = UTILITY calls.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from abkit.game import MAX, MIN
from abkit.randomtree import random_tree
from abkit.tictactoe import EMPTY, TicTacToe
from abkit.tree import Tree, TreeGame
from abkit.reference import reference_trace

RULES = pytest.mark.parametrize("rule", [True, False], ids=["aima", "cs188"])


def aima_tree(c2=4, c3=6, d=(14, 5, 2)) -> Tree:
    names = {"A": ("B", "C", "D"), "B": ("B1", "B2", "B3"), "C": ("C1", "C2", "C3"), "D": ("D1", "D2", "D3")}
    leaves = {"B1": 3, "B2": 12, "B3": 8, "C1": 2, "C2": c2, "C3": c3}
    leaves.update(zip(("D1", "D2", "D3"), d))
    return Tree("A", names, leaves)


@RULES
@pytest.mark.parametrize("c2,c3", list(itertools.product([-100, 2, 4, 99], [-5, 2, 6, 50])))
def test_aima_fig_5_2_value_is_3_whatever_c2_and_c3(rule, c2, c3):
    # MINIMAX(root) = max(min(3,12,8), min(2,x,y), min(14,5,2)) = 3 whatever x and y are.
    tree = aima_tree(c2, c3)
    for algorithm in ("minimax", "alphabeta"):
        trace = reference_trace(TreeGame(tree), "A", algorithm, rule)
        assert (trace.value, trace.action) == (3, "B")
    trace = reference_trace(TreeGame(tree), "A", "alphabeta", rule)
    assert trace.evaluated == ["B1", "B2", "B3", "C1", "D1", "D2", "D3"]
    assert trace.pruned(tree) == ["C2", "C3"]


@RULES
def test_reordering_d_prunes_14_and_5(rule):
    # Seed 000: "had 2 been generated first, 14 and 5 could have been pruned".
    plain = reference_trace(TreeGame(aima_tree()), "A", "alphabeta", rule)
    tree = aima_tree(d=(2, 14, 5))
    reordered = reference_trace(TreeGame(tree), "A", "alphabeta", rule)
    assert len(plain.evaluated) - len(reordered.evaluated) == 2
    assert [tree.utilities[n] for n in reordered.pruned(tree)] == [4, 6, 14, 5]


@RULES
def test_gfg_tree_value_5_leaf_9_never_evaluated_and_g_skipped(rule):
    # Seed 002: complete binary tree, leaves 3 5 6 9 1 2 0 -1, MAX root.
    leaves = [3, 5, 6, 9, 1, 2, 0, -1]
    children = {"A": ("B", "C"), "B": ("D", "E"), "C": ("F", "G")}
    names = {}
    for parent, pair in zip("DEFG", zip(leaves[::2], leaves[1::2])):
        children[parent] = (parent + "1", parent + "2")
        names.update({parent + "1": pair[0], parent + "2": pair[1]})
    tree = Tree("A", children, names)
    trace = reference_trace(TreeGame(tree), "A", "alphabeta", rule)
    assert trace.value == 5
    assert 9 not in [tree.utilities[n] for n in trace.evaluated]
    assert "G" in trace.pruned(tree) and not {"G", "G1", "G2"} & set(trace.visited)


KNUTH_MOORE = [(2, 3, 5), (3, 4, 17), (4, 6, 127), (2, 1, 2), (3, 2, 5), (5, 3, 29)]


@RULES
@pytest.mark.parametrize("root", [MAX, MIN])
@pytest.mark.parametrize("b,d,leaves", KNUTH_MOORE, ids=[f"b{b}-d{d}" for b, d, _ in KNUTH_MOORE])
def test_knuth_moore_count_on_perfectly_ordered_trees(b, d, leaves, root, rule):
    # Knuth & Moore (1975): b^ceil(d/2) + b^floor(d/2) - 1 leaves; the table gives the published numbers.
    assert b ** ((d + 1) // 2) + b ** (d // 2) - 1 == leaves
    for seed in range(3):
        tree = random_tree(b, d, -10**6, 10**6, "best", root, distinct=True, seed=seed)
        trace = reference_trace(TreeGame(tree), tree.root, "alphabeta", rule)
        assert len(trace.evaluated) == leaves


@RULES
@pytest.mark.parametrize("root", [MAX, MIN])
@pytest.mark.parametrize("b,d", [(2, 3), (3, 4), (4, 5), (2, 8)])
def test_worst_ordering_cuts_nothing(b, d, root, rule):
    for seed in range(3):
        tree = random_tree(b, d, -10**6, 10**6, "worst", root, seed=seed)
        trace = reference_trace(TreeGame(tree), tree.root, "alphabeta", rule)
        assert len(trace.evaluated) == b ** d
        assert trace.pruned(tree) == []


@pytest.fixture(scope="module")
def tictactoe_minimax():
    return reference_trace(TicTacToe(), EMPTY, "minimax")


@pytest.mark.slow
def test_tictactoe_full_game_tree(tictactoe_minimax):
    trace = tictactoe_minimax
    assert trace.nodes == 549_946
    assert len(trace.evaluated) == 255_168
    assert (trace.value, trace.action) == (0, 0)


@pytest.mark.slow
def test_tictactoe_terminal_games_by_outcome(tictactoe_minimax):
    outcomes = Counter(TicTacToe().utility(s) for s in tictactoe_minimax.evaluated)
    assert outcomes == {1: 131_184, -1: 77_904, 0: 46_080}


@pytest.mark.slow
def test_tictactoe_nodes_per_depth(tictactoe_minimax):
    per_depth = Counter(9 - state.count(".") for state in tictactoe_minimax.visited)
    assert [per_depth[d] for d in range(10)] == [1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]


def test_tictactoe_alphabeta_from_empty_board():
    trace = reference_trace(TicTacToe(), EMPTY, "alphabeta", True)
    assert (trace.nodes, len(trace.evaluated)) == (18_297, 7_330)
    assert (trace.value, trace.action) == (0, 0)  # every opening is worth 0: the first square wins the tie
