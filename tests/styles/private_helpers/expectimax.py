"""Style: private helpers. _value dispatches on PLAYER(state) to _max/_min/_chance, which do the recursion through
_value; the contract's functions delegate to the helpers."""

import math


def _value(game, state):
    player = game.to_move(state)
    if player == "MAX":
        return _max(game, state)
    if player == "MIN":
        return _min(game, state)
    return _chance(game, state)


def _max(game, state):
    if game.terminal_test(state):
        return game.utility(state)
    best = -math.inf
    for a in game.actions(state):
        best = max(best, _value(game, game.result(state, a)))
    return best


def _min(game, state):
    if game.terminal_test(state):
        return game.utility(state)
    best = math.inf
    for a in game.actions(state):
        best = min(best, _value(game, game.result(state, a)))
    return best


def _chance(game, state):
    if game.terminal_test(state):
        return game.utility(state)
    return sum(game.probability(state, r) * _value(game, game.result(state, r)) for r in game.actions(state))


def expectiminimax(game, state):
    return _value(game, state)


def max_value(game, state):
    return _max(game, state)


def min_value(game, state):
    return _min(game, state)


def chance_value(game, state):
    return _chance(game, state)


def expectiminimax_decision(game, state):
    if game.terminal_test(state):
        return None
    maximizing = game.to_move(state) == "MAX"
    best_value, best_action = None, None
    for a in game.actions(state):
        v = _value(game, game.result(state, a))
        if best_action is None or (v > best_value if maximizing else v < best_value):
            best_value, best_action = v, a
    return best_action
