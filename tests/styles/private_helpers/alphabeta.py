"""Style: private helpers. The recursion runs through _max/_min; the contract's max_value/min_value delegate to them
and alpha_beta_search calls the helpers directly."""

import math


def _max(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state)
    v = -math.inf
    for action in game.actions(state):
        v = max(v, _min(game, game.result(state, action), alpha, beta))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def _min(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state)
    v = math.inf
    for action in game.actions(state):
        v = min(v, _max(game, game.result(state, action), alpha, beta))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v


def max_value(game, state, alpha, beta):
    return _max(game, state, alpha, beta)


def min_value(game, state, alpha, beta):
    return _min(game, state, alpha, beta)


def alpha_beta_search(game, state):
    if game.terminal_test(state):
        return None
    alpha, beta, best_action = -math.inf, math.inf, None
    if game.to_move(state) == "MAX":
        for action in game.actions(state):
            v = _min(game, game.result(state, action), alpha, beta)
            if best_action is None or v > alpha:
                alpha, best_action = v, action
    else:
        for action in game.actions(state):
            v = _max(game, game.result(state, action), alpha, beta)
            if best_action is None or v < beta:
                beta, best_action = v, action
    return best_action
