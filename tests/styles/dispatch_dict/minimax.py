"""Style: dispatch dict. VALUE = {"MAX": max_value, "MIN": min_value}, built once at import, picks the function for
a child by who moves there (PLAYER(child)); every recursive call goes through the dict."""

import math


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state)
    v = -math.inf
    for a in game.actions(state):
        child = game.result(state, a)
        v = max(v, VALUE[game.to_move(child)](game, child))
    return v


def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state)
    v = math.inf
    for a in game.actions(state):
        child = game.result(state, a)
        v = min(v, VALUE[game.to_move(child)](game, child))
    return v


VALUE = {"MAX": max_value, "MIN": min_value}
BETTER = {"MAX": lambda new, old: new > old, "MIN": lambda new, old: new < old}


def minimax_decision(game, state):
    if game.terminal_test(state):
        return None
    player = game.to_move(state)
    best_action, best = None, None
    for a in game.actions(state):
        child = game.result(state, a)
        v = VALUE[game.to_move(child)](game, child)
        if best_action is None or BETTER[player](v, best):
            best_action, best = a, v
    return best_action
