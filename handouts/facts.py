"""Numbers the notes state, computed from fixtures when the handout is built (never typed into the words).

An outline block may name a fact set (``facts: NAME``); its words then use the
set's values as placeholders. Each set is a function of the builder (for the
language, :meth:`Builder.w`) registered with :func:`fact`. A set that finds its
fixture no longer saying what the words around it say raises :class:`FactError`
instead of printing a sentence that has become false.
"""

from __future__ import annotations

import functools
import math
from typing import Any, Callable

from abkit.algorithms import Algorithm
from abkit.coursefolder import current_course
from abkit.game import MAX
from abkit.info import load_info
from abkit.textree import fmt
from abkit.reference import reference_trace
from abkit.tictactoe import EMPTY, LINES, TicTacToe, nilsson_eval, winner
from abkit.tree import backed_up_values

from abkit.handouts.formulas import minimax_formula
from abkit.handouts.ordering_lab import knuth_moore, lab_rows
from abkit.handouts.trees import (final_iteration, fixture, game_trace, open_lines, outline, square_kind, step_events,
                                  trace_of)
from abkit.stepthrough.svgtree import short

FACTS: dict[str, Callable[[Any], dict[str, Any]]] = {}


class FactError(ValueError):
    """A fixture, or an exercise's numbers in the outline, no longer fit the sentence written around them; ``what``
    says what the sentence claims."""

    def __init__(self, what: str) -> None:
        super().__init__(f"handout facts: {what}")
        self.what = what


def fact(name: str):
    """Register a fact set under ``name``."""
    def register(function):
        FACTS[name] = function
        return function
    return register


def compute(name: str, builder) -> dict[str, Any]:
    """The values of the fact set ``name`` in ``builder``'s language."""
    return FACTS[name](builder)


def check(condition: bool, what: str) -> None:
    """Stop the build with :class:`FactError` unless ``condition``: ``what`` says what the words claim."""
    if not condition:
        raise FactError(what)


def join(builder, items: list[str]) -> str:
    """``a, b and c`` in the builder's language (Korean: ``a, b와 c``)."""
    items = [str(i) for i in items]
    if len(items) < 2:
        return "".join(items)
    return builder.w("list.and", a=", ".join(items[:-1]), b=items[-1])


def square(builder, index: int) -> str:
    """A tic-tac-toe square by name: ``upper-left corner``."""
    return builder.w(f"ttt.at.{index}")


def board(text: str) -> str:
    return "`" + "/".join(text[i:i + 3] for i in (0, 3, 6)) + "`"


def pruned_text(builder, names: list[str]) -> str:
    return ", ".join(names) if names else builder.w("ans.none")


#: Nilsson's estimate of the nodes in chess's complete game graph (seed 001, as a power of ten), the time he
#: supposes one node takes to generate, and the age of the universe (Planck 2018: 13.8 billion years)
CHESS_NODES_POWER, NODE_SECONDS, UNIVERSE_YEARS = 40, 1e-9 / 3, 13.8e9
CENTURY_SECONDS = 100 * 365.25 * 24 * 3600


def about(x: float) -> str:
    """``x`` to one significant digit as a power of ten, in the notes' markup: ``3 × 10^{30}``, ``10^{21}``."""
    power = math.floor(math.log10(x))
    digit = round(x / 10 ** power)
    if digit == 10:
        power, digit = power + 1, 1
    return f"10^{{{power}}}" if digit == 1 else f"{digit} × 10^{{{power}}}"


@fact("chess_graph")
def chess_graph(builder) -> dict[str, Any]:
    """How long generating chess's complete game graph would take: Nilsson's estimate of its size, worked out."""
    seconds = 10 ** CHESS_NODES_POWER * NODE_SECONDS
    return {"nodes": about(10 ** CHESS_NODES_POWER), "seconds": about(seconds),
            "centuries": about(seconds / CENTURY_SECONDS), "universe": about(UNIVERSE_YEARS / 100),
            "nilsson": "10^{22}"}


@functools.lru_cache(maxsize=None)
def first_move_values() -> tuple[float, ...]:
    """The value of each of X's first moves on the empty board under a complete search (the reference's alpha-beta
    from the board after the move, whose root value is exact), in ACTIONS order."""
    game = TicTacToe()
    return tuple(reference_trace(game, game.result(EMPTY, move), Algorithm.ALPHABETA, True).value
                 for move in game.actions(EMPTY))


@fact("first_moves")
def first_moves(builder) -> dict[str, Any]:
    """What a complete search says of the first moves: every one is worth the same (a draw)."""
    values = first_move_values()
    check(len(set(values)) == 1, "a complete search no longer values every first move of tic-tac-toe alike")
    return {"complete": fmt(values[0]), "first": len(values)}


@fact("aima_minimax")
def aima_minimax(builder) -> dict[str, Any]:
    tree = fixture("aima-fig-5-2").tree
    return {"formula": minimax_formula(tree, backed_up_values(tree))}


@fact("aima_alphabeta")
def aima_alphabeta(builder) -> dict[str, Any]:
    tree = fixture("aima-fig-5-2").tree
    trace = trace_of(tree, Algorithm.ALPHABETA)
    return {"nodes": trace.nodes, "evaluated": trace.leaves, "pruned": pruned_text(builder, trace.pruned(tree))}


@fact("gfg_tree")
def gfg_tree(builder) -> dict[str, Any]:
    tree = fixture("gfg-alpha-beta").tree
    trace = trace_of(tree, Algorithm.ALPHABETA)
    return {"value": fmt(trace.value), "pruned": pruned_text(builder, trace.pruned(tree))}


@fact("reordered")
def reordered(builder) -> dict[str, Any]:
    tree = fixture("aima-reordered").tree
    before_tree = fixture("aima-fig-5-2").tree
    trace, before = trace_of(tree, Algorithm.ALPHABETA), trace_of(before_tree, Algorithm.ALPHABETA)
    extra = [n for n in trace.pruned(tree) if n not in before.pruned(before_tree)]
    b, d = len(tree.children[tree.root]), max(tree.depths().values())
    check(trace.leaves == knuth_moore(b, d), "aima-reordered no longer reaches the Knuth-Moore minimum")
    first = tree.children["D"][0]
    return {"d_values": ", ".join(fmt(tree.utilities[c]) for c in tree.children["D"]), "nodes": trace.nodes,
            "first_value": fmt(tree.utilities[first]), "first_name": first,
            "before": before.nodes, "extra": join(builder, extra), "value": fmt(trace.value), "action": trace.action,
            "km": knuth_moore(b, d), "b": b, "d": d}


@fact("deepening")
def deepening(builder) -> dict[str, Any]:
    fx = fixture("ordering-deepening")
    tree = fx.tree
    plain = trace_of(tree, Algorithm.CUTOFF, depth=fx.depth)
    whole = trace_of(tree, Algorithm.ORDERING, depth=fx.depth)
    last = final_iteration(whole)
    shallow = {c: tree.heuristics[c] for c in tree.children[tree.root]}
    best = max(shallow, key=shallow.get)
    cuts = [f"{p['value']} {p['rel']} {p['alpha']}" for key, p in step_events(last, tree) if key.startswith("steps.cut_min")]
    return {"depth": fx.depth, "best": best, "plain": plain.leaves, "deep": last.leaves,
            "first": len(whole.evaluated) - last.leaves,
            "evals": ", ".join(f"{c} = {fmt(v)}" for c, v in shallow.items()), "best_value": fmt(last.value),
            "cuts": join(builder, cuts), "actions": ", ".join(tree.children[tree.root]),
            "plain_pruned": pruned_text(builder, plain.pruned(tree)),
            "deep_pruned": pruned_text(builder, last.pruned(tree))}


@fact("ordering_lab")
def ordering_lab(builder) -> dict[str, Any]:
    spec = next(b["ordering_plot"] for s in builder_outline()["handout"] for b in s.get("blocks", ())
                if "ordering_plot" in b)
    rows = lab_rows(spec["b"], spec["max_depth"], spec["seeds"])
    check(all(r.best == r.formulas[0] and r.worst == r.formulas[2] for r in rows),
          "best/worst ordering no longer meets the Knuth-Moore count / b^d")
    # the ratios from depth 2 (at depth 1 every ordering evaluates all b leaves), the slope from depth 3
    ratio_from, slope_from = 2, 3
    ratios = {r.d: r.random_mean / r.formulas[1] for r in rows if r.d >= ratio_from}
    by_depth = {r.d: r for r in rows}
    top = spec["max_depth"]
    slope = (by_depth[top].random_mean / by_depth[slope_from].random_mean) ** (1 / (top - slope_from))
    return {"b": spec["b"], "max_depth": top, "seeds": spec["seeds"], "ratio_low": f"{min(ratios.values()):.1f}",
            "ratio_from": ratio_from, "slope_from": slope_from,
            "ratio_high": f"{max(ratios.values()):.1f}", "ratio_last": f"{ratios[top]:.1f}",
            "slope": f"{slope:.2f}", "b34": f"{spec['b'] ** 0.75:.2f}"}


def builder_outline() -> dict:
    return outline()


@fact("ttt_features")
def ttt_features(builder) -> dict[str, Any]:
    through = {kind: sum(1 for line in LINES if i in line) for i, kind in ((4, "centre"), (0, "corner"), (1, "edge"))}
    check(nilsson_eval("." * 9) == 0, "e(p) of the empty board is not 0")
    return {"w_x": 1, "w_o": fmt(-1), "lines": len(LINES), **through}


@fact("chess_features")
def chess_features(builder) -> dict[str, Any]:
    fx = fixture("eval-material")
    tree = fx.tree
    values = backed_up_values(tree)
    shallow = trace_of(tree, Algorithm.CUTOFF, depth=fx.depth)
    full = trace_of(tree, Algorithm.MINIMAX)
    weights = ", ".join(f"{builder.w(f'feature.{name}')} {fmt(w)}" for name, w in fx.weights.items())
    return {"weights": weights, "moves": join(builder, list(tree.children[tree.root])),
            "shallow_action": shallow.action, "shallow_value": fmt(shallow.value),
            "shallow_action_min": fmt(values[shallow.action]), "action": full.action, "value": fmt(full.value)}


def replies_of(game, state):
    return [game.result(state, a) for a in game.actions(state)]


@fact("nilsson_stage_1")
def nilsson_stage_1(builder) -> dict[str, Any]:
    fx = fixture("nilsson-depth-2")
    game, root = fx.game(), fx.root
    moves = game.actions(root)
    after = [game.result(root, m) for m in moves]
    replies = [replies_of(game, a) for a in after]
    values = [min(nilsson_eval(b) for b in r) for r in replies]
    trace = game_trace("nilsson-depth-2", Algorithm.CUTOFF)
    evaluated = set(trace.evaluated)
    example = replies[0][0]
    kinds = [builder.w(f"ttt.{square_kind(m)}") for m in moves]
    # the first move whose replies alpha-beta did not all evaluate: where the cut happened
    cut = next(i for i, r in enumerate(replies) if not all(b in evaluated for b in r))
    best_before = max(values[:cut])
    unit = "" if builder.lang == "en" else "개"
    return {"depth": fx.depth, "example": board(example), "example_x": open_lines(example, "O"),
            "example_o": open_lines(example, "X"), "example_e": fmt(nilsson_eval(example)), "moves": len(moves),
            "kinds": ", ".join(kinds), "replies": join(builder, [f"{len(r)}{unit}" for r in replies]),
            "positions": sum(len(r) for r in replies), "ab": trace.leaves,
            "values": join(builder, [builder.w("ttt.value_of", value=fmt(v), kind=k) for v, k in zip(values, kinds)]),
            "choice": kinds[values.index(max(values))], "first_kind": kinds[values.index(best_before)],
            "alpha": fmt(best_before), "cut_kind": kinds[cut], "cut_value": fmt(nilsson_eval(replies[cut][0])),
            "cut_count": len(replies[cut]) - 1, **first_moves(builder)}


def winning_squares(board_: str, mark: str) -> list[int]:
    """Squares where ``mark`` would complete a line at once on ``board_``."""
    return [i for i in range(9) if board_[i] == "." and winner(board_[:i] + mark + board_[i + 1:]) == mark]


@fact("nilsson_stage_2")
def nilsson_stage_2(builder) -> dict[str, Any]:
    fx, last = fixture("nilsson-stage-2"), fixture("nilsson-stage-3")
    game, root = fx.game(), fx.root
    values = {m: min(nilsson_eval(b) for b in replies_of(game, game.result(root, m))) for m in game.actions(root)}
    best = max(values.values())
    tied = [m for m, v in values.items() if v == best]
    trace = game_trace("nilsson-stage-2", Algorithm.CUTOFF)
    # Nilsson's move and O's answer are what the final search's position adds to this one
    x_move = next(i for i in range(9) if root[i] == "." and last.root[i] == "X")
    o_move = next(i for i in range(9) if root[i] == "." and last.root[i] == "O")
    check(x_move in tied and len(tied) >= 2, "Nilsson's second move is not one of several tied best moves")
    after = root[:x_move] + "X" + root[x_move + 1:]
    threat = winning_squares(after, "X")
    plain = TicTacToe()
    safe = [r for r in plain.actions(after)
            if not any(winner(plain.result(plain.result(after, r), x)) == "X"
                       for x in plain.actions(plain.result(after, r)))]
    check(safe == [o_move], "O's answer in Nilsson's game is not its only safe reply")
    o_first = next(i for i in range(9) if root[i] == "O")
    return {"o_square": square(builder, o_first), "position": board(root), "depth": fx.depth,
            "empty": root.count("."), "moves": len(values), "tied": join(builder, [square(builder, m) for m in tied]),
            "value": fmt(best), "nilsson": square(builder, x_move), "kit": square(builder, trace.action),
            "threat": join(builder, [square(builder, t) for t in threat]), "o_reply": square(builder, o_move)}


@fact("nilsson_stage_3")
def nilsson_stage_3(builder) -> dict[str, Any]:
    fx, before = fixture("nilsson-stage-3"), fixture("nilsson-stage-2")
    game, root = fx.game(), fx.root
    values = {m: min(nilsson_eval(b) for b in replies_of(game, game.result(root, m))) for m in game.actions(root)}
    trace = game_trace("nilsson-stage-3", Algorithm.CUTOFF)
    o_move = next(i for i in range(9) if before.root[i] == "." and root[i] == "O")
    threatened = [n for n, line in enumerate(LINES) if sorted(root[i] for i in line) == [".", "O", "O"]]
    losing = [m for m, v in values.items() if v == -math.inf]
    check(len(losing) == len(values) - 1, "the final search does not leave exactly one move")
    best = trace.action
    after = root[:best] + "X" + root[best + 1:]
    fork = winning_squares(after, "X")
    plain = TicTacToe()
    check(len(fork) >= 2 and all(winning_squares(plain.result(after, r), "X") for r in plain.actions(after)),
          "X's last move no longer wins against every reply")
    return {"o_square": square(builder, o_move), "position": board(root),
            "o_line": join(builder, [builder.w(f"ttt.line.{n}") for n in threatened]),
            "best": square(builder, best), "value": fmt(trace.value),
            "fork": join(builder, [square(builder, f) for f in fork]), "ab": trace.leaves,
            "positions": sum(len(replies_of(game, game.result(root, m))) for m in game.actions(root))}


@fact("ttt_program")
def ttt_program(builder) -> dict[str, Any]:
    fx = fixture("ttt-o-blocks")
    root = fx.root
    mm, ab = game_trace("ttt-o-blocks", Algorithm.MINIMAX), game_trace("ttt-o-blocks", Algorithm.ALPHABETA)
    check(mm.value == ab.value and mm.action == ab.action, "minimax and alpha-beta disagree on ttt-o-blocks")
    mover = "X" if fx.game().to_move(root) == MAX else "O"
    other = "O" if mover == "X" else "X"
    check(mm.action in winning_squares(root, other), "the move of ttt-o-blocks is not a block")
    outcome = {0: "draw", 1: "x", -1: "o"}[mm.value]
    return {"position": board(root), "mover": mover, "empty": root.count("."), "mm_nodes": f"{mm.nodes:,}",
            "mm_leaves": f"{mm.leaves:,}", "ab_nodes": f"{ab.nodes:,}", "ab_leaves": f"{ab.leaves:,}",
            "ratio": f"{mm.nodes / ab.nodes:.1f}", "value": fmt(mm.value),
            "outcome": builder.w(f"ttt.outcome.{outcome}"), "square": square(builder, mm.action)}


@fact("coding")
def coding(builder) -> dict[str, Any]:
    course = load_info(current_course().exercises / "info.yaml")
    out: dict[str, Any] = {"count": len(course.exercises)}
    for exercise in course.exercises:
        out[f"fn_{exercise.name}"] = ", ".join(f"`{f}`" for f in exercise.functions)
    return out


__all__ = ["FACTS", "FactError", "compute", "fact", "join", "square", "short"]
