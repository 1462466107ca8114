"""Every shipped fixture's expectations hold for the reference solutions (data-driven)."""

from __future__ import annotations

import pytest

from abkit.fixture import fixture_paths, load_fixture
from abkit.loading import FIXTURES
from abkit.expected import IncompleteExpectation, expected_trace
from grader.reference import reference_trace
from grader.verify import verify_fixture

PATHS = fixture_paths([FIXTURES])


def test_fixtures_are_shipped_public_and_hidden():
    assert len([p for p in PATHS if p.parent.name == "public"]) >= 10
    assert len([p for p in PATHS if p.parent.name == "hidden"]) >= 8


@pytest.mark.parametrize("path", PATHS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_reference_reproduces_expectations(path):
    fixture = load_fixture(path)
    assert fixture.expected, f"{path} has no expected block"
    assert set(fixture.expected) == {"minimax", "alphabeta"}
    problems = verify_fixture(fixture)
    assert not problems, "\n".join(f"{d.field}: expected {d.expected}, got {d.got}" for d in problems)


@pytest.mark.parametrize("path", PATHS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_alphabeta_block_is_complete_and_consistent(path):
    block = load_fixture(path).expected["alphabeta"]
    assert set(block) == {"value", "action", "visited", "evaluated", "pruned", "nodes", "windows"}
    assert block["nodes"] == len(block["visited"])
    assert list(block["windows"]) == block["visited"]
    assert set(block["evaluated"]) <= set(block["visited"])


@pytest.mark.parametrize("path", PATHS, ids=lambda p: f"{p.parent.name}/{p.stem}")
@pytest.mark.parametrize("algorithm", ["minimax", "alphabeta"])
def test_the_fixture_alone_rebuilds_the_reference_trace(path, algorithm):
    # The student edition has no solutions: check compares against this rebuilt trace.
    fixture = load_fixture(path)
    rebuilt = expected_trace(fixture, algorithm)
    live = reference_trace(fixture.game(), fixture.tree.root, algorithm, fixture.prune_on_equality)
    assert (rebuilt.visited, rebuilt.evaluated, rebuilt.value, rebuilt.action) == \
        (live.visited, live.evaluated, live.value, live.action)
    assert [(c.node, c.player, c.alpha, c.beta, c.value, c.parent, c.visited_at, c.evaluated_at) for c in rebuilt.calls] \
        == [(c.node, c.player, c.alpha, c.beta, c.value, c.parent, c.visited_at, c.evaluated_at) for c in live.calls]


def test_fixture_ids_are_unique_and_match_file_names():
    ids = [load_fixture(p).id for p in PATHS]
    assert len(ids) == len(set(ids))
    assert all(p.stem == i for p, i in zip(PATHS, ids))


def test_rebuilding_needs_the_windows(write):
    from abkit.fixture import parse_fixture
    fixture = parse_fixture("tree: [1, 2]\nexpected:\n  alphabeta: {visited: [A, B, C]}\n")
    with pytest.raises(IncompleteExpectation):
        expected_trace(fixture, "alphabeta")
