"""A correct minimax search that remembers every leaf it is shown, hidden trees' included (the death-log route's
first half: alphabeta.py, loaded next in the same process, tells what this one saw)."""

import math
import sys

sys.remembered = getattr(sys, "remembered", [])  # kept where the next file of the same process finds it


def minimax_decision(game, state):
    if game.terminal_test(state):
        return None
    if game.to_move(state) == "MAX":
        return max(game.actions(state), key=lambda a: min_value(game, game.result(state, a)))
    return min(game.actions(state), key=lambda a: max_value(game, game.result(state, a)))


def max_value(game, state):
    if game.terminal_test(state):
        sys.remembered.append(f"{state}={game.utility(state)}")
        return game.utility(state)
    return max(min_value(game, game.result(state, a)) for a in game.actions(state))


def min_value(game, state):
    if game.terminal_test(state):
        sys.remembered.append(f"{state}={game.utility(state)}")
        return game.utility(state)
    return min(max_value(game, game.result(state, a)) for a in game.actions(state))
