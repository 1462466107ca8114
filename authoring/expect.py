"""``abkit fixtures expect``: the ``expected:`` block a fixture lacks, written into it by the reference solutions
under the course's cut-off rule (``rule`` in ``abkit-course.toml``).

A fixture gets the blocks the exercises graded on a fixture of its kind read (:func:`blocks_for`), with every field
those exercises compare (:data:`FIELDS`); its ``prune_on_equality`` is set to the course's rule, which the block
then assumes. An existing expectation is never replaced: a fixture with an ``expected:`` block only gets the per-node
windows it lacks (:func:`abkit.authoring.fixturegen.add_windows`). The file's own text (comments, layout) is kept: the
block is added at its end, and the file is read again to prove it holds what was computed, else left as it was.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import yaml

from abkit.algorithms import Algorithm
from abkit.coursefolder import course_rule, current_course
from abkit.errors import UsageError
from abkit.fixture import Fixture, FixtureError, load_fixture
from abkit.game import CHANCE
from abkit.reference import reference_fields

#: algorithm -> the fields its block gets, on a drawn tree
FIELDS = {
    Algorithm.MINIMAX: ("value", "action", "nodes"),
    Algorithm.ALPHABETA: ("value", "action", "visited", "evaluated", "pruned", "nodes", "windows"),
    Algorithm.CUTOFF: ("value", "action", "visited", "evaluated", "pruned", "nodes", "windows"),
    Algorithm.EXPECTIMAX: ("value", "action", "visited", "evaluated", "nodes"),
    Algorithm.ORDERING: ("value", "action", "visited", "evaluated", "nodes", "orders"),
}
#: the fields of a block on a board position (its states are boards, not names)
GAME_FIELDS = ("value", "action", "nodes", "leaves")
_EMPTY_EXPECTED = re.compile(r"^expected:\s*\{\s*\}\s*(#.*)?\n?", re.M)
_PRUNE_LINE = re.compile(r"^prune_on_equality:.*$", re.M)


def blocks_for(fixture: Fixture) -> list[Algorithm]:
    """The expected blocks a fixture of this kind carries: a tree of MAX and MIN searched to the leaves, minimax and
    alpha-beta; a tree with chance levels, expectimax; a tree with a depth limit, the cut-off search, and iterative
    deepening too when every inner node above the limit has a heuristic value; a board position, alpha-beta (the
    cut-off search with a depth limit)."""
    from abkit.grader.testplan import fits

    if fixture.tree is None:
        return [Algorithm.CUTOFF] if fixture.depth is not None else [Algorithm.ALPHABETA]
    if CHANCE in fixture.tree.levels:
        return [Algorithm.EXPECTIMAX]
    if fixture.depth is not None:
        return [Algorithm.CUTOFF, Algorithm.ORDERING] if fits(Algorithm.ORDERING, fixture) else [Algorithm.CUTOFF]
    return [Algorithm.MINIMAX, Algorithm.ALPHABETA]


def computed(fixture: Fixture, prune_on_equality: bool) -> dict[str, dict]:
    """The blocks :func:`blocks_for` names, as the reference gives them under the rule given."""
    ruled = dataclasses.replace(fixture, prune_on_equality=prune_on_equality)
    expected = {}
    for algorithm in blocks_for(fixture):
        asked = {"orders": _ordered_nodes(fixture)} if "orders" in FIELDS[algorithm] else {}
        got = reference_fields(ruled, algorithm, asked)
        fields = GAME_FIELDS if fixture.tree is None else FIELDS[algorithm]
        expected[algorithm.value] = {name: got[name] for name in fields}  # the plain name: YAML writes it
    return expected


def _ordered_nodes(fixture: Fixture) -> list[str]:
    """The inner nodes above the depth limit, in preorder: where iterative deepening orders the actions."""
    depths = fixture.tree.depths()
    return [n for n in fixture.tree.preorder() if depths[n] < fixture.depth and not fixture.tree.is_leaf(n)]


def course_prunes_on_equality() -> bool:
    """The current course's cut-off rule as a fixture names it: True for AIMA's, False for CS188's."""
    return course_rule(current_course().root) == "aima"


def write_expected(path: Path) -> tuple[list[str], bool] | None:
    """Write the ``expected:`` block ``path``'s fixture lacks, under the course's rule; return the blocks written
    and the rule, or None when the fixture has one already (nothing is replaced). :class:`UsageError` when the file
    cannot take the block at its end (it is then left as it was)."""
    fixture = load_fixture(path)
    if fixture.expected:
        return None
    rule = course_prunes_on_equality()
    expected = computed(fixture, rule)
    original = path.read_text(encoding="utf-8")
    text = _EMPTY_EXPECTED.sub("", original)
    flag = f"prune_on_equality: {'true' if rule else 'false'}"
    text, replaced = _PRUNE_LINE.subn(flag, text, count=1)
    block = yaml.safe_dump({"expected": expected}, sort_keys=False, allow_unicode=True, default_flow_style=None,
                           width=120)
    note = f"# written by abkit fixtures expect: the reference's answers, {'aima' if rule else 'cs188'} rule (the course's)"
    text = text.rstrip("\n") + "\n" + ("" if replaced else flag + "\n") + note + "\n" + block
    path.write_text(text, encoding="utf-8")
    try:
        again = load_fixture(path)
        ok = again.expected == expected and again.prune_on_equality == rule and again.tree == fixture.tree \
            and again.position == fixture.position
    except FixtureError:
        ok = False
    if not ok:
        path.write_text(original, encoding="utf-8")
        raise UsageError("fixtures.expect.cannot", path=path)
    return list(expected), rule
