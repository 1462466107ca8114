"""The corpus of correct styles (tests/styles/<style>/): many ways students and textbooks write the same search.

Each style must be observably the reference (contract §1): the same generated and evaluated states in the same
order, the same action, and the same values from MAX-VALUE/MIN-VALUE called directly on the root and on inner nodes
with the full window and narrow ones, on every fixture the exercise is graded on and on seeded random trees.
Each catalogue mistake is written in two styles (tests/styles/mistakes/<id>/{module,class}/), each observably the
catalogue's mutant. Then the whole corpus is graded as one class: every correct style gets full marks and passes
``abkit check``; every written mistake loses points and is named alike in both styles.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import shutil
import subprocess
import sys

import pytest

from abkit.game import MAX, MIN
from abkit.loading import EXERCISES, PUBLIC_FIXTURES
from abkit.randomtree import random_tree
from abkit.trace import Trace, TracingGame
from abkit.tree import Tree, TreeGame, from_nested
from abkit.grader.batch import grade_batch
from abkit.grader.mistakes import BY_ID, CATALOGUE, mutant
from abkit.reference import reference
from abkit.grader.rubric import load_rubric
from abkit.grader.sandbox import Limits
from helpers import course_under
from styles_harness import (ALGORITHM_OF, STYLES, Case, all_cases, correct_styles, first_difference, load,
                            mistake_styles, search)

pytestmark = pytest.mark.slow  # every test here checks or grades the whole corpus of solution styles


@functools.lru_cache(maxsize=None)
def cases(algorithm: str):
    return all_cases(algorithm)


EQUIVALENCE = [(exercise, style) for exercise in ALGORITHM_OF for style in correct_styles(exercise)]


def test_the_corpus_has_the_styles_the_issue_names():
    assert len(correct_styles("alphabeta")) >= 15 and len(correct_styles("minimax")) >= 15
    for exercise in ("alphabeta_cutoff", "expectimax", "ordering"):
        assert len(correct_styles(exercise)) >= 4, exercise
    for style in correct_styles("alphabeta"):
        for exercise in ALGORITHM_OF:
            path = STYLES / style / f"{exercise}.py"
            if path.is_file():
                assert path.read_text(encoding="utf-8").startswith('"""Style: '), path


@pytest.mark.parametrize("exercise,style", EQUIVALENCE, ids=[f"{e}-{s}" for e, s in EQUIVALENCE])
def test_each_correct_style_is_observably_the_reference(exercise, style):
    algorithm = ALGORITHM_OF[exercise]
    module = load(STYLES / style / f"{exercise}.py")
    assert first_difference(module, reference(algorithm), algorithm, cases(algorithm)) is None


MISTAKES = [(m.id, style) for m in CATALOGUE for style in mistake_styles(m.id)]


def test_every_catalogue_mistake_is_written_in_two_styles():
    for mistake in CATALOGUE:
        styles = mistake_styles(mistake.id)
        assert set(styles) >= {"module", "class"}, mistake.id
        for folder in styles.values():
            assert [p.name for p in folder.glob("*.py")] == [f"{mistake.exercise}.py"], folder


@pytest.mark.parametrize("mistake_id,style", MISTAKES, ids=[f"{m}-{s}" for m, s in MISTAKES])
def test_each_written_mistake_is_observably_the_catalogue_mutant(mistake_id, style):
    mistake = BY_ID[mistake_id]
    algorithm = ALGORITHM_OF[mistake.exercise]
    module = load(mistake_styles(mistake_id)[style] / f"{mistake.exercise}.py")
    assert first_difference(module, mutant(mistake_id, True), algorithm, cases(algorithm)) is None
    assert first_difference(module, reference(algorithm), algorithm, cases(algorithm)) is not None


# -- graded as students: `abkit grade` (one batch for the whole corpus) and `abkit check` ----------------------

EXERCISE_FILES = tuple(ALGORITHM_OF)
#: the default limits, but room for a loaded machine: what is tested here is the judgement, not the time
GENEROUS = Limits(test_seconds=10.0, student_seconds=180.0)


def _style_files(folder):
    return [folder / f"{exercise}.py" for exercise in EXERCISE_FILES if (folder / f"{exercise}.py").is_file()]


@pytest.fixture(scope="module")
def graded_corpus(tmp_path_factory):
    """Every correct style and every written mistake as one student each, graded in one batch (default rubric,
    -j 2): student -> results.json's extra_data."""
    folder = tmp_path_factory.mktemp("corpus")
    for style in correct_styles("alphabeta"):
        (folder / f"style-{style}").mkdir()
        for path in _style_files(STYLES / style):
            shutil.copy(path, folder / f"style-{style}" / path.name)
    for mistake_id, style in MISTAKES:
        target = folder / f"mistake-{mistake_id}-{style}"
        target.mkdir()
        for path in _style_files(mistake_styles(mistake_id)[style]):
            shutil.copy(path, target / path.name)
    result = grade_batch(folder, tmp_path_factory.mktemp("out"), load_rubric(), jobs=2, limits=GENEROUS)
    return {r["extra_data"]["student"]: r["extra_data"] for r in result.rows}


def _correct_gradings():
    return [pytest.param(style, exercise, id=f"{style}-{exercise}")
            for style in correct_styles("alphabeta") for exercise in EXERCISE_FILES
            if (STYLES / style / f"{exercise}.py").is_file()]


@pytest.mark.parametrize("style,exercise", _correct_gradings())
def test_every_correct_style_gets_full_marks(graded_corpus, style, exercise):
    grade = graded_corpus[f"style-{style}"]["exercises"][exercise]
    assert (grade["status"], grade["score"], grade["mistakes"]) == ("ok", grade["max_score"], [])


@pytest.mark.parametrize("style,exercise", _correct_gradings())
def test_every_correct_style_passes_abkit_check(abkit, tmp_path, style, exercise):
    shutil.copy(STYLES / style / f"{exercise}.py", tmp_path / f"{exercise}.py")
    shutil.copy(EXERCISES / "info.yaml", tmp_path / "info.yaml")
    run = abkit("check", exercise, "--exercises", tmp_path, "--lang", "en")
    assert (run.status, "✗" in run.out) == (0, False), run.out
    assert f"{exercise}: every public test passes" in run.out


@pytest.fixture(scope="module")
def pytest_items(tmp_path_factory):
    """Plain ``pytest`` run once, as a student runs it (exercises/conftest.py), over every correct style's folder:
    (style, exercise) -> the outcome of each collected item (PASSED, FAILED, ERROR)."""
    root = tmp_path_factory.mktemp("pytest-items")
    (root / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    (root / "abkit-course.toml").write_text('kit_version = "0"\n', encoding="utf-8")  # as the student edition
    shutil.copytree(PUBLIC_FIXTURES, root / "fixtures" / "public")
    for style in correct_styles("alphabeta"):
        (root / style).mkdir()
        for path in _style_files(STYLES / style) + [EXERCISES / "info.yaml", EXERCISES / "conftest.py"]:
            shutil.copy(path, root / style / path.name)
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider", "-p", "no:randomly",
                          str(root)], cwd=root, capture_output=True, text=True, env={**os.environ, "ABKIT_LANG": "en"},
                         timeout=600)
    outcomes: dict[tuple[str, str], list[str]] = {}
    for line in run.stdout.splitlines():
        word, _, item = line.partition(" ")
        if word in ("PASSED", "FAILED", "ERROR") and "/" in item:
            style, _, rest = item.partition("/")
            outcomes.setdefault((style, rest.split(".py")[0]), []).append(word)
    return outcomes


@pytest.mark.parametrize("style,exercise", _correct_gradings())
def test_every_correct_style_passes_the_students_plain_pytest(pytest_items, style, exercise):
    outcomes = pytest_items.get((style, exercise), [])
    assert outcomes and set(outcomes) == {"PASSED"}, outcomes


@pytest.mark.parametrize("mistake", CATALOGUE, ids=lambda m: m.id)
def test_every_written_mistake_loses_points_and_is_named_alike_in_both_styles(graded_corpus, mistake):
    grades = {style: graded_corpus[f"mistake-{mistake.id}-{style}"]["exercises"][mistake.exercise]
              for style in mistake_styles(mistake.id)}
    for style, grade in grades.items():
        assert grade["status"] == "ok" and grade["score"] < grade["max_score"], style
    assert {style: grade["mistakes"] for style, grade in grades.items()} == {style: [mistake.id] for style in grades}


# -- where a correct style is not exactly the reference (outside what the shipped fixtures and rubric exercise) ----

def test_dispatch_by_player_differs_from_the_reference_only_where_levels_do_not_alternate():
    """The dispatch-dict style picks MAX-VALUE/MIN-VALUE by PLAYER(child); the reference alternates by function.
    A fixture may declare levels that repeat a player (``levels: [max, max, min]``): there the two differ."""
    tree = dataclasses.replace(random_tree(2, 3, -9, 9, "random", MAX, seed=3), levels=(MAX, MAX, MIN))
    case = Case("levels max, max, min", TreeGame(tree), tree.root, {}, tree)
    dispatch = load(STYLES / "dispatch_dict" / "alphabeta.py")
    assert first_difference(dispatch, reference("alphabeta"), "alphabeta", [case]) is not None
    assert first_difference(load(STYLES / "textbook" / "alphabeta.py"), reference("alphabeta"), "alphabeta",
                            [case]) is None


def test_the_pair_style_evaluates_a_terminal_root_which_the_contract_allows():
    tree = Tree("A", {}, {"A": 4})
    pairs = load(STYLES / "value_move_pairs" / "alphabeta.py")
    trace = Trace("alphabeta", "A", visited=["A"])
    assert pairs.alpha_beta_search(TracingGame(TreeGame(tree), trace), "A") is None and trace.evaluated == ["A"]
    assert search(pairs, "alphabeta", Case("terminal", TreeGame(tree), "A", {}, tree))[2] == ()  # not held against it


def test_the_explicit_stack_searches_deeper_than_the_recursion_limit():
    nested = 1
    for _ in range(sys.getrecursionlimit()):
        nested = [nested, 0]
    tree = from_nested(nested)
    case = Case("a chain deeper than the recursion limit", TreeGame(tree), tree.root, {}, tree)
    assert search(load(STYLES / "explicit_stack" / "alphabeta.py"), "alphabeta", case)[3:] == ("B", "")
    assert search(reference("alphabeta"), "alphabeta", case)[4] == "RecursionError"


def test_under_the_cs188_rule_strict_code_in_any_style_is_right_and_aima_code_is_the_named_mistake(tmp_path):
    """The same files under a CS188 course: the strict-rule code (the equality_rule mistake's files) gets full marks
    in both styles, and AIMA-rule code is named equality_rule whether written as module functions or a class."""
    strict = mistake_styles("equality_rule")
    sources = {"strict-module": strict["module"], "strict-class": strict["class"],
               "aima-module": STYLES / "textbook", "aima-class": STYLES / "class_methods"}
    for student, folder in sources.items():
        (tmp_path / "class" / student).mkdir(parents=True)
        shutil.copy(folder / "alphabeta.py", tmp_path / "class" / student / "alphabeta.py")
    with course_under("cs188", tmp_path / "course"):
        result = grade_batch(tmp_path / "class", tmp_path / "out", load_rubric(), jobs=2, limits=GENEROUS)
    grades = {r["extra_data"]["student"]: r["extra_data"]["exercises"]["alphabeta"] for r in result.rows}
    for student in ("strict-module", "strict-class"):
        assert (grades[student]["score"], grades[student]["mistakes"]) == (grades[student]["max_score"], []), student
    for student in ("aima-module", "aima-class"):
        assert grades[student]["score"] < grades[student]["max_score"], student
        assert grades[student]["mistakes"] == ["equality_rule"], student
