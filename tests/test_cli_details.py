"""The small things a new student meets: tracebacks of their own lines only, English plurals, no "line 0",
``--version``, the locale's language in gettext's order, the handouts' help words."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from abkit import __version__
from abkit.i18n import default_lang, t
from abkit.loading import EXERCISES, KIT_ROOT, PUBLIC_FIXTURES, load_module
from abkit.tracebacks import student_traceback

SYNTAX_ERROR = "def minimax_decision(game, state)\n    return None\n"


def test_a_syntax_error_shows_no_frozen_importlib_frames(tmp_path, monkeypatch):
    (tmp_path / "minimax.py").write_text(SYNTAX_ERROR, encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # where "<frozen importlib._bootstrap>" would resolve as a relative path
    with pytest.raises(SyntaxError) as error:
        load_module(tmp_path / "minimax.py")
    lines = student_traceback(error.value, [tmp_path])
    assert not [line for line in lines if "<frozen" in line] and lines[-1] == "SyntaxError: expected ':'"


def test_check_in_the_students_folder_shows_no_frozen_frames(abkit, tmp_path, monkeypatch):
    for path in EXERCISES.glob("*"):
        if path.is_file():  # not a __pycache__ left by an earlier check of the repository's own exercises
            shutil.copy(path, tmp_path / path.name)
    (tmp_path / "minimax.py").write_text(SYNTAX_ERROR, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    run = abkit("check", "--exercises", ".", "--course", KIT_ROOT, "--lang", "en")
    assert "Your code could not run: SyntaxError" in run.out and "frozen" not in run.out


def test_grade_feedback_shows_no_frozen_frames(abkit, tmp_path):
    (tmp_path / "class" / "erin").mkdir(parents=True)
    (tmp_path / "class" / "erin" / "minimax.py").write_text(SYNTAX_ERROR, encoding="utf-8")
    run = abkit("grade", tmp_path / "class", "--out", tmp_path / "out", "--lang", "en")
    feedback = (tmp_path / "out" / "students" / "erin" / "feedback.md").read_text(encoding="utf-8")
    assert run.status == 0 and "SyntaxError: expected ':'" in feedback and "frozen" not in feedback


@pytest.mark.parametrize("key, params, text", [
    ("check.collapsed", {"count": 1}, "    ... and 1 more test with the same status."),
    ("check.collapsed", {"count": 2}, "    ... and 2 more tests with the same status."),
    ("check.hidden_item", {"name": "expectimax", "count": 1}, "expectimax +1 hidden tree"),
    ("feedback.more", {"count": 1}, "... and 1 more difference."),
    ("grade.feedback.not_run", {"count": 1}, "1 more test was not run, because"),
    ("fixtures.verified", {"checked": 1, "disagreements": 0, "broken": 1},
     "1 fixture verified: 0 disagreements, 1 file could not be read."),
    ("trace.subtree", {"count": 1}, " (subtree of 1 node)"),
])
def test_english_counts_agree_with_their_nouns(key, params, text):
    assert text in t(key, "en", **params)
    assert "(s)" not in t("faults.batch.failed", "en", count=1, students="s1", command="abkit")


def test_a_collapsed_single_test_reads_as_one(abkit):
    run = abkit("check", "expectimax", "--lang", "en", "--all")  # three public tests (the first tree twice): the
    assert "... and 2 more tests with the same status." in run.out  # plural is in test_english_counts_agree...


def test_a_missing_file_is_not_at_line_0(abkit, tmp_path):
    missing = tmp_path / "nothere.yaml"
    for args in (("trace", missing), ("fixtures", "verify", missing)):
        run = abkit(*args, "--lang", "en")
        text = run.out + run.err
        assert f"{missing}: cannot read the file" in text and ":0:" not in text
    run = abkit("grade", tmp_path, "--out", tmp_path / "out", "--rubric", tmp_path / "none.yaml", "--lang", "en")
    assert run.status == 2 and ":0:" not in run.err and "none.yaml" in run.err


def test_version(abkit):
    run = abkit("--version")
    assert run.status == 0 and run.out.strip() == f"abkit {__version__}"
    proc = subprocess.run([sys.executable, "-m", "abkit.cli", "--version"], cwd=KIT_ROOT, capture_output=True, text=True)
    assert proc.stdout.strip() == f"abkit {__version__}"
    assert "--version" in abkit("--help", "--lang", "ko").out


@pytest.mark.parametrize("env, lang", [
    ({"LANGUAGE": "ko", "LC_ALL": "en_US.UTF-8", "LANG": "en_US.UTF-8"}, "ko"),
    ({"LANGUAGE": "fr:ko:en", "LANG": "en_US.UTF-8"}, "ko"),       # a colon list: the first the kit speaks
    ({"LANGUAGE": "fr:de", "LC_ALL": "ko_KR.UTF-8"}, "ko"),        # none of them: on to LC_ALL
    ({"LANGUAGE": "en_GB:ko", "LANG": "ko_KR.UTF-8"}, "en"),
    ({"LC_ALL": "ko_KR.UTF-8", "LC_MESSAGES": "en_US.UTF-8", "LANG": "en_US.UTF-8"}, "ko"),
    ({"LC_MESSAGES": "ko_KR.UTF-8", "LANG": "en_US.UTF-8"}, "ko"),
    ({"LANG": "ko_KR.UTF-8"}, "ko"),
    ({"LC_ALL": "C", "LANG": "ko_KR.UTF-8"}, "en"),
    ({"ABKIT_LANG": "en", "LANGUAGE": "ko"}, "en"),                 # the kit's own variable first
])
def test_the_language_follows_gettexts_order(monkeypatch, env, lang):
    for var in ("ABKIT_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    for var, value in env.items():
        monkeypatch.setenv(var, value)
    assert default_lang() == lang


def test_the_handouts_help_does_not_call_its_inputs_fixtures(abkit):
    for lang in ("en", "ko"):
        run = abkit("handouts", "--help", "--lang", lang)
        assert "fixture" not in run.out and "픽스처" not in run.out
    assert "what to do with the handouts" in abkit("handouts", "--help", "--lang", "en").out


def test_trace_of_a_game_counts_its_leaves_from_the_fixture(abkit):
    run = abkit("trace", PUBLIC_FIXTURES / "ttt-o-wins.yaml", "--lang", "en")
    assert "value -1 · action 5 · nodes 16 · states evaluated 7 (a whole game: its tree is not drawn)" in run.out
    assert "pruned" not in run.out  # a whole game names no pruned subtree: "pruned: none" would be false


def test_loading_a_students_file_writes_no_bytecode_beside_it(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", False)  # a student's laptop: Python writes __pycache__ by default
    (tmp_path / "helper.py").write_text("ANSWER = 3\n", encoding="utf-8")
    (tmp_path / "minimax.py").write_text("from helper import ANSWER\n", encoding="utf-8")
    monkeypatch.delitem(sys.modules, "helper", raising=False)
    assert load_module(tmp_path / "minimax.py").ANSWER == 3
    assert not list(tmp_path.rglob("__pycache__")) and sys.dont_write_bytecode is False
    sys.modules.pop("helper", None)


def test_a_misnamed_game_method_is_answered_with_the_right_name(tmp_path):
    """aima-python's 4th edition calls it is_terminal; Python 3.10 and 3.11 suggest names only in their own display."""
    from abkit.tree import TreeGame, from_nested

    (tmp_path / "minimax.py").write_text("def max_value(game, state):\n    return game.is_terminal(state)\n",
                                         encoding="utf-8")
    with pytest.raises(AttributeError) as error:
        load_module(tmp_path / "minimax.py").max_value(TreeGame(from_nested([[3, 12]])), "A")
    lines = student_traceback(error.value, [tmp_path])
    assert lines[-1].endswith("has no attribute 'is_terminal'. Did you mean: 'terminal_test'?")
    assert lines[-1].count("Did you mean") == 1
    with pytest.raises(AttributeError) as error:
        load_module(tmp_path / "minimax.py").max_value(object(), "A")
    assert student_traceback(error.value, [tmp_path])[-1].endswith("has no attribute 'is_terminal'")


def test_a_traceback_reads_the_same_on_every_python(tmp_path):
    """Frames are shown as Python 3.10 shows them (file, line, function, source line): no ``^``/``~`` marker line,
    which 3.11 draws under a subscript and 3.13 under a call, and which a careless Markdown reader takes for a fence."""
    (tmp_path / "minimax.py").write_text("def max_value(game, state):\n    return {}['v'] + helper(game)[0]\n\n"
                                         "def min_value(game, state):\n    return max_value(game, state) + 1\n",
                                         encoding="utf-8")
    with pytest.raises(KeyError) as error:
        load_module(tmp_path / "minimax.py").min_value(None, "A")
    lines = student_traceback(error.value, [tmp_path])
    assert len(lines) == 5 and lines[-1] == "KeyError: 'v'"
    assert [line.strip() for line in lines[1:4:2]] == ["return max_value(game, state) + 1",
                                                       "return {}['v'] + helper(game)[0]"]
    assert [line.split(", ")[1:] for line in lines[0:4:2]] == [["line 5", "in min_value"], ["line 2", "in max_value"]]


def test_an_attribute_error_that_will_not_say_its_name_gets_no_suggestion(tmp_path):
    class Odd(AttributeError):
        @property
        def name(self):
            raise RuntimeError("no")

    try:
        raise Odd("odd")
    except Odd as error:
        assert student_traceback(error, [tmp_path])[-1].endswith("odd")


def test_an_exception_the_traceback_module_cannot_describe_is_shown_by_its_type_and_text():
    """Python 3.13's traceback module asks an AttributeError for its ``name``: a student's property that raises
    there must not crash the feedback (here the standard function is made to fail on every version)."""
    import types

    from abkit.tracebacks import _exception_only

    def refuse(*args):
        raise RuntimeError("cannot")

    class Loud(Exception):
        def __str__(self):
            raise ValueError("no text")

    fake = types.SimpleNamespace(format_exception_only=refuse)
    assert _exception_only(fake, ValueError("odd")) == ["ValueError: odd\n"]
    assert _exception_only(fake, KeyError()) == ["KeyError\n"]
    assert _exception_only(fake, Loud())[0].endswith("Loud: <exception str() failed>\n")
    assert _exception_only(fake, Loud())[0].startswith("test_cli_details.")
