"""Minimax (carol)."""

import math


def minimax_decision(game, state):
    if game.terminal_test(state):
        return None
    if game.to_move(state) == "MAX":
        values = [(min_value(game, game.result(state, a)), a) for a in game.actions(state)]
        best = max(v for v, _ in values)
    else:
        values = [(max_value(game, game.result(state, a)), a) for a in game.actions(state)]
        best = min(v for v, _ in values)
    return next(a for v, a in values if v == best)


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state)
    v = 0
    for a in game.actions(state):
        v = max(v, min_value(game, game.result(state, a)))
    return v


def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state)
    v = 0
    for a in game.actions(state):
        v = min(v, max_value(game, game.result(state, a)))
    return v
