"""Every file a batch writes for a student stays under its cap, however much the student's code or folder holds:
a step-through page (``stepthrough.page.MAX_PAGE_BYTES``), feedback.md (``grader.reports.MAX_FEEDBACK_BYTES``) and
the student's whole folder (``grader.reports.MAX_STUDENT_BYTES``), each saying where it was cut. The oversized
inputs are the ones that once made 8.3 MB pages and feedback of 2.4 MB and 1.5 MB."""

from __future__ import annotations

import json
import re
import zipfile

import pytest

from abkit.compare import compare
from abkit.expected import expected_trace
from abkit.feedback import TestResult
from abkit.fixture import load_fixture
from abkit.loading import KIT_ROOT, load_module
from abkit.trace import traced_search
from abkit.grader.reports import MAX_FEEDBACK_BYTES, MAX_STUDENT_BYTES, cut_feedback, within_budget
from abkit.stepthrough.page import MAX_PAGE_BYTES, MAX_PAGE_STEPS, student_page

RUBRIC = "fixtures: [public]\nexercises:\n  alphabeta: {pruning: 1}\n"
#: a search that generates every state of its tree once, then calls MIN-VALUE on the leaves 49,000 times
LOOPS = '''import math


def alpha_beta_search(game, state):
    kids = [(a, game.result(state, a)) for a in game.actions(state)]
    leaves = [game.result(kid, b) for _, kid in kids for b in game.actions(kid)]
    for k in range(49_000):
        min_value(game, leaves[k % len(leaves)], -math.inf, math.inf)
    return kids[0][0]


def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state)
    return max(min_value(game, game.result(state, a), alpha, beta) for a in game.actions(state))


def min_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state)
    return min(max_value(game, game.result(state, a), alpha, beta) for a in game.actions(state))
'''


def steps_shown(page: str) -> list[list[dict]]:
    data = re.search(r'<script type="application/json" class="abk-data">(.*?)</script>', page, re.S).group(1)
    return [pane["steps"] for pane in json.loads(data.replace("<\\/", "</"))["panes"]]


@pytest.mark.parametrize("lang, words", [("en", "the search was cut there"), ("ko", "탐색은 거기서 잘렸습니다")])
def test_a_search_of_49000_direct_calls_gets_a_page_of_its_first_steps_under_the_cap(tmp_path, lang, words):
    (tmp_path / "loops.py").write_text(LOOPS, encoding="utf-8")
    fx = load_fixture(KIT_ROOT / "fixtures" / "public" / "aima-fig-5-2.yaml")
    game = fx.game()
    student = traced_search(load_module(tmp_path / "loops.py"), game, fx.root, "alphabeta",
                            **fx.search_params("alphabeta", game))
    assert len(student.calls) > 49_000
    expected = expected_trace(fx, "alphabeta")
    result = TestResult("alphabeta", "alphabeta/public/aima-fig-5-2", {"en": "t"}, "failed",
                        compare(student, expected, fx.tree), student, expected, fx.tree)
    page = student_page(result, lang)
    assert len(page.encode("utf-8")) <= MAX_PAGE_BYTES
    assert words in page
    mine = steps_shown(page)[0]
    assert 0 < len(mine) <= MAX_PAGE_STEPS
    small = student_page(result, lang, most_bytes=200_000)  # a tighter cap: fewer steps, the same first ones
    assert len(small.encode("utf-8")) <= 200_000 and words in small
    assert steps_shown(small)[0] == mine[:len(steps_shown(small)[0])]


def grade_one(tmp_path, entry) -> tuple:
    """Grade the class in ``tmp_path/in`` (one student, ``entry``); the student's folder and feedback.md."""
    from abkit.cli.main import main

    (tmp_path / "rubric.yaml").write_text(RUBRIC, encoding="utf-8")
    assert main(["grade", str(tmp_path / "in"), "--out", str(tmp_path / "out"), "--rubric", str(tmp_path / "rubric.yaml"),
                 "-j", "1", "--timeout", "5", "--lang", "en"]) == 0
    folder = tmp_path / "out" / "students" / entry
    return folder, (folder / "feedback.md").read_text(encoding="utf-8")


def folder_bytes(folder) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


@pytest.mark.slow
def test_a_folder_of_30000_copies_of_a_file_gets_a_short_feedback(tmp_path):
    source = (KIT_ROOT / "solutions" / "alphabeta.py").read_text(encoding="utf-8")
    student = tmp_path / "in" / "kim"
    student.mkdir(parents=True)
    for k in range(30_000):  # as a download tool names copies; all but the first 2,000 are over the count's cap
        (student / f"alphabeta ({k}).py").write_text(source, encoding="utf-8")
    folder, feedback = grade_one(tmp_path, "kim")
    assert len(feedback.encode("utf-8")) <= 100_000 < MAX_FEEDBACK_BYTES  # 2.4 MB before: listed up to 20 a kind
    assert re.search(r"… and [\d,]+ more, not listed one by one", feedback)
    assert folder_bytes(folder) <= MAX_STUDENT_BYTES


@pytest.mark.slow
def test_a_zip_of_19990_ignored_entries_gets_a_short_feedback(tmp_path):
    (tmp_path / "in").mkdir()
    source = (KIT_ROOT / "solutions" / "alphabeta.py").read_text(encoding="utf-8")
    with zipfile.ZipFile(tmp_path / "in" / "lee.zip", "w") as archive:
        archive.writestr("alphabeta.py", source)
        for k in range(19_989):
            archive.writestr(f"scratch/n{k:05}.py", "x = 1\n")
    folder, feedback = grade_one(tmp_path, "lee")
    assert len(feedback.encode("utf-8")) <= 100_000 < MAX_FEEDBACK_BYTES  # 1.5 MB before
    assert re.search(r"… and [\d,]+ more, not listed one by one", feedback)
    assert folder_bytes(folder) <= MAX_STUDENT_BYTES


@pytest.mark.parametrize("lang, words", [("en", "This feedback was cut here"), ("ko", "여기서 잘랐습니다")])
def test_a_feedback_past_its_cap_is_cut_at_a_line_closing_its_code_block(lang, words):
    text = "# Feedback\n\n```\n" + "a line of a traceback\n" * 100_000 + "```\nafter\n"
    cut = cut_feedback(text, lang)
    assert len(cut.encode("utf-8")) <= MAX_FEEDBACK_BYTES and words in cut
    assert cut.count("```") % 2 == 0 and cut.startswith("# Feedback\n\n```\na line")
    assert cut_feedback("short\n", lang) == "short\n"


def test_pages_past_the_folder_s_budget_are_removed_last_first(tmp_path):
    paths = []
    for k in range(4):
        paths.append(tmp_path / f"steps-{k}.html")
        paths[-1].write_bytes(b"x" * 1_000)
    assert within_budget(paths, 2_500) == 2
    assert [p.exists() for p in paths] == [True, True, False, False]
