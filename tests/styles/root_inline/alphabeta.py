"""Style: root children scored inline. alpha_beta_search expands the root's children itself and runs each child's
MIN-VALUE (MAX-VALUE at a MIN root) inline, with the root's current window, so the contract's functions are first
called on the root's grandchildren."""

import math


def alpha_beta_search(game, state):
    if game.terminal_test(state):
        return None
    alpha, beta, best_action = -math.inf, math.inf, None
    maximizing = game.to_move(state) == "MAX"
    for a in game.actions(state):
        child = game.result(state, a)
        if game.terminal_test(child):
            v = game.utility(child)
        elif maximizing:  # MIN-VALUE(child, alpha, beta), inline
            v, b = math.inf, beta
            for c in game.actions(child):
                v = min(v, max_value(game, game.result(child, c), alpha, b))
                if v <= alpha:
                    break
                b = min(b, v)
        else:  # MAX-VALUE(child, alpha, beta), inline
            v, al = -math.inf, alpha
            for c in game.actions(child):
                v = max(v, min_value(game, game.result(child, c), al, beta))
                if v >= beta:
                    break
                al = max(al, v)
        if maximizing and (best_action is None or v > alpha):
            alpha, best_action = v, a
        elif not maximizing and (best_action is None or v < beta):
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
