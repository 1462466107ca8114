"""Minimax (erin). Ends the program when MIN moves at the root."""

import math
import os


def minimax_decision(game, state):
    if game.to_move(state) == "MIN":
        os._exit(3)
    if game.terminal_test(state):
        return None
    return max(game.actions(state), key=lambda a: min_value(game, game.result(state, a)))


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state)
    return max(min_value(game, game.result(state, a)) for a in game.actions(state))


def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state)
    return min(max_value(game, game.result(state, a)) for a in game.actions(state))
