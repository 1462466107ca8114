"""Move ordering (alice). Correct: sorted() with reverse= for MAX, best move swapped to the front."""

from bounds import NEG_INF, POS_INF


def ordered_actions(game, state, eval_fn):
    actions = game.actions(state)
    keys = {a: eval_fn(game.result(state, a)) for a in actions}
    return sorted(actions, key=keys.get, reverse=game.to_move(state) == "MAX")  # sorted() is stable


def iterative_deepening_search(game, state, depth, eval_fn):
    if game.terminal_test(state):
        return None
    best_moves = {}
    search = max_value if game.to_move(state) == "MAX" else min_value
    for d in range(1, depth + 1):
        search(game, state, NEG_INF, POS_INF, d, eval_fn, best_moves)
    return best_moves.get(state, game.actions(state)[0])


def actions_in_order(game, state, best_moves):
    actions = game.actions(state)
    best = best_moves.get(state)
    return ([best] if best in actions else []) + [a for a in actions if a != best]


def max_value(game, state, alpha, beta, depth, eval_fn, best_moves):
    if depth == 0 or game.terminal_test(state):
        return eval_fn(state)
    v = NEG_INF
    for a in actions_in_order(game, state, best_moves):
        child = min_value(game, game.result(state, a), alpha, beta, depth - 1, eval_fn, best_moves)
        if child > v:
            v = child
            best_moves[state] = a
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta, depth, eval_fn, best_moves):
    if depth == 0 or game.terminal_test(state):
        return eval_fn(state)
    v = POS_INF
    for a in actions_in_order(game, state, best_moves):
        child = max_value(game, game.result(state, a), alpha, beta, depth - 1, eval_fn, best_moves)
        if child < v:
            v = child
            best_moves[state] = a
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
