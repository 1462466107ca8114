"""Alpha-beta search, following the AIMA pseudocode (ALPHA-BETA-SEARCH, MAX-VALUE, MIN-VALUE).

The reference solution of the kit: `abkit fixtures verify`, `abkit trace` and the
grader compare everything against what these functions do.
"""

import math

# BEGIN SOLUTION
# The cut-off rule. True (AIMA): MAX-VALUE returns as soon as v >= beta and
# MIN-VALUE as soon as v <= alpha. False (CS188): only when v > beta / v < alpha.
# Students never see it; the kit sets it when a course grades under CS188's rule.
PRUNE_ON_EQUALITY = True
# END SOLUTION


def alpha_beta_search(game, state):
    """ALPHA-BETA-SEARCH(state) returns an action.

    The first action whose value is the best value (ties go to the first);
    None at a terminal state. The root passes its updated alpha (beta at a MIN
    root) from one child to the next, exactly as MAX-VALUE (MIN-VALUE) does.
    PLAYER(state) is game.to_move(state): "MAX" or "MIN".

    값이 가장 좋은 첫 번째 행동을 돌려줍니다(같은 값이면 먼저 나온 행동). 단말 상태에서는
    None을 돌려줍니다. 루트는 갱신한 alpha(MIN 루트에서는 beta)를 MAX-VALUE(MIN-VALUE)와
    똑같이 한 자식에서 다음 자식으로 넘깁니다. PLAYER(state)는 game.to_move(state)이며
    "MAX" 또는 "MIN"입니다.

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
    # BEGIN SOLUTION
    if game.terminal_test(state):
        return None
    alpha, beta = -math.inf, math.inf
    best_action = None
    if game.to_move(state) == "MAX":
        for a in game.actions(state):
            v = min_value(game, game.result(state, a), alpha, beta)
            if best_action is None or v > alpha:
                alpha, best_action = v, a
    else:
        for a in game.actions(state):
            v = max_value(game, game.result(state, a), alpha, beta)
            if best_action is None or v < beta:
                beta, best_action = v, a
    return best_action
    # END SOLUTION


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
    # BEGIN SOLUTION
    if game.terminal_test(state):
        return game.utility(state)
    v = -math.inf
    for a in game.actions(state):
        v = max(v, min_value(game, game.result(state, a), alpha, beta))
        if v > beta or (v == beta and PRUNE_ON_EQUALITY):
            return v
        alpha = max(alpha, v)
    return v
    # END SOLUTION


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
    # BEGIN SOLUTION
    if game.terminal_test(state):
        return game.utility(state)
    v = math.inf
    for a in game.actions(state):
        v = min(v, max_value(game, game.result(state, a), alpha, beta))
        if v < alpha or (v == alpha and PRUNE_ON_EQUALITY):
            return v
        beta = min(beta, v)
    return v
    # END SOLUTION
