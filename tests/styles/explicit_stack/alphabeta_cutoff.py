"""Style: explicit stack, no recursion. Depth-limited alpha-beta as an iterative depth-first walk over a list of
frames (node, depth left, window, running v, best action, remaining actions); a child whose depth runs out (or that
ends the game) is scored by EVAL at once. Nodes are generated in ACTIONS order and cut exactly as by recursion."""

import math

_DONE = object()


def cutoff_test(game, state, depth):
    return depth == 0 or game.terminal_test(state)


class _Frame:
    __slots__ = ("state", "depth", "maximizing", "alpha", "beta", "v", "best", "actions", "current")

    def __init__(self, game, state, depth, maximizing, alpha, beta):
        self.state, self.depth, self.maximizing, self.alpha, self.beta = state, depth, maximizing, alpha, beta
        self.v = -math.inf if maximizing else math.inf
        self.best = self.current = None
        self.actions = iter(game.actions(state))

    def take(self, value):
        """Fold a child's value in; True when this node is cut off."""
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


def _search(game, state, maximizing, alpha, beta, depth, eval_fn):
    """(value, first best action) of state searched depth plies deep with the window (alpha, beta)."""
    if cutoff_test(game, state, depth):
        return eval_fn(state), None
    stack = [_Frame(game, state, depth, maximizing, alpha, beta)]
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
        if cutoff_test(game, child, frame.depth - 1):
            returned = eval_fn(child)
        else:
            stack.append(_Frame(game, child, frame.depth - 1, not frame.maximizing, frame.alpha, frame.beta))


def alpha_beta_cutoff_search(game, state, depth, eval_fn):
    if cutoff_test(game, state, depth):
        return None
    return _search(game, state, game.to_move(state) == "MAX", -math.inf, math.inf, depth, eval_fn)[1]


def max_value(game, state, alpha, beta, depth, eval_fn):
    return _search(game, state, True, alpha, beta, depth, eval_fn)[0]


def min_value(game, state, alpha, beta, depth, eval_fn):
    return _search(game, state, False, alpha, beta, depth, eval_fn)[0]
