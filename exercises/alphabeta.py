"""Alpha-beta search, following the AIMA pseudocode (ALPHA-BETA-SEARCH, MAX-VALUE, MIN-VALUE).

Your exercise: replace each TODO with code that does what the pseudocode in the
docstring says. Check it with 'abkit check', ask for a hint with 'abkit hint'.

과제: 각 TODO를 docstring의 의사코드대로 동작하는 코드로 바꾸세요.
'abkit check'로 확인하고, 'abkit hint'로 힌트를 볼 수 있습니다.
"""

import math


def alpha_beta_search(game, state):
    """ALPHA-BETA-SEARCH(state) returns an action.

    The first action whose value is the best value (ties go to the first);
    None at a terminal state. The root passes its updated alpha (beta at a MIN
    root) from one child to the next, exactly as MAX-VALUE (MIN-VALUE) does.

    if TERMINAL-TEST(state) then return None
    alpha <- -inf; beta <- +inf; best <- None
    if PLAYER(state) = MAX then
        for each a in ACTIONS(state) do
            v <- MIN-VALUE(RESULT(state, a), alpha, beta)
            if best = None or v > alpha then alpha <- v; best <- a
    else  (a MIN root: the mirror image)
        for each a in ACTIONS(state) do
            v <- MAX-VALUE(RESULT(state, a), alpha, beta)
            if best = None or v < beta then beta <- v; best <- a
    return best
    """
    # TODO: write alpha_beta_search here, following the pseudocode in its docstring.
    # TODO: docstring의 의사코드를 따라 여기에 alpha_beta_search 함수를 작성하세요.
    raise NotImplementedError("alpha_beta_search")


def max_value(game, state, alpha, beta):
    """MAX-VALUE(state, alpha, beta) returns a utility value.

    if TERMINAL-TEST(state) then return UTILITY(state)
    v <- -inf
    for each a in ACTIONS(state) do
        v <- MAX(v, MIN-VALUE(RESULT(state, a), alpha, beta))
        if v >= beta then return v
        alpha <- MAX(alpha, v)
    return v
    """
    # TODO: write max_value here, following the pseudocode in its docstring.
    # TODO: docstring의 의사코드를 따라 여기에 max_value 함수를 작성하세요.
    raise NotImplementedError("max_value")


def min_value(game, state, alpha, beta):
    """MIN-VALUE(state, alpha, beta) returns a utility value.

    if TERMINAL-TEST(state) then return UTILITY(state)
    v <- +inf
    for each a in ACTIONS(state) do
        v <- MIN(v, MAX-VALUE(RESULT(state, a), alpha, beta))
        if v <= alpha then return v
        beta <- MIN(beta, v)
    return v
    """
    # TODO: write min_value here, following the pseudocode in its docstring.
    # TODO: docstring의 의사코드를 따라 여기에 min_value 함수를 작성하세요.
    raise NotImplementedError("min_value")
