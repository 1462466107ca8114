"""Style: negamax core. One function _negamax(game, state, alpha, beta, sign) scores a state for the player to move
(sign = +1 for MAX, -1 for MIN) with the window negated and swapped at each level; it cuts when score >= beta, which
at a MIN node is exactly MIN-VALUE's v <= alpha. max_value/min_value are thin wrappers:
MIN-VALUE(s, alpha, beta) = -NEGAMAX(s, -beta, -alpha, -1)."""

import math


def _negamax(game, state, alpha, beta, sign):
    if game.terminal_test(state):
        return sign * game.utility(state)
    best = -math.inf
    for a in game.actions(state):
        best = max(best, -_negamax(game, game.result(state, a), -beta, -alpha, -sign))
        if best >= beta:
            return best
        alpha = max(alpha, best)
    return best


def max_value(game, state, alpha, beta):
    return _negamax(game, state, alpha, beta, 1)


def min_value(game, state, alpha, beta):
    return -_negamax(game, state, -beta, -alpha, -1)


def alpha_beta_search(game, state):
    if game.terminal_test(state):
        return None
    sign = 1 if game.to_move(state) == "MAX" else -1
    alpha, beta, best_action = -math.inf, math.inf, None
    for a in game.actions(state):
        score = -_negamax(game, game.result(state, a), -beta, -alpha, -sign)
        if best_action is None or score > alpha:
            alpha, best_action = score, a
    return best_action
