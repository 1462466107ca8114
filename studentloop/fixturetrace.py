"""The search ``abkit trace`` draws: the reference's, or in the student edition the one a fixture records.

The full kit runs the reference solution (:mod:`abkit.reference`). The student
edition has no solutions: it rebuilds the reference's search from the fixture's
``expected:`` block (:func:`abkit.expected.expected_trace`: the nodes visited and
evaluated in order, each node's α/β window and value, which ``abkit fixtures
verify`` keeps equal to the reference's), and a whole game (tic-tac-toe) from its
recorded outcome and counts. What a fixture does not record (another cut-off rule,
the windows of iterative deepening) is refused in words, never guessed.

``abkit trace --mine`` runs the student's own search on the fixture's tree as
``abkit check`` does (:func:`mine`): what it generated and evaluated, drawn beside the
expected path, and the first difference.
"""

from __future__ import annotations

from pathlib import Path

from abkit.algorithms import Algorithm
from abkit.coursefolder import current_course
from abkit.errors import UsageError
from abkit.expected import expected_counts, expected_trace
from abkit.fixture import Fixture
from abkit.kitcode import part_folder
from abkit.trace import CountedTrace, Trace


def has_reference(algorithm: str) -> bool:
    """Whether the reference search of ``algorithm`` can run here: the kit has its reference loader and the course
    folder holds the solution (the student edition has neither)."""
    solution = current_course().solutions / Algorithm(algorithm).solution
    return part_folder("reference") is not None and solution.is_file()


def recorded(fixture: Fixture, algorithm: str) -> bool:
    """Whether ``fixture``'s expectations describe ``algorithm``'s whole search, so that it can be drawn without
    the reference: the visit order and every window (minimax and expectimax: the tree itself), or a game's
    outcome and counts."""
    block = fixture.expected.get(algorithm)
    if block is None:
        return False
    spec = Algorithm(algorithm)
    if fixture.tree is None or not spec.prunes:
        return True
    return not spec.iterative and {"visited", "evaluated", "windows"} <= set(block)


def search_trace(fixture: Fixture, algorithm: str, prune_on_equality: bool, path: str) -> Trace:
    """The reference's search of ``algorithm`` on ``fixture`` under the rule given: run, or (no solutions) rebuilt
    from what the fixture records; UsageError when the fixture does not record it."""
    game = fixture.game()
    if has_reference(algorithm):
        from abkit.reference import reference_trace  # the reference: only where has_reference found it

        return reference_trace(game, fixture.root, algorithm, prune_on_equality, **fixture.search_params(algorithm, game))
    if prune_on_equality != fixture.prune_on_equality:
        raise UsageError("trace.edition.rule", path=path, rule="aima" if fixture.prune_on_equality else "cs188")
    if not recorded(fixture, algorithm):
        usable = [a for a in fixture.expected if recorded(fixture, a)]
        raise UsageError("trace.edition.unrecorded", path=path, algorithm=algorithm,
                         usable=", ".join(usable) or "-")
    if fixture.tree is None:
        return expected_counts(fixture, algorithm)
    return expected_trace(fixture, algorithm)


def default_algorithm(fixture: Fixture) -> str:
    """The fixture's own search (expectimax, cut-off, ordering) when it has one, else alpha-beta; in the student
    edition, the first of those the fixture records in full."""
    order = [a for a in Algorithm if not a.plain and a in fixture.expected] + [Algorithm.ALPHABETA]
    if has_reference(order[0]):
        return order[0]
    return next((a for a in order + list(fixture.expected) if recorded(fixture, a)), order[0])


def summary(trace: Trace, fixture: Fixture) -> dict:
    """The contract's JSON keys; for a game known by its counts only, the states it visited are not known (null)."""
    data = trace.summary(fixture.tree)
    if isinstance(trace, CountedTrace):
        data["visited"] = data["evaluated"] = None
    return data


# -- the student's own search ----------------------------------------------------

def mine(fixture: Fixture, algorithm: str, folder: Path | None, lang: str):
    """The student's search of ``algorithm`` on ``fixture`` (their file in ``folder``, default the course's
    exercises/), judged as ``abkit check`` judges it: a :class:`~abkit.feedback.TestResult`."""
    from abkit.studentloop.check import TestCase, reference_recompute
    from abkit.studentloop.isolated import Isolated
    from abkit.studentloop.limits import MemoryGuard
    from abkit.studentloop.report import find_course

    course, folder = find_course(folder)
    exercise = next((e for e in course.exercises if e.algorithm == algorithm), None)
    if exercise is None:
        raise UsageError("trace.mine.no_exercise", algorithm=algorithm)
    if fixture.expected.get(algorithm) is None or not recorded(fixture, algorithm):
        raise UsageError("trace.mine.unrecorded", path=str(fixture.path), algorithm=algorithm)
    if fixture.prune_on_equality != course.prune_on_equality:  # the course's solutions recompute it, if it has them
        recompute = reference_recompute()
        fixture = (recompute(fixture, course.prune_on_equality) if recompute else None) or fixture
    if fixture.prune_on_equality != course.prune_on_equality:
        raise UsageError("trace.mine.rule", path=str(fixture.path), rule=course.rule)
    with MemoryGuard(course.memory_limit), Isolated(course, exercise, folder, [TestCase(exercise, fixture)]) as child:
        return child.run(0), exercise
