"""Style: update then test. MAX-VALUE raises alpha to v first and only then tests v >= beta (MIN-VALUE: lowers beta,
then tests v <= alpha). The order does not matter: a node that returns never uses its alpha again."""

import math


def alpha_beta_search(game, state):
    if game.terminal_test(state):
        return None
    alpha, beta, best_action = -math.inf, math.inf, None
    if game.to_move(state) == "MAX":
        for a in game.actions(state):
            v = min_value(game, game.result(state, a), alpha, beta)
            if best_action is None or v > alpha:
                best_action = a
            alpha = max(alpha, v)
    else:
        for a in game.actions(state):
            v = max_value(game, game.result(state, a), alpha, beta)
            if best_action is None or v < beta:
                best_action = a
            beta = min(beta, v)
    return best_action


def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state)
    v = -math.inf
    for a in game.actions(state):
        v = max(v, min_value(game, game.result(state, a), alpha, beta))
        alpha = max(alpha, v)
        if v >= beta:
            return v
    return v


def min_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state)
    v = math.inf
    for a in game.actions(state):
        v = min(v, max_value(game, game.result(state, a), alpha, beta))
        beta = min(beta, v)
        if v <= alpha:
            return v
    return v
