"""Minimax decision, following the AIMA pseudocode (MINIMAX-DECISION, MAX-VALUE, MIN-VALUE).

Your exercise: replace each TODO with code that does what the pseudocode in the
docstring says. Check it with 'abkit check', ask for a hint with 'abkit hint'.

과제: 각 TODO를 docstring의 의사코드대로 동작하는 코드로 바꾸세요.
'abkit check'로 확인하고, 'abkit hint'로 힌트를 볼 수 있습니다.
"""

import math


def minimax_decision(game, state):
    """MINIMAX-DECISION(state) returns an action.

    The first action whose value is the best value for the player to move
    (MAX: highest, MIN: lowest); None at a terminal state.

    if TERMINAL-TEST(state) then return None
    if PLAYER(state) = MAX then
        return the first a in ACTIONS(state) with the highest MIN-VALUE(RESULT(state, a))
    else
        return the first a in ACTIONS(state) with the lowest MAX-VALUE(RESULT(state, a))
    """
    # TODO: write minimax_decision here, following the pseudocode in its docstring.
    # TODO: docstring의 의사코드를 따라 여기에 minimax_decision 함수를 작성하세요.
    raise NotImplementedError("minimax_decision")


def max_value(game, state):
    """MAX-VALUE(state) returns a utility value.

    if TERMINAL-TEST(state) then return UTILITY(state)
    v <- -inf
    for each a in ACTIONS(state) do
        v <- MAX(v, MIN-VALUE(RESULT(state, a)))
    return v
    """
    # TODO: write max_value here, following the pseudocode in its docstring.
    # TODO: docstring의 의사코드를 따라 여기에 max_value 함수를 작성하세요.
    raise NotImplementedError("max_value")


def min_value(game, state):
    """MIN-VALUE(state) returns a utility value.

    if TERMINAL-TEST(state) then return UTILITY(state)
    v <- +inf
    for each a in ACTIONS(state) do
        v <- MIN(v, MAX-VALUE(RESULT(state, a)))
    return v
    """
    # TODO: write min_value here, following the pseudocode in its docstring.
    # TODO: docstring의 의사코드를 따라 여기에 min_value 함수를 작성하세요.
    raise NotImplementedError("min_value")
