"""The course's fixtures under the course's cut-off rule (``rule`` in its ``abkit-course.toml``).

A fixture's ``prune_on_equality`` says which rule its ``expected:`` block was written (and verified) for; a course
tests its students under its own rule. :func:`for_course_rule` is how ``abkit check``, grading and the student
edition pick and complete the fixtures they test on.
"""

from __future__ import annotations

from collections.abc import Callable

from abkit.fixture import Fixture

#: how a fixture written for the other cut-off rule becomes a test under the course's: the fixture under the rule,
#: or None where it cannot be (:func:`abkit.reference.recomputed` where the course holds its solutions)
Recompute = Callable[[Fixture, bool], "Fixture | None"]


def keep(fixture: Fixture, rule: bool) -> Fixture:
    """``fixture`` kept as written (a :data:`Recompute` for callers that need only what its block holds)."""
    return fixture


def for_course_rule(fixtures: list[Fixture], rule: bool, recompute: Recompute | None) -> list[Fixture]:
    """``fixtures`` as tests under the course's cut-off ``rule``: one written for the rule as it is; one written for
    the other rule replaced by its counterpart (the same tree written for the course's rule) when there is one, else
    made a test by ``recompute`` (the reference solutions' expectations under the course's rule; :func:`keep` where
    only the fields its block holds are needed: grading runs the reference under the course's rule for every test
    itself). ``recompute`` None (the student edition holds no solutions: ``abkit release`` wrote its fixtures for the
    course's rule) or giving None: the fixture is left out."""
    own = {counterpart_key(f) for f in fixtures if f.prune_on_equality == rule}
    kept = []
    for fixture in fixtures:
        if fixture.prune_on_equality == rule:
            kept.append(fixture)
        elif counterpart_key(fixture) not in own:
            ruled = recompute(fixture, rule) if recompute is not None else None
            kept += [ruled] if ruled is not None else []
    return kept


def counterpart_key(fixture: Fixture) -> str:
    """What two fixtures share when one is the other written for the other cut-off rule: the same game, tree,
    position, depth and EVAL."""
    return repr((fixture.game_name, fixture.tree, fixture.position, fixture.symmetry, fixture.depth,
                 fixture.weights, fixture.features))
