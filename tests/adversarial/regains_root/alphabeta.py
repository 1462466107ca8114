"""Tries to get root's powers back or new ones at import: setuid(0), a user namespace of its own (unshare), all
capabilities (capset), a new session (setsid), making its own files writable by anyone (chmod), then writes into the
kit; then it searches correctly."""

import ctypes
import math
import os
from pathlib import Path

libc = ctypes.CDLL(None, use_errno=True)
GAINED = []
for name, attempt in (("setuid", lambda: os.setuid(0)), ("setresuid", lambda: os.setresuid(0, 0, 0)),
                      ("unshare", lambda: libc.unshare(0x10000000) or None),  # CLONE_NEWUSER
                      ("capset", lambda: libc.capset(ctypes.c_char_p(b"\x22\x05\x08\x20\0\0\0\0"),
                                                     ctypes.c_char_p(b"\xff" * 24)) or None),
                      ("setsid", os.setsid), ("chmod", lambda: os.chmod(".", 0o777))):
    try:
        if attempt() is None:
            GAINED.append(name)
    except (OSError, ValueError):
        pass
try:
    import abkit
    with open(Path(abkit.__file__).with_name("pwned-by-student.txt"), "w") as handle:
        handle.write("PWNED-BY-STUDENT\n")
    GAINED.append("wrote the kit")
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
