"""Style: value lists. MAX-VALUE is max([MIN-VALUE(child) for each child]); the decision takes the index of the first
best value in the list of the root's children's values."""


def minimax_decision(game, state):
    if game.terminal_test(state):
        return None
    actions = game.actions(state)
    if game.to_move(state) == "MAX":
        values = [min_value(game, game.result(state, a)) for a in actions]
        return actions[values.index(max(values))]
    values = [max_value(game, game.result(state, a)) for a in actions]
    return actions[values.index(min(values))]


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state)
    return max([min_value(game, game.result(state, a)) for a in game.actions(state)])


def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state)
    return min([max_value(game, game.result(state, a)) for a in game.actions(state)])
