"""Action ordering for alpha-beta: by a static evaluation, and by iterative deepening.

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


def ordered_actions(game, state, eval_fn):
    """ACTIONS(state) sorted most promising first for the player to move.

    The key of an action a is EVAL(RESULT(state, a)): highest first at a MAX
    node, lowest first at a MIN node; actions with equal keys keep the order
    ACTIONS gave them.

    둘 차례인 선수에게 가장 유망한 행동부터 정렬한 ACTIONS(state)입니다. 행동 a의 기준값은
    EVAL(RESULT(state, a))이며, MAX 노드에서는 큰 값부터, MIN 노드에서는 작은 값부터 놓습니다.
    기준값이 같은 행동은 ACTIONS가 준 순서를 지킵니다.
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

    d = 1, 2, ..., depth마다 깊이 d까지 깊이 제한 알파베타를 실행합니다. 이때 모든 노드에서
    반복 d - 1에서 가장 좋았던 행동을 먼저 시도하고(나머지는 ACTIONS 순서대로), 노드마다
    가장 좋은 행동을 기억합니다. 마지막 반복의 가장 좋은 행동을 돌려주며(-inf/+inf보다 나은
    행동이 없으면 첫 번째 행동), 단말 상태에서는 None을 돌려줍니다.
    """
    # TODO: write iterative_deepening_search here, following the pseudocode in its docstring.
    # TODO: docstring의 의사코드를 따라 여기에 iterative_deepening_search 함수를 작성하세요.
    raise NotImplementedError("iterative_deepening_search")


def actions_in_order(game, state, best_moves):
    """ACTIONS(state) with the action remembered in best_moves for state (if any) moved to the front.

    best_moves에 state의 행동이 기억되어 있으면 그 행동을 맨 앞으로 옮긴 ACTIONS(state)입니다.
    """
    # TODO: write actions_in_order here, following the pseudocode in its docstring.
    # TODO: docstring의 의사코드를 따라 여기에 actions_in_order 함수를 작성하세요.
    raise NotImplementedError("actions_in_order")


def max_value(game, state, alpha, beta, depth, eval_fn, best_moves):
    """MAX-VALUE(state, alpha, beta, depth) of depth-limited alpha-beta, remembering the best action.

    깊이 제한 알파베타의 MAX-VALUE(state, alpha, beta, depth)이며, 가장 좋은 행동을 기억합니다.

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

    깊이 제한 알파베타의 MIN-VALUE(state, alpha, beta, depth)이며, 가장 좋은 행동을 기억합니다.

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
