"""What a trace records and what is judged: the game's log, the root valued by its own MAX-VALUE/MIN-VALUE, and
wrappers that only ever enrich (any call signature, never the thing that raises)."""

from __future__ import annotations

import math
import types

import pytest

from abkit.fixture import load_fixture
from abkit.loading import PUBLIC_FIXTURES, SOLUTIONS, load_module
from abkit.tictactoe import TicTacToe
from abkit.trace import Call, Trace, counted_search, root_value, traced_call, traced_search
from abkit.tree import TreeGame
from abkit.judge import passes, signature

FIG = load_fixture(PUBLIC_FIXTURES / "aima-fig-5-2.yaml")  # A: B(3 12 8) C(2 4 6) D(14 5 2); value 3, action B
MIN_ROOT = load_fixture(PUBLIC_FIXTURES / "min-root.yaml")


def module(source: str) -> types.ModuleType:
    """A module made from ``source`` (a student's file in a few lines)."""
    mod = types.ModuleType("student")
    exec(compile(source, "<student>", "exec"), mod.__dict__)  # noqa: S102 - the test's own code
    return mod


def reference(name: str) -> types.ModuleType:
    return load_module(SOLUTIONS / f"{name}.py")


def expected(algorithm: str, fixture=FIG) -> Trace:
    return traced_search(reference(algorithm), TreeGame(fixture.tree), fixture.root, algorithm)


KEYWORD_CALLS = '''
import math
def alpha_beta_search(game, state):
    best, alpha = None, -math.inf
    for a in game.actions(state):
        v = min_value(game, game.result(state, a), alpha=alpha, beta=math.inf)
        if best is None or v > alpha:
            alpha, best = v, a
    return best
def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state)
    v = -math.inf
    for a in game.actions(state):
        v = max(v, min_value(game, state=game.result(state, a), alpha=alpha, beta=beta))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v
def min_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state)
    v = math.inf
    for a in game.actions(state):
        v = min(v, max_value(game, game.result(state, a), beta=beta, alpha=alpha))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
'''

#: a correct alpha-beta whose recursion never touches the module's max_value/min_value
PRIVATE_HELPERS = '''
import math
def alpha_beta_search(game, state):
    if game.terminal_test(state):
        return None
    best, alpha, beta = None, -math.inf, math.inf
    for a in game.actions(state):
        if game.to_move(state) == "MAX":
            v = _min(game, game.result(state, a), alpha, beta)
            if best is None or v > alpha:
                alpha, best = v, a
        else:
            v = _max(game, game.result(state, a), alpha, beta)
            if best is None or v < beta:
                beta, best = v, a
    return best
def _max(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state)
    v = -math.inf
    for a in game.actions(state):
        v = max(v, _min(game, game.result(state, a), alpha, beta))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v
def _min(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state)
    v = math.inf
    for a in game.actions(state):
        v = min(v, _max(game, game.result(state, a), alpha, beta))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
max_value, min_value = _max, _min
'''

#: AIMA 3e MINIMAX-DECISION: argmax over the root's actions of MIN-VALUE(RESULT(s, a)); MAX-VALUE(root) never called
ARGMAX = '''
def minimax_decision(game, state):
    if game.terminal_test(state):
        return None
    if game.to_move(state) == "MAX":
        return max(game.actions(state), key=lambda a: min_value(game, game.result(state, a)))
    return min(game.actions(state), key=lambda a: max_value(game, game.result(state, a)))
def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state)
    return max(min_value(game, game.result(state, a)) for a in game.actions(state))
def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state)
    return min(max_value(game, game.result(state, a)) for a in game.actions(state))
'''

#: negamax: one core on values from the mover's side; max_value/min_value are thin wrappers over it
NEGAMAX = '''
import math
def _sign(game, state):
    return 1 if game.to_move(state) == "MAX" else -1
def _nega(game, state, alpha, beta):
    if game.terminal_test(state):
        return _sign(game, state) * game.utility(state)
    v = -math.inf
    for a in game.actions(state):
        v = max(v, -_nega(game, game.result(state, a), -beta, -alpha))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v
def max_value(game, state, alpha, beta):
    return _nega(game, state, alpha, beta)
def min_value(game, state, alpha, beta):
    return -_nega(game, state, -beta, -alpha)
def alpha_beta_search(game, state):
    if game.terminal_test(state):
        return None
    best, s = None, _sign(game, state)
    alpha, beta = -math.inf, math.inf
    for a in game.actions(state):
        v = -_nega(game, game.result(state, a), -beta, -alpha)
        if best is None or v > alpha:
            alpha, best = v, a
    return best
'''

#: minimax without recursion: an explicit stack of frames, children generated one at a time in ACTIONS order
EXPLICIT_STACK = '''
def _value(game, root):
    stack = [[root, list(game.actions(root)), None]]
    result = None
    while stack:
        frame = stack[-1]
        state, todo, best = frame
        if result is not None:
            maximizing = game.to_move(state) == "MAX"
            frame[2] = result if best is None else (max(best, result) if maximizing else min(best, result))
            result = None
        if game.terminal_test(state):
            stack.pop()
            result = game.utility(state)
            continue
        if not frame[1]:
            stack.pop()
            result = frame[2]
            continue
        child = game.result(state, frame[1].pop(0))
        stack.append([child, [] if game.terminal_test(child) else list(game.actions(child)), None])
    return result
def max_value(game, state):
    return _value(game, state)
min_value = max_value
def minimax_decision(game, state):
    if game.terminal_test(state):
        return None
    maximizing = game.to_move(state) == "MAX"
    best, best_action = None, None
    for a in game.actions(state):
        v = _value(game, game.result(state, a))
        if best is None or (v > best if maximizing else v < best):
            best, best_action = v, a
    return best_action
'''


def test_a_keyword_call_is_recorded_with_its_window_and_never_raises():
    trace = traced_search(module(KEYWORD_CALLS), TreeGame(FIG.tree), FIG.root, "alphabeta")
    want = expected("alphabeta")
    assert trace.error is None and (trace.value, trace.action) == (3, "B")
    assert trace.visited == want.visited and trace.evaluated == want.evaluated
    assert trace.windows_complete()
    c = next(call for call in trace.calls if call.node == "C")
    assert (c.alpha, c.beta, c.value) == (3, math.inf, 2)


def test_a_wrapper_passes_odd_arguments_through_unrecorded():
    seen = []
    odd = module("def max_value(*args, **kwargs):\n    seen.append((args, kwargs))\n    return 5\n"
                 "min_value = max_value\n"
                 "def alpha_beta_search(game, state):\n"
                 "    max_value()\n    max_value(game)\n    max_value(game=game, state=[1])\n"
                 "    max_value(game, state, alpha=1)\n    return 'B'\n")
    odd.seen = seen
    trace = traced_search(odd, TreeGame(FIG.tree), FIG.root, "alphabeta")
    assert trace.error is None and trace.action == "B" and trace.value == 5
    assert seen[:4] == [((), {}), ((odd_game := seen[1][0][0],), {}), ((), {"game": odd_game, "state": [1]}),
                        ((odd_game, "A"), {"alpha": 1})]
    recorded = [c for c in trace.calls if not c.synthetic]
    assert recorded == []  # an unhashable state is no node, and a window without its β is not one read


def test_the_root_value_is_the_modules_own_call_not_the_searchs():
    # the search returns the right action, but MAX-VALUE(root) says 42: the value is what the grader's call returned
    liar = module("def alpha_beta_search(game, state):\n    return 'B'\n"
                  "def max_value(game, state, alpha, beta):\n    return 42\nmin_value = max_value\n")
    trace = traced_search(liar, TreeGame(FIG.tree), FIG.root, "alphabeta")
    assert (trace.value, trace.action, trace.visited) == (42, "B", ["A"])
    assert trace.calls[0].synthetic and trace.calls[0].value == 42
    assert root_value(liar, TreeGame(FIG.tree), "A", "alphabeta") == 42
    counted = counted_search(liar, TicTacToe(), "X........", "alphabeta")
    assert (counted.value, counted.action, counted.nodes) == (42, "B", 1)


def test_a_root_value_that_raises_fails_the_values_only():
    missing = module(PRIVATE_HELPERS.replace("max_value, min_value = _max, _min", "min_value = _min"))
    trace = traced_search(missing, TreeGame(FIG.tree), FIG.root, "alphabeta")
    assert trace.error is None and trace.value is None and isinstance(trace.value_error, AttributeError)
    want = expected("alphabeta")
    assert not passes("values", trace, want) and passes("pruning", trace, want) and passes("nodes", trace, want)
    again = Trace.from_dict(trace.to_dict())
    assert again.value_error == "AttributeError: module 'student' has no attribute 'max_value'"
    assert signature(again) == signature(trace)


def test_a_terminal_root_is_valued_by_utility():
    terminal = load_fixture(PUBLIC_FIXTURES / "terminal-root.yaml")
    trace = traced_search(module(ARGMAX), TreeGame(terminal.tree), terminal.root, "minimax")
    assert trace.value == terminal.tree.utilities[terminal.root] and trace.action is None


@pytest.mark.parametrize("source,algorithm", [(PRIVATE_HELPERS, "alphabeta"), (ARGMAX, "minimax"),
                                              (NEGAMAX, "alphabeta"), (EXPLICIT_STACK, "minimax")],
                         ids=["private_helpers", "argmax", "negamax", "explicit_stack"])
@pytest.mark.parametrize("fixture", [FIG, MIN_ROOT], ids=["max-root", "min-root"])
def test_a_correct_search_in_any_style_passes_every_category(source, algorithm, fixture):
    trace = traced_search(module(source), TreeGame(fixture.tree), fixture.root, algorithm)
    want = expected(algorithm, fixture)
    assert trace.error is None and trace.value_error is None
    assert all(passes(c, trace, want) for c in ("values", "pruning", "nodes"))
    assert signature(trace) == signature(want)


def test_a_direct_calls_value_is_what_the_call_returned():
    mod = module(NEGAMAX)
    trace = traced_call(mod, TreeGame(FIG.tree), "C", "alphabeta", "min_value", (3, math.inf))
    assert (trace.value, trace.action, trace.visited, trace.evaluated) == (2, None, ["C", "C1"], ["C1"])
    raising = module("def min_value(game, state, alpha, beta):\n    raise ValueError('not yet')\n")
    trace = traced_call(raising, TreeGame(FIG.tree), "C", "alphabeta", "min_value", (3, math.inf))
    assert isinstance(trace.error, ValueError) and trace.value is None


def test_the_signature_ignores_the_recorded_calls():
    trace = expected("alphabeta")
    bare = Trace(trace.algorithm, trace.root, visited=list(trace.visited), evaluated=list(trace.evaluated),
                 action=trace.action, value=trace.value, calls=[Call("A", "MAX", synthetic=True)])
    assert signature(bare) == signature(trace)
    assert signature(Trace.from_dict({**bare.to_dict(), "value": 4})) != signature(trace)


def test_windows_are_complete_only_for_one_call_per_generated_node():
    assert expected("alphabeta").windows_complete() and expected("minimax").windows_complete()
    helpers = traced_search(module(PRIVATE_HELPERS), TreeGame(FIG.tree), FIG.root, "alphabeta")
    assert not helpers.windows_complete()  # only the root's synthetic call: no window was seen
    assert not Trace("alphabeta", "A", visited=["A"]).windows_complete()
    ordering = load_fixture(PUBLIC_FIXTURES / "ordering-deepening.yaml")
    deepening = traced_search(reference("ordering"), TreeGame(ordering.tree), ordering.root, "ordering",
                              **ordering.search_params("ordering", TreeGame(ordering.tree)))
    assert deepening.windows_complete()  # MAX-VALUE(root) once per iteration, then one call per generated node


def test_the_ordering_root_is_valued_with_a_fresh_memory_of_best_moves():
    ordering = load_fixture(PUBLIC_FIXTURES / "ordering-deepening.yaml")
    game = TreeGame(ordering.tree)
    trace = traced_search(reference("ordering"), game, ordering.root, "ordering",
                          **ordering.search_params("ordering", game))
    assert trace.value == ordering.expected["ordering"]["value"]


#: the search is right, but the module's own MAX-VALUE raises (the student left it for later)
NO_MAX_VALUE = PRIVATE_HELPERS.replace("max_value, min_value = _max, _min", "min_value = _min\n"
                                       "def max_value(game, state, alpha, beta):\n    raise ValueError('see _max')\n")


def test_grade_fails_only_the_values_when_the_roots_own_call_raises(tmp_path):
    from abkit.grader.batch import grade_batch
    from abkit.grader.rubric import load_rubric

    (tmp_path / "class" / "helpers").mkdir(parents=True)
    (tmp_path / "class" / "helpers" / "alphabeta.py").write_text(NO_MAX_VALUE, encoding="utf-8")
    rubric = tmp_path / "rubric.yaml"
    rubric.write_text("fixtures: [public]\nrandom_trees: {count: 0}\ndirect_tests: 0\n"
                      "exercises:\n  alphabeta: {values: 3, pruning: 4, nodes: 1}\n", encoding="utf-8")
    result = grade_batch(tmp_path / "class", tmp_path / "out", load_rubric(rubric), jobs=1)
    grade = result.rows[0]["extra_data"]["exercises"]["alphabeta"]
    assert grade["status"] == "ok" and grade["score"] < grade["max_score"]
    assert 4 + 1 <= grade["score"] < 8  # pruning and nodes in full; values on MIN roots only
    feedback = (tmp_path / "out" / "students" / "helpers" / "feedback.md").read_text(encoding="utf-8")
    assert "max_value(game, 'A', -∞, +∞), which is then called on the root to check its value, raised " \
           "ValueError" in feedback and "ValueError: see _max" in feedback
    assert "the value of the root is" not in feedback


def test_check_says_the_roots_own_call_raised(abkit, tmp_path):
    (tmp_path / "alphabeta.py").write_text(NO_MAX_VALUE, encoding="utf-8")
    run = abkit("check", "--verbose", "alphabeta", "--exercises", tmp_path, "--lang", "en")
    assert run.status == 1
    assert "First difference: your search ran, but max_value(game, 'A', -∞, +∞)" in run.out
    assert "ValueError: see _max" in run.out  # the traceback's last line
    assert "✓ MIN moves at the root (alphabeta/min-root)" in run.out
    run = abkit("check", "--verbose", "alphabeta", "--exercises", tmp_path, "--lang", "ko")
    assert "루트의 값을 확인하려고 호출한 max_value(game, 'A', -∞, +∞)에서 ValueError 예외가 발생했습니다" in run.out


def test_a_minimax_keyword_call_is_recorded_without_a_window():
    keywords = module(ARGMAX.replace("min_value(game, game.result(state, a))",
                                     "min_value(game=game, state=game.result(state, a))"))
    trace = traced_search(keywords, TreeGame(FIG.tree), FIG.root, "minimax")
    assert (trace.value, trace.action, trace.error) == (3, "B", None) and trace.windows_complete()
    assert next(c for c in trace.calls if c.node == "B").alpha is None


def test_utility_on_a_terminal_root_passes_and_counted_searches_compare_by_counts():
    terminal = load_fixture(PUBLIC_FIXTURES / "terminal-root.yaml")
    game = TreeGame(terminal.tree)
    want = traced_search(reference("alphabeta"), game, terminal.root, "alphabeta")
    asks = module("def alpha_beta_search(game, state):\n    game.utility(state)\n    return None\n"
                  "def max_value(game, state, alpha, beta):\n    return game.utility(state)\nmin_value = max_value\n")
    trace = traced_search(asks, game, terminal.root, "alphabeta")
    assert trace.evaluated == [terminal.root]
    assert all(passes(c, trace, want) for c in ("values", "pruning", "nodes"))
    board = counted_search(reference("alphabeta"), TicTacToe(), "XXOOO.X..", "alphabeta")
    assert signature(board) == ("counts", board.nodes, board.leaves, float(board.value), board.action, "", "")


def test_the_signature_takes_an_expectation_summed_in_any_order_as_one_value():
    """Python 3.12's compensated ``sum()`` and a loop of ``+=`` give one expectation in different last bits: a
    named mistake is matched on the signature, so it must not tell them apart; a real difference still shows."""
    terms = [0.1 * k for k in range(1, 11)] + [1e-3, 1 / 3]
    looped = 0.0
    for term in terms:
        looped += term
    precise = math.fsum(terms)
    assert looped != precise  # the two orders really differ here
    assert signature(Trace("expectimax", "A", value=looped)) == signature(Trace("expectimax", "A", value=precise))
    assert signature(Trace("expectimax", "A", value=precise)) != signature(Trace("expectimax", "A", value=precise + 1e-6))
    assert signature(Trace("minimax", "A", value=3)) == signature(Trace("minimax", "A", value=3.0))
