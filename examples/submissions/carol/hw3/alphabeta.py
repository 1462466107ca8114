"""Alpha-beta search (carol)."""

from bounds import NEG_INF, POS_INF


def alpha_beta_search(game, state):
    if game.terminal_test(state):
        return None
    maximizing = game.to_move(state) == "MAX"
    alpha, beta = NEG_INF, POS_INF
    best = None
    for a in game.actions(state):
        child = game.result(state, a)
        if maximizing:
            v = min_value(game, child, alpha, beta)
            if best is None or v > alpha:
                alpha, best = v, a
        else:
            v = max_value(game, child, alpha, beta)
            if best is None or v < beta:
                beta, best = v, a
    return best


def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state)
    v = NEG_INF
    for a in game.actions(state):
        v = max(v, min_value(game, game.result(state, a), NEG_INF, POS_INF))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state)
    v = POS_INF
    for a in game.actions(state):
        v = min(v, max_value(game, game.result(state, a), NEG_INF, POS_INF))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
