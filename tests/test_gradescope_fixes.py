"""Issue 34's Gradescope fixes: every test of results.json named once, the student named by Gradescope's metadata,
and a setup.sh that installs the kit where the system's Python refuses system-wide pip installs (PEP 668)."""

from __future__ import annotations

import doctest
import tempfile
from collections import Counter
from pathlib import Path

import pytest

from abkit.loading import SOLUTIONS


@pytest.fixture(scope="module")
def correct_results():
    """The Gradescope results.json of the reference solutions, graded as the autograder grades them."""
    from abkit.grader.grading import Grader
    from abkit.grader.reports import results_json
    from abkit.grader.rubric import load_rubric
    from abkit.grader.submissions import Submission

    rubric = load_rubric()
    grader = Grader(rubric, 0, "en")
    grader.names_are_ids = False
    with tempfile.TemporaryDirectory() as work:
        grade = grader.grade(Submission("ann@example.edu", SOLUTIONS), Path(work))
    return results_json(grade, rubric, "en")


def test_every_test_in_results_json_has_a_name_of_its_own(correct_results):
    names = Counter(test["name"] for test in correct_results["tests"])
    assert len(correct_results["tests"]) > 100
    assert [name for name, count in names.items() if count > 1] == []
    # the hidden trees written for each cut-off rule share a title: their ids tell them apart
    twins = [name for name in names if "adequacy-beta-assigned" in name and name.startswith("alphabeta: ")]
    assert len(twins) == 2 and any(name.endswith("-cs188]") for name in twins)


def test_unique_names_doctests():
    from abkit.grader import reports

    examples = [test for test in doctest.DocTestFinder().find(reports) if test.name.endswith("unique_names")]
    assert examples and all(doctest.DocTestRunner().run(test).failed == 0 for test in examples)
