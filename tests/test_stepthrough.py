"""Step-through pages (stepthrough) without a browser: the steps held against the traces they come from,
the first difference, the pages' safety, and the commands that write them. tests/test_stepthrough_browser.py
drives the same pages in a real browser."""

from __future__ import annotations

import html
import json
import math
import re
import shutil
import textwrap

import pytest

from abkit.expected import expected_trace
from abkit.fixture import fixture_paths, load_fixture
from abkit.game import CHANCE, MAX, MIN
from abkit.loading import KIT_ROOT, load_module
from abkit.trace import Trace, traced_search
from abkit.compare import compare
from abkit.grader.mistakes import BY_ID, CATALOGUE, mutant
from abkit.reference import reference_trace
from abkit.stepthrough.page import page_names, script_json, student_panes, trace_page, wants_page
from abkit.handouts.exercises import equality_cuts, root_tie
from abkit.handouts.practice import difficulty, practice_answers, practice_tree, search, variant_tree
from abkit.stepthrough.steps import final_bounds, reading, steps_of
from abkit.textree import fmt

PUBLIC = KIT_ROOT / "fixtures" / "public"
ALGORITHMS = ("alphabeta", "minimax", "cutoff", "expectimax", "ordering")


def tree_cases():
    """(fixture, algorithm) for every public game tree and every algorithm the kit traces on it."""
    from abkit.cli.student.trace import _can_run

    for path in fixture_paths([PUBLIC]):
        fx = load_fixture(path)
        if fx.tree is None:
            continue
        for algorithm in ALGORITHMS:
            if _can_run(fx, algorithm) and (algorithm not in ("cutoff", "ordering") or fx.depth):
                yield pytest.param(fx, algorithm, id=f"{fx.id}-{algorithm}")


def reference(fx, algorithm):
    game = fx.game()
    return reference_trace(game, fx.root, algorithm, fx.prune_on_equality, **fx.search_params(algorithm, game))


def start_value(player):
    return {MAX: -math.inf, MIN: math.inf, CHANCE: 0}[player]


@pytest.mark.parametrize("fx, algorithm", list(tree_cases()))
def test_the_steps_of_a_reference_search_are_its_calls_in_order_with_their_windows_and_values(fx, algorithm):
    """Every call is entered once, in the order the calls began, with the window it was recorded with; each leaf
    shows its utility; each return and cut-off the value the call returned; the running v is the pseudocode's
    (computed here from the children's returned values); the last step is the root's value."""
    trace, tree = reference(fx, algorithm), fx.tree
    steps = steps_of(trace, tree, fx.prune_on_equality)
    assert reading(trace) == "calls"
    entered = [s for s in steps if s.kind in ("enter", "leaf", "eval")]
    assert [s.call for s in entered] == list(range(len(trace.calls)))
    running: dict[int, float] = {}
    for s in steps:
        call = trace.calls[s.call] if s.call is not None else None
        if s.kind in ("enter", "leaf", "eval", "back", "return", "cut"):
            assert s.node == call.node
            want = None if call.alpha is None else (call.alpha, call.beta)
            assert s.window == want
        if s.kind == "enter":
            running[s.call] = start_value(call.player)
            assert s.v == running[s.call]
        elif s.kind == "leaf":
            assert s.v == tree.utilities[s.node] == call.value
        elif s.kind == "eval":
            assert s.v == call.value and not tree.is_leaf(s.node)
        elif s.kind == "back":
            child = trace.calls[max(k for k in trace.children_of(s.call) if k <= next_index(steps, s))]
            v = running[s.call]
            if call.player == CHANCE:
                v = v + tree.probabilities[child.node] * child.value
            else:
                v = (max if call.player == MAX else min)(v, child.value)
            running[s.call] = v
            assert s.v == pytest.approx(v)
        elif s.kind in ("return", "cut"):
            assert s.v == call.value
            assert math.isclose(running[s.call], call.value) or call.synthetic
    assert steps[-1].kind == "done" and steps[-1].v == trace.value
    assert [s.t for s in steps] == sorted(s.t for s in steps)
    visits = {s.visit for s in entered}
    assert visits <= set(range(1, len(trace.visited) + 1))


def next_index(steps, step):
    """The index of the last call entered before ``step`` (the child whose value comes back)."""
    last = None
    for s in steps:
        if s is step:
            return last
        if s.kind in ("enter", "leaf", "eval"):
            last = s.call
    raise AssertionError("step not found")


@pytest.mark.parametrize("fx, algorithm", [c for c in tree_cases() if c.values[1] in ("alphabeta", "cutoff")])
def test_cut_offs_are_the_traces_pruned_subtrees_each_with_a_test_that_holds(fx, algorithm):
    trace, tree = reference(fx, algorithm), fx.tree
    steps = steps_of(trace, tree, fx.prune_on_equality)
    cut = [n for s in steps if s.kind == "cut" for n in s.pruned]
    assert sorted(cut) == sorted(trace.pruned(tree))
    for s in steps:
        if s.kind == "cut":
            text = s.cut.render("en")
            v, rel, bound = re.fullmatch(r"v = (\S+) (\S) (α|β) = (\S+)", text).group(1, 2, 4)
            assert v == fmt(s.v) and bound == fmt(s.window[1] if rel in "≥>" else s.window[0])
            assert (rel in "≥≤") == fx.prune_on_equality


def test_iterative_deepening_starts_each_iteration_afresh():
    fx = load_fixture(PUBLIC / "ordering-deepening.yaml")
    trace = reference(fx, "ordering")
    steps = steps_of(trace, fx.tree, fx.prune_on_equality)
    iterations = [s for s in steps if s.kind == "iteration"]
    assert len(iterations) == len([c for c in trace.calls if c.parent is None]) == fx.depth
    assert all(s.reset for s in iterations)
    assert [s.node for s in steps if s.kind == "eval"][:3] == ["B", "C", "D"]  # depth 1: EVAL below the root


def test_final_bounds_are_the_windows_updated_by_the_pseudocode():
    fx = load_fixture(PUBLIC / "aima-fig-5-2.yaml")
    bounds = final_bounds(steps_of(reference(fx, "alphabeta"), fx.tree))
    assert bounds == {"A": (3, math.inf), "B": (-math.inf, 3), "C": (3, math.inf), "D": (3, 5)}


# -- a student's search ------------------------------------------------------------

HELPER = textwrap.dedent('''
    import math

    def alpha_beta_search(game, state):
        best, alpha = None, -math.inf
        for a in game.actions(state):
            v = _search(game, game.result(state, a), alpha, math.inf, False)
            if best is None or v > alpha:
                best, alpha = a, v
        return best

    def _search(game, state, alpha, beta, maximizing):   # the recursion does not go through max_value/min_value
        if game.terminal_test(state):
            return game.utility(state)
        v = -math.inf if maximizing else math.inf
        for a in game.actions(state):
            child = _search(game, game.result(state, a), alpha, beta, not maximizing)
            v = max(v, child) if maximizing else min(v, child)
            # no cut-off at all: every child is searched
            if maximizing:
                alpha = max(alpha, v)
            else:
                beta = min(beta, v)
        return v

    def max_value(game, state, alpha, beta):
        return _search(game, state, alpha, beta, True)

    def min_value(game, state, alpha, beta):
        return _search(game, state, alpha, beta, False)
''')


@pytest.fixture
def helper_module(tmp_path):
    path = tmp_path / "alphabeta.py"
    path.write_text(HELPER, encoding="utf-8")
    return load_module(path)


def student_trace(module, fx, algorithm="alphabeta"):
    game = fx.game()
    return traced_search(module, game, fx.root, algorithm, **fx.search_params(algorithm, game))


@pytest.mark.parametrize("mistake", [m.id for m in CATALOGUE if m.exercise == "alphabeta"])
@pytest.mark.parametrize("name", ["aima-fig-5-2", "gfg-alpha-beta", "min-root", "rule-split-min"])
def test_the_first_difference_is_marked_at_the_step_where_it_happens(mistake, name):
    """For every named alpha-beta mistake: the step marked is where compare() says the search first differs: the
    state generated at that position, the call entered with another window, or the end of the search."""
    fx = load_fixture(PUBLIC / f"{name}.yaml")
    student = student_trace(mutant(mistake, fx.prune_on_equality), fx)
    expected = expected_trace(fx, "alphabeta")
    findings = compare(student, expected, fx.tree, fx.prune_on_equality)
    panes, first, words, align = student_panes(student, expected, fx.tree, fx.prune_on_equality, "en", findings)
    mine = panes[0][1]
    if not findings:
        assert first is None and words == ""
        return
    finding, step = findings[0], mine[first]
    assert words == finding.message.render("en") and step.mark == "first"
    if finding.kind in ("missed_cut", "extra_cut", "order", "duplicate"):
        if finding.time < len(student.visited):
            assert step.visit == finding.time + 1 and step.node == student.visited[finding.time]
        else:
            assert step.kind == "done"
    elif finding.kind == "window":
        assert step.kind in ("enter", "leaf") and step.node == finding.node and step.window != (
            expected.calls[[c.node for c in expected.calls].index(finding.node)].alpha, None)
    elif finding.kind in ("value", "action", "error"):
        assert step.kind == "done"
    assert len(align) == len(mine) and align == sorted(align)
    for k, j in enumerate(align):  # the pseudocode's side has generated no more states than the student's
        assert panes[1][1][j].t <= max(mine[k].t, panes[1][1][0].t)


def test_a_student_whose_calls_were_not_recorded_is_stepped_through_observed_facts_only(helper_module):
    """No window, no bound, no backed-up value is shown for a search whose recursion bypasses max_value/min_value;
    the leaves' values come from the tree; the page says why."""
    fx = load_fixture(PUBLIC / "aima-fig-5-2.yaml")
    student = student_trace(helper_module, fx)
    assert not student.windows_complete() and reading(student) == "observed"
    expected = expected_trace(fx, "alphabeta")
    findings = compare(student, expected, fx.tree)
    panes, first, _, _ = student_panes(student, expected, fx.tree, True, "en", findings)
    mine = panes[0][1]
    assert panes[0][2].startswith("Your search's MAX-VALUE/MIN-VALUE calls were not all recorded")
    assert all(s.window is None and s.bounds is None and s.cut is None for s in mine)
    assert [s.node for s in mine if s.kind == "gen"] == student.visited
    assert [s.node for s in mine if s.kind == "evaluated"] == student.evaluated
    assert all(s.v == fx.tree.utilities[s.node] for s in mine if s.kind == "evaluated")
    assert all(s.v is None for s in mine if s.kind == "gen")
    assert mine[first].node == "C2" and mine[first].visit == 8  # it searched C2 where the pseudocode cuts off


def test_student_steps_state_returned_values_but_never_a_running_value():
    fx = load_fixture(PUBLIC / "aima-fig-5-2.yaml")
    student = student_trace(mutant("cut_after_loop"), fx)
    mine = steps_of(student, fx.tree, trusted=False)
    assert reading(student) == "calls"
    assert all(not s.shown for s in mine if s.kind in ("enter", "back"))
    assert all(s.bounds is None for s in mine)
    returned = {s.node: s.v for s in mine if s.kind in ("return", "cut", "leaf")}
    assert returned == {c.node: c.value for c in student.calls if not c.synthetic}
    root = student.calls[0]  # the search looped over A's actions itself: A's value is its MAX-VALUE called after it
    assert root.synthetic and "A" not in returned and mine[-1].kind == "done" and mine[-1].v == root.value == 3
    assert "called on the root after it" in mine[-1].say.render("en")
    entered = [s.say.render("en") for s in mine if s.kind == "enter"]
    assert entered[0] == "Your search starts at the root A." and mine[1].window is None  # no call on A was seen
    assert all(text.startswith("Your search called") for text in entered[1:])


def test_a_page_escapes_whatever_the_students_trace_holds():
    """A node name or an error text that is markup stays text: it never ends the data block or adds an element."""
    fx = load_fixture(PUBLIC / "aima-fig-5-2.yaml")
    evil = '</script><img src=x onerror="alert(1)">'
    student = Trace("alphabeta", "A", visited=["A", "B", evil], evaluated=[evil], action=evil, value=3,
                    error=f"ValueError: {evil}")
    expected = expected_trace(fx, "alphabeta")
    from abkit.feedback import TestResult
    from abkit.stepthrough.page import student_page

    result = TestResult("alphabeta", f"alphabeta/{evil}", {"en": evil}, "error", compare(student, expected, fx.tree),
                        student, expected, fx.tree)
    page = student_page(result, "en")
    from html.parser import HTMLParser

    class Tags(HTMLParser):  # what a browser would build: the content of <script> is text, never elements
        found: list = []

        def handle_starttag(self, tag, attrs):
            self.found.append(tag)

    parser = Tags()
    parser.feed(page)
    assert "img" not in parser.found and parser.found.count("script") == 2
    blocks = re.findall(r'<script type="application/json" class="abk-data">(.*?)</script>', page, re.S)
    assert len(blocks) == 1 and evil in json.loads(blocks[0].replace("<\\/", "</"))["panes"][0]["steps"][3]["n"]
    assert page.count("</script>") == 2  # the data block and the stepper's script: nothing else ends a script
    assert script_json({"a": "<!--</script>"}) == '{"a": "<\\u0021--<\\/script>"}'


def test_page_names_are_safe_file_names_and_unique():
    names = page_names(["a/b", "a-b", "../x", "a/B"], "steps-")
    assert names == {"a/b": "steps-a-b.html", "a-b": "steps-a-b-2.html", "../x": "steps-x.html",
                     "a/B": "steps-a-B-3.html"}


# -- the pages and the commands ----------------------------------------------------

def test_trace_page_is_self_contained_and_says_its_language(tmp_path, abkit):
    for lang in ("en", "ko"):
        out = tmp_path / f"fig-{lang}.html"
        run = abkit("trace", PUBLIC / "aima-fig-5-2.yaml", "--html", out, "--lang", lang)
        assert run.status == 0 and str(out) in run.out
        page = out.read_text(encoding="utf-8")
        assert f'<html lang="{lang}">' in page
        assert not re.search(r'(src|href)\s*=\s*"(https?:)?//', page)  # nothing fetched
        assert "<svg" in page and "stepper" not in re.findall(r"<script[^>]*src", page)
    assert "word-break: keep-all" in (tmp_path / "fig-ko.html").read_text(encoding="utf-8")
    assert "MIN-VALUE(C) 호출: 구간 α = 3, β = +∞" in (tmp_path / "fig-ko.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_trace_html_takes_every_algorithm(tmp_path, abkit, algorithm):
    name = {"cutoff": "cutoff-horizon", "expectimax": "expectimax-dice", "ordering": "ordering-deepening"}.get(
        algorithm, "aima-fig-5-2")
    out = tmp_path / "page.html"
    assert abkit("trace", PUBLIC / f"{name}.yaml", "--algorithm", algorithm, "--html", out, "--lang", "en").status == 0
    data = json.loads(re.search(r'class="abk-data">(.*?)</script>', out.read_text(encoding="utf-8"), re.S).group(1))
    assert data["panes"][0]["steps"][-1]["k"] == "done"


def test_trace_html_draws_a_position_up_to_a_page_and_writes_where_it_can(tmp_path, abkit):
    run = abkit("trace", PUBLIC / "ttt-o-wins.yaml", "--html", tmp_path / "o-wins.html", "--lang", "en")
    assert run.status == 0 and (tmp_path / "o-wins.html").is_file()
    empty = KIT_ROOT / "fixtures" / "hidden" / "ttt-empty-board.yaml"
    run = abkit("trace", empty, "--html", tmp_path / "e.html", "--lang", "en")
    assert run.status == 2 and "generates 18,297 boards from this position, too many to draw on a page" in run.err
    assert "Traceback" not in run.err and not (tmp_path / "e.html").exists()
    run = abkit("trace", PUBLIC / "aima-fig-5-2.yaml", "--html", tmp_path / "x.html" / "y" / "z.html", "--lang", "en")
    assert run.status == 0
    (tmp_path / "file").write_text("")
    run = abkit("trace", PUBLIC / "aima-fig-5-2.yaml", "--html", tmp_path / "file" / "z.html", "--lang", "en")
    assert run.status == 2 and "cannot write" in run.err


def test_practice_answers_come_from_the_reference_search():
    tree = practice_tree(3, 3, 0, 20, 7)
    trace = search(tree, True)
    steps = steps_of(trace, tree)
    answers = practice_answers(tree, trace, steps, True, "en")
    assert set(answers["pruned"]) == set(tree.leaves()) - set(trace.evaluated)
    assert answers["root"] == fmt(trace.value)
    assert answers["bounds"]["A"] == [fmt(trace.value), "+∞"]
    for leaf in answers["leaves"]:
        verb = "never evaluated" if leaf in answers["pruned"] else "is evaluated"
        assert verb in answers["why"][leaf]
    unsearched = [n for n in tree.children if n not in trace.visited]
    assert all(answers["bounds"][n] is None for n in unsearched)


def test_practice_variants_are_as_hard_as_the_seeds_tree(tmp_path, abkit):
    (tmp_path / "class.csv").write_text("student\ns1\ns2\ns3\n", encoding="utf-8")
    run = abkit("practice", "--seed", "5", "--variants", tmp_path / "class.csv", "--out", tmp_path / "pages",
                "--lang", "en")
    assert run.status == 0 and "3 practice pages written" in run.out
    assert sorted(p.name for p in (tmp_path / "pages").iterdir()) == ["s1.html", "s2.html", "s3.html"]
    base = difficulty(practice_tree(3, 3, 0, 20, 5), True)  # leaves evaluated, equality cuts, a root tie
    trees = [variant_tree(3, 3, 0, 20, 5, s, True) for s in ("s1", "s2", "s3")]
    assert all(len(search(t, True).evaluated) == base[0] for t in trees)
    assert all((equality_cuts(t), root_tie(t)) == base[1:] for t in trees)
    assert len({tuple(t.utilities.items()) for t in trees}) == 3
    assert variant_tree(3, 3, 0, 20, 5, "s1", True).utilities == trees[0].utilities  # seeded: the same again


def test_practice_is_seeded_and_checks_its_arguments(tmp_path, abkit):
    one, two = tmp_path / "a.html", tmp_path / "b.html"
    assert abkit("practice", "--seed", "3", "--rule", "cs188", "--out", one, "--lang", "ko").status == 0
    assert abkit("practice", "--seed", "3", "--rule", "cs188", "--out", two, "--lang", "ko").status == 0
    assert one.read_text(encoding="utf-8") == two.read_text(encoding="utf-8")
    assert "(CS188)" in one.read_text(encoding="utf-8") and '<html lang="ko">' in one.read_text(encoding="utf-8")
    for args, words in ((["-b", "9", "-d", "4"], "at most 243"), (["-b", "0"], "at least 1"),
                        (["--min", "5", "--max", "1"], "is empty")):
        run = abkit("practice", *args, "--out", one, "--lang", "en")
        assert run.status == 2 and words in run.err and "Traceback" not in run.err


def test_check_html_writes_a_page_per_failing_public_test(tmp_path, abkit, monkeypatch):
    folder = tmp_path / "mine"
    shutil.copytree(KIT_ROOT / "exercises", folder)
    from abkit.grader.mistakes import mutant_source

    (folder / "alphabeta.py").write_text(mutant_source(BY_ID["cut_after_loop"]), encoding="utf-8")
    run = abkit("check", "--verbose", "alphabeta", "--exercises", folder, "--html", tmp_path / "pages", "--lang", "en")
    assert run.status == 1
    pages = sorted(p.name for p in (tmp_path / "pages").iterdir())
    assert "alphabeta-aima-fig-5-2.html" in pages and f"{len(pages)} step-through pages" in run.out
    failing = run.out.count("\n✗ ")
    if failing > len(pages):  # whole games played have no page: the count of the failing tests adds up
        assert f"{failing - len(pages)} other failing test" in run.out and "no page" in run.out
    else:
        assert "have no page" not in run.out
    assert all(name.startswith("alphabeta-") for name in pages)  # the exercise asked about only
    page = (tmp_path / "pages" / "alphabeta-aima-fig-5-2.html").read_text(encoding="utf-8")
    assert "First difference: after C1 your search generated C2" in html.unescape(page)


@pytest.fixture(scope="module")
def graded_class(tmp_path_factory):
    """A class of two: one with a named mistake, one correct; graded in-process."""
    from abkit.cli.main import main
    from abkit.grader.mistakes import mutant_source

    root = tmp_path_factory.mktemp("class")
    for student, source in (("mallory", mutant_source(BY_ID["no_pass_down"])),
                            ("oscar", (KIT_ROOT / "solutions" / "alphabeta.py").read_text(encoding="utf-8"))):
        (root / "in" / student).mkdir(parents=True)
        (root / "in" / student / "alphabeta.py").write_text(source, encoding="utf-8")
    status = main(["grade", str(root / "in"), "--out", str(root / "out"), "--timeout", "5", "--lang", "en"])
    assert status == 0
    return root


@pytest.mark.slow
def test_grade_writes_pages_for_failing_visible_tests_only(graded_class):
    out = graded_class / "out" / "students"
    results = json.loads((out / "mallory" / "results.json").read_text(encoding="utf-8"))
    failed = {t["name"] for t in results["tests"] if t["status"] == "failed" and t["name"].startswith("alphabeta:")}
    hidden = [t for t in results["tests"] if t["status"] == "failed" and t["visibility"] != "visible"]
    assert hidden, "the mistake should fail some hidden tests too"
    pages = sorted(p.name for p in (out / "mallory").glob("steps-*.html"))
    assert pages and failed
    assert not [p for p in pages if "hidden" in p]
    feedback = (out / "mallory" / "feedback.md").read_text(encoding="utf-8")
    for page in pages:
        assert f"`{page}`" in feedback
        assert page.startswith(("steps-alphabeta-public-", "steps-alphabeta-random-"))
    assert not list((out / "oscar").glob("*.html"))


@pytest.mark.parametrize("setting, want", [("all", "every"), ("0", "none")])
def test_the_rubric_chooses_how_many_failing_tests_get_a_page(tmp_path, setting, want):
    from abkit.cli.main import main
    from abkit.grader.mistakes import mutant_source

    (tmp_path / "in" / "mallory").mkdir(parents=True)
    (tmp_path / "in" / "mallory" / "alphabeta.py").write_text(mutant_source(BY_ID["no_pass_down"]), encoding="utf-8")
    rubric = tmp_path / "rubric.yaml"
    rubric.write_text(f"step_pages: {setting}\nfixtures: [public]\nexercises:\n  alphabeta: {{pruning: 1}}\n",
                      encoding="utf-8")
    assert main(["grade", str(tmp_path / "in"), "--out", str(tmp_path / "out"), "--rubric", str(rubric),
                 "--timeout", "5", "--lang", "en"]) == 0
    folder = tmp_path / "out" / "students" / "mallory"
    results = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    failed = [t for t in results["tests"] if t["status"] == "failed" and t["visibility"] == "visible"]
    pages = list(folder.glob("steps-*.html"))
    on_trees = [t for t in failed if "Tic-tac-toe" not in t["name"]]  # a position is no tree to step through
    assert len(on_trees) > 2  # more than the default two
    assert len(pages) == (0 if want == "none" else len(on_trees))


def test_a_page_that_cannot_be_made_costs_the_student_nothing(tmp_path, monkeypatch):
    """A step-through page is an extra: when rendering one fails, the grade and the feedback are written as ever."""
    from abkit.stepthrough import page as page_module
    from abkit.cli.main import main
    from abkit.grader.mistakes import mutant_source

    def broken(result, lang):
        raise RuntimeError("a renderer's bug")

    monkeypatch.setattr(page_module, "student_page", broken)
    (tmp_path / "in" / "mallory").mkdir(parents=True)
    (tmp_path / "in" / "mallory" / "alphabeta.py").write_text(mutant_source(BY_ID["no_pass_down"]), encoding="utf-8")
    assert main(["grade", str(tmp_path / "in"), "--out", str(tmp_path / "out"), "-j", "1", "--timeout", "5",
                 "--lang", "en"]) == 0
    folder = tmp_path / "out" / "students" / "mallory"
    results = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    assert results["extra_data"]["status"] == "ok" and results["score"] > 0
    assert not list(folder.glob("steps-*.html")) and "steps-" not in (folder / "feedback.md").read_text("utf-8")


@pytest.mark.slow
def test_regrading_removes_the_pages_of_tests_that_pass_now(graded_class):
    from abkit.cli.main import main

    student = graded_class / "in" / "mallory"
    (student / "alphabeta.py").write_text((KIT_ROOT / "solutions" / "alphabeta.py").read_text(encoding="utf-8"),
                                          encoding="utf-8")
    folder = graded_class / "out" / "students" / "mallory"
    (folder / "notes.html").write_text("mine", encoding="utf-8")  # not a page of ours: kept
    assert main(["grade", str(graded_class / "in"), "--out", str(graded_class / "out"), "--student", "mallory",
                 "--timeout", "5", "--lang", "en"]) == 0
    assert not list(folder.glob("steps-*.html")) and (folder / "notes.html").is_file()


def test_wants_page_only_for_failed_searches_on_trees():
    from abkit.feedback import TestResult

    fx = load_fixture(PUBLIC / "aima-fig-5-2.yaml")
    trace = expected_trace(fx, "alphabeta")
    assert wants_page(TestResult("a", "a", status="failed", student=trace, expected=trace, tree=fx.tree))
    assert not wants_page(TestResult("a", "a", status="passed", student=trace, expected=trace, tree=fx.tree))
    assert not wants_page(TestResult("a", "a", status="timeout", tree=fx.tree))
    assert not wants_page(TestResult("a", "a", status="failed", student=trace, expected=trace, tree=None))
    from abkit.randomtree import random_tree
    from abkit.stepthrough.page import MAX_PAGE_NODES

    big = random_tree(3, 7, seed=1)  # 3,280 nodes: its page would take seconds and megabytes per failing student
    assert len(big) > MAX_PAGE_NODES
    wide = Trace("alphabeta", big.root, visited=[big.root, *big.children[big.root]], evaluated=[], action=None)
    assert not wants_page(TestResult("a", "a", status="failed", student=wide, expected=wide, tree=big))


def test_the_handout_html_steps_through_its_worked_examples_and_the_pdf_source_does_not():
    from abkit.handouts.content import build_document
    from abkit.handouts.render import render_html, render_typst

    for lang in ("en", "ko"):
        document = build_document(lang, "handout")
        page = render_html(document)
        steppers = [b for b in document.figures() if "stepper" in b]
        assert {b["id"] for b in steppers} == {"fig-aima-fig-5-2-alphabeta", "fig-gfg-alpha-beta-alphabeta",
                                               "fig-aima-reordered-alphabeta"}
        assert page.count('class="abk" data-abk') == 3 and page.count("<style>.abk {") <= 1
        assert page.count("abkSteppers") == 1  # the script once
        assert "data-abk" not in render_typst(document, None) and "abk-data" not in render_typst(document, None)


def test_trace_page_renders_for_every_tree_in_both_languages():
    for case in tree_cases():
        fx, algorithm = case.values
        trace = reference(fx, algorithm)
        for lang in ("en", "ko"):
            page = trace_page(fx.tree, trace, lang, fx.label(lang), algorithm, fx.prune_on_equality)
            assert page.startswith("<!DOCTYPE html>") and "{" not in re.sub(r"<(script|style)[^>]*>.*?</\1>", "",
                                                                              page, flags=re.S).split("<body>")[1]
