"""Every message exists in both languages with the same placeholders; doctests run."""

from __future__ import annotations

import doctest
import importlib
import string

import pytest

from abkit.i18n import LANGS, Message, catalogue, t


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_key_exists_in_every_language():
    keys = {lang: set(catalogue(lang)) for lang in LANGS}
    for lang in LANGS:
        missing = keys["en"] - keys[lang]
        extra = keys[lang] - keys["en"]
        assert not missing and not extra, f"{lang}: missing {sorted(missing)}, only here {sorted(extra)}"


def test_placeholders_match_between_languages():
    en = catalogue("en")
    for key, text in catalogue("ko").items():
        if not key.startswith("argparse|"):
            assert placeholders(text) == placeholders(en[key]), key


#: texts that are the same in both languages on purpose: formats and symbols, no words
SAME_IN_BOTH = {"check.other_failing", "trace.max", "trace.min", "compare.state", "compare.state_minimax", "check.exercise", "info.bad",
                "lab.formula.best", "lab.formula.random", "lab.formula.worst",
                "page.value"}


def test_korean_texts_are_translated():
    same = {k for k, v in catalogue("ko").items() if v == catalogue("en")[k] and any(c.isalpha() for c in v)}
    assert same <= SAME_IN_BOTH, sorted(same - SAME_IN_BOTH)


def test_message_renders_nested_messages_and_falls_back():
    msg = Message("fixtures.generate.impossible", reason=Message("generate.empty_range", low=3, high=1))
    assert "3..1" in msg.render("ko") and "범위" in msg.render("ko")
    assert t("no.such.key", "ko") == "no.such.key"
    assert "Message('x'" in repr(Message("x", a=1))


@pytest.mark.parametrize("name", ["abkit.i18n", "abkit.game", "abkit.tree", "abkit.trace", "abkit.tictactoe",
                                  "abkit.textree"])
def test_doctests(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0 and result.attempted > 0
