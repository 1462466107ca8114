"""Korean particles agree with the value before them as it is read aloud.

The expected particle is worked out independently of :mod:`abkit.korean`
(``tests/korean_text.py`` spells each value out in Hangul) and follows the final
syllable of that spelling.
"""

from __future__ import annotations

import doctest

import pytest

from abkit import korean
from abkit.korean import format_ko, particle
from korean_text import VALUES as NUMBERS, agreeing


def node_names() -> list[str]:
    """Every node name of the kit's fixtures."""
    from abkit.fixture import load_fixture
    from abkit.loading import FIXTURES
    names = set()
    for path in sorted(FIXTURES.glob("*/*.yaml")):
        fixture = load_fixture(path)
        if fixture.tree is not None:
            names.update(n for n in [*fixture.tree.children, *fixture.tree.utilities] if n.isascii())
    return sorted(names)


@pytest.mark.parametrize("pair", [("이", "가"), ("은", "는"), ("을", "를"), ("과", "와"), ("으로", "로")])
def test_particles_follow_the_reading_of_numbers_and_symbols(pair):
    wrong = [(v, particle(v, pair[1]), agreeing(v, pair[1])) for v in NUMBERS if particle(v, pair[1]) != agreeing(v, pair[1])]
    assert not wrong, wrong[:10]


def test_particles_follow_the_reading_of_every_fixture_node_name():
    names = node_names()
    assert len(names) > 100 and {"A", "B1", "C3", "D"} <= set(names)
    for pair in (("이", "가"), ("을", "를"), ("으로", "로"), ("은", "는")):
        wrong = [(n, particle(n, pair[0])) for n in names if particle(n, pair[0]) != agreeing(n, pair[0])]
        assert not wrong, wrong[:10]


def test_format_spec_names_either_form_and_keeps_ordinary_specs():
    assert format_ko("{v:을}/{v:를}", v=3) == "3을/3을"
    assert format_ko("{v:.1f이}", v=2) == "2.0이"
    assert format_ko("{n:로} 가고 {m:로} 간다", n="C1", m="C3") == "C1로 가고 C3으로 간다"
    assert format_ko("{x}와 {y:와}", x="A", y="B10") == "A와 B10과"


def test_doctests():
    result = doctest.testmod(korean)
    assert result.failed == 0 and result.attempted > 0


@pytest.mark.parametrize("prefix", ["", ".1f", ">5", "<3", "가나"])
def test_a_spec_splits_into_its_format_and_the_longest_particle_it_ends_in(prefix):
    from abkit.korean import PAIRS, split_spec

    for form in {f for pair in PAIRS for f in pair}:
        longest = max((f for pair in PAIRS for f in pair if (prefix + form).endswith(f)), key=len)
        assert split_spec(prefix + form) == ((prefix + form)[:-len(longest)], longest)
    assert split_spec(prefix) == (prefix, "") or prefix == "가나"
    assert split_spec(prefix + "x") == (prefix + "x", "")
