"""Minimax decision, following the AIMA pseudocode (MINIMAX-DECISION, MAX-VALUE, MIN-VALUE).

The reference solution of the kit: every child of every node is searched.
"""

import math


def minimax_decision(game, state):
    """MINIMAX-DECISION(state) returns an action.

    The first action whose value is the best value for the player to move
    (MAX: highest, MIN: lowest); None at a terminal state. PLAYER(state) is
    game.to_move(state): "MAX" or "MIN".

    둘 차례인 선수에게 값이 가장 좋은 첫 번째 행동을 돌려줍니다(MAX는 가장 큰 값, MIN은
    가장 작은 값). 단말 상태에서는 None을 돌려줍니다. PLAYER(state)는 game.to_move(state)이며
    "MAX" 또는 "MIN"입니다.

    if TERMINAL-TEST(state) then return None
    if PLAYER(state) = MAX then
        return the first a in ACTIONS(state) with the highest MIN-VALUE(RESULT(state, a))
    else
        return the first a in ACTIONS(state) with the lowest MAX-VALUE(RESULT(state, a))
    """
    # BEGIN SOLUTION
    if game.terminal_test(state):
        return None
    if game.to_move(state) == "MAX":
        best_value, best_action = -math.inf, None
        for a in game.actions(state):
            v = min_value(game, game.result(state, a))
            if best_action is None or v > best_value:
                best_value, best_action = v, a
    else:
        best_value, best_action = math.inf, None
        for a in game.actions(state):
            v = max_value(game, game.result(state, a))
            if best_action is None or v < best_value:
                best_value, best_action = v, a
    return best_action
    # END SOLUTION


def max_value(game, state):
    """MAX-VALUE(state) returns a utility value.

    if TERMINAL-TEST(state) then return UTILITY(state)
    v <- -inf
    for each a in ACTIONS(state) do
        v <- MAX(v, MIN-VALUE(RESULT(state, a)))
    return v
    """
    # BEGIN SOLUTION
    if game.terminal_test(state):
        return game.utility(state)
    v = -math.inf
    for a in game.actions(state):
        v = max(v, min_value(game, game.result(state, a)))
    return v
    # END SOLUTION


def min_value(game, state):
    """MIN-VALUE(state) returns a utility value.

    if TERMINAL-TEST(state) then return UTILITY(state)
    v <- +inf
    for each a in ACTIONS(state) do
        v <- MIN(v, MAX-VALUE(RESULT(state, a)))
    return v
    """
    # BEGIN SOLUTION
    if game.terminal_test(state):
        return game.utility(state)
    v = math.inf
    for a in game.actions(state):
        v = min(v, max_value(game, game.result(state, a)))
    return v
    # END SOLUTION
