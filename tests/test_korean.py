"""Korean particles agree with the value before them as it is read aloud.

The expected particle is worked out independently of :mod:`abkit.korean`: each
value is spelled out in Hangul (Sino-Korean numbers, letter names) and the
particle follows the final syllable of that spelling.
"""

from __future__ import annotations

import doctest

import pytest

from abkit import korean
from abkit.korean import format_ko, particle

DIGITS = "영일이삼사오육칠팔구"
UNITS = ["", "십", "백", "천"]
LETTERS = dict(zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                   ["에이", "비", "씨", "디", "이", "에프", "지", "에이치", "아이", "제이", "케이", "엘", "엠", "엔",
                    "오", "피", "큐", "아르", "에스", "티", "유", "브이", "더블유", "엑스", "와이", "제트"]))


def read_number(n: int) -> str:
    """A whole number spelled out in Sino-Korean: 0 영, 12 십이, 100 백, 1,000 천, 20,000 이만."""
    if n == 0:
        return "영"
    out = ""
    for group, name in ((n // 10**8, "억"), (n // 10**4 % 10**4, "만"), (n % 10**4, "")):
        if group:
            out += _read_group(group) + name
    return out


def _read_group(n: int) -> str:
    text = ""
    for power in (3, 2, 1, 0):
        digit = n // 10**power % 10
        if digit:
            text += ("" if digit == 1 and power else DIGITS[digit]) + UNITS[power]
    return text


def read(value: str) -> str:
    """A value as read aloud: numbers (negative, decimal), ∞, α/β and node names like B1 or C3."""
    value = value.replace("−", "-").lstrip("+-")
    if value == "∞":
        return "무한대"
    if value in ("α", "β"):
        return {"α": "알파", "β": "베타"}[value]
    if "." in value and value.replace(".", "", 1).isdigit():
        whole, frac = value.split(".")
        return read_number(int(whole)) + "점" + "".join(DIGITS[int(d)] for d in frac)
    import re
    return "".join(read_number(int(run)) if run.isdigit() else "".join(LETTERS[c.upper()] for c in run)
                   for run in re.findall(r"[0-9]+|[A-Za-z]+", value))


def expected(value: str, pair: tuple[str, str]) -> str:
    last = read(value)[-1]
    final = (ord(last) - 0xAC00) % 28
    if final == 0 or (final == 8 and pair[0] == "으로"):
        return pair[1]
    return pair[0]


NUMBERS = [str(n) for n in range(-99, 1000)] + ["1000", "2000", "10000", "20000", "100000", "0.5", "2.5",
                                                 "1.25", "3.0", "−3", "−10", "+∞", "−∞", "∞", "α", "β"]


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
    wrong = [(v, particle(v, pair[1]), expected(v, pair)) for v in NUMBERS if particle(v, pair[1]) != expected(v, pair)]
    assert not wrong, wrong[:10]


def test_particles_follow_the_reading_of_every_fixture_node_name():
    names = node_names()
    assert len(names) > 100 and {"A", "B1", "C3", "D"} <= set(names)
    for pair in (("이", "가"), ("을", "를"), ("으로", "로"), ("은", "는")):
        wrong = [(n, particle(n, pair[0])) for n in names if particle(n, pair[0]) != expected(n, pair)]
        assert not wrong, wrong[:10]


def test_format_spec_names_either_form_and_keeps_ordinary_specs():
    assert format_ko("{v:을}/{v:를}", v=3) == "3을/3을"
    assert format_ko("{v:.1f이}", v=2) == "2.0이"
    assert format_ko("{n:로} 가고 {m:로} 간다", n="C1", m="C3") == "C1로 가고 C3으로 간다"
    assert format_ko("{x}와 {y:와}", x="A", y="B10") == "A와 B10과"


def test_doctests():
    result = doctest.testmod(korean)
    assert result.failed == 0 and result.attempted > 0
