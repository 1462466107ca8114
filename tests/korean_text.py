"""Checks of Korean text shared by the tests: values read aloud, particles, glossary terms.

The reading of a value is worked out here independently of :mod:`abkit.korean`
(Sino-Korean numbers spelled out, letter names), so a test that compares the two
can fail.
"""

from __future__ import annotations

import functools
import re
import string
from pathlib import Path

import yaml

from abkit.korean import PAIRS, split_spec

DIGITS = "영일이삼사오육칠팔구"
UNITS = ["", "십", "백", "천"]
LETTERS = dict(zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                   ["에이", "비", "씨", "디", "이", "에프", "지", "에이치", "아이", "제이", "케이", "엘", "엠", "엔",
                    "오", "피", "큐", "아르", "에스", "티", "유", "브이", "더블유", "엑스", "와이", "제트"]))
GLOSSARY = Path(__file__).resolve().parents[1] / "abkit" / "messages" / "glossary.yaml"

#: values a generated sentence may carry: numbers −99…999 and a few larger, decimals, ∞, α, β
VALUES = [str(n) for n in range(-99, 1000)] + ["1000", "2000", "10000", "20000", "100000", "0.5", "2.5",
                                                "1.25", "3.0", "−3", "−10", "+∞", "−∞", "∞", "α", "β"]
#: every particle a template may put after a value, longest first, and its pair
PARTICLES = {form: pair for pair in PAIRS for form in pair}
#: a placeholder, perhaps with a parenthesis right after it (a call: "{function}({node})"), then a particle
_BARE = re.compile(r"\}(?:\([^()]*\))?(" + "|".join(sorted(map(re.escape, PARTICLES), key=len, reverse=True))
                   + r")(?![가-힣])")
_DOUBLE = re.compile(r"[을이은과와]\((를|가|는|와|과)\)|\(으\)로")


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
    """A value as read aloud: numbers (negative, decimal), ∞, α/β and node names like B1 or C1.2."""
    value = value.replace("−", "-").replace(",", "").lstrip("+-")
    if value == "∞":
        return "무한대"
    if "/" in value:
        numerator, denominator = value.split("/")
        return read(denominator) + "분의" + read(numerator)
    if value in ("α", "β"):
        return {"α": "알파", "β": "베타"}[value]
    if "." in value and value.replace(".", "", 1).isdigit():
        whole, frac = value.split(".")
        return read_number(int(whole)) + "점" + "".join(DIGITS[int(d)] for d in frac)
    return "".join(read_number(int(run)) if run.isdigit() else "".join(LETTERS[c.upper()] for c in run)
                   for run in re.findall(r"[0-9]+|[A-Za-z]+", value))


def agreeing(value: str, form: str) -> str:
    """The form of ``form``'s particle pair that agrees with ``value`` read aloud."""
    after_consonant, after_vowel = PARTICLES[form]
    last = read(value)[-1]
    final = (ord(last) - 0xAC00) % 28
    if final == 0 or (final == 8 and after_consonant.startswith("으")):
        return after_vowel
    return after_consonant


#: inline markup of the handouts' words that looks like a placeholder: x_{t}, b^{d}
_MARKUP = re.compile(r"([_^])\{([^{}]*)\}")


def bare_particles(template: str) -> list[str]:
    """The places in a Korean template where a particle follows a placeholder without a particle spec (or a
    parenthesis right after one: "{function}({node})을" is read by the function's name), or where a particle is
    written both ways ("을(를)", "(으)로"). Sub- and superscript markup
    (``f_{t}``, ``b^{d}``) is not a placeholder."""
    template = _MARKUP.sub(r"\1\2", template)
    found = [template[max(0, m.start() - 12):m.end()] for m in _BARE.finditer(template)]
    return found + _DOUBLE.findall(template)


def particle_fields(template: str) -> list[tuple[str, str]]:
    """(placeholder name, particle) for each placeholder whose spec names a particle."""
    return [(name, split_spec(spec)[1]) for _, name, spec, _ in string.Formatter().parse(template)
            if name is not None and spec and split_spec(spec)[1]]


@functools.lru_cache(maxsize=None)
def glossary() -> list[dict]:
    """The glossary's entries: en, ko, seed, avoid."""
    return yaml.safe_load(GLOSSARY.read_text(encoding="utf-8"))


def glossary_violations(text: str) -> list[str]:
    """Avoided terms in a Korean text. A term in parentheses right after the kit's own term is a
    quotation of the seed's or the English name ("수평선 효과(시계 효과)") and allowed (bold markup aside)."""
    entries = glossary()
    text = text.replace("**", "")
    for entry in entries:
        for term in re.split(r",\s*", entry["ko"]):
            text = re.sub(re.escape(term) + r"\s*\([^)]*\)", term, text)
    return [f"{avoid} (use {entry['ko']})" for entry in entries for avoid in entry.get("avoid") or []
            if "(" not in avoid and avoid in text]


#: a value as it appears in a Korean sentence: a node name (B, C3, C1a2, C1.2), a number (−3, 2.5), α, β, ∞
_VALUE = r"(?:[0-9]+/[0-9]+|[A-Z](?:[0-9]+[a-z]?)+(?:\.[0-9]+)*|(?<![A-Za-z])[A-Z]|[−-]?[0-9]+(?:[.,][0-9]+)*|[+−-]?∞|α|β)"
_JOIN = re.compile(r"(?<![A-Za-z0-9_./])(" + _VALUE + r")['\"’”]*("
                   + "|".join(sorted(map(re.escape, PARTICLES), key=len, reverse=True)) + r")(?![가-힣])")


def value_joins(text: str) -> list[tuple[str, str]]:
    """Every (value, particle) where a particle directly follows a value in ``text``."""
    return [(m.group(1), m.group(2)) for m in _JOIN.finditer(_MARKUP.sub(r"\2", text))]


def agrees(value: str, form: str) -> bool:
    """Whether particle ``form`` may follow ``value`` read aloud. After a vowel the copula's 이 of
    이면, 이며, 이나, 이라… may stay ("α이면" as well as "α면"); every other form must be ``agreeing``'s."""
    want = agreeing(value, form)
    return form == want or (form.startswith("이") and len(form) > 1 and PARTICLES[form][1] == want)


def wrong_joins(text: str) -> list[str]:
    """The value-particle joins of ``text`` whose particle does not agree with the value read aloud."""
    return [f"{value}{form} (read {read(value)}: {value}{agreeing(value, form)})"
            for value, form in value_joins(text) if not agrees(value, form)]


_CODE_SPAN = re.compile(r"`[^`]*`|\{[^{}]*\}|https?://\S+|'[^'\n]*'|『[^』]*』|\b(?:abkit|sudo|python3?|pip|pytest)\b[ \w./=<>|-]*")
_WORD = r"[A-Za-z][a-z]+(?:['’-][A-Za-z]?[a-z]+)*"
_ENGLISH = re.compile(rf"(?<![\w./(\[<-]){_WORD}(?: +{_WORD}){{2,}}(?![\w./(<-])")


def english_sentences(text: str) -> list[str]:
    """English sentences in a Korean text: runs of three or more Latin words that are not code.

    Code spans (```...```), placeholders, paths, calls (``game.result(state, a)``), identifiers
    (``max_value``), quoted text (a book's title in 『』 too) and commands (``'abkit hint'``, ``abkit check ...``) and capitalised
    code names (``MAX-VALUE``, ``UTILITY``) are not words here; a name or a two-word term ("Deep Blue",
    "fail-soft") and a list of field names ("value, action, visited") are not sentences.
    """
    return [m.group() for m in _ENGLISH.finditer(_CODE_SPAN.sub(" ", text))]
