"""The reference solutions in ``solutions/``, run under a chosen pruning rule."""

from __future__ import annotations

from types import ModuleType

from abkit.coursefolder import current_course, per_course
from abkit.game import Game, State
from abkit.info import SOLUTION_FILES as FILES  # algorithm -> the solution file that implements it
from abkit.loading import load_module
from abkit.trace import Trace, traced_search


@per_course
def reference(algorithm: str, prune_on_equality: bool = True) -> ModuleType:
    """The reference module for ``algorithm``; alpha-beta set to the given cut-off rule."""
    module = load_module(current_course().solutions / FILES[algorithm], f"_abkit_reference_{algorithm}_{prune_on_equality}")
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
