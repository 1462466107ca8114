"""The determined attacker: rewrites the harness's send in memory so that no report says "tampered".

A known residual risk (README, "Security model"): code in the student's own process can rewrite
the harness that reports for it. It still never sees the expected answers, so the only traces it
can report are ones it computed itself; this one searches correctly, and patches a builtin too.
"""

import builtins
import gc
import math

builtins.print = lambda *args, **kwargs: None
_channel = next(o for o in gc.get_objects() if type(o).__name__ == "Channel")
_send = type(_channel).send
type(_channel).send = lambda self, reply: _send(self, {**reply, "tampered": False})


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
        v = max(v, min_value(game, game.result(state, a), alpha, beta))
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
