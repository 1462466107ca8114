"""The corpus of styles (tests/styles/) graded as students are: whatever the style, only what the search does counts.

Every correct style gets full marks from ``abkit grade`` (the hidden suite, in the students' own processes) and
passes ``abkit check`` for both tree exercises; every catalogue mistake written in several styles loses points
and is named the same in each of them (mistakes are matched on what the game observed, not on how the code
calls its own functions).
"""

from __future__ import annotations

import shutil

import pytest

from grader.batch import grade_batch
from grader.mistakes import BY_ID
from grader.rubric import load_rubric
from styles_harness import MISTAKES, STYLES, correct_styles, mistake_styles

TREE_EXERCISES = ("minimax", "alphabeta")
CORRECT = sorted(set(correct_styles("minimax")) | set(correct_styles("alphabeta")))
#: (mistake id, style) of every catalogue mistake the corpus writes in some style
WRITTEN = [(mistake_id, style) for mistake_id in sorted(p.name for p in MISTAKES.glob("*") if p.is_dir())
           for style in mistake_styles(mistake_id)] if MISTAKES.is_dir() else []


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The correct styles and the written mistakes as one class, graded in one batch: student -> extra_data."""
    folder = tmp_path_factory.mktemp("styles")
    for style in CORRECT:
        shutil.copytree(STYLES / style, folder / style, ignore=shutil.ignore_patterns("__pycache__"))
    for mistake_id, style in WRITTEN:
        shutil.copytree(mistake_styles(mistake_id)[style], folder / f"mistake-{mistake_id}-{style}",
                        ignore=shutil.ignore_patterns("__pycache__"))
    result = grade_batch(folder, tmp_path_factory.mktemp("out"), load_rubric(), seed=11, jobs=2)
    return {row["extra_data"]["student"]: row["extra_data"] for row in result.rows}


def test_the_corpus_holds_the_styles_the_issue_names():
    assert len(CORRECT) >= 14
    for style in ("private_helpers", "argmax_decision", "negamax", "explicit_stack", "keyword_calls"):
        assert style in CORRECT


@pytest.mark.parametrize("style", CORRECT)
def test_every_correct_style_gets_full_marks_from_grade(graded, style):
    extra = graded[style]
    assert extra["status"] == "ok"
    written = [e for e in TREE_EXERCISES if (STYLES / style / f"{e}.py").is_file()]
    assert written
    for exercise in written:
        grade = extra["exercises"][exercise]
        assert (grade["score"], grade["mistakes"]) == (grade["max_score"], []), (style, exercise)


@pytest.mark.parametrize("style", CORRECT)
def test_every_correct_style_passes_check(abkit, tmp_path, style):
    for exercise in TREE_EXERCISES:
        if (STYLES / style / f"{exercise}.py").is_file():
            shutil.copy(STYLES / style / f"{exercise}.py", tmp_path / f"{exercise}.py")
            run = abkit("check", exercise, "--exercises", tmp_path, "--lang", "en")
            assert run.status == 0 and "✗" not in run.out, (style, exercise, run.out[:3000])


def test_every_written_mistake_loses_points_and_is_named_the_same_in_every_style(graded):
    by_mistake: dict[str, dict[str, tuple]] = {}
    for mistake_id, style in WRITTEN:
        exercise = BY_ID[mistake_id].exercise
        grade = graded[f"mistake-{mistake_id}-{style}"]["exercises"][exercise]
        assert grade["status"] == "ok" and grade["score"] < grade["max_score"], (mistake_id, style)
        by_mistake.setdefault(mistake_id, {})[style] = tuple(grade["mistakes"])
    for mistake_id, names in by_mistake.items():
        assert len(set(names.values())) == 1, (mistake_id, names)
        assert mistake_id in next(iter(names.values())), (mistake_id, names)
