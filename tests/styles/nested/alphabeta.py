"""Style: nested functions. alpha_beta_search defines its own max_value/min_value inside (closing over game, as in
AIMA's Python code); the module-level max_value/min_value the contract names are written out separately."""

import math


def alpha_beta_search(game, state):
    def max_value(s, alpha, beta):
        if game.terminal_test(s):
            return game.utility(s)
        v = -math.inf
        for a in game.actions(s):
            v = max(v, min_value(game.result(s, a), alpha, beta))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v

    def min_value(s, alpha, beta):
        if game.terminal_test(s):
            return game.utility(s)
        v = math.inf
        for a in game.actions(s):
            v = min(v, max_value(game.result(s, a), alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    if game.terminal_test(state):
        return None
    alpha, beta, best_action = -math.inf, math.inf, None
    if game.to_move(state) == "MAX":
        for a in game.actions(state):
            v = min_value(game.result(state, a), alpha, beta)
            if best_action is None or v > alpha:
                alpha, best_action = v, a
    else:
        for a in game.actions(state):
            v = max_value(game.result(state, a), alpha, beta)
            if best_action is None or v < beta:
                beta, best_action = v, a
    return best_action


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
