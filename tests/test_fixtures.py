"""Every shipped fixture's expectations hold for the reference solutions (data-driven)."""

from __future__ import annotations

import pytest

from abkit.fixture import fixture_paths, load_fixture
from abkit.loading import FIXTURES
from abkit.expected import IncompleteExpectation, expected_trace
from abkit.reference import reference_trace
from abkit.authoring.verify import verify_fixture

PATHS = fixture_paths([FIXTURES])


def test_fixtures_are_shipped_public_and_hidden():
    assert len([p for p in PATHS if p.parent.name == "public"]) >= 10
    assert len([p for p in PATHS if p.parent.name == "hidden"]) >= 8


@pytest.mark.parametrize("path", PATHS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_reference_reproduces_expectations(path):
    fixture = load_fixture(path)
    assert fixture.expected, f"{path} has no expected block"
    problems = verify_fixture(fixture)
    assert not problems, "\n".join(f"{d.field}: expected {d.expected}, got {d.got}" for d in problems)


TREES = [p for p in PATHS if load_fixture(p).tree is not None]
PRUNING = [(p, a) for p in TREES for a in ("alphabeta", "cutoff") if a in load_fixture(p).expected]


@pytest.mark.parametrize("path,algorithm", PRUNING, ids=lambda x: getattr(x, "stem", x))
def test_pruning_blocks_are_complete_and_consistent(path, algorithm):
    block = load_fixture(path).expected[algorithm]
    assert set(block) == {"value", "action", "visited", "evaluated", "pruned", "nodes", "windows"}
    assert block["nodes"] == len(block["visited"])
    assert list(block["windows"]) == block["visited"]
    assert set(block["evaluated"]) <= set(block["visited"])


REBUILDABLE = [(p, a) for p in TREES for a in load_fixture(p).expected]


@pytest.mark.parametrize("path,algorithm", REBUILDABLE, ids=lambda x: getattr(x, "stem", x))
def test_the_fixture_alone_rebuilds_the_reference_trace(path, algorithm):
    # The student edition has no solutions: check compares against this rebuilt trace.
    fixture = load_fixture(path)
    rebuilt = expected_trace(fixture, algorithm)
    game = fixture.game()
    live = reference_trace(game, fixture.root, algorithm, fixture.prune_on_equality, **fixture.search_params(algorithm, game))
    assert (rebuilt.visited, rebuilt.evaluated, rebuilt.action) == (live.visited, live.evaluated, live.action)
    assert rebuilt.value == pytest.approx(live.value)
    if algorithm == "ordering":
        return  # iterative deepening searches a node once per iteration: no single window to rebuild
    assert [(c.node, c.player, c.alpha, c.beta, c.parent, c.visited_at, c.evaluated_at) for c in rebuilt.calls] \
        == [(c.node, c.player, c.alpha, c.beta, c.parent, c.visited_at, c.evaluated_at) for c in live.calls]
    assert [c.value for c in rebuilt.calls] == pytest.approx([c.value for c in live.calls])


def test_fixture_ids_are_unique_and_match_file_names():
    ids = [load_fixture(p).id for p in PATHS]
    assert len(ids) == len(set(ids))
    assert all(p.stem == i for p, i in zip(PATHS, ids))


def test_rebuilding_needs_the_windows_and_a_tree(write):
    from abkit.fixture import parse_fixture
    fixture = parse_fixture("tree: [1, 2]\nexpected:\n  alphabeta: {visited: [A, B, C]}\n")
    with pytest.raises(IncompleteExpectation):
        expected_trace(fixture, "alphabeta")
    with pytest.raises(IncompleteExpectation):
        expected_trace(parse_fixture("game: tictactoe\nposition: X........\n"), "alphabeta")
