"""Mistake truncated, written as module functions (the textbook layout):
the correct textbook style with this one mistake."""

import math


def alpha_beta_search(game, state):
    if game.terminal_test(state):
        return None
    alpha, beta = -math.inf, math.inf
    best_action = None
    if game.to_move(state) == "MAX":
        for a in game.actions(state):
            v = min_value(game, game.result(state, a), alpha, beta)
            if best_action is None or v > alpha:
                alpha, best_action = v, a
    else:
        for a in game.actions(state):
            v = max_value(game, game.result(state, a), alpha, beta)
            if best_action is None or v < beta:
                beta, best_action = v, a
    return best_action


def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return int(game.utility(state))  # scores are whole points
    v = -math.inf
    for a in game.actions(state):
        v = max(v, min_value(game, game.result(state, a), alpha, beta))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return int(game.utility(state))  # scores are whole points
    v = math.inf
    for a in game.actions(state):
        v = min(v, max_value(game, game.result(state, a), alpha, beta))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
