NEG_INF = float("-inf")
POS_INF = float("inf")
