"""The paper exercises worked in a table rather than on a tree, and the searches a tree exercise compares.

Table exercises (kinds :data:`TABLE_KINDS`; their numbers are the outline's, the same for every student):

- ``features``: positions described by feature counts (``positions``), valued by two weightings (``weights``,
  ``other``): e = Σ weight × feature, and the move a one-ply search picks under each;
- ``td``: one temporal-difference update of a linear evaluation's weights by hand (``weights``, ``rate``, the
  features ``before`` and ``after`` a move), and what the new weights change in a one-ply search (``moves``);
- ``knuth_moore``: b^d against b^⌈d/2⌉ + b^⌊d/2⌋ − 1 for other b and d (``shapes``), and how deep best-ordered
  alpha-beta reaches with the leaves minimax spends on ``reach`` = [b, d].

Arithmetic is exact (:class:`fractions.Fraction` of the outline's decimals). For the ``forms`` exercise (one tree,
searched as AIMA writes alpha-beta, as Pearl does and as GeeksforGeeks does) :func:`fail_hard` and
:func:`update_first` search the tree the other two ways.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from abkit.game import MAX
from abkit.tree import Tree

from abkit.handouts.facts import check
from abkit.handouts.ordering_lab import knuth_moore as km_leaves

TABLE_KINDS = ("features", "td", "knuth_moore")


def exact(x: Any) -> Fraction:
    """``x`` as written in the outline, exactly: ``exact(0.1) == Fraction(1, 10)``."""
    return Fraction(str(x))


def num(q: Fraction) -> str:
    """``q`` as printed: an integer without a point, else its decimals (at most four places, trailing zeros cut).

    >>> num(Fraction(3)), num(Fraction(-7, 5)), num(Fraction(1, 3))
    ('3', '-1.4', '0.3333')
    """
    if q.denominator == 1:
        return str(q.numerator)
    return f"{float(q):.4f}".rstrip("0")


def weighted(weights: list[Fraction], features: list[Any]) -> Fraction:
    """e = Σ weight × feature."""
    return sum((w * exact(x) for w, x in zip(weights, features)), Fraction(0))


def best_move(values: dict[str, Fraction]) -> list[str]:
    """The moves of highest value (MAX picks among them), in the outline's order."""
    top = max(values.values())
    return [move for move, value in values.items() if value == top]


def td_update(entry: dict[str, Any]) -> dict[str, Any]:
    """One TD update W ← W + c (f_{t+1} − f_t) ∂f_t/∂W of a linear f = Σ w_i x_i (so ∂f_t/∂w_i = x_i(p_t)), and the
    one-ply choice among ``moves`` before and after it."""
    weights = [exact(w) for w in entry["weights"]]
    rate = exact(entry["rate"])
    f_t, f_next = weighted(weights, entry["before"]), weighted(weights, entry["after"])
    delta = f_next - f_t
    new = [w + rate * delta * exact(x) for w, x in zip(weights, entry["before"])]
    old_values = {m: weighted(weights, x) for m, x in entry["moves"].items()}
    new_values = {m: weighted(new, x) for m, x in entry["moves"].items()}
    return {"weights": weights, "rate": rate, "f_t": f_t, "f_next": f_next, "delta": delta, "new": new,
            "old_values": old_values, "new_values": new_values}


def features_values(entry: dict[str, Any]) -> dict[str, dict[str, Fraction]]:
    """Each position's e under the outline's ``weights`` and under its ``other`` weighting."""
    return {key: {move: weighted([exact(w) for w in entry[key]], x) for move, x in entry["positions"].items()}
            for key in ("weights", "other")}


def km_reach(b: int, d: int) -> int:
    """The deepest search best-ordered alpha-beta finishes with the b^d leaves minimax evaluates at depth d."""
    deeper = d
    while km_leaves(b, deeper + 1) <= b ** d:
        deeper += 1
    return deeper


def fail_hard(tree: Tree) -> dict[str, float]:
    """Pearl's V(J; α, β) on ``tree`` (its steps 2-4 and 2'-4': the bound is raised by each child's value, the
    search returns β when α ≥ β at MAX, α when β ≤ α at MIN, else the bound): every node it reaches -> what it
    returns."""
    out: dict[str, float] = {}
    players = tree.players()

    def value(node: str, alpha: float, beta: float) -> float:
        if tree.is_leaf(node):
            out[node] = tree.utilities[node]
            return out[node]
        for child in tree.children[node]:
            if players[node] == MAX:
                alpha = max(alpha, value(child, alpha, beta))
                if alpha >= beta:
                    out[node] = beta
                    return beta
            else:
                beta = min(beta, value(child, alpha, beta))
                if beta <= alpha:
                    out[node] = alpha
                    return alpha
        out[node] = alpha if players[node] == MAX else beta
        return out[node]

    value(tree.root, -math.inf, math.inf)
    return out


def update_first(tree: Tree) -> tuple[dict[str, float], list[tuple[str, float, float]]]:
    """The GeeksforGeeks order on ``tree``: each child's value taken into the best value, the bound updated from
    it, and then ``β ≤ α`` tested. Every node it reaches -> what it returns; and each cut as (node, α, β) as the
    loop breaks."""
    out: dict[str, float] = {}
    cuts: list[tuple[str, float, float]] = []
    players = tree.players()

    def value(node: str, alpha: float, beta: float) -> float:
        if tree.is_leaf(node):
            out[node] = tree.utilities[node]
            return out[node]
        maximizing = players[node] == MAX
        best = -math.inf if maximizing else math.inf
        for child in tree.children[node]:
            v = value(child, alpha, beta)
            if maximizing:
                best, alpha = max(best, v), max(alpha, max(best, v))
            else:
                best, beta = min(best, v), min(beta, min(best, v))
            if beta <= alpha:
                cuts.append((node, alpha, beta))
                break
        out[node] = best
        return best

    value(tree.root, -math.inf, math.inf)
    return out, cuts


def factor(q: Fraction) -> str:
    """A number as a factor in a written-out sum: negative ones in parentheses."""
    return f"({num(q)})" if q < 0 else num(q)


def written_sum(weights: list[Fraction], features: list[Any]) -> str:
    """Σ weight × feature written out over the features that are not zero: ``1·1 + 0.05·2 = 1.1``."""
    terms = [f"{num(w)}·{factor(exact(x))}" for w, x in zip(weights, features) if exact(x) != 0]
    return f"{' + '.join(terms) or '0'} = {num(weighted(weights, features))}"


def listed(values: dict[str, Fraction]) -> str:
    """``B = 1.1, C = 0.4``."""
    return ", ".join(f"{move} = {num(value)}" for move, value in values.items())


class Worksheets:
    """The table exercises' tables and facts, and the table that answers ``forms``: a mixin of the handouts'
    builder, whose ``w`` (words) and ``table`` (a numbered table block) it uses."""

    def worksheet(self, exercise: str, entry: dict[str, Any], filled: bool) -> dict[str, Any]:
        """The table of a table exercise: its given columns, and the columns to work out blank or (``filled``)
        worked out."""
        head, rows, widths = getattr(self, f"_{entry['kind']}_table")(entry, filled)
        block = self.table(head, rows, self.w(f"{exercise}.table"), widths,
                           f"{exercise}-{'answer' if filled else 'blank'}")
        block["write_in"] = not filled
        return block

    def _names(self, entry: dict[str, Any]) -> list[str]:
        return [self.w(f"feature.{name}") for name in entry["features"]]

    def _features_table(self, entry: dict[str, Any], filled: bool) -> tuple[list[str], list[list[str]], list[int]]:
        weights = {key: [exact(w) for w in entry[key]] for key in ("weights", "other")}
        rows = [[move, *(num(exact(x)) for x in counts),
                 *((written_sum(weights[key], counts) if filled else "") for key in ("weights", "other"))]
                for move, counts in entry["positions"].items()]
        head = [self.w("features.position"), *self._names(entry), self.w("ws.e_first"), self.w("ws.e_second")]
        return head, rows, [2] + [2] * len(entry["features"]) + [5, 5]

    def _td_table(self, entry: dict[str, Any], filled: bool) -> tuple[list[str], list[list[str]], list[int]]:
        done = td_update(entry)
        given = [(self.w("ws.p_t"), entry["before"], False), (self.w("ws.p_next"), entry["after"], False)]
        given += [(self.w("ws.after_move", move=m), x, True) for m, x in entry["moves"].items()]
        rows = [[label, *(num(exact(v)) for v in x),
                 written_sum(done["weights"], x) if filled else "",
                 (written_sum(done["new"], x) if filled else "") if move else "–"] for label, x, move in given]
        head = [self.w("features.position"), *self._names(entry), self.w("ws.f_old"), self.w("ws.f_new")]
        return head, rows, [3] + [2] * len(entry["features"]) + [5, 5]

    def _knuth_moore_table(self, entry: dict[str, Any], filled: bool) -> tuple[list[str], list[list[str]], list[int]]:
        rows = [[str(b), str(d), f"{b ** d:,}" if filled else "", f"{km_leaves(b, d):,}" if filled else ""]
                for b, d in entry["shapes"]]
        head = [self.w(k) for k in ("km.b", "km.d", "km.all", "km.formula")]
        return head, rows, [1, 1, 3, 3]

    def table_facts(self, entry: dict[str, Any]) -> dict[str, Any]:
        """What a table exercise's task and answer say, computed from the outline's numbers."""
        kind = entry["kind"]
        if kind == "knuth_moore":
            b, d = entry["reach"]
            deeper = km_reach(b, d)
            return {"b": b, "d": d, "leaves": f"{b ** d:,}", "reach": deeper, "reach_leaves": f"{km_leaves(b, deeper):,}",
                    "next": deeper + 1, "next_leaves": f"{km_leaves(b, deeper + 1):,}", "double": 2 * d,
                    "double_leaves": f"{km_leaves(b, 2 * d):,}"}
        names = self._names(entry)
        if kind == "features":
            values = features_values(entry)
            weights = {key: [exact(w) for w in entry[key]] for key in ("weights", "other")}
            changed = [k for k, (a, b) in enumerate(zip(weights["weights"], weights["other"])) if a != b]
            most = max(entry["positions"], key=lambda m: exact(entry["positions"][m][changed[0]]))
            check(len(changed) == 1 and weights["other"][changed[0]] > weights["weights"][changed[0]]
                  and best_move(values["other"]) == [most],
                  "the weighted-features answer says one weight grows and the move with most of its feature wins")
            return {"weights": self._weights(names, weights["weights"]), "other": self._weights(names, weights["other"]),
                    "first": listed(values["weights"]), "second": listed(values["other"]),
                    "first_best": ", ".join(best_move(values["weights"])),
                    "second_best": ", ".join(best_move(values["other"])), "changed": names[changed[0]]}
        done = td_update(entry)
        check(done["delta"] < 0 and all(n < w for n, w in zip(done["new"], done["weights"])),
              "the TD exercise's answer says the error is negative and every weight falls")
        return {"weights": self._weights(names, done["weights"]), "rate": num(done["rate"]), "f_t": num(done["f_t"]),
                "f_next": num(done["f_next"]), "delta": num(done["delta"]), "new": self._weights(names, done["new"]),
                "update": ", ".join(f"{num(w)} + {num(done['rate'])}·{factor(done['delta'])}·{factor(exact(x))} = {num(n)}"
                                    for w, x, n in zip(done["weights"], entry["before"], done["new"])),
                "old_values": listed(done["old_values"]), "new_values": listed(done["new_values"]),
                "old_best": ", ".join(best_move(done["old_values"])), "new_best": ", ".join(best_move(done["new_values"]))}

    def _weights(self, names: list[str], weights: list[Fraction]) -> str:
        return ", ".join(self.w("ws.weight", feature=n, weight=num(w)) for n, w in zip(names, weights))

    def forms_facts(self, tree: Tree, trace: Any) -> dict[str, Any]:
        """What the ``forms`` answer says: where Pearl's fail-hard form returns another value than AIMA's, and where
        the update-then-test order cuts, with its α and β then; both checked to evaluate the same leaves and give
        the same root value as AIMA's."""
        soft = {call.node: call.value for call in trace.calls}
        hard = fail_hard(tree)
        gfg, cuts = update_first(tree)
        evaluated = [n for n in gfg if tree.is_leaf(n)]
        check(evaluated == list(trace.evaluated) and gfg[tree.root] == trace.value == hard[tree.root],
              "the forms exercise's answer says the three forms evaluate the same leaves, give the same root value")
        differ = [self.w("ans.forms_differ", node=n, soft=num(exact(soft[n])), hard=num(exact(hard[n])))
                  for n in trace.visited if not tree.is_leaf(n) and hard[n] != soft[n]]
        return {"differ": ", ".join(differ) or self.w("ans.none"),
                "cuts": ", ".join(self.w("ans.forms_cut", node=n, alpha=num(exact(a)), beta=num(exact(b)))
                                  for n, a, b in cuts) or self.w("ans.none")}

    def forms_table(self, tree: Tree, trace: Any, exercise: str) -> dict[str, Any]:
        """What each inner node returns when AIMA's fail-soft form and Pearl's fail-hard form search ``tree``
        (``trace``: the reference alpha-beta's); a value where the two differ in bold."""
        soft = {call.node: call.value for call in trace.calls}
        hard = fail_hard(tree)
        rows = [[node, num(exact(soft[node])), (f"**{num(exact(hard[node]))}**" if hard[node] != soft[node]
                                                 else num(exact(hard[node])))]
                for node in trace.visited if not tree.is_leaf(node)]
        head = [self.w(k) for k in ("ans.forms_node", "ans.forms_soft", "ans.forms_hard")]
        return self.table(head, rows, self.w("ans.forms_caption"), [1, 3, 3], f"{exercise}-forms")


__all__ = ["TABLE_KINDS", "best_move", "exact", "fail_hard", "Worksheets", "factor", "features_values", "km_reach", "listed", "num",
           "td_update", "update_first", "weighted", "written_sum"]
