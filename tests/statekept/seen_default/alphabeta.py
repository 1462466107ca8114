"""Keeps state between calls: a ``seen=set()`` default argument, meant to skip states already expanded, is one set
for every call of every search, so a second search of the same tree skips everything."""

import math


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


def max_value(game, state, alpha, beta, seen=set()):
    if game.terminal_test(state):
        return game.utility(state)
    v = -math.inf
    for a in game.actions(state):
        if (state, a) in seen:
            continue
        seen.add((state, a))
        v = max(v, min_value(game, game.result(state, a), alpha, beta))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta, seen=set()):
    if game.terminal_test(state):
        return game.utility(state)
    v = math.inf
    for a in game.actions(state):
        if (state, a) in seen:
            continue
        seen.add((state, a))
        v = min(v, max_value(game, game.result(state, a), alpha, beta))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
