"""A correct minimax search that keeps a debug counter on the game object it is given (module style)."""

import math


def minimax_decision(game, state):
    if game.terminal_test(state):
        return None
    if game.to_move(state) == "MAX":
        return max(game.actions(state), key=lambda a: min_value(game, game.result(state, a)))
    return min(game.actions(state), key=lambda a: max_value(game, game.result(state, a)))


def max_value(game, state):
    game.expanded = getattr(game, "expanded", 0) + 1
    if game.terminal_test(state):
        return game.utility(state)
    v = -math.inf
    for a in game.actions(state):
        v = max(v, min_value(game, game.result(state, a)))
    return v


def min_value(game, state):
    game.expanded = getattr(game, "expanded", 0) + 1
    if game.terminal_test(state):
        return game.utility(state)
    v = math.inf
    for a in game.actions(state):
        v = min(v, max_value(game, game.result(state, a)))
    return v
