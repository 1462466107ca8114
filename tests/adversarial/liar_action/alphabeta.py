"""Passes RESULT an action object whose __eq__ always answers True (a list subclass meant for sorting moves):
the game accepts it as a legal move and returns it as the successor, so the report's generated nodes hold a
list instead of a node name."""

import math


class Move(list):
    """A move that remembers where it leads; equal to everything (the bug)."""

    def __eq__(self, other):
        return True

    def __hash__(self):
        return hash(tuple(self))


def alpha_beta_search(game, state):
    if game.terminal_test(state):
        return None
    alpha, beta, best = -math.inf, math.inf, None
    if game.to_move(state) == "MAX":
        for a in game.actions(state):
            v = min_value(game, game.result(state, a), alpha, beta)
            if best is None or v > alpha:
                alpha, best = v, a
    else:
        for a in game.actions(state):
            v = max_value(game, game.result(state, a), alpha, beta)
            if best is None or v < beta:
                beta, best = v, a
    return best


def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state)
    v = -math.inf
    for a in game.actions(state):
        v = max(v, min_value(game, game.result(state, Move([a])), alpha, beta))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state)
    v = math.inf
    for a in game.actions(state):
        v = min(v, max_value(game, game.result(state, a), alpha, beta))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
