"""Mistake cutoff_no_decrement, written as module functions (the textbook layout):
the correct textbook style with this one mistake."""

import math


def alpha_beta_cutoff_search(game, state, depth, eval_fn):
    if cutoff_test(game, state, depth):
        return None
    alpha, beta, best_action = -math.inf, math.inf, None
    if game.to_move(state) == "MAX":
        for a in game.actions(state):
            v = min_value(game, game.result(state, a), alpha, beta, depth, eval_fn)
            if best_action is None or v > alpha:
                alpha, best_action = v, a
    else:
        for a in game.actions(state):
            v = max_value(game, game.result(state, a), alpha, beta, depth, eval_fn)
            if best_action is None or v < beta:
                beta, best_action = v, a
    return best_action


def cutoff_test(game, state, depth):
    return depth == 0 or game.terminal_test(state)


def max_value(game, state, alpha, beta, depth, eval_fn):
    if cutoff_test(game, state, depth):
        return eval_fn(state)
    v = -math.inf
    for a in game.actions(state):
        v = max(v, min_value(game, game.result(state, a), alpha, beta, depth, eval_fn))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta, depth, eval_fn):
    if cutoff_test(game, state, depth):
        return eval_fn(state)
    v = math.inf
    for a in game.actions(state):
        v = min(v, max_value(game, game.result(state, a), alpha, beta, depth, eval_fn))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
