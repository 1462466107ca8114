"""Keeps state between calls: the root's best value so far is a global, never reset, so a second search of the
same tree finds nothing better than the first one's best and returns no action."""

import math

best_value = -math.inf


def alpha_beta_search(game, state):
    global best_value
    if game.terminal_test(state):
        return None
    alpha, beta, best = -math.inf, math.inf, None
    if game.to_move(state) == "MAX":
        for a in game.actions(state):
            v = min_value(game, game.result(state, a), alpha, beta)
            if v > best_value:
                best_value, best = v, a
            alpha = max(alpha, v)
    else:
        for a in game.actions(state):
            v = max_value(game, game.result(state, a), alpha, beta)
            if best is None or v < beta:
                beta, best = v, a
    return best


def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state)
    v = -math.inf
    for a in game.actions(state):
        v = max(v, min_value(game, game.result(state, a), alpha, beta))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state)
    v = math.inf
    for a in game.actions(state):
        v = min(v, max_value(game, game.result(state, a), alpha, beta))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
