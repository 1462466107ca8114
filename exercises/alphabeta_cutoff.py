"""Depth-limited alpha-beta search (AIMA's H-MINIMAX with alpha-beta; Shannon's type A strategy).

Your exercise: replace each TODO with code that does what the pseudocode in the
docstring says. Check it with 'abkit check', ask for a hint with 'abkit hint'.

과제: 각 TODO를 docstring의 의사코드대로 동작하는 코드로 바꾸세요.
'abkit check'로 확인하고, 'abkit hint'로 힌트를 볼 수 있습니다.
"""

import math


def alpha_beta_cutoff_search(game, state, depth, eval_fn):
    """ALPHA-BETA-CUTOFF-SEARCH(state, depth) returns an action.

    Like ALPHA-BETA-SEARCH, but each child of the root is searched with depth - 1
    plies left. The first action whose value is the best value (ties go to the
    first); None at a terminal state or when depth is 0.
    """
    # TODO: write alpha_beta_cutoff_search here, following the pseudocode in its docstring.
    # TODO: docstring의 의사코드를 따라 여기에 alpha_beta_cutoff_search 함수를 작성하세요.
    raise NotImplementedError("alpha_beta_cutoff_search")


def cutoff_test(game, state, depth):
    """CUTOFF-TEST(state, depth): true when no ply is left (depth is 0) or the game is over."""
    # TODO: write cutoff_test here, following the pseudocode in its docstring.
    # TODO: docstring의 의사코드를 따라 여기에 cutoff_test 함수를 작성하세요.
    raise NotImplementedError("cutoff_test")


def max_value(game, state, alpha, beta, depth, eval_fn):
    """MAX-VALUE(state, alpha, beta, depth) returns an estimated utility value.

    if CUTOFF-TEST(state, depth) then return EVAL(state)
    v <- -inf
    for each a in ACTIONS(state) do
        v <- MAX(v, MIN-VALUE(RESULT(state, a), alpha, beta, depth - 1))
        if v >= beta then return v
        alpha <- MAX(alpha, v)
    return v
    """
    # TODO: write max_value here, following the pseudocode in its docstring.
    # TODO: docstring의 의사코드를 따라 여기에 max_value 함수를 작성하세요.
    raise NotImplementedError("max_value")


def min_value(game, state, alpha, beta, depth, eval_fn):
    """MIN-VALUE(state, alpha, beta, depth) returns an estimated utility value.

    if CUTOFF-TEST(state, depth) then return EVAL(state)
    v <- +inf
    for each a in ACTIONS(state) do
        v <- MIN(v, MAX-VALUE(RESULT(state, a), alpha, beta, depth - 1))
        if v <= alpha then return v
        beta <- MIN(beta, v)
    return v
    """
    # TODO: write min_value here, following the pseudocode in its docstring.
    # TODO: docstring의 의사코드를 따라 여기에 min_value 함수를 작성하세요.
    raise NotImplementedError("min_value")
