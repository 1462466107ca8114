"""Style: keyword-argument calls. Every call of MAX-VALUE/MIN-VALUE names its arguments (game=..., state=...)."""

import math


def minimax_decision(game, state):
    if game.terminal_test(state):
        return None
    if game.to_move(state) == "MAX":
        values = [(min_value(game=game, state=game.result(state, a)), a) for a in game.actions(state)]
        best = max(v for v, _ in values)
    else:
        values = [(max_value(game=game, state=game.result(state, a)), a) for a in game.actions(state)]
        best = min(v for v, _ in values)
    for v, a in values:
        if v == best:
            return a


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state)
    v = -math.inf
    for a in game.actions(state):
        v = max(v, min_value(game=game, state=game.result(state, a)))
    return v


def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state)
    v = math.inf
    for a in game.actions(state):
        v = min(v, max_value(game=game, state=game.result(state, a)))
    return v
