"""Mistake minimax_last_best_min, written as class methods (module functions delegate to an object):
the correct class_methods style with this one mistake."""

import math


class Minimax:
    def __init__(self, game):
        self.game = game

    def decision(self, state):
        if self.game.terminal_test(state):
            return None
        if self.game.to_move(state) == "MAX":
            scored = [(self.min_value(self.game.result(state, a)), a) for a in self.game.actions(state)]
            best = max(v for v, _ in scored)
        else:
            scored = [(self.max_value(self.game.result(state, a)), a) for a in self.game.actions(state)]
            best = min(v for v, _ in scored)
            return [a for v, a in scored if v == best][-1]  # the latest of the best
        return next(a for v, a in scored if v == best)

    def max_value(self, state):
        if self.game.terminal_test(state):
            return self.game.utility(state)
        v = -math.inf
        for a in self.game.actions(state):
            v = max(v, self.min_value(self.game.result(state, a)))
        return v

    def min_value(self, state):
        if self.game.terminal_test(state):
            return self.game.utility(state)
        v = math.inf
        for a in self.game.actions(state):
            v = min(v, self.max_value(self.game.result(state, a)))
        return v


def minimax_decision(game, state):
    return Minimax(game).decision(state)


def max_value(game, state):
    return Minimax(game).max_value(state)


def min_value(game, state):
    return Minimax(game).min_value(state)
