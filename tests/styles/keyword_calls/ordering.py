"""Style: keyword-argument calls. Every recursive call names the window, depth, EVAL and the best-moves table:
min_value(game, s, alpha=a, beta=b, depth=d - 1, eval_fn=eval_fn, best_moves=best_moves)."""

import math


def ordered_actions(game, state, eval_fn):
    maximizing = game.to_move(state) == "MAX"
    keyed = [(eval_fn(game.result(state, a)), i, a) for i, a in enumerate(game.actions(state))]
    keyed.sort(key=lambda k: (-k[0] if maximizing else k[0], k[1]))
    return [a for _, _, a in keyed]


def iterative_deepening_search(game, state, depth, eval_fn):
    if game.terminal_test(state):
        return None
    best_moves = {}
    for d in range(1, depth + 1):
        search = max_value if game.to_move(state) == "MAX" else min_value
        search(game, state, alpha=-math.inf, beta=math.inf, depth=d, eval_fn=eval_fn, best_moves=best_moves)
    return best_moves[state] if state in best_moves else game.actions(state)[0]


def actions_in_order(game, state, best_moves):
    actions = game.actions(state)
    best = best_moves.get(state)
    if best in actions:
        actions.remove(best)
        actions.insert(0, best)
    return actions


def max_value(game, state, alpha, beta, depth, eval_fn, best_moves):
    if depth == 0 or game.terminal_test(state):
        return eval_fn(state)
    v = -math.inf
    for a in actions_in_order(game, state, best_moves=best_moves):
        child = min_value(game, game.result(state, a), alpha=alpha, beta=beta, depth=depth - 1, eval_fn=eval_fn,
                          best_moves=best_moves)
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
    for a in actions_in_order(game, state, best_moves=best_moves):
        child = max_value(game, game.result(state, a), alpha=alpha, beta=beta, depth=depth - 1, eval_fn=eval_fn,
                          best_moves=best_moves)
        if child < v:
            v, best_moves[state] = child, a
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
