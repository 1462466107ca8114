"""Style: private helpers. The recursion runs through _max/_min; the contract's max_value/min_value delegate to them
and minimax_decision calls the helpers directly."""

import math


def _max(game, state):
    if game.terminal_test(state):
        return game.utility(state)
    best = -math.inf
    for action in game.actions(state):
        best = max(best, _min(game, game.result(state, action)))
    return best


def _min(game, state):
    if game.terminal_test(state):
        return game.utility(state)
    best = math.inf
    for action in game.actions(state):
        best = min(best, _max(game, game.result(state, action)))
    return best


def max_value(game, state):
    return _max(game, state)


def min_value(game, state):
    return _min(game, state)


def minimax_decision(game, state):
    if game.terminal_test(state):
        return None
    maximizing = game.to_move(state) == "MAX"
    child_value = _min if maximizing else _max
    best_action, best = None, None
    for action in game.actions(state):
        v = child_value(game, game.result(state, action))
        if best_action is None or (v > best if maximizing else v < best):
            best_action, best = action, v
    return best_action
