"""Alpha-beta as a student writes it, with one slip: leaf values are made whole numbers (int() truncates 2.5 to 2).

Written by hand for tests/test_follows.py: every window below the first truncated leaf is computed from a wrong
value by correct updates of alpha and beta."""

import math


def alpha_beta_search(game, state):
    best = None
    alpha, beta = -math.inf, math.inf
    if game.to_move(state) == "MAX":
        value = -math.inf
        for move in game.actions(state):
            score = min_value(game, game.result(state, move), alpha, beta)
            if best is None or score > value:
                value, best = score, move
            alpha = max(alpha, value)
    else:
        value = math.inf
        for move in game.actions(state):
            score = max_value(game, game.result(state, move), alpha, beta)
            if best is None or score < value:
                value, best = score, move
            beta = min(beta, value)
    return best


def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return int(game.utility(state))  # the slip: a utility of -1.5 becomes -1
    v = -math.inf
    for move in game.actions(state):
        v = max(v, min_value(game, game.result(state, move), alpha, beta))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return int(game.utility(state))
    v = math.inf
    for move in game.actions(state):
        v = min(v, max_value(game, game.result(state, move), alpha, beta))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
