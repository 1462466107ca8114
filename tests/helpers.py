"""Known wrong searches as textual edits of the reference solutions, shared by the tests."""

from __future__ import annotations

#: the three mistakes issue 3 names, as edits of solutions/alphabeta.py
STRICT = [("v > beta or (v == beta and PRUNE_ON_EQUALITY)", "v > beta"),
          ("v < alpha or (v == alpha and PRUNE_ON_EQUALITY)", "v < alpha")]
NO_PASS = [("min_value(game, game.result(state, a), alpha, beta))\n        if v > beta",
            "min_value(game, game.result(state, a), -math.inf, math.inf))\n        if v > beta"),
           ("max_value(game, game.result(state, a), alpha, beta))\n        if v < alpha",
            "max_value(game, game.result(state, a), -math.inf, math.inf))\n        if v < alpha")]
ROOT_NO_PASS = [("v = min_value(game, game.result(state, a), alpha, beta)\n            if best_action",
                 "v = min_value(game, game.result(state, a), -math.inf, beta)\n            if best_action")]


def edited(source: str, edits) -> str:
    """``source`` with each ``(old, new)`` replacement made; every ``old`` must occur (a stale edit fails loudly)."""
    for old, new in edits:
        assert old in source, old
        source = source.replace(old, new)
    return source
