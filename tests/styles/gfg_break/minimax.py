"""Style: GeeksforGeeks. One recursive function with a maximizingPlayer flag; max_value/min_value call it with the
flag set."""

import math


def _minimax(game, state, maximizing_player):
    if game.terminal_test(state):
        return game.utility(state)
    if maximizing_player:
        best = -math.inf
        for a in game.actions(state):
            val = _minimax(game, game.result(state, a), False)
            best = max(best, val)
        return best
    best = math.inf
    for a in game.actions(state):
        val = _minimax(game, game.result(state, a), True)
        best = min(best, val)
    return best


def max_value(game, state):
    return _minimax(game, state, True)


def min_value(game, state):
    return _minimax(game, state, False)


def minimax_decision(game, state):
    if game.terminal_test(state):
        return None
    maximizing = game.to_move(state) == "MAX"
    best_move, best = None, None
    for a in game.actions(state):
        val = _minimax(game, game.result(state, a), not maximizing)
        if best_move is None or (val > best if maximizing else val < best):
            best_move, best = a, val
    return best_move
