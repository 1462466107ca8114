"""Keeps state between calls: a node budget (a guard against a search that runs too long) counted in a global
that is never reset, so after enough searches every search stops at once."""

import math

BUDGET = 150
expanded = 0


def alpha_beta_search(game, state):
    if game.terminal_test(state):
        return None
    alpha, beta, best = -math.inf, math.inf, None
    if game.to_move(state) == "MAX":
        for a in game.actions(state):
            v = min_value(game, game.result(state, a), alpha, beta)
            if best is None or v > alpha:
                alpha, best = v, a
    else:
        for a in game.actions(state):
            v = max_value(game, game.result(state, a), alpha, beta)
            if best is None or v < beta:
                beta, best = v, a
    return best


def max_value(game, state, alpha, beta):
    global expanded
    if game.terminal_test(state):
        return game.utility(state)
    expanded += 1
    if expanded > BUDGET:
        return 0
    v = -math.inf
    for a in game.actions(state):
        v = max(v, min_value(game, game.result(state, a), alpha, beta))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta):
    global expanded
    if game.terminal_test(state):
        return game.utility(state)
    expanded += 1
    if expanded > BUDGET:
        return 0
    v = math.inf
    for a in game.actions(state):
        v = min(v, max_value(game, game.result(state, a), alpha, beta))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
