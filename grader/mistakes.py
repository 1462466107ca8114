"""Named mistakes: common minimax, alpha-beta, cut-off, expectimax and ordering errors, each a small edit of the reference.

Each :class:`Mistake` is a mutant of ``solutions/<exercise>.py`` (textual edits
that must apply), with a name and an explanation in every language
(``mistake.<id>.name`` / ``mistake.<id>.why`` in the catalogue) and the line of
the pseudocode it breaks. When a student's traces equal a mutant's on every test
of an exercise, the feedback names the mistake (:class:`MistakeNamer`).
"""

from __future__ import annotations

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
)
BY_ID = {m.id: m for m in CATALOGUE}


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
    return BY_ID[mistake_id].line.replace("≥", words["ge"]).replace("≤", words["le"])


@per_course
def mutant(mistake_id: str, prune_on_equality: bool = True) -> ModuleType:
    """The mutant of ``mistake_id`` as a module, cutting off under the given rule (or the other, for ``flip_rule``)."""
    mistake = BY_ID[mistake_id]
    module = ModuleType(f"_abkit_mistake_{mistake_id}_{prune_on_equality}")
    exec(compile(mutant_source(mistake), f"<mistake {mistake_id}>", "exec"), module.__dict__)  # noqa: S102 - the kit's own code
    if hasattr(module, "PRUNE_ON_EQUALITY"):
        module.PRUNE_ON_EQUALITY = prune_on_equality != mistake.flip_rule
    return module


def for_exercise(exercise: str) -> list[Mistake]:
    """The mistakes of one exercise, in catalogue order."""
    return [m for m in CATALOGUE if m.exercise == exercise]


class MistakeNamer:
    """Names the catalogue's mistakes a student's exercise matches, under the course's cut-off ``rule``; a mutant's
    outcome on a shared test is computed once per namer."""

    def __init__(self, rule: bool) -> None:
        self.rule = rule
        self._signatures: dict[tuple[str, str], tuple] = {}

    def name(self, exercise: str, graded: list) -> list[str]:
        """The mistakes of ``exercise`` whose traces equal the student's on every graded test (a
        :class:`~abkit.grader.judgement.TestGrade`) that runs on a tree (played games and board positions are left out:
        see :attr:`~abkit.grader.testplan.Test.nameable`)."""
        tests = [tg for tg in graded if tg.test.nameable]
        if not tests or any(tg.signature is None for tg in tests):
            return []
        named = []
        for mistake in for_exercise(exercise):
            module = mutant(mistake.id, self.rule)
            if all(self._signature(mistake.id, module, tg.test) == tg.signature for tg in tests):
                named.append(mistake.id)
        return named

    def _signature(self, mistake_id: str, module: ModuleType, test) -> tuple:
        key = (mistake_id, test.id)
        if key not in self._signatures:
            try:
                value = signature(test.run_in_process(module))
            except Exception as error:  # noqa: BLE001 - a mutant's ordered_actions may raise, as a student's does
                value = ("error", type(error).__name__)
            if test.source == "random":
                return value
            self._signatures[key] = value
        return self._signatures[key]
