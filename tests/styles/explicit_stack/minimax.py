"""Style: explicit stack, no recursion. _search walks the tree depth-first with a list of frames
[state, maximizing, value, best action, remaining actions, action being searched]; a child's value is handed to its
parent's frame when the child's frame is done. Nodes are generated in ACTIONS order, exactly as by recursion."""

import math

_DONE = object()


def _search(game, state, maximizing):
    """(value, first best action) of state, for MAX if maximizing."""
    if game.terminal_test(state):
        return game.utility(state), None
    stack = [[state, maximizing, -math.inf if maximizing else math.inf, None, iter(game.actions(state)), None]]
    returned = _DONE
    while True:
        frame = stack[-1]
        if returned is not _DONE:
            better = returned > frame[2] if frame[1] else returned < frame[2]
            if better or frame[3] is None:
                frame[2], frame[3] = returned, frame[5]
            returned = _DONE
        action = next(frame[4], _DONE)
        if action is _DONE:
            stack.pop()
            if not stack:
                return frame[2], frame[3]
            returned = frame[2]
            continue
        frame[5] = action
        child = game.result(frame[0], action)
        if game.terminal_test(child):
            returned = game.utility(child)
        else:
            stack.append([child, not frame[1], math.inf if frame[1] else -math.inf, None,
                          iter(game.actions(child)), None])


def minimax_decision(game, state):
    if game.terminal_test(state):
        return None
    return _search(game, state, game.to_move(state) == "MAX")[1]


def max_value(game, state):
    return _search(game, state, True)[0]


def min_value(game, state):
    return _search(game, state, False)[0]
