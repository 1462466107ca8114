"""Style: private helpers. _max/_min do the depth-limited recursion with the remembered best moves; the contract's
max_value/min_value delegate to them and iterative_deepening_search calls the helpers directly. ordered_actions
uses sorted() with a key function (sorted is stable, so equal keys keep ACTIONS order)."""

import math


def ordered_actions(game, state, eval_fn):
    sign = -1 if game.to_move(state) == "MAX" else 1
    return sorted(game.actions(state), key=lambda a: sign * eval_fn(game.result(state, a)))


def actions_in_order(game, state, best_moves):
    actions = game.actions(state)
    remembered = best_moves.get(state)
    if remembered in actions:
        return [remembered] + [a for a in actions if a != remembered]
    return actions


def _max(game, state, alpha, beta, depth, eval_fn, best_moves):
    if depth == 0 or game.terminal_test(state):
        return eval_fn(state)
    v = -math.inf
    for a in actions_in_order(game, state, best_moves):
        child = _min(game, game.result(state, a), alpha, beta, depth - 1, eval_fn, best_moves)
        if child > v:
            v, best_moves[state] = child, a
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def _min(game, state, alpha, beta, depth, eval_fn, best_moves):
    if depth == 0 or game.terminal_test(state):
        return eval_fn(state)
    v = math.inf
    for a in actions_in_order(game, state, best_moves):
        child = _max(game, game.result(state, a), alpha, beta, depth - 1, eval_fn, best_moves)
        if child < v:
            v, best_moves[state] = child, a
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v


def max_value(game, state, alpha, beta, depth, eval_fn, best_moves):
    return _max(game, state, alpha, beta, depth, eval_fn, best_moves)


def min_value(game, state, alpha, beta, depth, eval_fn, best_moves):
    return _min(game, state, alpha, beta, depth, eval_fn, best_moves)


def iterative_deepening_search(game, state, depth, eval_fn):
    if game.terminal_test(state):
        return None
    best_moves = {}
    top = _max if game.to_move(state) == "MAX" else _min
    for d in range(1, depth + 1):
        top(game, state, -math.inf, math.inf, d, eval_fn, best_moves)
    return best_moves[state] if state in best_moves else game.actions(state)[0]
