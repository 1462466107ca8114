"""Expectiminimax for games of chance (AIMA's EXPECTIMINIMAX; Michie's expectimax).

Your exercise: replace each TODO with code that does what the pseudocode in the
docstring says. Check it with 'abkit check', ask for a hint with 'abkit hint'.

과제: 각 TODO를 docstring의 의사코드대로 동작하는 코드로 바꾸세요.
'abkit check'로 확인하고, 'abkit hint'로 힌트를 볼 수 있습니다.
"""

import math


def expectiminimax_decision(game, state):
    """EXPECTIMINIMAX-DECISION(state) returns an action.

    The first action whose expectiminimax value is the best for the player to
    move (MAX: highest, MIN: lowest); None at a terminal state.
    """
    # TODO: write expectiminimax_decision here, following the pseudocode in its docstring.
    # TODO: docstring의 의사코드를 따라 여기에 expectiminimax_decision 함수를 작성하세요.
    raise NotImplementedError("expectiminimax_decision")


def expectiminimax(game, state):
    """EXPECTIMINIMAX(s): MAX-VALUE, MIN-VALUE or CHANCE-VALUE of s, by PLAYER(s)."""
    # TODO: write expectiminimax here, following the pseudocode in its docstring.
    # TODO: docstring의 의사코드를 따라 여기에 expectiminimax 함수를 작성하세요.
    raise NotImplementedError("expectiminimax")


def max_value(game, state):
    """MAX-VALUE(s): UTILITY(s) at a terminal state, else max over a of EXPECTIMINIMAX(RESULT(s, a))."""
    # TODO: write max_value here, following the pseudocode in its docstring.
    # TODO: docstring의 의사코드를 따라 여기에 max_value 함수를 작성하세요.
    raise NotImplementedError("max_value")


def min_value(game, state):
    """MIN-VALUE(s): UTILITY(s) at a terminal state, else min over a of EXPECTIMINIMAX(RESULT(s, a))."""
    # TODO: write min_value here, following the pseudocode in its docstring.
    # TODO: docstring의 의사코드를 따라 여기에 min_value 함수를 작성하세요.
    raise NotImplementedError("min_value")


def chance_value(game, state):
    """CHANCE-VALUE(s): UTILITY(s) at a terminal state, else sum over r of P(r) * EXPECTIMINIMAX(RESULT(s, r))."""
    # TODO: write chance_value here, following the pseudocode in its docstring.
    # TODO: docstring의 의사코드를 따라 여기에 chance_value 함수를 작성하세요.
    raise NotImplementedError("chance_value")
