"""Action ordering for alpha-beta: by a static evaluation, and by iterative deepening.

Your exercise: replace each TODO with code that does what the pseudocode in the
docstring says. Check it with 'abkit check', ask for a hint with 'abkit hint'.

과제: 각 TODO를 docstring의 의사코드대로 동작하는 코드로 바꾸세요.
'abkit check'로 확인하고, 'abkit hint'로 힌트를 볼 수 있습니다.
"""

import math


def ordered_actions(game, state, eval_fn):
    """ACTIONS(state) sorted most promising first for the player to move.

    The key of an action a is EVAL(RESULT(state, a)): highest first at a MAX
    node, lowest first at a MIN node; actions with equal keys keep the order
    ACTIONS gave them.
    """
    # TODO: write ordered_actions here, following the pseudocode in its docstring.
    # TODO: docstring의 의사코드를 따라 여기에 ordered_actions 함수를 작성하세요.
    raise NotImplementedError("ordered_actions")


def iterative_deepening_search(game, state, depth, eval_fn):
    """ITERATIVE-DEEPENING-ALPHA-BETA(state, depth) returns an action.

    for d = 1, 2, ..., depth: run depth-limited alpha-beta to depth d, trying
    first at every node the action that was best there in iteration d - 1
    (then the others in ACTIONS order), and remember each node's best action.
    Returns the best action of the last iteration (the first action if none
    beats -inf/+inf); None at a terminal state.
    """
    # TODO: write iterative_deepening_search here, following the pseudocode in its docstring.
    # TODO: docstring의 의사코드를 따라 여기에 iterative_deepening_search 함수를 작성하세요.
    raise NotImplementedError("iterative_deepening_search")


def actions_in_order(game, state, best_moves):
    """ACTIONS(state) with the action remembered in best_moves for state (if any) moved to the front."""
    # TODO: write actions_in_order here, following the pseudocode in its docstring.
    # TODO: docstring의 의사코드를 따라 여기에 actions_in_order 함수를 작성하세요.
    raise NotImplementedError("actions_in_order")


def max_value(game, state, alpha, beta, depth, eval_fn, best_moves):
    """MAX-VALUE(state, alpha, beta, depth) of depth-limited alpha-beta, remembering the best action.

    if depth = 0 or TERMINAL-TEST(state) then return EVAL(state)
    v <- -inf
    for each a in ACTIONS(state), the remembered best action first, do
        v' <- MIN-VALUE(RESULT(state, a), alpha, beta, depth - 1)
        if v' > v then v <- v', best_moves[state] <- a
        if v >= beta then return v
        alpha <- MAX(alpha, v)
    return v
    """
    # TODO: write max_value here, following the pseudocode in its docstring.
    # TODO: docstring의 의사코드를 따라 여기에 max_value 함수를 작성하세요.
    raise NotImplementedError("max_value")


def min_value(game, state, alpha, beta, depth, eval_fn, best_moves):
    """MIN-VALUE(state, alpha, beta, depth) of depth-limited alpha-beta, remembering the best action.

    if depth = 0 or TERMINAL-TEST(state) then return EVAL(state)
    v <- +inf
    for each a in ACTIONS(state), the remembered best action first, do
        v' <- MAX-VALUE(RESULT(state, a), alpha, beta, depth - 1)
        if v' < v then v <- v', best_moves[state] <- a
        if v <= alpha then return v
        beta <- MIN(beta, v)
    return v
    """
    # TODO: write min_value here, following the pseudocode in its docstring.
    # TODO: docstring의 의사코드를 따라 여기에 min_value 함수를 작성하세요.
    raise NotImplementedError("min_value")
