"""Style: (value, move) pairs, as in AIMA 4e's games4e.py alphabeta_search. The inner max_value/min_value return
(value, move); alpha_beta_search calls the pair function on the root itself and keeps its move (so at a terminal
root it calls UTILITY on the root, which the contract allows). The module's max_value/min_value return the value."""

import math


def _max_pair(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state), None
    v, move = -math.inf, None
    for a in game.actions(state):
        v2, _ = _min_pair(game, game.result(state, a), alpha, beta)
        if v2 > v:
            v, move = v2, a
            alpha = max(alpha, v)
        if v >= beta:
            return v, move
    return v, move


def _min_pair(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state), None
    v, move = math.inf, None
    for a in game.actions(state):
        v2, _ = _max_pair(game, game.result(state, a), alpha, beta)
        if v2 < v:
            v, move = v2, a
            beta = min(beta, v)
        if v <= alpha:
            return v, move
    return v, move


def alpha_beta_search(game, state):
    if game.to_move(state) == "MAX":
        return _max_pair(game, state, -math.inf, math.inf)[1]
    return _min_pair(game, state, -math.inf, math.inf)[1]


def max_value(game, state, alpha, beta):
    return _max_pair(game, state, alpha, beta)[0]


def min_value(game, state, alpha, beta):
    return _min_pair(game, state, alpha, beta)[0]
