"""``abkit hint`` speaks first of the failure ``abkit check`` sees (issue 32), then gives the staged hints."""

from __future__ import annotations

import pytest

from abkit.compare import KINDS
from abkit.i18n import catalogue

from test_one_screen import midway, slip


@pytest.mark.parametrize("name, kind_words", [
    ("v_zero", "is entered with another α–β window"),
    ("returns_value", "chosen action is not the pseudocode's"),
    ("python_loop", "your search does not finish"),
    ("endless_recursion", "raises an exception when it is called on the root"),
])
def test_the_hint_follows_the_first_difference_seen(abkit, tmp_path, name, kind_words):
    folder = midway(tmp_path, slip(name))
    run = abkit("hint", "--exercises", folder, "--lang", "en")
    lines = run.out.splitlines()
    assert run.status == 0 and lines[0].startswith("abkit check finds a difference first on ")
    assert kind_words in lines[1] and lines[2].startswith("Hint 1 of ")


def test_fresh_stubs_get_the_staged_hints_alone(abkit, tmp_path):
    folder = midway(tmp_path, slip("v_zero"))
    (folder / "minimax.py").write_text((folder / "minimax.py").read_text(encoding="utf-8"), encoding="utf-8")
    run = abkit("hint", "alphabeta_cutoff", "--exercises", folder, "--lang", "ko")
    assert run.status == 0 and run.out.splitlines()[0].startswith("alphabeta_cutoff(")  # not started: no seen hint


def test_every_kind_of_first_difference_has_a_hint_in_both_languages():
    for lang in ("en", "ko"):
        words = catalogue(lang)
        missing = [k for k in (*KINDS, "timeout", "crashed") if f"hint.seen.{k}" not in words]
        assert not missing, (lang, missing)
