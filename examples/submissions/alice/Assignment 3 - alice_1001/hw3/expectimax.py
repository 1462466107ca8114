"""Expectiminimax (alice). Correct: the dispatch is a table, CHANCE-VALUE a loop."""


def expectiminimax_decision(game, state):
    if game.terminal_test(state):
        return None
    sign = 1 if game.to_move(state) == "MAX" else -1
    best, best_value = None, None
    for a in game.actions(state):
        v = sign * expectiminimax(game, game.result(state, a))
        if best_value is None or v > best_value:
            best, best_value = a, v
    return best


def expectiminimax(game, state):
    return {"MAX": max_value, "MIN": min_value, "CHANCE": chance_value}[game.to_move(state)](game, state)


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
    total = 0
    for r in game.actions(state):
        total += game.probability(state, r) * expectiminimax(game, game.result(state, r))
    return total
