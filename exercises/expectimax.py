"""Expectiminimax for games of chance (AIMA's EXPECTIMINIMAX; Michie's expectimax).

Your exercise: replace each TODO with code that does what the pseudocode in the
docstring says. Check it with 'abkit check', ask for a hint with 'abkit hint'.

과제: 각 TODO를 docstring의 의사코드대로 동작하는 코드로 바꾸세요.
'abkit check'로 확인하고, 'abkit hint'로 힌트를 볼 수 있습니다.

The game's methods are the pseudocode's functions (a state here is a node's name, like "B1"):
    game.to_move(state)        PLAYER(state): "MAX" or "MIN", the player who moves in state
    game.actions(state)        ACTIONS(state): the list of the actions legal in state, in the order to try them
    game.result(state, a)      RESULT(state, a): the state that action a leads to
    game.terminal_test(state)  TERMINAL-TEST(state): True when the game is over in state, else False
    game.utility(state)        UTILITY(state): the value of a terminal state for MAX, a number
The example below calls them on a tiny tree (MAX moves at A, MIN at B and C; the leaves B1, B2, C1, C2
are worth 3, 12, 2, 4).

게임의 메서드가 의사코드의 함수입니다(여기서 상태는 "B1" 같은 노드 이름입니다).
    game.to_move(state)        PLAYER(state): state에서 둘 차례인 선수, "MAX" 또는 "MIN"
    game.actions(state)        ACTIONS(state): state에서 둘 수 있는 행동의 리스트(시도할 순서대로)
    game.result(state, a)      RESULT(state, a): state에서 행동 a를 두면 가는 상태
    game.terminal_test(state)  TERMINAL-TEST(state): state에서 게임이 끝났으면 True, 아니면 False
    game.utility(state)        UTILITY(state): 단말 상태의 효용값(MAX 기준, 수)
아래 예는 작은 트리에서 이 메서드들을 불러 봅니다(A에서는 MAX, B와 C에서는 MIN이 두고, 단말 노드
B1, B2, C1, C2의 값은 3, 12, 2, 4입니다).

>>> from abkit.tree import TreeGame, from_nested
>>> game = TreeGame(from_nested([[3, 12], [2, 4]]))
>>> game.to_move("A"), game.actions("A"), game.result("A", "B"), game.to_move("B"), game.terminal_test("B1"), game.utility("B1")
('MAX', ['B', 'C'], 'B', 'MIN', True, 3)
"""

import math


def expectiminimax_decision(game, state):
    """EXPECTIMINIMAX-DECISION(state) returns an action.

    The first action whose expectiminimax value is the best for the player to
    move (MAX: highest, MIN: lowest); None at a terminal state.

    둘 차례인 선수에게 기댓값 미니맥스 값이 가장 좋은 첫 번째 행동을 돌려줍니다(MAX는 가장
    큰 값, MIN은 가장 작은 값). 단말 상태에서는 None을 돌려줍니다.
    """
    # TODO: write expectiminimax_decision here, following the pseudocode in its docstring.
    # TODO: docstring의 의사코드를 따라 여기에 expectiminimax_decision 함수를 작성하세요.
    raise NotImplementedError("expectiminimax_decision")


def expectiminimax(game, state):
    """EXPECTIMINIMAX(s): MAX-VALUE, MIN-VALUE or CHANCE-VALUE of s, by PLAYER(s).

    PLAYER(s) is game.to_move(s): "MAX", "MIN" or, at the dice, "CHANCE"; the
    outcomes r of a CHANCE node are its ACTIONS, and P(r) is game.probability(s, r).

    EXPECTIMINIMAX(s): PLAYER(s)에 따라 s의 MAX-VALUE, MIN-VALUE 또는 CHANCE-VALUE입니다.
    PLAYER(s)는 game.to_move(s)이며 "MAX", "MIN", 또는 주사위를 던질 차례이면 "CHANCE"입니다.
    확률 노드의 결과 r은 그 노드의 ACTIONS이고, P(r)은 game.probability(s, r)입니다.
    """
    # TODO: write expectiminimax here, following the pseudocode in its docstring.
    # TODO: docstring의 의사코드를 따라 여기에 expectiminimax 함수를 작성하세요.
    raise NotImplementedError("expectiminimax")


def max_value(game, state):
    """MAX-VALUE(s): UTILITY(s) at a terminal state, else max over a of EXPECTIMINIMAX(RESULT(s, a)).

    MAX-VALUE(s): 단말 상태에서는 UTILITY(s), 아니면 행동 a마다 구한 EXPECTIMINIMAX(RESULT(s, a)) 가운데 최댓값입니다.
    """
    # TODO: write max_value here, following the pseudocode in its docstring.
    # TODO: docstring의 의사코드를 따라 여기에 max_value 함수를 작성하세요.
    raise NotImplementedError("max_value")


def min_value(game, state):
    """MIN-VALUE(s): UTILITY(s) at a terminal state, else min over a of EXPECTIMINIMAX(RESULT(s, a)).

    MIN-VALUE(s): 단말 상태에서는 UTILITY(s), 아니면 행동 a마다 구한 EXPECTIMINIMAX(RESULT(s, a)) 가운데 최솟값입니다.
    """
    # TODO: write min_value here, following the pseudocode in its docstring.
    # TODO: docstring의 의사코드를 따라 여기에 min_value 함수를 작성하세요.
    raise NotImplementedError("min_value")


def chance_value(game, state):
    """CHANCE-VALUE(s): UTILITY(s) at a terminal state, else sum over r of P(r) * EXPECTIMINIMAX(RESULT(s, r)).

    CHANCE-VALUE(s): 단말 상태에서는 UTILITY(s), 아니면 결과 r마다 P(r) * EXPECTIMINIMAX(RESULT(s, r))를 더한 값입니다.
    """
    # TODO: write chance_value here, following the pseudocode in its docstring.
    # TODO: docstring의 의사코드를 따라 여기에 chance_value 함수를 작성하세요.
    raise NotImplementedError("chance_value")
