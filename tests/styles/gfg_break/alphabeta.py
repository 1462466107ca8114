"""Style: GeeksforGeeks. One recursive function with a maximizingPlayer flag:
best = max(best, val); alpha = max(alpha, best); if beta <= alpha: break; return best.

Exactly the AIMA rule, unchanged: entered with alpha < beta, alpha only ever becomes max(alpha, best), so
beta <= alpha after the update holds exactly when best >= beta (MAX), and symmetrically best <= alpha at MIN;
returning best is fail-soft."""

import math


def _minimax(game, state, maximizing_player, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state)
    if maximizing_player:
        best = -math.inf
        for a in game.actions(state):
            val = _minimax(game, game.result(state, a), False, alpha, beta)
            best = max(best, val)
            alpha = max(alpha, best)
            if beta <= alpha:
                break
        return best
    best = math.inf
    for a in game.actions(state):
        val = _minimax(game, game.result(state, a), True, alpha, beta)
        best = min(best, val)
        beta = min(beta, best)
        if beta <= alpha:
            break
    return best


def max_value(game, state, alpha, beta):
    return _minimax(game, state, True, alpha, beta)


def min_value(game, state, alpha, beta):
    return _minimax(game, state, False, alpha, beta)


def alpha_beta_search(game, state):
    if game.terminal_test(state):
        return None
    maximizing = game.to_move(state) == "MAX"
    alpha, beta, best_move = -math.inf, math.inf, None
    for a in game.actions(state):
        val = _minimax(game, game.result(state, a), not maximizing, alpha, beta)
        if maximizing and (best_move is None or val > alpha):
            alpha, best_move = val, a
        elif not maximizing and (best_move is None or val < beta):
            beta, best_move = val, a
    return best_move
