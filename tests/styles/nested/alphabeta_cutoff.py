"""Style: nested functions, as AIMA's games.py alpha_beta_cutoff_search: max_value/min_value are defined inside the
search (closing over game, eval_fn and a cutoff_test lambda); the module-level functions the contract names are
written out separately."""

import math


def alpha_beta_cutoff_search(game, state, depth, eval_fn):
    cutoff = lambda s, d: d == 0 or game.terminal_test(s)  # noqa: E731 - as in AIMA's code

    def max_value(s, alpha, beta, d):
        if cutoff(s, d):
            return eval_fn(s)
        v = -math.inf
        for a in game.actions(s):
            v = max(v, min_value(game.result(s, a), alpha, beta, d - 1))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v

    def min_value(s, alpha, beta, d):
        if cutoff(s, d):
            return eval_fn(s)
        v = math.inf
        for a in game.actions(s):
            v = min(v, max_value(game.result(s, a), alpha, beta, d - 1))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    if cutoff(state, depth):
        return None
    best_score, beta, best_action = -math.inf, math.inf, None
    if game.to_move(state) == "MAX":
        for a in game.actions(state):
            v = min_value(game.result(state, a), best_score, beta, depth - 1)
            if best_action is None or v > best_score:
                best_score, best_action = v, a
        return best_action
    alpha, best_score = -math.inf, math.inf
    for a in game.actions(state):
        v = max_value(game.result(state, a), alpha, best_score, depth - 1)
        if best_action is None or v < best_score:
            best_score, best_action = v, a
    return best_action


def cutoff_test(game, state, depth):
    return depth == 0 or game.terminal_test(state)


def max_value(game, state, alpha, beta, depth, eval_fn):
    if cutoff_test(game, state, depth):
        return eval_fn(state)
    v = -math.inf
    for a in game.actions(state):
        v = max(v, min_value(game, game.result(state, a), alpha, beta, depth - 1, eval_fn))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta, depth, eval_fn):
    if cutoff_test(game, state, depth):
        return eval_fn(state)
    v = math.inf
    for a in game.actions(state):
        v = min(v, max_value(game, game.result(state, a), alpha, beta, depth - 1, eval_fn))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
