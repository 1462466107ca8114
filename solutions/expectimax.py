"""Expectiminimax for games of chance (AIMA's EXPECTIMINIMAX; Michie's expectimax).

A CHANCE node (the dice) is worth the expected value of its outcomes:
sum over r of P(r) * EXPECTIMINIMAX(RESULT(s, r)). MAX and MIN nodes are as in minimax.
"""

import math


def expectiminimax_decision(game, state):
    """EXPECTIMINIMAX-DECISION(state) returns an action.

    The first action whose expectiminimax value is the best for the player to
    move (MAX: highest, MIN: lowest); None at a terminal state.

    둘 차례인 선수에게 기댓값 미니맥스 값이 가장 좋은 첫 번째 행동을 돌려줍니다(MAX는 가장
    큰 값, MIN은 가장 작은 값). 단말 상태에서는 None을 돌려줍니다.
    """
    # BEGIN SOLUTION
    if game.terminal_test(state):
        return None
    maximizing = game.to_move(state) == "MAX"
    best_value, best_action = (-math.inf if maximizing else math.inf), None
    for a in game.actions(state):
        v = expectiminimax(game, game.result(state, a))
        if best_action is None or (v > best_value if maximizing else v < best_value):
            best_value, best_action = v, a
    return best_action
    # END SOLUTION


def expectiminimax(game, state):
    """EXPECTIMINIMAX(s): MAX-VALUE, MIN-VALUE or CHANCE-VALUE of s, by PLAYER(s).

    PLAYER(s) is game.to_move(s): "MAX", "MIN" or, at the dice, "CHANCE"; the
    outcomes r of a CHANCE node are its ACTIONS, and P(r) is game.probability(s, r).

    EXPECTIMINIMAX(s): PLAYER(s)에 따라 s의 MAX-VALUE, MIN-VALUE 또는 CHANCE-VALUE입니다.
    PLAYER(s)는 game.to_move(s)이며 "MAX", "MIN", 또는 주사위를 던질 차례이면 "CHANCE"입니다.
    확률 노드의 결과 r은 그 노드의 ACTIONS이고, P(r)은 game.probability(s, r)입니다.
    """
    # BEGIN SOLUTION
    player = game.to_move(state)
    if player == "MAX":
        return max_value(game, state)
    if player == "MIN":
        return min_value(game, state)
    return chance_value(game, state)
    # END SOLUTION


def max_value(game, state):
    """MAX-VALUE(s): UTILITY(s) at a terminal state, else max over a of EXPECTIMINIMAX(RESULT(s, a)).

    MAX-VALUE(s): 단말 상태에서는 UTILITY(s), 아니면 행동 a마다 구한 EXPECTIMINIMAX(RESULT(s, a)) 가운데 최댓값입니다.
    """
    # BEGIN SOLUTION
    if game.terminal_test(state):
        return game.utility(state)
    return max(expectiminimax(game, game.result(state, a)) for a in game.actions(state))
    # END SOLUTION


def min_value(game, state):
    """MIN-VALUE(s): UTILITY(s) at a terminal state, else min over a of EXPECTIMINIMAX(RESULT(s, a)).

    MIN-VALUE(s): 단말 상태에서는 UTILITY(s), 아니면 행동 a마다 구한 EXPECTIMINIMAX(RESULT(s, a)) 가운데 최솟값입니다.
    """
    # BEGIN SOLUTION
    if game.terminal_test(state):
        return game.utility(state)
    return min(expectiminimax(game, game.result(state, a)) for a in game.actions(state))
    # END SOLUTION


def chance_value(game, state):
    """CHANCE-VALUE(s): UTILITY(s) at a terminal state, else sum over r of P(r) * EXPECTIMINIMAX(RESULT(s, r)).

    CHANCE-VALUE(s): 단말 상태에서는 UTILITY(s), 아니면 결과 r마다 P(r) * EXPECTIMINIMAX(RESULT(s, r))를 더한 값입니다.
    """
    # BEGIN SOLUTION
    if game.terminal_test(state):
        return game.utility(state)
    return sum(game.probability(state, r) * expectiminimax(game, game.result(state, r)) for r in game.actions(state))
    # END SOLUTION
