"""Style: a generator of successors. successors() yields (action, RESULT(state, action)) lazily, so a cut-off that
returns from the loop never generates the rest; the values run through the loop as in the pseudocode."""

import math


def successors(game, state):
    for a in game.actions(state):
        yield a, game.result(state, a)


def alpha_beta_search(game, state):
    if game.terminal_test(state):
        return None
    alpha, beta, best_action = -math.inf, math.inf, None
    maximizing = game.to_move(state) == "MAX"
    for a, child in successors(game, state):
        if maximizing:
            v = min_value(game, child, alpha, beta)
            if best_action is None or v > alpha:
                alpha, best_action = v, a
        else:
            v = max_value(game, child, alpha, beta)
            if best_action is None or v < beta:
                beta, best_action = v, a
    return best_action


def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state)
    v = -math.inf
    for _, child in successors(game, state):
        v = max(v, min_value(game, child, alpha, beta))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state)
    v = math.inf
    for _, child in successors(game, state):
        v = min(v, max_value(game, child, alpha, beta))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
