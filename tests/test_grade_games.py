"""Grading the exercises beyond the trees: which fixtures each is tested on, what the child rebuilds, played games."""

from __future__ import annotations

import pytest

from abkit.game import Budgeted, SearchTooLong
from abkit.tictactoe import EMPTY, TicTacToe
from abkit.grader.runtest import game_from_request, search_params
from abkit.wire import tree_from_data, tree_to_data
from abkit.grader.grading import Grader
from abkit.play import play_games, problems
from abkit.reference import reference
from abkit.grader.rubric import load_rubric
from tests.helpers import course_under


@pytest.fixture(scope="module")
def grader():
    return Grader(load_rubric(), seed=3)


#: exercise -> fixture tests it must have (public and hidden), by id
SHARED = {
    "alphabeta": {"alphabeta/public/ttt-o-blocks", "alphabeta/hidden/ttt-corner-opening", "alphabeta/public/aima-fig-5-2"},
    "minimax": {"minimax/public/ttt-o-wins", "minimax/public/cutoff-horizon"},  # (it expects minimax too)
    "alphabeta_cutoff": {"alphabeta_cutoff/public/cutoff-horizon", "alphabeta_cutoff/public/nilsson-depth-2",
                         "alphabeta_cutoff/hidden/nilsson-depth-2-unmerged", "alphabeta_cutoff/hidden/cutoff-depth-1"},
    "expectimax": {"expectimax/public/expectimax-dice", "expectimax/hidden/expectimax-min-root"},
    "ordering": {"ordering/public/ordering-deepening", "ordering/public/ordering-deepening/ordered_actions",
                 "ordering/hidden/ordering-min-root", "ordering/hidden/ordering-min-root/ordered_actions"},
}
#: exercise -> fixture tests it must not have: another game, or one its search cannot run on
NOT_SHARED = {
    "alphabeta": {"alphabeta/hidden/ttt-empty-board"},  # 18,297 states: more than the child's budget
    "minimax": {"minimax/hidden/ttt-empty-board", "minimax/public/expectimax-dice"},
    "alphabeta_cutoff": {"alphabeta_cutoff/public/expectimax-dice", "alphabeta_cutoff/public/aima-fig-5-2"},
    "expectimax": {"expectimax/public/aima-fig-5-2"},
    "ordering": {"ordering/public/nilsson-depth-2"},
}


@pytest.mark.parametrize("exercise", sorted(SHARED))
def test_each_exercise_is_tested_on_the_fixtures_that_fit_it(grader, exercise):
    ids = {x.id for x in grader.shared[exercise]}
    assert SHARED[exercise] <= ids and not NOT_SHARED.get(exercise, set()) & ids


def test_a_board_position_is_graded_on_values_and_counts_and_a_tree_on_its_trace_too(grader):
    tests = {x.id: x for x in grader.shared["alphabeta"]}
    assert tests["alphabeta/hidden/ttt-corner-opening"].categories == ("values", "nodes")
    assert tests["alphabeta/public/aima-fig-5-2"].categories == ("values", "pruning", "nodes")
    expected = grader.plan.expected(tests["alphabeta/hidden/ttt-corner-opening"])
    assert (expected.nodes, expected.leaves, expected.action, expected.value) == (2338, 929, 4, 0)


def test_under_the_cs188_rule_bigger_positions_are_left_out_and_games_start_after_a_corner(tmp_path):
    with course_under("cs188", tmp_path / "course"):
        grader = Grader(load_rubric())
        ids = {x.id for x in grader.shared["alphabeta"]}
        games = next(x for x in grader.tests_for("zoe")["alphabeta"] if x.kind == "play")
    assert "alphabeta/hidden/ttt-corner-opening" not in ids and "alphabeta/public/ttt-o-blocks" in ids  # 15,993 states
    assert games.state == "X........" and games.categories == ("games",)


def test_each_student_gets_seeded_random_tests_of_every_exercise(grader):
    mine, again, other = grader.tests_for("ann"), grader.tests_for("ann"), grader.tests_for("bo")
    for exercise in ("alphabeta_cutoff", "expectimax", "ordering"):
        randoms = [x for x in mine[exercise] if x.source == "random"]
        assert randoms and randoms == [x for x in again[exercise] if x.source == "random"]
        assert [x.tree for x in randoms] != [x.tree for x in other[exercise] if x.source == "random"]
    chance = next(x for x in mine["expectimax"] if x.source == "random").tree
    assert chance.levels[1] == "CHANCE" and chance.probabilities
    assert all(x.depth == 2 and x.tree.heuristics for x in mine["alphabeta_cutoff"] if x.source == "random")


def test_the_child_rebuilds_heuristics_levels_probabilities_and_board_games(grader):
    for test in [*grader.shared["expectimax"], *grader.shared["alphabeta_cutoff"]]:
        if test.tree is not None:
            assert tree_from_data(tree_to_data(test.tree)) == test.tree
    request = {"game": "tictactoe-symmetric", "depth": 2}
    game = game_from_request(request)
    assert game.actions(EMPTY) == [0, 1, 4] and search_params(request, game)["eval_fn"]("....X....") == 4
    assert "heuristics" not in tree_to_data(grader.shared["alphabeta"][0].tree)  # a plain tree's request is unchanged


def first_empty(state):
    return state.index(".")


@pytest.mark.parametrize("choose, words", [
    (lambda state: reference("alphabeta").alpha_beta_search(TicTacToe(), state), None),
    (first_empty, "self_not_draw"),  # X: 0, 2, 4, 6 takes the diagonal against itself
    (lambda state: 9, "illegal"),
    (lambda state: float(state.index(".")), "illegal"),  # 4.0 is in range(9) but not a square: the student's fault
])
def test_played_games_are_judged_by_the_rules(choose, words):
    found = problems(play_games(choose, seed=5))
    assert [m.key.split(".")[1] for m in found][:1] == ([words] if words else [])


def test_a_budget_stops_a_search_that_does_not_prune():
    game = Budgeted(TicTacToe(), 100)
    with pytest.raises(SearchTooLong):
        reference("minimax").minimax_decision(game, EMPTY)
    assert game.to_move(EMPTY) == "MAX"  # everything else passes through


def _outcome(trace):
    return (trace.value, trace.action, trace.nodes, trace.leaves, None if trace.error is None else str(trace.error))


@pytest.mark.slow
@pytest.mark.parametrize("exercise", ["minimax", "alphabeta", "alphabeta_cutoff"])
def test_a_counted_search_reports_what_the_full_record_would(exercise):
    """The child counts a board game's search without a record per call (``counted_search``): for the reference
    and every named mistake, from positions and trees, value, action, counts and error are the full record's."""
    from abkit.algorithms import Algorithm
    from abkit.tictactoe import nilsson_eval
    from abkit.trace import CountedTrace, counted_search, traced_search
    from abkit.tree import TreeGame, from_nested
    from abkit.grader.runtest import GAME_BUDGET
    from abkit.grader.mistakes import for_exercise, mutant

    algorithm = Algorithm.of_exercise(exercise)
    modules = [reference(algorithm)] + [mutant(m.id) for m in for_exercise(exercise)]
    tree = TreeGame(from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]]))
    positions = [(TicTacToe(), "X...O...."), (TicTacToe(), "XO.X.O..."), (tree, tree.initial)]
    checked = 0
    for module in modules:
        for game, state in positions:
            def searched():
                return Budgeted(game, GAME_BUDGET) if isinstance(game, TicTacToe) else game

            def params():
                return {"depth": 2, "eval_fn": nilsson_eval if isinstance(game, TicTacToe) else game.evaluate} \
                    if algorithm == "cutoff" else {}
            full = CountedTrace.of(traced_search(module, searched(), state, algorithm, **params()))
            counted = counted_search(module, searched(), state, algorithm, **params())
            assert _outcome(counted) == _outcome(full), module.__name__
            assert not hasattr(module.max_value, "__wrapped__")  # the module's own functions are back
            checked += 1
    assert checked == 3 * len(modules) and len(modules) > 2
