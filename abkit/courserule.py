"""The course's fixtures under the course's cut-off rule (``rule`` in its ``abkit-course.toml``).

A fixture's ``prune_on_equality`` says which rule its ``expected:`` block was written (and verified) for; a course
tests its students under its own rule. :func:`for_course_rule` is how ``abkit check``, grading and the student
edition pick and complete the fixtures they test on.
"""

from __future__ import annotations

from abkit.cache import cached
from abkit.coursefolder import current_course
from abkit.fixture import Fixture


def for_course_rule(fixtures: list[Fixture], rule: bool, recompute: bool = True) -> list[Fixture]:
    """``fixtures`` as tests under the course's cut-off ``rule``: one written for the rule as it is; one written for
    the other rule replaced by its counterpart (the same tree written for the course's rule) when there is one, else
    with its expectations recomputed by the reference solutions under the course's rule. The student edition holds
    no solutions: ``abkit release`` wrote its fixtures for the course's rule, and a fixture written for the other
    rule is left out there. ``recompute=False``: a fixture to recompute is kept as it is (grading runs the reference
    under the course's rule for every test itself; counting tests needs only the fields its block holds, and the
    hidden trees never reach the cache)."""
    own = {counterpart_key(f) for f in fixtures if f.prune_on_equality == rule}
    kept = []
    for fixture in fixtures:
        if fixture.prune_on_equality == rule:
            kept.append(fixture)
        elif counterpart_key(fixture) not in own:
            ruled = recomputed(fixture, rule) if recompute else fixture
            kept += [ruled] if ruled is not None else []
    return kept


def counterpart_key(fixture: Fixture) -> str:
    """What two fixtures share when one is the other written for the other cut-off rule: the same game, tree,
    position, depth and EVAL."""
    return repr((fixture.game_name, fixture.tree, fixture.position, fixture.symmetry, fixture.depth,
                 fixture.weights, fixture.features))


def recomputed(fixture: Fixture, rule: bool) -> Fixture | None:
    """``fixture`` with its expectations for ``rule`` from the course's reference solutions (cached with the files
    they come from); None where the course holds no solutions (the student edition)."""
    solutions = current_course().solutions
    if fixture.path is None or not solutions.is_dir():
        return None
    from abkit.reference import for_rule  # the reference: the full kit only (the edition leaves it out)

    sources = [fixture.path, *sorted(solutions.glob("*.py"))]
    return cached("course-rule", sources, lambda: for_rule(fixture, rule), key=repr(rule))
