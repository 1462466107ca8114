"""The class summary names each finding by what was observed: tampering as tampering, a root value call that raised
as that call, a search that raised as an exception (grader/reports.py's summary.md, grader/grades.py's first kinds).

Graded in test_grade_partial's cut-down course (minimax on three public trees, no random trees)."""

from __future__ import annotations

import pytest

from abkit.i18n import catalogue
from abkit.loading import SOLUTIONS
from tests.helpers import edited
from tests.test_grade_partial import grade_cut_down

#: the search replaces the game's UTILITY with one of its own: the game's answers change (tampering)
REWRITES_UTILITY = [("    if game.terminal_test(state):\n        return None\n",
                     "    if game.terminal_test(state):\n        return None\n"
                     "    type(game).utility = lambda self, s: 0\n")]
#: MAX-VALUE raises when it is called on a MAX root (the recorder's call on the root, after the search)
ROOT_CALL_RAISES = [('def max_value(game, state):\n    """', 'def max_value(game, state):\n'
                     '    if game.to_move(state) == "MAX" and not game.terminal_test(state) and '
                     'len(game.actions(state)) == 3:\n        raise ValueError("no root")\n    """')]
#: MAX-VALUE raises everywhere: the search itself raises
SEARCH_RAISES = [('def max_value(game, state):\n    """', 'def max_value(game, state):\n'
                  '    raise ValueError("never")\n    """')]


@pytest.fixture(scope="module")
def summary(tmp_path_factory):
    root = tmp_path_factory.mktemp("summary")
    source = (SOLUTIONS / "minimax.py").read_text(encoding="utf-8")
    for student, edits in {"tamperer": REWRITES_UTILITY, "root-call": ROOT_CALL_RAISES,
                           "raiser": SEARCH_RAISES}.items():
        (root / "class" / student).mkdir(parents=True)
        (root / "class" / student / "minimax.py").write_text(edited(source, edits), encoding="utf-8")
    graded = grade_cut_down(root)
    return graded, (root / "out" / "summary.md").read_text(encoding="utf-8")


def test_each_students_first_finding_is_what_was_observed(summary):
    graded, _ = summary
    kinds = {student: grade["first_kinds"] for student, (grade, _) in graded.items()}
    assert set(kinds["tamperer"]) == {"tampered"}, kinds
    assert "value_error" in kinds["root-call"] and "error" not in kinds["root-call"], kinds
    assert set(kinds["raiser"]) == {"error"}, kinds


def test_the_summary_counts_tampering_as_tampering_not_as_an_exception(summary):
    _, text = summary
    words = catalogue("en")
    assert f"| {words['grade.issue.kind.tampered']} | 1 |" in text
    assert f"| {words['grade.issue.kind.value_error']} | 1 |" in text
    assert f"| {words['grade.issue.kind.error']} | 1 |" in text  # the one search that raised, and only it
