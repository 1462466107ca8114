"""Tries to write 650 MB to disk: 1 MB files (under the file-size limit) in its own folder, its TMPDIR,
/tmp and /var/tmp, and past the end of its own log (file descriptor 1); then it searches correctly."""

import math
import os
from pathlib import Path

WRITTEN = 0
chunk = b"x" * 1_000_000
for folder in (Path.cwd(), Path(os.environ.get("TMPDIR", ".")), Path("/tmp"), Path("/var/tmp")):
    for i in range(650):
        try:
            (folder / f"abkit-fill-{os.getpid()}-{i}.bin").write_bytes(chunk)
            WRITTEN += len(chunk)
        except OSError:
            break
for _ in range(650):
    try:
        os.write(1, chunk)
    except OSError:
        break


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
