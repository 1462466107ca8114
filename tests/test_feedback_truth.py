"""Feedback never states something false about the student's search (issue 11, "done means" item 3).

Every solution of the style corpus (tests/styles: correct styles and catalogue mistakes in two styles) is run on
every tree fixture its exercise is graded on and put through the feedback renderer. On what is drawn: every node
drawn as pruned was never generated (in that search of the root), every generated state is drawn once below its
tree parent, every cut-off drawn holds on the drawn values, and values are drawn only where recorded. One check
reads the text itself. Odd records (None, unhashable states, repeats, strays, errors, empty) never crash it.
"""

from __future__ import annotations

import functools
import math
import re

import pytest

from abkit.fixture import load_fixture, parse_fixture
from abkit.loading import HIDDEN_FIXTURES, PUBLIC_FIXTURES
from abkit.trace import Call, Trace, traced_search
from abkit.tree import Tree
from abkit.compare import compare
from abkit.feedback import TestResult, render_result
from abkit.grader.testplan import fits
from abkit.reference import reference_trace
from abkit.textree import ASCII, cut_holds, drawing, key, render_tree
from styles_harness import ALGORITHM_OF, MISTAKES, STYLES, correct_styles, load, mistake_styles

EXERCISE_OF = {algorithm: exercise for exercise, algorithm in ALGORITHM_OF.items()}


def corpus() -> list[tuple[str, str]]:
    """(exercise, path relative to tests/styles) of every solution in the corpus, correct or not."""
    found = [(exercise, f"{style}/{exercise}.py") for exercise in ALGORITHM_OF for style in correct_styles(exercise)]
    for folder in sorted(p for p in MISTAKES.iterdir() if p.is_dir()):
        for style, path in mistake_styles(folder.name).items():
            found += [(f.stem, f"mistakes/{folder.name}/{style}/{f.name}") for f in sorted(path.glob("*.py"))
                      if f.stem in ALGORITHM_OF]
    return found


@functools.lru_cache(maxsize=None)
def tree_fixtures(algorithm: str) -> list:
    """The tree fixtures ``algorithm`` is graded on (public and hidden), each with the reference's trace."""
    out = []
    for folder in (PUBLIC_FIXTURES, HIDDEN_FIXTURES):
        for path in sorted(folder.glob("*.yaml")):
            fx = load_fixture(path)
            if fx.tree is None or not fits(algorithm, fx):
                continue
            game = fx.game()
            params = fx.search_params(algorithm, game)
            out.append((fx, params, reference_trace(game, fx.root, algorithm, fx.prune_on_equality, **params)))
    return out


def assert_drawing_is_true(student: Trace, tree: Tree, rule: bool, expected: Trace | None) -> None:
    """The drawing of ``student`` says only what its record shows."""
    drawn = drawing(student, tree, rule, expected)
    visited, evaluated = [key(n) for n in student.visited], {key(n) for n in student.evaluated}
    complete = student.windows_complete()
    parents = tree.parents()
    positions = []
    for root in drawn.roots:
        stack = [root]
        while stack:
            d = stack.pop()
            stack.extend(d.children)
            if d.kind in ("pruned", "not_reached"):
                continue
            positions.append(d.visit)
            assert visited[d.visit - 1] == d.node  # drawn where the search generated it
            made = [c.node for c in d.children if c.kind == "searched"]
            for c in d.children:
                if c.kind == "searched":
                    assert parents.get(c.node) == d.node
                else:  # pruned: a tree child never generated here (nor anywhere, in a single search)
                    assert parents.get(c.node) == d.node and c.node not in made
                    if len(drawn.roots) == 1:
                        assert c.node not in visited, c.node
            if d.cut is not None:  # a cut-off is drawn only where it holds on the values drawn
                assert complete and d.window is not None and d.cut[0] == d.value
                assert cut_holds(d.player, d.value, *d.window, rule)
                assert any(c.kind == "pruned" for c in d.children)
            if d.window is not None or (d.known and not d.leaf and not d.estimated):
                assert complete  # windows and inner values only from complete calls
            if d.known and not complete:  # a value without calls: the tree's, of a state the search evaluated
                assert d.node in evaluated and d.value == tree.utilities.get(d.node, tree.heuristics.get(d.node))
    assert sorted(positions[len(drawn.roots):] + [d.visit for d in drawn.strays]) == list(range(2, len(visited) + 1)) \
        or len(drawn.roots) > 1 and sorted(p for p in positions if p > 1) + [d.visit for d in drawn.strays] \
        == sorted(range(2, len(visited) + 1))


CUT = re.compile(r"cut: (\S+) (≥|≤|>|<) (α|β)=(\S+)")


def number(text: str) -> float:
    return {"+∞": math.inf, "-∞": -math.inf}.get(text, None) or float(text)


def assert_text_is_true(lines: list[str], student: Trace, drawn_once: bool = True) -> None:
    """Read from the text alone: a pruned node was never generated (a single search), a cut drawn holds."""
    generated = set(student.visited)
    for line in lines:
        if "✂ pruned" in line and drawn_once:
            name = line.split("✂")[0].split("─ ")[-1].strip()
            assert name not in generated, line
        match = CUT.search(line)
        if match:
            v, rel, _, bound = match.groups()
            v, bound = number(v), number(bound)
            assert {"≥": v >= bound, "≤": v <= bound, ">": v > bound, "<": v < bound}[rel], line


@pytest.mark.slow
@pytest.mark.parametrize("exercise,path", corpus(), ids=[p for _, p in corpus()])
def test_every_solution_of_the_corpus_is_drawn_truly(exercise, path):
    module = load(STYLES / path)
    algorithm = ALGORITHM_OF[exercise]
    fixtures = tree_fixtures(algorithm)
    assert fixtures
    for fx, params, expected in fixtures:
        if hasattr(module, "PRUNE_ON_EQUALITY"):
            module.PRUNE_ON_EQUALITY = fx.prune_on_equality
        student = traced_search(module, fx.game(), fx.root, algorithm, **params)
        assert_drawing_is_true(student, fx.tree, fx.prune_on_equality, expected)
        lines = render_tree(student, fx.tree, fx.prune_on_equality, "en", expected=expected)
        assert_text_is_true(lines, student, drawn_once=len(drawing(student, fx.tree).roots) == 1)
        found = compare(student, expected, fx.tree, fx.prune_on_equality)
        result = TestResult(exercise, fx.id, fx.title, "failed" if found else "passed", found, student, expected, fx.tree,
                            prune_on_equality=fx.prune_on_equality)
        for lang in ("en", "ko"):
            text = render_result(result, lang, markdown=lang == "ko")
            assert "called on None" not in text and "None에" not in text
            if student.value is not None:
                assert "value ?" not in text and "값 ?" not in text


def test_a_class_style_is_drawn_from_what_it_generated_not_as_pruned():
    """The drawing today's wrappers made of a class-based search: every subtree marked pruned although searched."""
    module = load(STYLES / "class_methods" / "alphabeta.py")
    fx = load_fixture(PUBLIC_FIXTURES / "aima-fig-5-2.yaml")
    student = traced_search(module, fx.game(), fx.root, "alphabeta")
    expected = reference_trace(fx.game(), fx.root, "alphabeta")
    text = "\n".join(render_tree(student, fx.tree, True, "en", expected=expected))
    if not student.windows_complete():
        assert "#6  ├─ C  MIN\n#7  │  ├─ C1 = 2\n    │  ├─ C2  ✂ pruned\n    │  └─ C3  ✂ pruned\n" in text
        assert "⚠" not in text and "[α" not in text and "cut:" not in text
    assert text.count("✂ pruned") == 2


# -- the search's own record, drawn without calls, and odd records ------------------------------------------

AIMA = parse_fixture("tree: [[3, 12, 8], [2, 4, 6], [14, 5, 2]]\n")


def bare(visited, evaluated=(), calls=(), error=None, algorithm="alphabeta", value=None) -> Trace:
    return Trace(algorithm, visited[0] if visited else "A", visited=list(visited), evaluated=list(evaluated),
                 calls=list(calls), error=error, value=value)


def test_without_calls_only_generated_nodes_and_evaluated_leaves_are_drawn():
    student = bare(["A", "B", "B1", "B2", "B3", "C", "C1", "C2", "D", "D1"], ["B1", "B2", "B3", "C1", "D1"])
    lines = render_tree(student, AIMA.tree, True, "en")
    assert lines[:3] == ["#1  A  MAX", "#2  ├─ B  MIN", "#3  │  ├─ B1 = 3"]
    assert "#8  │  ├─ C2" in lines and "    │  └─ C3  ✂ pruned" in lines  # C2 generated, never evaluated: no value
    assert "       ├─ D2  ✂ pruned" in lines and "       └─ D3  ✂ pruned" in lines
    ko = render_tree(student, AIMA.tree, True, "ko", ASCII)
    assert "    |  `- C3  x 가지치기됨" in ko


def test_a_cut_is_drawn_only_where_it_holds():
    """Complete calls whose MIN node stops with v = -3 and α = -∞: its children are pruned, but no 'cut' is claimed."""
    tree = parse_fixture("tree: [[-3, 5], [1, 2]]\n").tree
    calls = [Call("A", "MAX", -math.inf, math.inf, 1, None, 0, 0, True),
             Call("B", "MIN", -math.inf, math.inf, -3, 0, 2, 0, False, 3),
             Call("B1", "MAX", -math.inf, math.inf, -3, 1, 3, 0, False, 3),
             Call("C", "MIN", -3, math.inf, 1, 0, 4, 1, False, 6),
             Call("C1", "MAX", -3, math.inf, 1, 3, 5, 1, False, 5),
             Call("C2", "MAX", -3, 1, 2, 3, 6, 2, False, 6)]
    student = bare(["A", "B", "B1", "C", "C1", "C2"], ["B1", "C1", "C2"], calls, value=1)
    assert student.windows_complete()
    lines = render_tree(student, tree, True, "en")
    assert lines[1] == "#2 ├─ B  MIN  [α=-∞, β=+∞]  → -3" and lines[3] == "   │  └─ B2  ✂ pruned"
    calls[1].value = calls[2].value = -math.inf  # now v = -∞ ≤ α = -∞ holds
    assert render_tree(student, tree, True, "en")[1].endswith("→ -∞   ✂ cut: -∞ ≤ α=-∞")
    assert "cut" not in render_tree(student, tree, False, "en")[1]  # not under the strict rule


@pytest.mark.parametrize("visited,evaluated,error", [
    ([], [], None),
    (["A"], [], "ValueError: x"),
    (["A", None, "B", ["B1"], "B1", "B1", "Z", "C", "C1"], [None, ["B1"], "B1", "C1", "C1"], None),
    (["A", "C", "C3", "B", "B2", "B", "B1"], ["C3", "B2", "B1", "Q"], "KeyError: 'B3'"),
    (["B", "B1"], ["B1"], None),
    (["Q", "A"], [], None),
])
def test_odd_records_never_crash_and_stay_true(visited, evaluated, error):
    student = bare(visited, evaluated, error=error)
    expected = reference_trace(AIMA.game(), "A", "alphabeta")
    for lang in ("en", "ko"):
        lines = render_tree(student, AIMA.tree, True, lang, expected=expected)
        if error is not None:
            assert all("✂" not in line for line in lines)  # not reached, never "pruned", after an error
    if visited and visited[0] in AIMA.tree:
        assert_drawing_is_true(student, AIMA.tree, True, expected)
    found = compare(student, expected, AIMA.tree)
    result = TestResult("alphabeta", "t", {"en": "t"}, "failed", found, student, expected, AIMA.tree)
    for lang in ("en", "ko"):
        text = render_result(result, lang)
        assert "called on None" not in text


def test_strays_and_repeats_are_drawn_as_such():
    student = bare(["A", "B", "B1", "Z", "B1", "C1"], ["B1", "B1"])
    lines = render_tree(student, AIMA.tree, True, "en")
    assert "#4 Z   (generated, but not a child of any state generated before it)" in lines
    assert "#6 C1   (generated, but not a child of any state generated before it)" in lines
    assert sum(" B1 = 3" in line for line in lines) == 2  # generated twice, drawn twice


def test_iterative_deepening_without_calls_numbers_its_searches_of_the_root():
    fx = load_fixture(PUBLIC_FIXTURES / "ordering-deepening.yaml")
    game = fx.game()
    params = fx.search_params("ordering", game)
    student = reference_trace(game, fx.root, "ordering", **params)
    with_calls = render_tree(student, fx.tree, True, "en")
    student.calls = []
    without = render_tree(student, fx.tree, True, "en")
    assert [l for l in with_calls if l.startswith("—")] == [f"— iteration {k}: depth {k} —" for k in range(1, 1 + fx.depth)]
    assert [l for l in without if l.startswith("—")] == [f"— search {k} of the root —"
                                                          for k in range(1, 1 + fx.depth)]
    assert_drawing_is_true(student, fx.tree, True, None)


def test_evaluation_differences_are_said_as_they_are():
    expected = reference_trace(AIMA.game(), "A", "alphabeta")
    fewer = bare(list(expected.visited), expected.evaluated[:-1], value=3)
    more = bare(list(expected.visited), expected.evaluated + ["C2"], value=3)
    other = bare(list(expected.visited), ["B1", "B2", "C1"] + expected.evaluated[3:], value=3)
    again = bare(list(expected.visited), ["B1", "B2", "B2"] + expected.evaluated[3:], value=3)
    last_again = bare(list(expected.visited), expected.evaluated + ["D3"], value=3)
    first = {name: compare(t, expected, AIMA.tree)[0].message for name, t in
             [("fewer", fewer), ("more", more), ("other", other), ("again", again), ("last_again", last_again)]}
    assert first["fewer"].render("en").startswith("the pseudocode calls UTILITY on D3 next, but your search evaluated "
                                                  "nothing more")
    assert first["more"].render("en").startswith("your search called UTILITY on C2 after every state the pseudocode")
    assert first["other"].render("en").startswith("your search called UTILITY on C1 where the pseudocode calls "
                                                  "UTILITY on B3")
    assert first["other"].render("ko").startswith("의사코드가 B3에 UTILITY 함수를 호출하는 자리에서 내 탐색은 C1에")
    assert first["again"].render("en").startswith("your search called UTILITY on B2 a second time")
    assert first["last_again"].render("en").startswith("your search called UTILITY on D3 a second time")
    assert first["again"].render("ko").startswith("내 탐색은 B2에 UTILITY 함수를 두 번째로 호출했습니다.")
    # alpha-beta has no depth limit: nothing is said of EVAL; a depth-limited search's findings say where it is used
    assert all("EVAL" not in m.render(lang) for m in first.values() for lang in ("en", "ko"))
    limited = bare(list(expected.visited), expected.evaluated[:-1], value=3)
    limited.algorithm = "cutoff"
    said = compare(limited, expected, AIMA.tree)[0].message
    assert said.render("en").endswith("call UTILITY once on each terminal state you reach (EVAL where the depth limit "
                                      "stops the search).")
    assert said.render("ko").endswith("UTILITY를 한 번씩 호출하세요(깊이 제한에서 멈춘 곳에서는 EVAL).")


def test_marks_say_where_the_drawn_search_leaves_the_expected_one():
    """B estimated where the pseudocode searches below it; C1 generated but never evaluated; C2 not generated by it."""
    expected = reference_trace(AIMA.game(), "A", "alphabeta")
    student = bare(["A", "B", "C", "C1", "C2"], ["B"])
    drawn = {d.node: d.mark for d in drawing(student, AIMA.tree, True, expected).nodes()}
    assert (drawn["B"], drawn["C1"], drawn["C2"], drawn["D"]) == ("below", "unevaluated", "extra", "missing")
    text = "\n".join(render_tree(student, AIMA.tree, True, "ko", expected=expected))
    assert "#2 ├─ B  MIN  평가 EVAL   ⚠ 의사코드는 이 아래를 탐색합니다" in text
    assert "#4 │  ├─ C1   ⚠ 의사코드는 이 노드를 평가합니다" in text


def test_an_outcome_of_a_chance_node_is_drawn_with_its_probability():
    """A student told 'C returned 6; expected 5' can check the expectation: each outcome shows its P(r)."""
    fx = load_fixture(PUBLIC_FIXTURES / "expectimax-dice.yaml")
    trace = reference_trace(fx.game(), fx.root, "expectimax")
    lines = render_tree(trace, fx.tree, lang="en")
    assert any("B1  P=1/6  MIN  → 3" in line for line in lines)
    assert sum("P=1/6" in line for line in lines) == 6 and not any("P=" in line for line in lines if " MAX " in line)
    from abkit.fixture import parse_fixture
    coin = parse_fixture("levels: [max, chance]\ntree: {A: {B: {B1: 3, B2: 5}}}\n")  # outcomes that are leaves
    drawn = render_tree(reference_trace(coin.game(), coin.root, "expectimax"), coin.tree, lang="en")
    assert any(line.endswith("B1 = 3  (P=1/2)") for line in drawn), drawn
