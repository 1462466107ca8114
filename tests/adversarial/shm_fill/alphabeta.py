"""Tries to fill shared memory: 1.5 GiB written to /dev/shm (memory that no address-space limit counts) and
1 GiB of System V shared memory; then it searches correctly."""

import ctypes
import math

WRITTEN = 0
try:
    with open("/dev/shm/abkit-cache", "wb") as handle:
        chunk = b"x" * (1 << 20)
        while WRITTEN < 1536 << 20:
            WRITTEN += handle.write(chunk)
except OSError:
    pass
try:
    libc = ctypes.CDLL(None, use_errno=True)
    SEGMENT = libc.shmget(0, 1 << 30, 0o1600)  # IPC_PRIVATE, IPC_CREAT | 0600
except OSError:
    SEGMENT = -1


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
