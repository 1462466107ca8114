"""Mistake cutoff_off_by_one, written as class methods (module functions delegate to an object):
the correct class_methods style with this one mistake."""

import math


class CutoffSearch:
    def __init__(self, game, eval_fn):
        self.game, self.eval_fn = game, eval_fn

    def cutoff(self, state, depth):
        return depth == 0 or self.game.terminal_test(state)

    def search(self, state, depth):
        if self.cutoff(state, depth):
            return None
        alpha, beta, best = -math.inf, math.inf, None
        for a in self.game.actions(state):
            child = self.game.result(state, a)
            if self.game.to_move(state) == "MAX":
                v = self.min_value(child, alpha, beta, depth)
                if best is None or v > alpha:
                    alpha, best = v, a
            else:
                v = self.max_value(child, alpha, beta, depth)
                if best is None or v < beta:
                    beta, best = v, a
        return best

    def max_value(self, state, alpha, beta, depth):
        if self.cutoff(state, depth):
            return self.eval_fn(state)
        v = -math.inf
        for a in self.game.actions(state):
            v = max(v, self.min_value(self.game.result(state, a), alpha, beta, depth - 1))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v

    def min_value(self, state, alpha, beta, depth):
        if self.cutoff(state, depth):
            return self.eval_fn(state)
        v = math.inf
        for a in self.game.actions(state):
            v = min(v, self.max_value(self.game.result(state, a), alpha, beta, depth - 1))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v


def alpha_beta_cutoff_search(game, state, depth, eval_fn):
    return CutoffSearch(game, eval_fn).search(state, depth)


def cutoff_test(game, state, depth):
    return CutoffSearch(game, None).cutoff(state, depth)


def max_value(game, state, alpha, beta, depth, eval_fn):
    return CutoffSearch(game, eval_fn).max_value(state, alpha, beta, depth)


def min_value(game, state, alpha, beta, depth, eval_fn):
    return CutoffSearch(game, eval_fn).min_value(state, alpha, beta, depth)
