"""Style: (value, move) pairs, as in AIMA 4e's games4e.py. The inner max_value/min_value return (value, move) and
minimax_decision keeps the move of the root's call; the module's max_value/min_value return the value alone."""

import math


def _max_pair(game, state):
    if game.terminal_test(state):
        return game.utility(state), None
    v, move = -math.inf, None
    for a in game.actions(state):
        v2, _ = _min_pair(game, game.result(state, a))
        if v2 > v:
            v, move = v2, a
    return v, move


def _min_pair(game, state):
    if game.terminal_test(state):
        return game.utility(state), None
    v, move = math.inf, None
    for a in game.actions(state):
        v2, _ = _max_pair(game, game.result(state, a))
        if v2 < v:
            v, move = v2, a
    return v, move


def minimax_decision(game, state):
    if game.to_move(state) == "MAX":
        return _max_pair(game, state)[1]
    return _min_pair(game, state)[1]


def max_value(game, state):
    return _max_pair(game, state)[0]


def min_value(game, state):
    return _min_pair(game, state)[0]
