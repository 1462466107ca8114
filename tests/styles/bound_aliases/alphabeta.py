"""Style: bound-method aliases. A Searcher's methods are captured at import as _mx/_mn and as the module's
max_value/min_value themselves; the recursion calls the captured aliases."""

import math


class Searcher:
    def max_value(self, game, state, alpha, beta):
        if game.terminal_test(state):
            return game.utility(state)
        v = -math.inf
        for a in game.actions(state):
            v = max(v, _mn(game, game.result(state, a), alpha, beta))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v

    def min_value(self, game, state, alpha, beta):
        if game.terminal_test(state):
            return game.utility(state)
        v = math.inf
        for a in game.actions(state):
            v = min(v, _mx(game, game.result(state, a), alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v


_SEARCHER = Searcher()
_mx = _SEARCHER.max_value
_mn = _SEARCHER.min_value
max_value = _SEARCHER.max_value
min_value = _SEARCHER.min_value


def alpha_beta_search(game, state):
    if game.terminal_test(state):
        return None
    alpha, beta, best_action = -math.inf, math.inf, None
    if game.to_move(state) == "MAX":
        for a in game.actions(state):
            v = _mn(game, game.result(state, a), alpha, beta)
            if best_action is None or v > alpha:
                alpha, best_action = v, a
    else:
        for a in game.actions(state):
            v = _mx(game, game.result(state, a), alpha, beta)
            if best_action is None or v < beta:
                beta, best_action = v, a
    return best_action
