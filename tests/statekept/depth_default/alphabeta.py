"""Keeps state between calls: a ``depth=[0]`` default argument counts how deep the search is, as a guard against
runaway recursion, but a cut-off returns without counting back up, so the count drifts from search to search
until the guard stops searches that are not deep at all."""

import math

GUARD = 12


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


def max_value(game, state, alpha, beta, depth=[0]):
    if game.terminal_test(state) or depth[0] > GUARD:
        return game.utility(state) if game.terminal_test(state) else 0
    depth[0] += 1
    v = -math.inf
    for a in game.actions(state):
        v = max(v, min_value(game, game.result(state, a), alpha, beta))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    depth[0] -= 1
    return v


def min_value(game, state, alpha, beta, depth=[0]):
    if game.terminal_test(state) or depth[0] > GUARD:
        return game.utility(state) if game.terminal_test(state) else 0
    depth[0] += 1
    v = math.inf
    for a in game.actions(state):
        v = min(v, max_value(game, game.result(state, a), alpha, beta))
        if v <= alpha:
            return v
        beta = min(beta, v)
    depth[0] -= 1
    return v
