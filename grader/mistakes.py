"""Named mistakes: common minimax, alpha-beta, cut-off, expectimax and ordering errors, each a small edit of the reference.

Each :class:`Mistake` is a mutant of ``solutions/<exercise>.py`` (textual edits
that must apply), with a name and an explanation in every language
(``mistake.<id>.name`` / ``mistake.<id>.why`` in the catalogue) and the line of
the pseudocode it breaks. When a student's traces equal a mutant's on every test
of an exercise, the feedback names the mistake (:class:`MistakeNamer`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from types import ModuleType

from abkit.algorithms import Algorithm
from abkit.coursefolder import current_course, per_course
from abkit.judge import signature



@dataclass(frozen=True)
class Mistake:
    """One known mistake.

    id: its key in the catalogue (``mistake.<id>.name``); exercise: the file stem it applies to.
    edits: (old, new) replacements of the reference's text; every occurrence of ``old`` is replaced.
    line: the pseudocode line it breaks (code: the same in every language).
    flip_rule: the mutant cuts off under the other rule (strict instead of non-strict, or the reverse).
    """

    id: str
    exercise: str
    line: str
    edits: tuple[tuple[str, str], ...] = ()
    flip_rule: bool = False


MAX_CALL = "v = max(v, min_value(game, game.result(state, a), alpha, beta))"
MIN_CALL = "v = min(v, max_value(game, game.result(state, a), alpha, beta))"
MAX_CUT = "        if v > beta or (v == beta and PRUNE_ON_EQUALITY):\n            return v\n"
MIN_CUT = "        if v < alpha or (v == alpha and PRUNE_ON_EQUALITY):\n            return v\n"
ROOT_MAX = "v = min_value(game, game.result(state, a), alpha, beta)\n            if best_action"
ROOT_MIN = "v = max_value(game, game.result(state, a), alpha, beta)\n            if best_action"
END = "\n    # END SOLUTION\n\n\n"
LOOP = "for a in game.actions(state):"
MM_MAX = "v = max(v, min_value(game, game.result(state, a)))"
MM_MIN = "v = min(v, max_value(game, game.result(state, a)))"
CUT_ROOT_MAX = "v = min_value(game, game.result(state, a), alpha, beta, "
CUT_ROOT_MIN = "v = max_value(game, game.result(state, a), alpha, beta, "
CHANCE_SUM = "sum(game.probability(state, r) * expectiminimax(game, game.result(state, r)) for r in game.actions(state))"

#: the exercises the mistakes are of: their file stems (``solutions/<exercise>.py`` is what a mutant edits)
MINIMAX, ALPHABETA, CUTOFF = Algorithm.MINIMAX.exercise, Algorithm.ALPHABETA.exercise, Algorithm.CUTOFF.exercise
EXPECTIMAX, ORDERING = Algorithm.EXPECTIMAX.exercise, Algorithm.ORDERING.exercise

MAX_COND = "if v > beta or (v == beta and PRUNE_ON_EQUALITY):"
MIN_COND = "if v < alpha or (v == alpha and PRUNE_ON_EQUALITY):"
MAX_UPDATE = "        alpha = max(alpha, v)\n    return v"
MIN_UPDATE = "        beta = min(beta, v)\n    return v"
UTILITY = "return game.utility(state)"
EVAL = "return eval_fn(state)"
ROOT_MAX_TIE, ROOT_MIN_TIE = "if best_action is None or v > alpha:", "if best_action is None or v < beta:"
MM_MAX_TIE, MM_MIN_TIE = "if best_action is None or v > best_value:", "if best_action is None or v < best_value:"
V_MAX, V_MIN = f"v = -math.inf\n    {LOOP}", f"v = math.inf\n    {LOOP}"
CUT_CALL_WINDOW = "alpha, beta, depth - 1, eval_fn))"  # the calls of MAX-VALUE and MIN-VALUE (the root's end in one ")")
SEEN = ("import math\n", "import math\n\nSEEN = set()  # the states searched so far, never cleared\n")
#: MAX-VALUE's start, where a state kept between calls is consulted
MAX_START = "        return game.utility(state)\n    v = -math.inf\n"
LINE_CUT = "if v ≥ β then return v"
LINE_UPDATE = "α ← MAX(α, v)"
LINE_CALL = "v ← MAX(v, MIN-VALUE(RESULT(s, a), α, β))"
LINE_ROOT = "return the action a in ACTIONS(state) with value v"
LINE_V = "v ← −∞"
LINE_LOOP = "for each a in ACTIONS(state) do"
LINE_UTILITY = "if TERMINAL-TEST(state) then return UTILITY(state)"
LINE_MM_CALL = "v ← MAX(v, MIN-VALUE(RESULT(s, a)))"
LINE_CUTOFF = "if CUTOFF-TEST(state, depth) then return EVAL(state)"
LINE_CHANCE = "CHANCE-VALUE(s) = Σ P(r) · EXPECTIMINIMAX(RESULT(s, r))"
LINE_ID = "for d = 1, 2, ..., depth: remember each node's best action"
ORDER_KEY = "(-k[0] if maximizing else k[0], k[1])"

CATALOGUE: tuple[Mistake, ...] = (
    Mistake("equality_rule", ALPHABETA, "if v ≥ β then return v", flip_rule=True),
    Mistake("no_pass_down", ALPHABETA, "v ← MAX(v, MIN-VALUE(RESULT(s, a), α, β))", (
        (MAX_CALL, MAX_CALL.replace("alpha, beta)", "-math.inf, math.inf)")),
        (MIN_CALL, MIN_CALL.replace("alpha, beta)", "-math.inf, math.inf)")))),
    Mistake("root_no_pass", ALPHABETA, "ALPHA-BETA-SEARCH: α ← MAX(α, v) before the next action", (
        (ROOT_MAX, ROOT_MAX.replace("alpha, beta)", "-math.inf, math.inf)")),
        (ROOT_MIN, ROOT_MIN.replace("alpha, beta)", "-math.inf, math.inf)")))),
    Mistake("bound_swapped", ALPHABETA, "α ← MAX(α, v)", (
        ("        beta = min(beta, v)\n    return v", "        alpha = max(alpha, v)\n    return v"),  # MIN-VALUE first
        (f"        alpha = max(alpha, v)\n    return v{END}def min_value", f"        beta = min(beta, v)\n    return v{END}def min_value"))),
    Mistake("test_before_update", ALPHABETA, "if v ≥ β then return v", (
        (f"        {MAX_CALL}\n{MAX_CUT}",  # the child is searched, then the old v is tested
         f"        child = min_value(game, game.result(state, a), alpha, beta)\n{MAX_CUT}        v = max(v, child)\n"),
        (f"        {MIN_CALL}\n{MIN_CUT}",
         f"        child = max_value(game, game.result(state, a), alpha, beta)\n{MIN_CUT}        v = min(v, child)\n"))),
    Mistake("v_zero", ALPHABETA, "v ← −∞", (
        (f"v = -math.inf\n    {LOOP}", f"v = 0\n    {LOOP}"), (f"v = math.inf\n    {LOOP}", f"v = 0\n    {LOOP}"))),
    Mistake("reversed_children", ALPHABETA, "for each a in ACTIONS(state) do", (
        (LOOP, "for a in reversed(game.actions(state)):"),)),
    Mistake("cut_after_loop", ALPHABETA, "if v ≥ β then return v", ((MAX_CUT, ""), (MIN_CUT, ""))),
    Mistake("double_result", ALPHABETA, "v ← MAX(v, MIN-VALUE(RESULT(s, a), α, β))", (
        (f"{LOOP}\n        v = m", f"{LOOP}\n        game.result(state, a)\n        v = m"),)),
    Mistake("no_alternation", ALPHABETA, "v ← MAX(v, MIN-VALUE(RESULT(s, a), α, β))", (
        (MAX_CALL, MAX_CALL.replace("min_value", "max_value")), (MIN_CALL, MIN_CALL.replace("max_value", "min_value")))),
    Mistake("last_best", ALPHABETA, "return the action a in ACTIONS(state) with value v", (
        ("v > alpha:", "v >= alpha:"), ("v < beta:", "v <= beta:"))),
    Mistake("returns_value", ALPHABETA, "return the action a in ACTIONS(state) with value v", (
        ("    return best_action\n", '    return alpha if game.to_move(state) == "MAX" else beta\n'),)),
    Mistake("fail_hard", ALPHABETA, "if v ≥ β then return v", (
        (MAX_CUT, MAX_CUT.replace("return v", "return beta")), (MIN_CUT, MIN_CUT.replace("return v", "return alpha")))),
    Mistake("root_always_max", ALPHABETA, "ALPHA-BETA-SEARCH: PLAYER(state) decides MAX-VALUE or MIN-VALUE", (
        ('if game.to_move(state) == "MAX":', "if True:"),)),
    Mistake("swapped_window", ALPHABETA, "v ← MAX(v, MIN-VALUE(RESULT(s, a), α, β))", (
        (MAX_CALL, MAX_CALL.replace("alpha, beta)", "beta, alpha)")),
        (MIN_CALL, MIN_CALL.replace("alpha, beta)", "beta, alpha)")))),
    Mistake("minimax_v_zero", MINIMAX, "v ← −∞", (
        (f"v = -math.inf\n    {LOOP}", f"v = 0\n    {LOOP}"), (f"v = math.inf\n    {LOOP}", f"v = 0\n    {LOOP}"))),
    Mistake("minimax_last_best", MINIMAX, "return the action a in ACTIONS(state) with value v", (
        ("v > best_value:", "v >= best_value:"), ("v < best_value:", "v <= best_value:"))),
    Mistake("minimax_no_alternation", MINIMAX, "v ← MAX(v, MIN-VALUE(RESULT(s, a)))", (
        (MM_MAX, MM_MAX.replace("min_value", "max_value")), (MM_MIN, MM_MIN.replace("max_value", "min_value")))),
    Mistake("minimax_root_always_max", MINIMAX, "MINIMAX-DECISION: PLAYER(state) decides MAX-VALUE or MIN-VALUE", (
        ('if game.to_move(state) == "MAX":', "if True:"),)),
    Mistake("minimax_reversed", MINIMAX, "for each a in ACTIONS(state) do", (
        (LOOP, "for a in reversed(game.actions(state)):"),)),
    Mistake("minimax_returns_value", MINIMAX, "return the action a in ACTIONS(state) with value v", (
        ("    return best_action\n", "    return best_value\n"),)),
    Mistake("cutoff_no_decrement", CUTOFF, "v ← MAX(v, MIN-VALUE(RESULT(s, a), α, β, depth − 1))", (
        ("alpha, beta, depth - 1, eval_fn)", "alpha, beta, depth, eval_fn)"),)),
    Mistake("cutoff_off_by_one", CUTOFF, "ALPHA-BETA-CUTOFF-SEARCH: each child of the root with depth − 1", (
        (f"{CUT_ROOT_MAX}depth - 1", f"{CUT_ROOT_MAX}depth"), (f"{CUT_ROOT_MIN}depth - 1", f"{CUT_ROOT_MIN}depth"))),
    Mistake("cutoff_utility", CUTOFF, "if CUTOFF-TEST(state, depth) then return EVAL(state)", (
        ("        return eval_fn(state)\n", "        return game.utility(state)\n"),)),
    Mistake("expectimax_plain_average", EXPECTIMAX, "CHANCE-VALUE(s) = Σ P(r) · EXPECTIMINIMAX(RESULT(s, r))", (
        (CHANCE_SUM, "sum(expectiminimax(game, game.result(state, r)) for r in game.actions(state)) "
                     "/ len(game.actions(state))"),)),
    Mistake("expectimax_chance_as_max", EXPECTIMAX, "CHANCE-VALUE(s) = Σ P(r) · EXPECTIMINIMAX(RESULT(s, r))", (
        (CHANCE_SUM, "max(expectiminimax(game, game.result(state, r)) for r in game.actions(state))"),)),
    Mistake("expectimax_chance_as_min", EXPECTIMAX, "CHANCE-VALUE(s) = Σ P(r) · EXPECTIMINIMAX(RESULT(s, r))", (
        (CHANCE_SUM, "min(expectiminimax(game, game.result(state, r)) for r in game.actions(state))"),)),
    Mistake("ordering_min_reversed", ORDERING, "ORDERED-ACTIONS: lowest EVAL first at a MIN node", (
        ("(-k[0] if maximizing else k[0], k[1])", "(-k[0], k[1])"),)),
    Mistake("ordering_no_best_first", ORDERING, "for each a in ACTIONS(state), the remembered best action first, do", (
        ("    if best in actions:\n        actions.remove(best)\n        actions.insert(0, best)\n", ""),)),
    Mistake("bound_assigned", ALPHABETA, LINE_UPDATE, (
        (MAX_UPDATE, "        alpha = v\n    return v"), (MIN_UPDATE, "        beta = v\n    return v"))),
    Mistake("truncated", ALPHABETA, LINE_UTILITY, ((UTILITY, "return int(game.utility(state))"),)),
    Mistake("root_zero_none", ALPHABETA, LINE_ROOT, (
        (ROOT_MAX_TIE, "if not alpha or v > alpha:"), (ROOT_MIN_TIE, "if not beta or v < beta:"))),
    Mistake("minimax_last_best_min", MINIMAX, LINE_ROOT, (("v < best_value:", "v <= best_value:"),)),
)
BY_ID = {m.id: m for m in CATALOGUE}

#: slips the adequacy analysis (:mod:`abkit.authoring.adequacy`) mutates the references with besides the
#: catalogue: real slips a course's tests must tell apart, not named in feedback (no words in the catalogue).
#: Some are equivalent to the reference by design (a loose comparison under the rule that is loose anyway, a
#: ``break`` for a ``return``): the analysis finds them equivalent and says so.
SLIPS: tuple[Mistake, ...] = (
    Mistake("alpha_assigned", ALPHABETA, LINE_UPDATE, ((MAX_UPDATE, "        alpha = v\n    return v"),)),
    Mistake("beta_assigned", ALPHABETA, LINE_UPDATE, ((MIN_UPDATE, "        beta = v\n    return v"),)),
    Mistake("max_cut_strict", ALPHABETA, LINE_CUT, ((MAX_COND, "if v > beta:"),)),
    Mistake("max_cut_loose", ALPHABETA, LINE_CUT, ((MAX_COND, "if v >= beta:"),)),
    Mistake("min_cut_strict", ALPHABETA, LINE_CUT, ((MIN_COND, "if v < alpha:"),)),
    Mistake("min_cut_loose", ALPHABETA, LINE_CUT, ((MIN_COND, "if v <= alpha:"),)),
    Mistake("max_cut_flipped", ALPHABETA, LINE_CUT, ((MAX_COND, MAX_COND.replace("v > beta", "v < beta")),)),
    Mistake("min_cut_flipped", ALPHABETA, LINE_CUT, ((MIN_COND, MIN_COND.replace("v < alpha", "v > alpha")),)),
    Mistake("max_min_swapped", ALPHABETA, LINE_CALL, (
        (MAX_CALL, MAX_CALL.replace("v = max(", "v = min(")), (MIN_CALL, MIN_CALL.replace("v = min(", "v = max(")))),
    Mistake("bound_max_min_swapped", ALPHABETA, LINE_UPDATE, (
        (MAX_UPDATE, MAX_UPDATE.replace("max(", "min(")), (MIN_UPDATE, MIN_UPDATE.replace("min(", "max(")))),
    Mistake("update_before_test", ALPHABETA, LINE_CUT, (
        (f"{MAX_CUT}        alpha = max(alpha, v)\n", f"        alpha = max(alpha, v)\n{MAX_CUT}"),
        (f"{MIN_CUT}        beta = min(beta, v)\n", f"        beta = min(beta, v)\n{MIN_CUT}"))),
    Mistake("cut_break", ALPHABETA, LINE_CUT, (
        (MAX_CUT, MAX_CUT.replace("return v", "break")), (MIN_CUT, MIN_CUT.replace("return v", "break")))),
    Mistake("v_at_bound", ALPHABETA, LINE_V, ((V_MAX, f"v = alpha\n    {LOOP}"), (V_MIN, f"v = beta\n    {LOOP}"))),
    Mistake("max_v_zero", ALPHABETA, LINE_V, ((V_MAX, f"v = 0\n    {LOOP}"),)),
    Mistake("root_last_best_max", ALPHABETA, LINE_ROOT, (("v > alpha:", "v >= alpha:"),)),
    Mistake("root_last_best_min", ALPHABETA, LINE_ROOT, (("v < beta:", "v <= beta:"),)),
    Mistake("skip_last_child", ALPHABETA, LINE_LOOP, ((LOOP, "for a in game.actions(state)[:-1]:"),)),
    Mistake("max_no_pass_down", ALPHABETA, LINE_CALL, (
        (MAX_CALL, MAX_CALL.replace("alpha, beta)", "-math.inf, math.inf)")),)),
    Mistake("max_swapped_window", ALPHABETA, LINE_CALL, ((MAX_CALL, MAX_CALL.replace("alpha, beta)", "beta, alpha)")),)),
    Mistake("max_fail_hard", ALPHABETA, LINE_CUT, ((MAX_CUT, MAX_CUT.replace("return v", "return beta")),)),
    Mistake("seen_kept", ALPHABETA, LINE_LOOP, (
        SEEN, (MAX_START, MAX_START.replace("    v = -math.inf\n",
                                            "    if state in SEEN:\n        return -math.inf\n"
                                            "    SEEN.add(state)\n    v = -math.inf\n")))),
    Mistake("minimax_max_as_min", MINIMAX, LINE_MM_CALL, ((MM_MAX, MM_MAX.replace("v = max(", "v = min(")),)),
    Mistake("minimax_min_as_max", MINIMAX, LINE_MM_CALL, ((MM_MIN, MM_MIN.replace("v = min(", "v = max(")),)),
    Mistake("minimax_root_flipped", MINIMAX, LINE_ROOT, (("v > best_value:", "v < best_value:"),)),
    Mistake("minimax_last_best_max", MINIMAX, LINE_ROOT, (("v > best_value:", "v >= best_value:"),)),
    Mistake("minimax_truncated", MINIMAX, LINE_UTILITY, ((UTILITY, "return int(game.utility(state))"),)),
    Mistake("minimax_root_zero_none", MINIMAX, LINE_ROOT, (
        (MM_MAX_TIE, "if not best_value or v > best_value:"), (MM_MIN_TIE, "if not best_value or v < best_value:"))),
    Mistake("minimax_skip_last", MINIMAX, LINE_LOOP, ((LOOP, "for a in game.actions(state)[:-1]:"),)),
    Mistake("minimax_max_v_zero", MINIMAX, LINE_V, ((V_MAX, f"v = 0\n    {LOOP}"),)),
    Mistake("minimax_seen_kept", MINIMAX, LINE_LOOP, (
        SEEN, (MAX_START, MAX_START.replace("    v = -math.inf\n",
                                            "    if state in SEEN:\n        return -math.inf\n"
                                            "    SEEN.add(state)\n    v = -math.inf\n")))),
    Mistake("cutoff_depth_one", CUTOFF, LINE_CUTOFF, (("return depth == 0 or", "return depth <= 1 or"),)),
    Mistake("cutoff_depth_negative", CUTOFF, LINE_CUTOFF, (("return depth == 0 or", "return depth <= 0 or"),)),
    Mistake("cutoff_bound_assigned", CUTOFF, LINE_UPDATE, (
        (MAX_UPDATE, "        alpha = v\n    return v"), (MIN_UPDATE, "        beta = v\n    return v"))),
    Mistake("cutoff_cut_strict", CUTOFF, LINE_CUT, ((MAX_COND, "if v > beta:"), (MIN_COND, "if v < alpha:"))),
    Mistake("cutoff_cut_loose", CUTOFF, LINE_CUT, ((MAX_COND, "if v >= beta:"), (MIN_COND, "if v <= alpha:"))),
    Mistake("cutoff_last_best", CUTOFF, LINE_ROOT, (("v > alpha:", "v >= alpha:"), ("v < beta:", "v <= beta:"))),
    Mistake("cutoff_truncated", CUTOFF, LINE_CUTOFF, ((EVAL, "return int(eval_fn(state))"),)),
    Mistake("cutoff_no_pass_down", CUTOFF, LINE_CALL, ((CUT_CALL_WINDOW, "-math.inf, math.inf, depth - 1, eval_fn))"),)),
    Mistake("cutoff_v_zero", CUTOFF, LINE_V, ((V_MAX, f"v = 0\n    {LOOP}"), (V_MIN, f"v = 0\n    {LOOP}"))),
    Mistake("cutoff_reversed", CUTOFF, LINE_LOOP, ((LOOP, "for a in reversed(game.actions(state)):"),)),
    Mistake("cutoff_root_zero_none", CUTOFF, LINE_ROOT, (
        (ROOT_MAX_TIE, "if not alpha or v > alpha:"), (ROOT_MIN_TIE, "if not beta or v < beta:"))),
    Mistake("expectimax_max_as_min", EXPECTIMAX, LINE_MM_CALL, (("return max(expectiminimax", "return min(expectiminimax"),)),
    Mistake("expectimax_min_as_max", EXPECTIMAX, LINE_MM_CALL, (("return min(expectiminimax", "return max(expectiminimax"),)),
    Mistake("expectimax_last_best", EXPECTIMAX, LINE_ROOT, (
        ("v > best_value if maximizing else v < best_value", "v >= best_value if maximizing else v <= best_value"),)),
    Mistake("expectimax_last_best_min", EXPECTIMAX, LINE_ROOT, (("else v < best_value)", "else v <= best_value)"),)),
    Mistake("expectimax_root_always_max", EXPECTIMAX, LINE_ROOT, (
        ('maximizing = game.to_move(state) == "MAX"', "maximizing = True"),)),
    Mistake("expectimax_truncated", EXPECTIMAX, LINE_UTILITY, ((UTILITY, "return int(game.utility(state))"),)),
    Mistake("expectimax_root_zero_none", EXPECTIMAX, LINE_ROOT, (("if best_action is None or (", "if not best_value or ("),)),
    Mistake("expectimax_skip_last", EXPECTIMAX, LINE_LOOP, (
        ("for a in game.actions(state))", "for a in game.actions(state)[:-1] or game.actions(state))"),)),
    Mistake("expectimax_chance_skip_last", EXPECTIMAX, LINE_CHANCE, (
        ("for r in game.actions(state))", "for r in game.actions(state)[:-1])"),)),
    Mistake("ordering_max_reversed", ORDERING, "ORDERED-ACTIONS: highest EVAL first at a MAX node", (
        (ORDER_KEY, "(k[0], k[1])"),)),
    Mistake("ordering_ties_reversed", ORDERING, "ORDERED-ACTIONS: equal keys keep the order of ACTIONS", (
        (ORDER_KEY, "(-k[0] if maximizing else k[0], -k[1])"),)),
    Mistake("ordering_eval_of_state", ORDERING, "ORDERED-ACTIONS: the key of a is EVAL(RESULT(state, a))", (
        ("eval_fn(game.result(state, a))", "eval_fn(state)"),)),
    Mistake("ordering_best_last_max", ORDERING, LINE_ID, (("if child > v:", "if child >= v:"),)),
    Mistake("ordering_best_last_min", ORDERING, LINE_ID, (("if child < v:", "if child <= v:"),)),
    Mistake("ordering_one_short", ORDERING, LINE_ID, (("range(1, depth + 1)", "range(1, depth)"),)),
    Mistake("ordering_no_deepening", ORDERING, LINE_ID, (("range(1, depth + 1)", "range(depth, depth + 1)"),)),
    Mistake("ordering_forgets", ORDERING, LINE_ID, (
        ("    best_moves = {}\n    for d in range(1, depth + 1):\n",
         "    for d in range(1, depth + 1):\n        best_moves = {}\n"),)),
    Mistake("ordering_bound_assigned", ORDERING, LINE_UPDATE, (
        (MAX_UPDATE, "        alpha = v\n    return v"), (MIN_UPDATE, "        beta = v\n    return v"))),
    Mistake("ordering_cut_strict", ORDERING, LINE_CUT, ((MAX_COND, "if v > beta:"), (MIN_COND, "if v < alpha:"))),
    Mistake("ordering_first_action", ORDERING, LINE_ID, (
        ("return best_moves[state] if state in best_moves else game.actions(state)[0]", "return game.actions(state)[0]"),)),
)
#: every mutant the adequacy analysis runs: the catalogue's, then the slips'
MUTANTS: tuple[Mistake, ...] = CATALOGUE + SLIPS
ANY_ID = {m.id: m for m in MUTANTS}


#: the ``source:`` of a tree ``abkit fixtures adequacy --add`` wrote (:func:`told_slip` reads the slip back)
TELLS = "abkit fixtures adequacy --add: the smallest tree found that tells {mistake} apart"
_TELLS = re.compile(re.escape(TELLS).replace(re.escape("{mistake}"), r"(?P<mistake>\w+)"))


def told_slip(source: str) -> str | None:
    """The mutant a fixture's tree was added to tell apart, from its ``source:`` (:data:`TELLS`, also where the
    recipe of a tree drawn again quotes it), else None."""
    found = _TELLS.search(source or "")
    return found.group("mistake") if found and found.group("mistake") in ANY_ID else None


def slip_name(mistake: Mistake) -> str:
    """The slip a mutant makes, whatever the exercise: its id without the exercise's prefix (``cutoff_last_best``
    and ``expectimax_last_best`` make the slip ``last_best`` of alpha-beta)."""
    prefix = mistake.exercise.split("_")[-1] + "_"
    return mistake.id[len(prefix):] if mistake.id.startswith(prefix) else mistake.id


def same_slip(mistake_id: str | None) -> list[Mistake]:
    """The mutants of every exercise that make the slip of ``mistake_id`` (:func:`slip_name`); none for None."""
    if mistake_id is None:
        return []
    name = slip_name(ANY_ID[mistake_id])
    return [m for m in MUTANTS if slip_name(m) == name]


def run_signature(test, module: ModuleType) -> tuple:
    """The observables (:func:`abkit.judge.signature`) of ``module`` (a mutant or a reference, the kit's own code)
    run in-process on ``test``; where it raises (a mutant's ``ordered_actions`` may, as a student's does), its
    exception's type."""
    try:
        return signature(test.run_in_process(module))
    except Exception as error:  # noqa: BLE001 - see the docstring
        return ("error", type(error).__name__)


class MistakeEditError(ValueError):
    """An edit of a mistake no longer applies to the reference solution (the solution changed)."""


def mutant_source(mistake: Mistake) -> str:
    """The reference's text with the mistake's edits; :class:`MistakeEditError` if one does not apply."""
    source = (current_course().solutions / f"{mistake.exercise}.py").read_text(encoding="utf-8")
    for old, new in mistake.edits:
        if old not in source:
            raise MistakeEditError(f"{mistake.id}: {old!r} is not in {mistake.exercise}.py")
        source = source.replace(old, new)
    return source


def rule_words(rule: str | None = None) -> dict[str, str]:
    """The comparisons of the cut-off rule (default: the course's), for the messages that state it: ``ge`` (MAX
    cuts when ``v ge β``) and ``le`` (MIN cuts when ``v le α``)."""
    if rule is None:
        from abkit.coursefolder import current_course

        rule = current_course().rule
    return {"ge": "≥", "le": "≤"} if rule == "aima" else {"ge": ">", "le": "<"}


def pseudocode_line(mistake_id: str, rule: str | None = None) -> str:
    """The pseudocode line a mistake points at, with the cut-off rule's comparisons (default: the course's)."""
    words = rule_words(rule)
    return ANY_ID[mistake_id].line.replace("≥", words["ge"]).replace("≤", words["le"])


@per_course
def mutant(mistake_id: str, prune_on_equality: bool = True) -> ModuleType:
    """The mutant of ``mistake_id`` (a catalogue mistake or a slip) as a module, cutting off under the given rule (or
    the other, for ``flip_rule``); one module per course, mistake and rule, kept (a slip that keeps state between
    calls keeps it across everything run on the module: :func:`fresh_mutant` gives a new one)."""
    return fresh_mutant(mistake_id, prune_on_equality)


def fresh_mutant(mistake_id: str, prune_on_equality: bool = True) -> ModuleType:
    """A new module of the mutant of ``mistake_id`` (as :func:`mutant`, not kept)."""
    mistake = ANY_ID[mistake_id]
    module = ModuleType(f"_abkit_mistake_{mistake_id}_{prune_on_equality}")
    exec(compile(mutant_source(mistake), f"<mistake {mistake_id}>", "exec"), module.__dict__)  # noqa: S102 - the kit's own code
    if hasattr(module, "PRUNE_ON_EQUALITY"):
        module.PRUNE_ON_EQUALITY = prune_on_equality != mistake.flip_rule
    return module


def for_exercise(exercise: str) -> list[Mistake]:
    """The mistakes of one exercise, in catalogue order."""
    return [m for m in CATALOGUE if m.exercise == exercise]


def mutants_of(exercise: str) -> list[Mistake]:
    """Every mutant of one exercise: its catalogue mistakes, then its slips."""
    return [m for m in MUTANTS if m.exercise == exercise]


class MistakeNamer:
    """Names the catalogue's mistakes a student's exercise matches, under the course's cut-off ``rule``; a mutant's
    outcome on a shared test is computed once per namer."""

    def __init__(self, rule: bool) -> None:
        self.rule = rule
        self._signatures: dict[tuple[str, str], tuple] = {}

    def name(self, exercise: str, graded: list) -> list[str]:
        """The mistakes of ``exercise`` whose traces equal the student's on every graded test (a
        :class:`~abkit.grader.judgement.TestGrade`) that runs on a tree (played games and board positions are left out:
        see :attr:`~abkit.grader.testplan.Test.nameable`). A mistake whose edits the course's own solution no longer
        takes is never named."""
        tests = [tg for tg in graded if tg.test.nameable]
        if not tests or any(tg.signature is None for tg in tests):
            return []
        named = []
        for mistake in for_exercise(exercise):
            try:
                module = mutant(mistake.id, self.rule)
            except MistakeEditError:  # the course rewrote its solution: this mistake cannot be told
                continue
            if all(self._signature(mistake.id, module, tg.test) == tg.signature for tg in tests):
                named.append(mistake.id)
        return named

    def _signature(self, mistake_id: str, module: ModuleType, test) -> tuple:
        key = (mistake_id, test.id)
        if key not in self._signatures:
            value = run_signature(test, module)
            if test.source == "random":
                return value
            self._signatures[key] = value
        return self._signatures[key]
