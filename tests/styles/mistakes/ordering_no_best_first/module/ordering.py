"""Mistake ordering_no_best_first, written as module functions (the textbook layout):
the correct textbook style with this one mistake."""

import math


def ordered_actions(game, state, eval_fn):
    maximizing = game.to_move(state) == "MAX"
    scored = [(eval_fn(game.result(state, a)), i, a) for i, a in enumerate(game.actions(state))]
    scored.sort(key=lambda t: (-t[0] if maximizing else t[0], t[1]))
    return [a for _, _, a in scored]


def iterative_deepening_search(game, state, depth, eval_fn):
    if game.terminal_test(state):
        return None
    best_moves = {}
    for d in range(1, depth + 1):
        if game.to_move(state) == "MAX":
            max_value(game, state, -math.inf, math.inf, d, eval_fn, best_moves)
        else:
            min_value(game, state, -math.inf, math.inf, d, eval_fn, best_moves)
    return best_moves.get(state, game.actions(state)[0])


def actions_in_order(game, state, best_moves):
    actions = game.actions(state)
    return actions


def max_value(game, state, alpha, beta, depth, eval_fn, best_moves):
    if depth == 0 or game.terminal_test(state):
        return eval_fn(state)
    v = -math.inf
    for a in actions_in_order(game, state, best_moves):
        child = min_value(game, game.result(state, a), alpha, beta, depth - 1, eval_fn, best_moves)
        if child > v:
            v, best_moves[state] = child, a
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta, depth, eval_fn, best_moves):
    if depth == 0 or game.terminal_test(state):
        return eval_fn(state)
    v = math.inf
    for a in actions_in_order(game, state, best_moves):
        child = max_value(game, game.result(state, a), alpha, beta, depth - 1, eval_fn, best_moves)
        if child < v:
            v, best_moves[state] = child, a
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
