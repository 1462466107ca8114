"""Recompute every expectation of a fixture with the reference solutions."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from abkit.fixture import Fixture
from abkit.reference import reference, reference_trace


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


def reference_fields(fixture: Fixture, algorithm: str, block: dict) -> dict[str, Any]:
    """Every field an ``expected.<algorithm>`` block may hold, as the reference search gives it on ``fixture``
    (``orders``: at the nodes ``block`` lists)."""
    game = fixture.game()
    trace = reference_trace(game, fixture.root, algorithm, fixture.prune_on_equality,
                            **fixture.search_params(algorithm, game))
    got = trace.summary(fixture.tree) | {"windows": trace.windows(), "leaves": len(trace.evaluated)}
    if "orders" in block:
        got["orders"] = reference_orders(fixture, list(block["orders"]))
    return got


def for_rule(fixture: Fixture, prune_on_equality: bool) -> Fixture:
    """``fixture`` with its expectations recomputed for the cut-off rule given: every field its ``expected:`` blocks
    hold, as the reference search gives it under that rule (a course under the other rule than the one the file's
    block was written, and checked by ``abkit fixtures verify``, for)."""
    import dataclasses

    if fixture.prune_on_equality == prune_on_equality:
        return fixture
    ruled = dataclasses.replace(fixture, prune_on_equality=prune_on_equality, lines={})
    expected = {}
    for algorithm, block in fixture.expected.items():
        got = reference_fields(ruled, algorithm, block)
        expected[algorithm] = {name: got[name] for name in block}
    return dataclasses.replace(ruled, expected=expected)


def reference_orders(fixture: Fixture, nodes: list) -> dict:
    """What the reference ``ordered_actions`` gives at each of ``nodes`` with the fixture's EVAL."""
    game = fixture.game()
    eval_fn = fixture.search_params("ordering", game)["eval_fn"]
    return {node: reference("ordering").ordered_actions(game, node, eval_fn) for node in nodes}
