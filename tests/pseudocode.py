"""Alpha-beta as seed 000's pseudocode says it, written for the tests independently of the kit.

MAX-VALUE / MIN-VALUE run on the tree itself (not on a trace), and every line that
acts becomes a row in the handouts' step vocabulary: entering a node,
``v ← MAX(v, MIN-VALUE(...))`` with the cut test ``v ≥ β`` that either returns at
once or is followed by ``α ← MAX(α, v)``, and the return. Also the GeeksforGeeks
form (update alpha, then test ``beta <= alpha``) for comparison.
"""

from __future__ import annotations

import math

from abkit.game import MAX
from abkit.textree import fmt


def pseudocode_rows(tree, rule: bool = True) -> list[tuple[str, dict]]:
    """ALPHA-BETA-SEARCH of seed 000 on ``tree``, one row per line that acts (``rule=False``: v > β, v < α)."""
    rows: list[tuple[str, dict]] = []
    players = tree.players()

    def value(state, alpha, beta):
        if state in tree.utilities:                      # if TERMINAL-TEST(state) then return UTILITY(state)
            return tree.utilities[state]
        return (max_value if players[state] == MAX else min_value)(state, alpha, beta)

    def max_value(state, alpha, beta):
        v = -math.inf                                    # v ← −∞
        rows.append(("steps.enter", {"node": state, "player": "MAX", "alpha": fmt(alpha), "beta": fmt(beta),
                                     "v": fmt(v)}))
        kids = list(tree.children[state])
        for i, a in enumerate(kids):                     # for each a in ACTIONS(state) do
            got = value(a, alpha, beta)
            v = max(v, got)                              #   v ← MAX(v, MIN-VALUE(RESULT(s, a), α, β))
            line = {"node": state, "child": a, "value": fmt(got), "v": fmt(v)}
            if v > beta or (rule and v == beta):         #   if v ≥ β then return v
                line.update(rel="≥" if v == beta else ">", beta=fmt(beta))
                if kids[i + 1:]:
                    rows.append(("steps.cut_max", {**line, "pruned": ", ".join(kids[i + 1:])}))
                else:
                    rows.append(("steps.cut_max_last", line))
                rows.append(("steps.return", {"node": state, "v": fmt(v)}))
                return v
            alpha = max(alpha, v)                        #   α ← MAX(α, v)
            rows.append(("steps.back_max", {**line, "rel": "<" if rule else "≤", "alpha": fmt(alpha),
                                            "beta": fmt(beta)}))
        rows.append(("steps.return", {"node": state, "v": fmt(v)}))
        return v                                         # return v

    def min_value(state, alpha, beta):
        v = math.inf
        rows.append(("steps.enter", {"node": state, "player": "MIN", "alpha": fmt(alpha), "beta": fmt(beta),
                                     "v": fmt(v)}))
        kids = list(tree.children[state])
        for i, a in enumerate(kids):
            got = value(a, alpha, beta)
            v = min(v, got)
            line = {"node": state, "child": a, "value": fmt(got), "v": fmt(v)}
            if v < alpha or (rule and v == alpha):       #   if v ≤ α then return v
                line.update(rel="≤" if v == alpha else "<", alpha=fmt(alpha))
                if kids[i + 1:]:
                    rows.append(("steps.cut_min", {**line, "pruned": ", ".join(kids[i + 1:])}))
                else:
                    rows.append(("steps.cut_min_last", line))
                rows.append(("steps.return", {"node": state, "v": fmt(v)}))
                return v
            beta = min(beta, v)                          #   β ← MIN(β, v)
            rows.append(("steps.back_min", {**line, "rel": ">" if rule else "≥", "alpha": fmt(alpha),
                                            "beta": fmt(beta)}))
        rows.append(("steps.return", {"node": state, "v": fmt(v)}))
        return v

    v = value(tree.root, -math.inf, math.inf)          # v ← MAX-VALUE(state, −∞, +∞)
    returned = {row[1]["child"]: row[1]["value"] for row in rows
                if row[0] != "steps.enter" and row[1].get("node") == tree.root and "child" in row[1]}
    action = next(a for a in tree.children[tree.root] if returned.get(a) == fmt(v))  # the action with value v
    rows.append(("steps.done", {"value": fmt(v), "action": action}))
    return rows


def measures(tree, rule: bool = True) -> dict:
    """What the outline fixes of an exercise, read from the pseudocode's rows: leaves evaluated, cut tests
    that fire on equality, whether two of the root's moves share its minimax value (bottom-up, no search), the
    subtrees cut off and the tree's leaves."""
    rows = pseudocode_rows(tree, rule)
    leaves = sum(1 for key, p in rows if key != "steps.enter" and "child" in p and p["child"] in tree.utilities)
    equal = sum(1 for key, p in rows if key.startswith("steps.cut") and p["rel"] in ("≥", "≤"))
    values = dict(tree.utilities)
    players = tree.players()
    for node in reversed(list(tree.preorder())):
        if node not in values:
            kids = [values[c] for c in tree.children[node]]
            values[node] = max(kids) if players[node] == MAX else min(kids)
    tie = sum(1 for c in tree.children[tree.root] if values[c] == values[tree.root]) >= 2
    cuts = sum(len(p["pruned"].split(", ")) for key, p in rows if key in ("steps.cut_max", "steps.cut_min"))
    return {"evaluated": leaves, "equality_cuts": equal, "root_tie": tie, "cuts": cuts, "leaves": len(tree.utilities)}


def visit_order(tree, rule: bool = True) -> list[str]:
    """The nodes in the order the pseudocode generates them (the root first), read from its rows."""
    rows = pseudocode_rows(tree, rule)
    return [tree.root] + [p["child"] for key, p in rows if key != "steps.enter" and "child" in p]


def gfg_search(tree) -> tuple[list[str], float]:
    """GeeksforGeeks' minimax(node, depth, isMaximizingPlayer, alpha, beta): bestVal updated, alpha (beta)
    updated, then ``if beta <= alpha: break``. Returns the nodes it visits, in order, and the root's value."""
    visited: list[str] = []
    players = tree.players()

    def minimax(node, alpha, beta):
        visited.append(node)
        if node in tree.utilities:
            return tree.utilities[node]
        if players[node] == MAX:
            best = -math.inf
            for child in tree.children[node]:
                best = max(best, minimax(child, alpha, beta))
                alpha = max(alpha, best)
                if beta <= alpha:
                    break
            return best
        best = math.inf
        for child in tree.children[node]:
            best = min(best, minimax(child, alpha, beta))
            beta = min(beta, best)
            if beta <= alpha:
                break
        return best

    value = minimax(tree.root, -math.inf, math.inf)
    return visited, value
