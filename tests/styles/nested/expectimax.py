"""Style: nested functions, as AIMA 4e's expect_minimax: max_value/min_value/chance_node are defined inside the
decision function (closing over game); the module-level functions the contract names are written out separately."""

import math


def expectiminimax_decision(game, state):
    def value(s):
        player = game.to_move(s)
        return max_value(s) if player == "MAX" else min_value(s) if player == "MIN" else chance_node(s)

    def max_value(s):
        if game.terminal_test(s):
            return game.utility(s)
        v = -math.inf
        for a in game.actions(s):
            v = max(v, value(game.result(s, a)))
        return v

    def min_value(s):
        if game.terminal_test(s):
            return game.utility(s)
        v = math.inf
        for a in game.actions(s):
            v = min(v, value(game.result(s, a)))
        return v

    def chance_node(s):
        if game.terminal_test(s):
            return game.utility(s)
        sum_chances = 0
        for r in game.actions(s):
            sum_chances += game.probability(s, r) * value(game.result(s, r))
        return sum_chances

    if game.terminal_test(state):
        return None
    better = (lambda x, y: x > y) if game.to_move(state) == "MAX" else (lambda x, y: x < y)
    best_action, best = None, None
    for a in game.actions(state):
        v = value(game.result(state, a))
        if best_action is None or better(v, best):
            best_action, best = a, v
    return best_action


def expectiminimax(game, state):
    player = game.to_move(state)
    if player == "MAX":
        return max_value(game, state)
    if player == "MIN":
        return min_value(game, state)
    return chance_value(game, state)


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state)
    return max(expectiminimax(game, game.result(state, a)) for a in game.actions(state))


def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state)
    return min(expectiminimax(game, game.result(state, a)) for a in game.actions(state))


def chance_value(game, state):
    if game.terminal_test(state):
        return game.utility(state)
    return sum(game.probability(state, r) * expectiminimax(game, game.result(state, r)) for r in game.actions(state))
