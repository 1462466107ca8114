"""Style: class methods. A Deepening object holds the game, EVAL and the remembered best moves, and recurses
through its own methods; the module functions the contract names build one and delegate to it."""

import math


class Deepening:
    def __init__(self, game, eval_fn, best_moves=None):
        self.game, self.eval_fn = game, eval_fn
        self.best_moves = {} if best_moves is None else best_moves

    def ordered(self, state):
        maximizing = self.game.to_move(state) == "MAX"
        keys = {a: self.eval_fn(self.game.result(state, a)) for a in self.game.actions(state)}
        return sorted(keys, key=lambda a: -keys[a] if maximizing else keys[a])

    def in_order(self, state):
        actions = self.game.actions(state)
        best = self.best_moves.get(state)
        if best in actions:
            actions.remove(best)
            actions.insert(0, best)
        return actions

    def search(self, state, depth):
        if self.game.terminal_test(state):
            return None
        for d in range(1, depth + 1):
            if self.game.to_move(state) == "MAX":
                self.max_value(state, -math.inf, math.inf, d)
            else:
                self.min_value(state, -math.inf, math.inf, d)
        return self.best_moves.get(state, self.game.actions(state)[0])

    def max_value(self, state, alpha, beta, depth):
        if depth == 0 or self.game.terminal_test(state):
            return self.eval_fn(state)
        v = -math.inf
        for a in self.in_order(state):
            child = self.min_value(self.game.result(state, a), alpha, beta, depth - 1)
            if child > v:
                v = child
                self.best_moves[state] = a
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v

    def min_value(self, state, alpha, beta, depth):
        if depth == 0 or self.game.terminal_test(state):
            return self.eval_fn(state)
        v = math.inf
        for a in self.in_order(state):
            child = self.max_value(self.game.result(state, a), alpha, beta, depth - 1)
            if child < v:
                v = child
                self.best_moves[state] = a
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v


def ordered_actions(game, state, eval_fn):
    return Deepening(game, eval_fn).ordered(state)


def actions_in_order(game, state, best_moves):
    return Deepening(game, None, best_moves).in_order(state)


def iterative_deepening_search(game, state, depth, eval_fn):
    return Deepening(game, eval_fn).search(state, depth)


def max_value(game, state, alpha, beta, depth, eval_fn, best_moves):
    return Deepening(game, eval_fn, best_moves).max_value(state, alpha, beta, depth)


def min_value(game, state, alpha, beta, depth, eval_fn, best_moves):
    return Deepening(game, eval_fn, best_moves).min_value(state, alpha, beta, depth)
