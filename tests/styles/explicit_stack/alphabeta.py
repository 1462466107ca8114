"""Style: explicit stack, no recursion. _search walks the tree depth-first with a list of frames; each frame holds
its node's window and running value v. When a child's value comes back the frame updates v (and its best action),
returns v as soon as v >= beta (MAX) / v <= alpha (MIN), else tightens alpha/beta; a new child frame inherits the
parent's current window. Nodes are generated in ACTIONS order and cut exactly as by recursion."""

import math

_DONE = object()


class _Frame:
    __slots__ = ("state", "maximizing", "alpha", "beta", "v", "best", "actions", "current")

    def __init__(self, game, state, maximizing, alpha, beta):
        self.state, self.maximizing, self.alpha, self.beta = state, maximizing, alpha, beta
        self.v = -math.inf if maximizing else math.inf
        self.best = self.current = None
        self.actions = iter(game.actions(state))

    def take(self, value):
        """Fold a child's value in; True when this node is cut off (returns at once)."""
        if self.maximizing:
            if value > self.v or self.best is None:
                self.v, self.best = max(self.v, value), self.current
            if self.v >= self.beta:
                return True
            self.alpha = max(self.alpha, self.v)
        else:
            if value < self.v or self.best is None:
                self.v, self.best = min(self.v, value), self.current
            if self.v <= self.alpha:
                return True
            self.beta = min(self.beta, self.v)
        return False


def _search(game, state, maximizing, alpha, beta):
    """(value, first best action) of state searched with the window (alpha, beta)."""
    if game.terminal_test(state):
        return game.utility(state), None
    stack = [_Frame(game, state, maximizing, alpha, beta)]
    returned = _DONE
    while True:
        frame = stack[-1]
        cut = returned is not _DONE and frame.take(returned)
        returned = _DONE
        action = _DONE if cut else next(frame.actions, _DONE)
        if action is _DONE:
            stack.pop()
            if not stack:
                return frame.v, frame.best
            returned = frame.v
            continue
        frame.current = action
        child = game.result(frame.state, action)
        if game.terminal_test(child):
            returned = game.utility(child)
        else:
            stack.append(_Frame(game, child, not frame.maximizing, frame.alpha, frame.beta))


def alpha_beta_search(game, state):
    if game.terminal_test(state):
        return None
    return _search(game, state, game.to_move(state) == "MAX", -math.inf, math.inf)[1]


def max_value(game, state, alpha, beta):
    return _search(game, state, True, alpha, beta)[0]


def min_value(game, state, alpha, beta):
    return _search(game, state, False, alpha, beta)[0]
