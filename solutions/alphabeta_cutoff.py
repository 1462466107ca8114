"""Depth-limited alpha-beta search (AIMA's H-MINIMAX with alpha-beta; Shannon's type A strategy).

The search looks ``depth`` plies ahead and, where it stops, estimates the
position with an evaluation function EVAL instead of searching on to the end.
"""

import math

# BEGIN SOLUTION
# The cut-off rule: True (AIMA) cuts when v >= beta / v <= alpha; False (CS188) only when v > beta / v < alpha.
PRUNE_ON_EQUALITY = True
# END SOLUTION


def alpha_beta_cutoff_search(game, state, depth, eval_fn):
    """ALPHA-BETA-CUTOFF-SEARCH(state, depth) returns an action.

    Like ALPHA-BETA-SEARCH, but each child of the root is searched with depth - 1
    plies left. The first action whose value is the best value (ties go to the
    first); None at a terminal state or when depth is 0.

    ALPHA-BETA-SEARCH와 같지만, 루트의 자식마다 남은 겹 수를 depth - 1로 하여 탐색합니다.
    값이 가장 좋은 첫 번째 행동을 돌려주며(같은 값이면 먼저 나온 행동), 단말 상태이거나
    depth가 0이면 None을 돌려줍니다.
    """
    # BEGIN SOLUTION
    if cutoff_test(game, state, depth):
        return None
    alpha, beta = -math.inf, math.inf
    best_action = None
    if game.to_move(state) == "MAX":
        for a in game.actions(state):
            v = min_value(game, game.result(state, a), alpha, beta, depth - 1, eval_fn)
            if best_action is None or v > alpha:
                alpha, best_action = v, a
    else:
        for a in game.actions(state):
            v = max_value(game, game.result(state, a), alpha, beta, depth - 1, eval_fn)
            if best_action is None or v < beta:
                beta, best_action = v, a
    return best_action
    # END SOLUTION


def cutoff_test(game, state, depth):
    """CUTOFF-TEST(state, depth): true when no ply is left (depth is 0) or the game is over.

    CUTOFF-TEST(state, depth): 남은 겹이 없거나(depth가 0) 게임이 끝났으면 참입니다.
    """
    # BEGIN SOLUTION
    return depth == 0 or game.terminal_test(state)
    # END SOLUTION


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
    # BEGIN SOLUTION
    if cutoff_test(game, state, depth):
        return eval_fn(state)
    v = -math.inf
    for a in game.actions(state):
        v = max(v, min_value(game, game.result(state, a), alpha, beta, depth - 1, eval_fn))
        if v > beta or (v == beta and PRUNE_ON_EQUALITY):
            return v
        alpha = max(alpha, v)
    return v
    # END SOLUTION


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
    # BEGIN SOLUTION
    if cutoff_test(game, state, depth):
        return eval_fn(state)
    v = math.inf
    for a in game.actions(state):
        v = min(v, max_value(game, game.result(state, a), alpha, beta, depth - 1, eval_fn))
        if v < alpha or (v == alpha and PRUNE_ON_EQUALITY):
            return v
        beta = min(beta, v)
    return v
    # END SOLUTION
