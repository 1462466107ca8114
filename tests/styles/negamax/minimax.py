"""Style: negamax core. One function _negamax(game, state, sign) scores a state for the player to move
(sign = +1 for MAX, -1 for MIN): the best of the negated scores of its children. max_value/min_value are thin
wrappers (MIN-VALUE(s) = -NEGAMAX(s) with sign -1)."""

import math


def _negamax(game, state, sign):
    if game.terminal_test(state):
        return sign * game.utility(state)
    best = -math.inf
    for a in game.actions(state):
        best = max(best, -_negamax(game, game.result(state, a), -sign))
    return best


def max_value(game, state):
    return _negamax(game, state, 1)


def min_value(game, state):
    return -_negamax(game, state, -1)


def minimax_decision(game, state):
    if game.terminal_test(state):
        return None
    sign = 1 if game.to_move(state) == "MAX" else -1
    best_action, best = None, -math.inf
    for a in game.actions(state):
        score = -_negamax(game, game.result(state, a), -sign)
        if best_action is None or score > best:
            best_action, best = a, score
    return best_action
