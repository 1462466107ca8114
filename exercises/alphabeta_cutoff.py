"""Depth-limited alpha-beta search (AIMA's H-MINIMAX with alpha-beta; Shannon's type A strategy).

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


def alpha_beta_cutoff_search(game, state, depth, eval_fn):
    """ALPHA-BETA-CUTOFF-SEARCH(state, depth) returns an action.

    Like ALPHA-BETA-SEARCH, but each child of the root is searched with depth - 1
    plies left. The first action whose value is the best value (ties go to the
    first); None at a terminal state or when depth is 0.

    ALPHA-BETA-SEARCH와 같지만, 루트의 자식마다 남은 겹 수를 depth - 1로 하여 탐색합니다.
    값이 가장 좋은 첫 번째 행동을 돌려주며(같은 값이면 먼저 나온 행동), 단말 상태이거나
    depth가 0이면 None을 돌려줍니다.
    """
    # TODO: write alpha_beta_cutoff_search here, following the pseudocode in its docstring.
    # TODO: docstring의 의사코드를 따라 여기에 alpha_beta_cutoff_search 함수를 작성하세요.
    raise NotImplementedError("alpha_beta_cutoff_search")


def cutoff_test(game, state, depth):
    """CUTOFF-TEST(state, depth): true when no ply is left (depth is 0) or the game is over.

    CUTOFF-TEST(state, depth): 남은 겹이 없거나(depth가 0) 게임이 끝났으면 참입니다.
    """
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

    EVAL(state) is eval_fn(state), a number: the state's estimated value for MAX. Call it where
    CUTOFF-TEST holds, not game.utility(state), which is only for a state where the game is over.

    EVAL(state)는 eval_fn(state)이며, state의 값을 MAX 기준으로 어림한 수입니다. CUTOFF-TEST가
    참이면 game.utility(state)가 아니라 이 함수를 부르세요. game.utility는 게임이 끝난 상태에만 씁니다.
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
