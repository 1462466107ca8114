"""Findings for known wrong searches: each names the node, the window and what the pseudocode does."""

from __future__ import annotations

import math

import pytest

from abkit.expected import expected_trace
from abkit.fixture import load_fixture, parse_fixture
from abkit.loading import PUBLIC_FIXTURES, SOLUTIONS, load_module
from abkit.trace import Trace, traced_search
from abkit.compare import compare
from abkit.textree import fmt
from helpers import NO_PASS, ROOT_NO_PASS, STRICT, edited

REFERENCE = (SOLUTIONS / "alphabeta.py").read_text(encoding="utf-8")
MINIMAX = (SOLUTIONS / "minimax.py").read_text(encoding="utf-8")


def variant(tmp_path, source: str, *edits: tuple[str, str], name: str = "alphabeta.py"):
    """A copy of a solution with textual edits (each must apply), loaded as a module."""
    path = tmp_path / name
    path.write_text(edited(source, edits), encoding="utf-8")
    return load_module(path)


def findings(module, fixture_name: str, algorithm: str = "alphabeta"):
    fixture = load_fixture(PUBLIC_FIXTURES / f"{fixture_name}.yaml")
    if hasattr(module, "PRUNE_ON_EQUALITY"):  # a course grades under one rule; here, the fixture's
        module.PRUNE_ON_EQUALITY = fixture.prune_on_equality
    trace = traced_search(module, fixture.game(), fixture.tree.root, algorithm)
    return compare(trace, expected_trace(fixture, algorithm), fixture.tree, fixture.prune_on_equality)




TREE_FIXTURES = sorted(p.stem for p in PUBLIC_FIXTURES.glob("*.yaml")
                       if load_fixture(p).tree is not None and "alphabeta" in load_fixture(p).expected)


@pytest.mark.parametrize("name", TREE_FIXTURES)
def test_the_reference_has_no_findings(tmp_path, name):
    assert findings(variant(tmp_path, REFERENCE), name) == []
    assert findings(variant(tmp_path, MINIMAX, name="minimax.py"), name, "minimax") == []


def test_strict_cutoff_is_a_missed_cut_at_the_equal_node(tmp_path):
    first = findings(variant(tmp_path, REFERENCE, *STRICT), "rule-split-min")[0]
    assert (first.kind, first.node) == ("missed_cut", "C")
    assert first.message.render("en") == ("after C1 your search generated C2; the pseudocode stops at C (MIN, α=3, β=+∞) "
                                          "instead: after its child C1 = 3, v = 3 ≤ α = 3, so it returns at once "
                                          "(cut off: C2).")
    assert first.message.render("ko") == ("내 탐색은 C1 다음에 C2 노드를 생성했습니다. 그러나 의사코드는 C (MIN, α=3, β=+∞)에서 "
                                          "멈춥니다. 자식 C1(값 3)까지 탐색하고 나면 v = 3 ≤ α = 3이므로 곧바로 v를 돌려줍니다"
                                          "(가지치기되는 자식: C2).")


def test_alpha_not_passed_down_is_a_window_at_the_first_child_that_needs_it(tmp_path):
    found = findings(variant(tmp_path, REFERENCE, *NO_PASS), "deep-cutoff")
    assert [(f.kind, f.node) for f in found][:2] == [("window", "B2"), ("missed_cut", "C1a")]
    said = found[0].message.render("en")  # B was entered with -∞, +∞ and passed that on: what was observed
    assert "β=5" in said and "B passed on the window it was entered with, unchanged" in said
    assert "passes the current α and β on" in said
    assert "after its child C1a1 = 3, v = 3 ≤ α = 5" in found[1].message.render("en")


GREEK = [("def max_value(game, state, alpha, beta):", "def max_value(game, state, α, β):\n    alpha, beta = α, β"),
         ("def min_value(game, state, alpha, beta):", "def min_value(game, state, α, β):\n    alpha, beta = α, β"),
         ("min_value(game, game.result(state, a), alpha, beta))\n        if v > beta",
          "min_value(game, state=game.result(state, a), α=alpha, β=beta))\n        if v > beta"),
         ("max_value(game, game.result(state, a), alpha, beta))\n        if v < alpha",
          "max_value(game, state=game.result(state, a), α=alpha, β=beta))\n        if v < alpha")]
DEFAULTS = [("def max_value(game, state, alpha, beta):", "def max_value(game, state, alpha=-math.inf, beta=math.inf):"),
            ("def min_value(game, state, alpha, beta):", "def min_value(game, state, alpha=-math.inf, beta=math.inf):"),
            ("min_value(game, game.result(state, a), alpha, beta))\n        if v > beta",
             "min_value(game, game.result(state, a)))\n        if v > beta"),
            ("max_value(game, game.result(state, a), alpha, beta))\n        if v < alpha",
             "max_value(game, game.result(state, a)))\n        if v < alpha")]


def test_a_window_passed_by_other_keyword_names_or_left_to_defaults_is_read_as_entered(tmp_path):
    """The contract fixes the parameters' order, not their names: ``min_value(game, state=s, α=a, β=b)`` enters with
    (a, b), and a call that leaves them out enters with the function's defaults. Neither is told as 'α=?, β=?'."""
    assert findings(variant(tmp_path, REFERENCE, *GREEK), "deep-cutoff") == []
    found = findings(variant(tmp_path, REFERENCE, *GREEK, ("        alpha = max(alpha, v)\n", "")), "deep-cutoff")
    assert (found[0].kind, found[0].node) == ("window", "C1c")
    assert "C1c was entered with α=5, β=+∞; the pseudocode enters it with α=7, β=+∞" in found[0].message.render("en")
    found = findings(variant(tmp_path, REFERENCE, *DEFAULTS), "deep-cutoff")
    said = found[0].message.render("en")
    assert (found[0].kind, found[0].node) == ("window", "B2") and "?" not in said
    assert "B2 was entered with α=-∞, β=+∞; the pseudocode enters it with α=-∞, β=5" in said  # as NO_PASS is told


def test_a_bound_not_updated_is_told_as_the_window_passed_on_unchanged(tmp_path):
    found = findings(variant(tmp_path, REFERENCE, ("        beta = min(beta, v)\n", "")), "gfg-alpha-beta")
    assert (found[0].kind, found[0].node) == ("window", "E")
    said = {lang: found[0].message.render(lang) for lang in ("en", "ko")}
    assert "B passed on the window it was entered with, unchanged: check that a MIN node updates β" in said["en"]
    assert "B는 들어올 때의 구간을 그대로 넘겼습니다. MIN 노드가" in said["ko"] and "β를 갱신하는지" in said["ko"]


def test_fresh_infinities_under_a_narrower_window_are_told_as_such():
    from types import SimpleNamespace as Call

    from abkit.compare import _window_hint

    inf = float("inf")
    child, expected = Call(alpha=-inf, beta=inf), Call(alpha=5, beta=inf)
    narrower, same = Call(node="C", player="MIN", alpha=5, beta=inf), Call(node="C", player="MIN", alpha=-inf, beta=inf)
    assert _window_hint(child, expected, narrower, False).key == "compare.hint.pass_down"
    assert _window_hint(child, expected, same, False).key == "compare.hint.not_updated"
    assert _window_hint(child, expected, None, True).key == "compare.hint.root_passes"
    assert _window_hint(Call(alpha=3, beta=inf), expected, narrower, False).key == "compare.hint.window"



def test_root_not_passing_alpha_names_the_root_rule(tmp_path):
    found = findings(variant(tmp_path, REFERENCE, *ROOT_NO_PASS), "aima-fig-5-2")
    assert [(f.kind, f.node) for f in found][:2] == [("window", "C"), ("missed_cut", "C")]
    assert "The root must pass its updated α" in found[0].message.render("en")
    assert found[1].message.render("en").startswith("after C1 your search generated C2; the pseudocode stops at C")
    assert "(cut off: C2, C3)." in found[1].message.render("en")


def test_cutting_too_early_is_an_extra_cut(tmp_path):
    early = [("if v > beta or (v == beta and PRUNE_ON_EQUALITY):", "if v >= beta - 100:")]
    found = findings(variant(tmp_path, REFERENCE, *early), "min-root")
    assert found[0].kind == "extra_cut"
    text = found[0].message.render("en")
    assert text == ("after D1 your search generated nothing more; the pseudocode generates D2 next, at D (MAX, α=-∞, β=7): "
                    "after its child D1 = 6, v = 6 is not ≥ β = 7, so there is no cut-off.")
    assert "v = 6, β = 7이므로 v ≥ β 조건이 성립하지 않아" in found[0].message.render("ko")


def test_reversed_children_duplicates_value_and_action(tmp_path):
    reversed_ = [("    for a in game.actions(state):\n        v = max(v", "    for a in reversed(game.actions(state)):\n        v = max(v")]
    assert findings(variant(tmp_path, REFERENCE, *reversed_), "unbalanced")[0].kind == "order"
    twice = [("v = max(v, min_value(game, game.result(state, a), alpha, beta))",
              "game.result(state, a)\n        v = max(v, min_value(game, game.result(state, a), alpha, beta))")]
    assert findings(variant(tmp_path, REFERENCE, *twice), "gfg-alpha-beta")[0].kind == "duplicate"
    last_best = [("if best_action is None or v > alpha:", "if best_action is None or v >= alpha:")]
    kinds = [f.kind for f in findings(variant(tmp_path, REFERENCE, *last_best), "root-ties")]
    assert kinds == ["action"]
    value_not_action = [("    return best_action\n", "    return alpha if best_action else None\n")]
    assert [f.kind for f in findings(variant(tmp_path, REFERENCE, *value_not_action), "aima-fig-5-2")] == ["action"]


def test_errors_utility_misuse_and_minimax_early_stop(tmp_path):
    crash = [("    v = -math.inf\n    for a in game.actions(state):\n        v = max(v, min_value",
              "    v = -math.inf\n    raise ValueError('oops')\n    for a in game.actions(state):\n        v = max(v, min_value")]
    found = findings(variant(tmp_path, REFERENCE, *crash), "min-root")
    assert found[0].kind == "error" and "ValueError" in found[0].message.render("en")
    utility_twice = [("    if game.terminal_test(state):\n        return game.utility(state)\n    v = -math.inf",
                      "    if game.terminal_test(state):\n        game.utility(state)\n        return game.utility(state)\n    v = -math.inf")]
    assert [f.kind for f in findings(variant(tmp_path, REFERENCE, *utility_twice), "aima-fig-5-2")] == ["evaluated"]
    stop = [("        v = max(v, min_value(game, game.result(state, a)))\n",
             "        v = max(v, min_value(game, game.result(state, a)))\n        break\n")]
    found = findings(variant(tmp_path, MINIMAX, *stop, name="minimax.py"), "unbalanced", "minimax")
    assert found[0].kind == "extra_cut" and "minimax searches every child" in found[0].message.render("en")


def test_utility_on_a_terminal_root_is_allowed(tmp_path):
    calls_utility = [("    if game.terminal_test(state):\n        return None", "    if game.terminal_test(state):\n        game.utility(state)\n        return None")]
    assert findings(variant(tmp_path, REFERENCE, *calls_utility), "terminal-root") == []


def test_value_finding_when_a_node_returns_zero_for_minus_infinity(tmp_path):
    zero = [("    v = -math.inf\n    for a in game.actions(state):\n        v = max(v, min_value",
             "    v = 0\n    for a in game.actions(state):\n        v = max(v, min_value")]
    fixture = parse_fixture("root: min\ntree: [[-3, -5], [-1, -2]]\n")
    module = variant(tmp_path, REFERENCE, *zero)
    reference = variant(tmp_path, REFERENCE, name="ref.py")
    got = traced_search(module, fixture.game(), "A", "alphabeta")
    want = traced_search(reference, fixture.game(), "A", "alphabeta")
    kinds = [f.kind for f in compare(got, want, fixture.tree)]
    assert "return" in kinds and "value" in kinds


def test_the_first_wrong_value_is_the_earliest_call_to_return_one_not_the_outermost(tmp_path):
    zero = [("    v = -math.inf\n    for a in game.actions(state):\n        v = max(v, min_value",
             "    v = 0\n    for a in game.actions(state):\n        v = max(v, min_value")]
    fixture = parse_fixture("tree: [[[-3, -5], [-1, -2]], [[-4, -6], [-7, -8]]]\n")
    got = traced_search(variant(tmp_path, REFERENCE, *zero), fixture.game(), "A", "alphabeta")
    want = traced_search(variant(tmp_path, REFERENCE, name="ref.py"), fixture.game(), "A", "alphabeta")
    returns = [f for f in compare(got, want, fixture.tree) if f.kind == "return"]
    assert [f.node for f in returns] == ["B1"]  # B began first, but B1 returned 0 first
    assert returns[0].message.render("en").startswith("B1 returned 0; the pseudocode returns -3")
    assert returns[0].message.render("ko").startswith("B1 노드가 돌려준 값은 0입니다. 의사코드는 -3을 돌려줍니다")


def test_without_complete_calls_nothing_is_said_about_windows_or_returned_values():
    """The same mistake written as module functions and as class methods: the class's calls are not all recorded,
    so its findings rest on the generated nodes alone, and the first is the same missed cut-off."""
    from styles_harness import MISTAKES, load
    fixture = load_fixture(PUBLIC_FIXTURES / "deep-cutoff.yaml")
    expected = expected_trace(fixture, "alphabeta")
    first = {}
    for style in ("module", "class"):
        trace = traced_search(load(MISTAKES / "no_pass_down" / style / "alphabeta.py"), fixture.game(), "A", "alphabeta")
        found = compare(trace, expected, fixture.tree)
        if not trace.windows_complete():
            assert style == "class" and not {"window", "return"} & {f.kind for f in found}
        first[style] = [f for f in found if f.kind != "window"][0].message.render("en")
    assert first["module"] == first["class"]
    assert first["class"].startswith("after C1a1 your search generated C1a2; the pseudocode stops at C1a (MIN, α=5, β=+∞)")


def test_a_direct_call_and_a_value_that_is_none_are_said_as_they_are():
    fixture = load_fixture(PUBLIC_FIXTURES / "aima-fig-5-2.yaml")
    expected = expected_trace(fixture, "alphabeta")
    student = Trace("alphabeta", "A", visited=list(expected.visited), evaluated=list(expected.evaluated), action="B")
    assert compare(student, expected, fixture.tree)[0].message.render("en") == "the value of the root is None; expected 3."
    direct = Trace("alphabeta", "C", visited=["C", "C1", "C2"], evaluated=["C1", "C2"], value=4)
    want = Trace("alphabeta", "C", visited=["C", "C1"], evaluated=["C1"], value=2)
    kinds = {f.kind: f.message.render("en") for f in compare(direct, want, fixture.tree)}
    assert kinds["value"].startswith("C returned 4; the pseudocode returns 2")
    assert kinds["missed_cut"] == "after C1 your search generated C2; the pseudocode never generates C2."


def test_a_reason_is_stated_only_where_it_holds_on_the_expected_values():
    """Expected windows that contradict the cut (hand-edited data): the reason names no relation that is false."""
    fixture = load_fixture(PUBLIC_FIXTURES / "aima-fig-5-2.yaml")
    expected = expected_trace(fixture, "alphabeta")
    c = next(call for call in expected.calls if call.node == "C")
    c.alpha = -math.inf  # v = 2 ≤ α = -∞ is false
    extra = Trace("alphabeta", "A", visited=["A", "B", "B1", "B2", "B3", "C", "C1", "C2"], evaluated=[], value=3)
    assert compare(extra, expected, fixture.tree)[0].message.render("en") == (
        "after C1 your search generated C2; the pseudocode stops at C (MIN, α=-∞, β=+∞) instead: it returns without "
        "generating C2, C3.")
    b = next(call for call in expected.calls if call.node == "B")
    stopped = Trace("alphabeta", "A", visited=["A", "B", "B1"], evaluated=["B1"], value=3)
    for alpha, b1 in [(5, 3), (-math.inf, "x")]:  # 3 ≤ α = 5 would cut; a value that is no number
        b.alpha, expected.calls[2].value = alpha, b1
        text = compare(stopped, expected, fixture.tree)[0].message.render("en")
        assert text.endswith("the pseudocode generates B2 next, at B (MIN, α=" + fmt(alpha) + ", β=+∞): it does not "
                             "stop there.")


def test_children_searched_out_of_order_are_an_order_finding_even_where_the_pseudocode_cuts(tmp_path):
    """``sorted(game.actions(state))`` at D (ACTIONS: D3, D1, D2): the pseudocode's next node is D3, the student's
    D1, which the pseudocode never generates (it cuts after D3). The first difference is the order, not a missed
    cut at a D the pseudocode has not even searched yet."""
    edits = [("    for a in game.actions(state):\n        v = max(", "    for a in sorted(game.actions(state)):\n        v = max("),
             ("    for a in game.actions(state):\n        v = min(", "    for a in sorted(game.actions(state)):\n        v = min(")]
    first = findings(variant(tmp_path, REFERENCE, *edits), "aima-reordered")[0]
    assert (first.kind, first.node) == ("order", "D")
    assert first.message.render("en") == ("at D the children must be searched in the order ACTIONS returns them: "
                                          "D3 comes next, you generated D1.")


def test_children_generated_before_they_are_searched_are_told_so(tmp_path):
    """All of a node's children generated first, then searched (the cut-off test itself right): the first
    difference says C2 was generated before C1 was searched, as the calls show, then why the pseudocode stops."""
    eager = [("    for a in game.actions(state):\n        v = min(v, max_value(game, game.result(state, a), alpha, beta))",
              "    for child in [game.result(state, a) for a in game.actions(state)]:\n"
              "        v = min(v, max_value(game, child, alpha, beta))")]
    first = findings(variant(tmp_path, REFERENCE, *eager), "aima-fig-5-2")[0]
    assert (first.kind, first.node) == ("missed_cut", "C")
    said = {lang: first.message.render(lang) for lang in ("en", "ko")}
    assert said["en"].startswith("after C1 your search generated C2 before it searched C1 (its call on C1 began later)")
    assert said["en"].endswith("after its child C1 = 2, v = 2 ≤ α = 3, so it returns at once (cut off: C2, C3).")
    assert "C1을 탐색하기 전에 생성한 것입니다" in said["ko"]
    plain = findings(variant(tmp_path, REFERENCE, *STRICT), "rule-split-min")[0]  # generated after C1 was searched
    assert plain.message.key == "compare.missed_cut"


@pytest.mark.parametrize("start", ["0, 10", "math.inf, -math.inf"])
def test_a_search_started_with_the_wrong_window_is_told_so_and_its_root_shows_none(tmp_path, start):
    """The root's first child entered with another window than (-∞, +∞) points at the values the search starts
    from (swapped infinities included), not at a parent's update; the drawing shows no window at a root the
    search looped over itself (it was drawn as [α=-∞, β=+∞], never observed)."""
    from abkit.textree import render_tree

    module = variant(tmp_path, REFERENCE, ("    alpha, beta = -math.inf, math.inf\n    best_action",
                                           f"    alpha, beta = {start}\n    best_action"))
    first = findings(module, "negative-fractional")[0]
    assert (first.kind, first.node) == ("window", "B")
    said = first.message.render("en")
    if start == "0, 10":
        assert said.endswith("The search starts at the root with α = -∞ and β = +∞, and the root's first child is "
                             "entered with them: check the values your search starts from.")
    else:  # α above β: the values it started from, or the order it passes them in (the two look alike here)
        assert said.endswith("Its α is above its β: check the values your search starts from at the root (α = -∞, "
                             "β = +∞) and the order in which it passes them, MAX-VALUE(state, α, β) and "
                             "MIN-VALUE(state, α, β).")
    fixture = load_fixture(PUBLIC_FIXTURES / "negative-fractional.yaml")
    trace = traced_search(module, fixture.game(), fixture.tree.root, "alphabeta")
    root = render_tree(trace, fixture.tree, True, "en", expected=expected_trace(fixture, "alphabeta"))[0]
    assert root.startswith("#1") and "α=" not in root
    reference = traced_search(variant(tmp_path, REFERENCE), fixture.game(), fixture.tree.root, "alphabeta")
    assert "[α=-∞, β=+∞]" in render_tree(reference, fixture.tree, True, "en")[0]  # the reference's own drawing


def test_the_wrong_function_on_a_node_is_told_first(tmp_path):
    """Comparing PLAYER with "max" (not "MAX") makes a MAX root call max_value on its MIN children: the calls show
    it, and the first difference says so, before the values it led to."""
    module = variant(tmp_path, MINIMAX, ('if game.to_move(state) == "MAX":', 'if game.to_move(state) == "max":'),
                     name="minimax.py")
    found = findings(module, "aima-fig-5-2", "minimax")
    assert (found[0].kind, found[0].node) == ("function", "B")
    assert found[0].message.render("en").startswith("max_value was called on B, a MIN node; the pseudocode calls "
                                                    "min_value there")
    assert found[0].message.render("ko").startswith("MIN 노드인 B에 max_value 함수를 호출했습니다.")
    assert [f.kind for f in findings(variant(tmp_path, MINIMAX, name="minimax.py"), "aima-fig-5-2", "minimax")] == []


def test_a_value_returned_for_the_action_is_told_as_such(tmp_path):
    module = variant(tmp_path, REFERENCE, ("    return best_action\n", "    return alpha\n"))
    (found,) = [f for f in findings(module, "aima-fig-5-2") if f.kind == "action"]
    assert found.message.render("en").startswith("the search returned 3, which is not an action at A (its actions: "
                                                 "B, C, D); expected B. The search returns the action it chooses")
    assert found.message.render("ko").startswith("탐색이 돌려준 3은 A의 행동이 아닙니다(행동: B, C, D).")
    module = variant(tmp_path, REFERENCE, ("    return best_action\n", "    return 'C'\n"))
    (found,) = [f for f in findings(module, "aima-fig-5-2") if f.kind == "action"]
    assert found.message.key == "compare.action"  # an action, the wrong one


def test_a_window_passed_by_the_contracts_names_is_read_by_them_whatever_the_parameters_order(tmp_path):
    """``min_value(game, s, alpha=a, beta=b)`` enters with (a, b) even into a function declared (game, state, beta,
    alpha): the keywords say which is which (read by position, the window came out swapped, a false finding)."""
    swapped = [("def max_value(game, state, alpha, beta):", "def max_value(game, state, beta, alpha):"),
               ("def min_value(game, state, alpha, beta):", "def min_value(game, state, beta, alpha):"),
               ("min_value(game, game.result(state, a), alpha, beta))\n        if v > beta",
                "min_value(game, game.result(state, a), alpha=alpha, beta=beta))\n        if v > beta"),
               ("max_value(game, game.result(state, a), alpha, beta))\n        if v < alpha",
                "max_value(game, game.result(state, a), alpha=alpha, beta=beta))\n        if v < alpha"),
               ("v = min_value(game, game.result(state, a), alpha, beta)",
                "v = min_value(game, game.result(state, a), alpha=alpha, beta=beta)")]
    assert [f.kind for f in findings(variant(tmp_path, REFERENCE, *swapped), "deep-cutoff") if f.kind == "window"] == []
