"""Mistake bound_assigned, written as class methods (module functions delegate to an object):
the correct class_methods style with this one mistake."""

import math


class AlphaBeta:
    def __init__(self, game):
        self.game = game

    def search(self, state):
        if self.game.terminal_test(state):
            return None
        alpha, beta, best = -math.inf, math.inf, None
        maximizing = self.game.to_move(state) == "MAX"
        for a in self.game.actions(state):
            child = self.game.result(state, a)
            if maximizing:
                v = self.min_value(child, alpha, beta)
                if best is None or v > alpha:
                    alpha, best = v, a
            else:
                v = self.max_value(child, alpha, beta)
                if best is None or v < beta:
                    beta, best = v, a
        return best

    def max_value(self, state, alpha, beta):
        if self.game.terminal_test(state):
            return self.game.utility(state)
        v = -math.inf
        for a in self.game.actions(state):
            v = max(v, self.min_value(self.game.result(state, a), alpha, beta))
            if v >= beta:
                return v
            alpha = v
        return v

    def min_value(self, state, alpha, beta):
        if self.game.terminal_test(state):
            return self.game.utility(state)
        v = math.inf
        for a in self.game.actions(state):
            v = min(v, self.max_value(self.game.result(state, a), alpha, beta))
            if v <= alpha:
                return v
            beta = v
        return v


def alpha_beta_search(game, state):
    return AlphaBeta(game).search(state)


def max_value(game, state, alpha, beta):
    return AlphaBeta(game).max_value(state, alpha, beta)


def min_value(game, state, alpha, beta):
    return AlphaBeta(game).min_value(state, alpha, beta)
