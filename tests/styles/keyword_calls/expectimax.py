"""Style: keyword-argument calls. Every recursive call names its arguments: expectiminimax(game=game, state=s)."""


def expectiminimax_decision(game, state):
    if game.terminal_test(state):
        return None
    maximizing = game.to_move(state) == "MAX"
    values = [(expectiminimax(game=game, state=game.result(state, a)), a) for a in game.actions(state)]
    best = max(v for v, _ in values) if maximizing else min(v for v, _ in values)
    return next(a for v, a in values if v == best)


def expectiminimax(game, state):
    player = game.to_move(state)
    if player == "MAX":
        return max_value(game=game, state=state)
    if player == "MIN":
        return min_value(game=game, state=state)
    return chance_value(game=game, state=state)


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state)
    return max(expectiminimax(game=game, state=game.result(state, a)) for a in game.actions(state))


def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state)
    return min(expectiminimax(game=game, state=game.result(state, a)) for a in game.actions(state))


def chance_value(game, state):
    if game.terminal_test(state):
        return game.utility(state)
    return sum(game.probability(state, r) * expectiminimax(game=game, state=game.result(state, r))
               for r in game.actions(state))
