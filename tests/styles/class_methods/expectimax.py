"""Style: class methods. An Expectiminimax object holds the game and recurses through its own methods (a dict of
bound methods by PLAYER); the module functions the contract names build one and delegate to it."""


class Expectiminimax:
    def __init__(self, game):
        self.game = game
        self.by_player = {"MAX": self.max_value, "MIN": self.min_value, "CHANCE": self.chance_value}

    def value(self, state):
        return self.by_player[self.game.to_move(state)](state)

    def decision(self, state):
        if self.game.terminal_test(state):
            return None
        sign = 1 if self.game.to_move(state) == "MAX" else -1
        best, best_action = None, None
        for a in self.game.actions(state):
            v = sign * self.value(self.game.result(state, a))
            if best_action is None or v > best:
                best, best_action = v, a
        return best_action

    def max_value(self, state):
        if self.game.terminal_test(state):
            return self.game.utility(state)
        return max(self.value(self.game.result(state, a)) for a in self.game.actions(state))

    def min_value(self, state):
        if self.game.terminal_test(state):
            return self.game.utility(state)
        return min(self.value(self.game.result(state, a)) for a in self.game.actions(state))

    def chance_value(self, state):
        if self.game.terminal_test(state):
            return self.game.utility(state)
        expected = 0
        for r in self.game.actions(state):
            expected += self.game.probability(state, r) * self.value(self.game.result(state, r))
        return expected


def expectiminimax_decision(game, state):
    return Expectiminimax(game).decision(state)


def expectiminimax(game, state):
    return Expectiminimax(game).value(state)


def max_value(game, state):
    return Expectiminimax(game).max_value(state)


def min_value(game, state):
    return Expectiminimax(game).min_value(state)


def chance_value(game, state):
    return Expectiminimax(game).chance_value(state)
