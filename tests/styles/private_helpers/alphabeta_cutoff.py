"""Style: private helpers. _max/_min do the depth-limited recursion; the contract's max_value/min_value delegate to
them and alpha_beta_cutoff_search calls the helpers directly."""

import math


def cutoff_test(game, state, depth):
    return depth == 0 or game.terminal_test(state)


def _max(game, state, alpha, beta, depth, eval_fn):
    if cutoff_test(game, state, depth):
        return eval_fn(state)
    v = -math.inf
    for action in game.actions(state):
        v = max(v, _min(game, game.result(state, action), alpha, beta, depth - 1, eval_fn))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def _min(game, state, alpha, beta, depth, eval_fn):
    if cutoff_test(game, state, depth):
        return eval_fn(state)
    v = math.inf
    for action in game.actions(state):
        v = min(v, _max(game, game.result(state, action), alpha, beta, depth - 1, eval_fn))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v


def max_value(game, state, alpha, beta, depth, eval_fn):
    return _max(game, state, alpha, beta, depth, eval_fn)


def min_value(game, state, alpha, beta, depth, eval_fn):
    return _min(game, state, alpha, beta, depth, eval_fn)


def alpha_beta_cutoff_search(game, state, depth, eval_fn):
    if cutoff_test(game, state, depth):
        return None
    alpha, beta, best_action = -math.inf, math.inf, None
    maximizing = game.to_move(state) == "MAX"
    for action in game.actions(state):
        child = game.result(state, action)
        if maximizing:
            v = _min(game, child, alpha, beta, depth - 1, eval_fn)
            if best_action is None or v > alpha:
                alpha, best_action = v, action
        else:
            v = _max(game, child, alpha, beta, depth - 1, eval_fn)
            if best_action is None or v < beta:
                beta, best_action = v, action
    return best_action
