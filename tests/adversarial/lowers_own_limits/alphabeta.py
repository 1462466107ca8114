"""Lowers its own limits (stack, open files, file size), blocks every signal, sets umask 777 and nice 19 at
import, hoping the next student's process starts from what it leaves behind; then it searches correctly."""

import math
import os
import resource
import signal

for limit, value in ((resource.RLIMIT_STACK, 1 << 16), (resource.RLIMIT_NOFILE, 4), (resource.RLIMIT_FSIZE, 1)):
    try:
        resource.setrlimit(limit, (value, value))
    except (OSError, ValueError):
        pass
for attempt in (lambda: signal.pthread_sigmask(signal.SIG_BLOCK, set(signal.Signals) - {signal.SIGKILL,
                                                                                 signal.SIGSTOP}),
                lambda: os.umask(0o777), lambda: os.nice(19)):
    try:
        attempt()
    except (OSError, ValueError):
        pass


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
