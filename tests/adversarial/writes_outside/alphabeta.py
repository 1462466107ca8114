"""Tries to write outside its folder: the kit, the grader's harness, the temporary folder, a decoy."""

import math
import os
import sys
from pathlib import Path


def vandalise():
    import abkit
    written = []
    targets = [Path(os.environ.get("TMPDIR", "/tmp")) / "abkit-decoy-7.txt", Path("/tmp/abkit-decoy-7.txt"),
               Path(sys.modules["__main__"].__file__), Path(abkit.__file__)]
    targets += [p / "pwned-by-student.txt" for p in Path(abkit.__file__).resolve().parents]
    targets += [p / "pwned-by-student.txt" for p in Path.cwd().parents]
    targets += [Path(abkit.__file__).resolve().parents[1] / d / "pwned-by-student.yaml" for d in ("fixtures/hidden", "solutions")]
    for target in targets:
        try:
            with open(target, "a") as handle:
                handle.write("PWNED-BY-STUDENT\n")
            if Path.cwd() not in Path(target).resolve().parents:
                written.append(str(target))
        except OSError:
            pass
    raise RuntimeError(f"wrote {len(written)} files outside: {written[:3]}")


def alpha_beta_search(game, state):
    vandalise()
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
