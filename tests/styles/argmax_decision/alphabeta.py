"""Style: AIMA 3e alphabeta_search. The root keeps best_score and passes it as alpha to each child's MIN-VALUE
(as beta to MAX-VALUE at a MIN root); MAX-VALUE is never called on the root."""

import math


def alpha_beta_search(game, state):
    if game.terminal_test(state):
        return None
    best_action = None
    if game.to_move(state) == "MAX":
        best_score, beta = -math.inf, math.inf
        for a in game.actions(state):
            v = min_value(game, game.result(state, a), best_score, beta)
            if best_action is None or v > best_score:
                best_score, best_action = v, a
    else:
        alpha, best_score = -math.inf, math.inf
        for a in game.actions(state):
            v = max_value(game, game.result(state, a), alpha, best_score)
            if best_action is None or v < best_score:
                best_score, best_action = v, a
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
