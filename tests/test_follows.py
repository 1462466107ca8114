"""Feedback that follows from an earlier difference is told as following from it.

A hand-written alpha-beta (tests/truncating/) truncates leaf values with ``int()``; its updates of α and β are the
pseudocode's. On negative-fractional (B1 = -1.5) B1 returns -1, so B2 is entered with β = -1, not -1.5: that window
follows from B1's value and must name it, never point at the parent's updates (compare.hint.window)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from abkit.compare import compare
from abkit.fixture import load_fixture
from abkit.i18n import Message, catalogue
from abkit.loading import EXERCISES, PUBLIC_FIXTURES, load_module
from abkit.expected import expected_trace
from abkit.trace import traced_search

TRUNCATING = Path(__file__).resolve().parent / "truncating"


def window_finding(fixture_name: str):
    fixture = load_fixture(PUBLIC_FIXTURES / fixture_name)
    game = fixture.game()
    student = traced_search(load_module(TRUNCATING / "alphabeta.py"), game, fixture.root, "alphabeta")
    findings = compare(student, expected_trace(fixture, "alphabeta"), fixture.tree)
    return findings, next(f for f in findings if f.kind == "window")


def test_the_window_after_a_truncated_leaf_names_the_leaf_not_the_parents_updates():
    findings, window = window_finding("negative-fractional.yaml")
    assert findings[0].kind == "return" and findings[0].node == "B1"
    assert window.node == "B2"
    hint = window.message.params["hint"]
    assert hint.key == "compare.hint.follows"
    assert (hint.params["node"], hint.params["got"], hint.params["want"]) == ("B1", "-1", "-1.5")


def test_a_window_the_parent_did_not_update_still_points_at_the_updates(tmp_path):
    """The same search, utilities kept whole but β never narrowed at a MIN node: its window differs by itself (no
    value below it differs first), and is told as before."""
    source = (TRUNCATING / "alphabeta.py").read_text(encoding="utf-8")
    path = tmp_path / "alphabeta.py"
    path.write_text(source.replace("int(game.utility(state))", "game.utility(state)")
                    .replace("        beta = min(beta, v)\n", ""), encoding="utf-8")
    fixture = load_fixture(PUBLIC_FIXTURES / "aima-fig-5-2.yaml")
    student = traced_search(load_module(path), fixture.game(), fixture.root, "alphabeta")
    findings = compare(student, expected_trace(fixture, "alphabeta"), fixture.tree)
    hints = [f.message.params["hint"].key for f in findings if f.kind == "window"]
    assert hints and "compare.hint.follows" not in hints


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_check_tells_the_window_as_following_from_the_truncated_leaf(abkit, tmp_path, lang):
    shutil.copy(TRUNCATING / "alphabeta.py", tmp_path / "alphabeta.py")
    shutil.copy(EXERCISES / "info.yaml", tmp_path / "info.yaml")
    run = abkit("check", "--verbose", "alphabeta", "--exercises", tmp_path, "--lang", lang)
    follows = Message("compare.hint.follows", node="B1", got="-1", want="-1.5").render(lang)
    assert follows in run.out
    assert catalogue(lang)["compare.hint.window"] not in run.out
