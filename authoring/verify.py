"""Recompute every expectation of a fixture with the reference solutions."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from abkit.fixture import Fixture
from abkit.reference import reference_fields


@dataclass(frozen=True)
class Disagreement:
    """A field of a fixture's ``expected:`` block that the reference does not reproduce."""

    path: str
    line: int
    field: str       # e.g. "expected.alphabeta.pruned"
    expected: Any
    got: Any


def same(expected: Any, got: Any) -> bool:
    """Equal, with numbers compared as numbers (3 == 3.0) and a little float slack."""
    if isinstance(expected, (int, float)) and isinstance(got, (int, float)) \
            and not isinstance(expected, bool) and not isinstance(got, bool):
        return math.isclose(expected, got, rel_tol=1e-9, abs_tol=1e-12)
    return expected == got


def verify_fixture(fixture: Fixture) -> list[Disagreement]:
    """Each field of ``fixture.expected`` that differs from what the reference search does."""
    found = []
    for algorithm, block in fixture.expected.items():
        got = reference_fields(fixture, algorithm, block)
        for name, want in block.items():
            if not same(want, got[name]):
                key = f"expected.{algorithm}.{name}"
                found.append(Disagreement(str(fixture.path), fixture.lines.get(key, 1), key, want, got[name]))
    return found
