"""Mistake minimax_last_best_min, written as module functions (the textbook layout):
the correct textbook style with this one mistake."""

import math


def minimax_decision(game, state):
    if game.terminal_test(state):
        return None
    if game.to_move(state) == "MAX":
        best_value, best_action = -math.inf, None
        for a in game.actions(state):
            v = min_value(game, game.result(state, a))
            if best_action is None or v > best_value:
                best_value, best_action = v, a
    else:
        best_value, best_action = math.inf, None
        for a in game.actions(state):
            v = max_value(game, game.result(state, a))
            if best_action is None or v <= best_value:
                best_value, best_action = v, a
    return best_action


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state)
    v = -math.inf
    for a in game.actions(state):
        v = max(v, min_value(game, game.result(state, a)))
    return v


def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state)
    v = math.inf
    for a in game.actions(state):
        v = min(v, max_value(game, game.result(state, a)))
    return v
