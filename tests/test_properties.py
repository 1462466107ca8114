"""Properties that hold on every tree, checked on many generated ones (hypothesis).

They hold the reference solutions against the definition of minimax
(``backed_up_values``, computed bottom-up without search) and against each other.
"""

from __future__ import annotations

import dataclasses
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from abkit.game import MAX, MIN
from abkit.tree import TreeGame, backed_up_values, from_nested
from abkit.reference import reference, reference_trace

pytestmark = pytest.mark.slow  # every test here has hypothesis search many generated trees

leaf = st.one_of(st.integers(-5, 5), st.sampled_from([-2.5, 0.5, 1.25]))
nested = st.recursive(leaf, lambda kids: st.lists(kids, min_size=1, max_size=4), max_leaves=40)
trees = st.builds(from_nested, nested, st.just("A"), st.sampled_from([MAX, MIN]))
rules = st.booleans()


def is_subsequence(short: list, long: list) -> bool:
    it = iter(long)
    return all(any(x == y for y in it) for x in short)


@settings(max_examples=300, deadline=None)
@given(trees, rules)
def test_alphabeta_value_and_action_equal_minimax(tree, rule):
    game = TreeGame(tree)
    mm = reference_trace(game, tree.root, "minimax")
    ab = reference_trace(game, tree.root, "alphabeta", rule)
    assert mm.value == ab.value == backed_up_values(tree)[tree.root]
    assert mm.action == ab.action


@settings(max_examples=300, deadline=None)
@given(trees, rules)
def test_alphabeta_work_is_a_subsequence_of_minimax_work(tree, rule):
    game = TreeGame(tree)
    mm = reference_trace(game, tree.root, "minimax")
    ab = reference_trace(game, tree.root, "alphabeta", rule)
    assert mm.visited == list(tree.preorder())
    assert is_subsequence(ab.evaluated, mm.evaluated)
    assert is_subsequence(ab.visited, mm.visited)
    assert ab.nodes + sum(sum(1 for _ in tree.preorder(p)) for p in ab.pruned(tree)) == len(tree)


@settings(max_examples=300, deadline=None)
@given(trees)
def test_action_is_the_first_best_child(tree):
    if tree.is_leaf(tree.root):
        return
    values = backed_up_values(tree)
    kids = tree.children[tree.root]
    best = (max if tree.root_player == MAX else min)(values[k] for k in kids)
    first_best = next(k for k in kids if values[k] == best)
    assert reference_trace(TreeGame(tree), tree.root, "alphabeta").action == first_best


@settings(max_examples=300, deadline=None)
@given(trees, st.integers(-6, 6), st.integers(1, 6), rules)
def test_max_and_min_value_are_fail_soft_in_any_window(tree, alpha, width, rule):
    # Fail-soft: a result <= alpha bounds the true value from above, >= beta from below; inside, it is exact.
    beta = alpha + width
    module = reference("alphabeta", rule)
    game = TreeGame(tree)
    truth = backed_up_values(tree)
    for node in tree.preorder():
        search = module.max_value if game.to_move(node) == MAX else module.min_value
        v = search(game, node, alpha, beta)
        if v <= alpha:
            assert truth[node] <= v
        elif v >= beta:
            assert truth[node] >= v
        else:
            assert v == truth[node]


@settings(max_examples=200, deadline=None)
@given(trees)
def test_pruning_on_equality_never_searches_more(tree):
    game = TreeGame(tree)
    aima = reference_trace(game, tree.root, "alphabeta", True)
    cs188 = reference_trace(game, tree.root, "alphabeta", False)
    assert aima.nodes <= cs188.nodes


def test_full_window_gives_the_exact_value():
    tree = from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    module = reference("alphabeta")
    assert module.max_value(TreeGame(tree), "A", -math.inf, math.inf) == 3


@settings(max_examples=200, deadline=None)
@given(trees, st.sampled_from([(), ("MAX", "CHANCE", "MIN", "CHANCE"), ("MIN",)]))
def test_who_moves_at_each_node_is_given_by_its_depth(tree, levels):
    tree = dataclasses.replace(tree, levels=levels)
    assert tree.players() == {node: tree.player_at(depth) for node, depth in tree.depths().items()}
