"""Style: root children scored inline. minimax_decision expands the root's children itself and scores each child
inline too (a terminal child by UTILITY, otherwise by looping over the child's own actions), so MAX-VALUE/MIN-VALUE are
first called on the root's grandchildren."""

import math


def minimax_decision(game, state):
    if game.terminal_test(state):
        return None
    maximizing = game.to_move(state) == "MAX"
    grandchild_value = min_value if not maximizing else max_value
    best_action, best = None, None
    for a in game.actions(state):
        child = game.result(state, a)
        if game.terminal_test(child):
            v = game.utility(child)
        else:
            scores = [grandchild_value(game, game.result(child, b)) for b in game.actions(child)]
            v = min(scores) if maximizing else max(scores)
        if best_action is None or (v > best if maximizing else v < best):
            best_action, best = a, v
    return best_action


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state)
    v = -math.inf
    for a in game.actions(state):
        v = max(v, min_value(game, game.result(state, a)))
    return v


def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state)
    v = math.inf
    for a in game.actions(state):
        v = min(v, max_value(game, game.result(state, a)))
    return v
