"""Style: dispatch dict. VALUE = {"MAX": max_value, "MIN": min_value}, built once at import, picks the function for
a child by who moves there (PLAYER(child)); every recursive call goes through the dict."""

import math


def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state)
    v = -math.inf
    for a in game.actions(state):
        child = game.result(state, a)
        v = max(v, VALUE[game.to_move(child)](game, child, alpha, beta))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state)
    v = math.inf
    for a in game.actions(state):
        child = game.result(state, a)
        v = min(v, VALUE[game.to_move(child)](game, child, alpha, beta))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v


VALUE = {"MAX": max_value, "MIN": min_value}


def alpha_beta_search(game, state):
    if game.terminal_test(state):
        return None
    alpha, beta, best_action = -math.inf, math.inf, None
    maximizing = game.to_move(state) == "MAX"
    for a in game.actions(state):
        child = game.result(state, a)
        v = VALUE[game.to_move(child)](game, child, alpha, beta)
        if maximizing and (best_action is None or v > alpha):
            alpha, best_action = v, a
        elif not maximizing and (best_action is None or v < beta):
            beta, best_action = v, a
    return best_action
