"""Action ordering for alpha-beta: by a static evaluation, and by iterative deepening.

Alpha-beta prunes most when the best move comes first (perfect ordering: about
b^(m/2) nodes instead of b^m). Two classic ways to get close: sort the actions
by a cheap evaluation of where they lead, and search to depth 1, 2, 3, ...,
trying first at every node the move that was best there in the last iteration.
"""

import math

# BEGIN SOLUTION
# The cut-off rule: True (AIMA) cuts when v >= beta / v <= alpha; False (CS188) only when v > beta / v < alpha.
PRUNE_ON_EQUALITY = True
# END SOLUTION


def ordered_actions(game, state, eval_fn):
    """ACTIONS(state) sorted most promising first for the player to move.

    The key of an action a is EVAL(RESULT(state, a)): highest first at a MAX
    node, lowest first at a MIN node; actions with equal keys keep the order
    ACTIONS gave them.

    둘 차례인 선수에게 가장 유망한 행동부터 정렬한 ACTIONS(state)입니다. 행동 a의 기준값은
    EVAL(RESULT(state, a))이며, MAX 노드에서는 큰 값부터, MIN 노드에서는 작은 값부터 놓습니다.
    기준값이 같은 행동은 ACTIONS가 준 순서를 지킵니다.
    """
    # BEGIN SOLUTION
    maximizing = game.to_move(state) == "MAX"
    keyed = [(eval_fn(game.result(state, a)), i, a) for i, a in enumerate(game.actions(state))]
    keyed.sort(key=lambda k: (-k[0] if maximizing else k[0], k[1]))
    return [a for _, _, a in keyed]
    # END SOLUTION


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
    # BEGIN SOLUTION
    if game.terminal_test(state):
        return None
    best_moves = {}
    for d in range(1, depth + 1):
        if game.to_move(state) == "MAX":
            max_value(game, state, -math.inf, math.inf, d, eval_fn, best_moves)
        else:
            min_value(game, state, -math.inf, math.inf, d, eval_fn, best_moves)
    return best_moves[state] if state in best_moves else game.actions(state)[0]
    # END SOLUTION


def actions_in_order(game, state, best_moves):
    """ACTIONS(state) with the action remembered in best_moves for state (if any) moved to the front.

    best_moves에 state의 행동이 기억되어 있으면 그 행동을 맨 앞으로 옮긴 ACTIONS(state)입니다.
    """
    # BEGIN SOLUTION
    actions = game.actions(state)
    best = best_moves.get(state)
    if best in actions:
        actions.remove(best)
        actions.insert(0, best)
    return actions
    # END SOLUTION


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
    # BEGIN SOLUTION
    if depth == 0 or game.terminal_test(state):
        return eval_fn(state)
    v = -math.inf
    for a in actions_in_order(game, state, best_moves):
        child = min_value(game, game.result(state, a), alpha, beta, depth - 1, eval_fn, best_moves)
        if child > v:
            v, best_moves[state] = child, a
        if v > beta or (v == beta and PRUNE_ON_EQUALITY):
            return v
        alpha = max(alpha, v)
    return v
    # END SOLUTION


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
    # BEGIN SOLUTION
    if depth == 0 or game.terminal_test(state):
        return eval_fn(state)
    v = math.inf
    for a in actions_in_order(game, state, best_moves):
        child = max_value(game, game.result(state, a), alpha, beta, depth - 1, eval_fn, best_moves)
        if child < v:
            v, best_moves[state] = child, a
        if v < alpha or (v == alpha and PRUNE_ON_EQUALITY):
            return v
        beta = min(beta, v)
    return v
    # END SOLUTION
