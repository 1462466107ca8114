"""Mistake expectimax_chance_as_min, written as module functions (the textbook layout):
the correct textbook style with this one mistake."""

import math


def expectiminimax_decision(game, state):
    if game.terminal_test(state):
        return None
    maximizing = game.to_move(state) == "MAX"
    best_value, best_action = (-math.inf if maximizing else math.inf), None
    for a in game.actions(state):
        v = expectiminimax(game, game.result(state, a))
        if best_action is None or (v > best_value if maximizing else v < best_value):
            best_value, best_action = v, a
    return best_action


def expectiminimax(game, state):
    player = game.to_move(state)
    if player == "MAX":
        return max_value(game, state)
    if player == "MIN":
        return min_value(game, state)
    return chance_value(game, state)


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state)
    v = -math.inf
    for a in game.actions(state):
        v = max(v, expectiminimax(game, game.result(state, a)))
    return v


def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state)
    v = math.inf
    for a in game.actions(state):
        v = min(v, expectiminimax(game, game.result(state, a)))
    return v


def chance_value(game, state):
    if game.terminal_test(state):
        return game.utility(state)
    v = math.inf
    for r in game.actions(state):
        v = min(v, expectiminimax(game, game.result(state, r)))
    return v
