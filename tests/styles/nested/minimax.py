"""Style: nested functions. minimax_decision defines its own max_value/min_value inside (closing over game); the
module-level max_value/min_value the contract names are written out separately, for direct calls."""

import math


def minimax_decision(game, state):
    def max_value(s):
        if game.terminal_test(s):
            return game.utility(s)
        v = -math.inf
        for a in game.actions(s):
            v = max(v, min_value(game.result(s, a)))
        return v

    def min_value(s):
        if game.terminal_test(s):
            return game.utility(s)
        v = math.inf
        for a in game.actions(s):
            v = min(v, max_value(game.result(s, a)))
        return v

    if game.terminal_test(state):
        return None
    best_action = None
    if game.to_move(state) == "MAX":
        best = -math.inf
        for a in game.actions(state):
            v = min_value(game.result(state, a))
            if best_action is None or v > best:
                best, best_action = v, a
    else:
        best = math.inf
        for a in game.actions(state):
            v = max_value(game.result(state, a))
            if best_action is None or v < best:
                best, best_action = v, a
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
