"""Style: bound-method aliases. A Searcher's methods are captured at import as _mx/_mn and as the module's
max_value/min_value themselves; the recursion calls the captured aliases."""

import math


class Searcher:
    def max_value(self, game, state):
        if game.terminal_test(state):
            return game.utility(state)
        v = -math.inf
        for a in game.actions(state):
            v = max(v, _mn(game, game.result(state, a)))
        return v

    def min_value(self, game, state):
        if game.terminal_test(state):
            return game.utility(state)
        v = math.inf
        for a in game.actions(state):
            v = min(v, _mx(game, game.result(state, a)))
        return v


_SEARCHER = Searcher()
_mx = _SEARCHER.max_value
_mn = _SEARCHER.min_value
max_value = _SEARCHER.max_value
min_value = _SEARCHER.min_value


def minimax_decision(game, state):
    if game.terminal_test(state):
        return None
    maximizing = game.to_move(state) == "MAX"
    best_action, best = None, None
    for a in game.actions(state):
        v = (_mn if maximizing else _mx)(game, game.result(state, a))
        if best_action is None or (v > best if maximizing else v < best):
            best_action, best = a, v
    return best_action
