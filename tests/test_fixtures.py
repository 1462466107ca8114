"""Every shipped fixture's expectations hold for the reference solutions (data-driven)."""

from __future__ import annotations

import pytest

from abkit.fixture import fixture_paths, load_fixture
from abkit.loading import FIXTURES
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
    assert set(block) == {"value", "action", "visited", "evaluated", "pruned", "nodes"}
    assert block["nodes"] == len(block["visited"])
    assert set(block["evaluated"]) <= set(block["visited"])


def test_fixture_ids_are_unique_and_match_file_names():
    ids = [load_fixture(p).id for p in PATHS]
    assert len(ids) == len(set(ids))
    assert all(p.stem == i for p, i in zip(PATHS, ids))
