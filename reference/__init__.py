"""The reference solutions in ``solutions/``, run under a chosen pruning rule, and what they give on a fixture
(every field an ``expected:`` block may hold: :func:`reference_fields`; under another rule: :func:`for_rule`)."""

from __future__ import annotations

from types import ModuleType

from abkit.algorithms import Algorithm
from abkit.cache import cached
from abkit.coursefolder import current_course, per_course
from abkit.fixture import Fixture
from abkit.game import Game, State
from abkit.loading import load_module
from abkit.trace import Trace, traced_search


@per_course
def reference(algorithm: str, prune_on_equality: bool = True) -> ModuleType:
    """The reference module for ``algorithm``; alpha-beta set to the given cut-off rule."""
    module = load_module(current_course().solutions / Algorithm(algorithm).solution,
                         f"_abkit_reference_{algorithm}_{prune_on_equality}")
    if hasattr(module, "PRUNE_ON_EQUALITY"):
        module.PRUNE_ON_EQUALITY = prune_on_equality
    return module


def reference_trace(game: Game, state: State, algorithm: str, prune_on_equality: bool = True, **params) -> Trace:
    """What the reference search does from ``state`` (``params``: depth, eval_fn); it never fails on a valid game."""
    trace = traced_search(reference(algorithm, prune_on_equality), game, state, algorithm, **params)
    if trace.error is not None:  # pragma: no cover - would be a bug in solutions/
        raise trace.error
    if trace.value_error is not None:  # pragma: no cover - the same, in valuing the root
        raise trace.value_error
    return trace


def reference_fields(fixture: Fixture, algorithm: str, block: dict) -> dict[str, object]:
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
    eval_fn = fixture.search_params(Algorithm.ORDERING, game)["eval_fn"]
    return {node: reference(Algorithm.ORDERING).ordered_actions(game, node, eval_fn) for node in nodes}


def recomputed(fixture: Fixture, rule: bool) -> Fixture | None:
    """``fixture`` with its expectations for ``rule`` from the course's reference solutions (cached with the files
    they come from); None where the course holds no solutions. The :data:`abkit.courserule.Recompute` of a kit
    that has its reference."""
    solutions = current_course().solutions
    if fixture.path is None or not solutions.is_dir():
        return None
    sources = [fixture.path, *sorted(solutions.glob("*.py"))]
    return cached("course-rule", sources, lambda: for_rule(fixture, rule), key=repr(rule))
