"""Depth-limited alpha-beta (alice). Correct: one recursive function for both players."""

from bounds import NEG_INF, POS_INF


def cutoff_test(game, state, depth):
    return depth <= 0 or game.terminal_test(state)


def alpha_beta_cutoff_search(game, state, depth, eval_fn):
    if cutoff_test(game, state, depth):
        return None
    maximizing = game.to_move(state) == "MAX"
    alpha, beta, best = NEG_INF, POS_INF, None
    for a in game.actions(state):
        child = game.result(state, a)
        if maximizing:
            v = min_value(game, child, alpha, beta, depth - 1, eval_fn)
            if best is None or v > alpha:
                alpha, best = v, a
        else:
            v = max_value(game, child, alpha, beta, depth - 1, eval_fn)
            if best is None or v < beta:
                beta, best = v, a
    return best


def _value(game, state, alpha, beta, depth, eval_fn, maximizing):
    if cutoff_test(game, state, depth):
        return eval_fn(state)
    v = NEG_INF if maximizing else POS_INF
    for a in game.actions(state):
        child = game.result(state, a)
        if maximizing:
            v = max(v, min_value(game, child, alpha, beta, depth - 1, eval_fn))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        else:
            v = min(v, max_value(game, child, alpha, beta, depth - 1, eval_fn))
            if v <= alpha:
                return v
            beta = min(beta, v)
    return v


def max_value(game, state, alpha, beta, depth, eval_fn):
    return _value(game, state, alpha, beta, depth, eval_fn, True)


def min_value(game, state, alpha, beta, depth, eval_fn):
    return _value(game, state, alpha, beta, depth, eval_fn, False)
