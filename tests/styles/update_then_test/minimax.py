"""Style: update then compare. Each child's value is read into a variable first, then compared with the running
value and kept when better (no max()/min() calls)."""

import math


def minimax_decision(game, state):
    if game.terminal_test(state):
        return None
    maximizing = game.to_move(state) == "MAX"
    best_value = -math.inf if maximizing else math.inf
    best_action = None
    for a in game.actions(state):
        child = game.result(state, a)
        value = min_value(game, child) if maximizing else max_value(game, child)
        if best_action is None:
            best_value, best_action = value, a
        elif maximizing and value > best_value:
            best_value, best_action = value, a
        elif not maximizing and value < best_value:
            best_value, best_action = value, a
    return best_action


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state)
    v = -math.inf
    for a in game.actions(state):
        child_value = min_value(game, game.result(state, a))
        if child_value > v:
            v = child_value
    return v


def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state)
    v = math.inf
    for a in game.actions(state):
        child_value = max_value(game, game.result(state, a))
        if child_value < v:
            v = child_value
    return v
