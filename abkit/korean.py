"""Korean particles that agree with the value before them, as it is read aloud.

A Korean particle after a value depends on the final sound of the value's
reading: "3을" (삼을) but "2를" (이를), "B1로" (비일로) but "C3으로" (씨삼으로),
"10은" (십은), "A는" (에이는), "α는" (알파는). Message templates ask for the
particle with a format spec naming either form of the pair, and
:func:`format_ko` picks the form that agrees::

    "{node:이} {value:을} 돌려줍니다"  ->  "B가 3을 돌려줍니다" / "C1이 2를 돌려줍니다"

The spec may follow an ordinary format spec: ``{v:.1f을}``.

>>> format_ko("{v:을} 돌려줌", v=3), format_ko("{v:을} 돌려줌", v=2)
('3을 돌려줌', '2를 돌려줌')
>>> format_ko("{n:로} 간다", n="B1"), format_ko("{n:로} 간다", n="C3")
('B1로 간다', 'C3으로 간다')
>>> format_ko("{x:는}", x="−∞"), format_ko("{x:과}", x=10)
('−∞는', '10과')
"""

from __future__ import annotations

import re
import string

# The final sound of a reading: no final consonant, ㄹ (which takes 로, not 으로), or another one.
VOWEL, RIEUL, CONSONANT = "vowel", "rieul", "consonant"

# Each particle pair: (after a final consonant, after a vowel). 으로/로 is special: 로 after ㄹ too.
PAIRS = (("이", "가"), ("은", "는"), ("을", "를"), ("과", "와"), ("으로", "로"), ("이나", "나"),
         ("이라", "라"), ("이라고", "라고"), ("이랑", "랑"), ("이며", "며"), ("이에요", "예요"),
         ("으로서", "로서"), ("으로써", "로써"), ("이든", "든"), ("이면", "면"))
_PARTICLE = {form: pair for pair in PAIRS for form in pair}
_FORMS = tuple(sorted(_PARTICLE, key=len, reverse=True))  # the longest first: 이라고 before 라고

# The final sound of each digit as read in Sino-Korean: 영 일 이 삼 사 오 육 칠 팔 구.
_DIGIT = {"0": CONSONANT, "1": RIEUL, "2": VOWEL, "3": CONSONANT, "4": VOWEL,
          "5": VOWEL, "6": CONSONANT, "7": RIEUL, "8": RIEUL, "9": VOWEL}
# A whole number ending in zeros is read by its last unit: 십 백 천 만 (to 천만), 억 (to 천억), 조.
_ZEROS = {1: CONSONANT, 2: CONSONANT, 3: CONSONANT, 4: CONSONANT, 5: CONSONANT, 6: CONSONANT,
          7: CONSONANT, 8: CONSONANT, 9: CONSONANT, 10: CONSONANT, 11: CONSONANT, 12: VOWEL}
# Latin letters as read in Korean: 에이 비 씨 디 이 에프 지 에이치 아이 제이 케이 엘 엠 엔 오 피 큐
# 아르 에스 티 유 브이 더블유 엑스 와이 제트.
_LETTER = {**dict.fromkeys("abcdefghijkopqrstuvwxyz", VOWEL), "l": RIEUL, "m": CONSONANT, "n": CONSONANT}
# Words of the kit that are read as words, not letter by letter.
_WORDS = {"max": VOWEL, "min": CONSONANT, "eval": RIEUL, "none": CONSONANT, "null": RIEUL,
          "true": VOWEL, "false": VOWEL, "minimax": VOWEL, "alphabeta": VOWEL, "expectimax": VOWEL,
          "chance": VOWEL, "utility": VOWEL, "result": VOWEL, "actions": VOWEL, "test": VOWEL,
          "ordering": CONSONANT, "cutoff": VOWEL}  # (the exercises' names: 오더링, 컷오프)
# Greek letters and symbols: 알파 베타 감마 델타 파이 무한대 퍼센트.
_SYMBOL = {**dict.fromkeys("αβγδπ∞%", VOWEL), "∅": CONSONANT}  # ∅: 공집합
_SKIP = " \t\n)]}>'\"`’”.,;:!?*_"


def final_sound(text: str) -> str:
    """The final sound of ``text`` as read aloud in Korean: VOWEL, RIEUL or CONSONANT.

    >>> [final_sound(x) for x in ("3", "12", "20", "100", "1.5", "B1", "L", "−∞", "노드")]
    ['consonant', 'vowel', 'consonant', 'consonant', 'vowel', 'rieul', 'rieul', 'vowel', 'vowel']
    """
    text = str(text).rstrip(_SKIP)
    if not text:
        return VOWEL
    last = text[-1]
    if "가" <= last <= "힣":
        final = (ord(last) - 0xAC00) % 28
        return VOWEL if final == 0 else RIEUL if final == 8 else CONSONANT
    if last.isdigit():
        return _number_sound(text)
    if last.isascii() and last.isalpha():
        word = re.search(r"[A-Za-z]+$", text).group().lower()
        return _WORDS.get(word, _LETTER[last.lower()])
    return _SYMBOL.get(last, VOWEL)


def _number_sound(text: str) -> str:
    """The final sound of a text ending in a digit: a whole number by its last unit, a decimal by its last digit."""
    digits = re.search(r"[0-9][0-9,]*(\.[0-9]+)?$", text).group()
    if "." in digits:
        return _DIGIT[digits[-1]]
    digits = digits.replace(",", "")
    if digits[-1] != "0" or set(digits) == {"0"}:
        return _DIGIT[digits[-1]]
    zeros = len(digits) - len(digits.rstrip("0"))
    return _ZEROS.get(zeros, CONSONANT)


def particle(value: object, form: str) -> str:
    """The form of ``form``'s particle pair that agrees with ``value`` (``form`` may be either one).

    >>> particle(3, "를"), particle("B", "이"), particle("B1", "으로")
    ('을', '가', '로')
    """
    after_consonant, after_vowel = _PARTICLE[form]
    sound = final_sound(str(value))
    if sound == VOWEL or (sound == RIEUL and after_consonant.startswith("으")):
        return after_vowel
    return after_consonant


def split_spec(spec: str) -> tuple[str, str]:
    """A format spec split into (ordinary spec, particle); the particle is '' when there is none."""
    if spec and "가" <= spec[-1] <= "힣":  # every particle ends in a Hangul syllable; most specs are "" or ".1f"
        for form in _FORMS:
            if spec.endswith(form):
                return spec[:-len(form)], form
    return spec, ""


class KoreanFormatter(string.Formatter):
    """``str.format`` whose specs may end in a particle: ``{v:을}``, ``{node:로}``, ``{v:.1f이}``."""

    def format_field(self, value: object, format_spec: str) -> str:
        spec, form = split_spec(format_spec)
        text = format(value, spec)
        return text + particle(text, form) if form else text


_FORMATTER = KoreanFormatter()


def format_ko(template: str, /, **params: object) -> str:
    """``template`` filled in with ``params``, each particle agreeing with the value before it."""
    return _FORMATTER.vformat(template, (), params)

