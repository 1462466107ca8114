"""``abkit rubric check`` and the same check before ``abkit grade``: points no test awards, numbers out of range."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from abkit.cli.main import main
from abkit.grader.rubric import RubricError, default_rubric, load_rubric

RUBRIC = default_rubric().read_text(encoding="utf-8")


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "rubric.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _line_of(text: str, needle: str) -> int:
    return text.splitlines().index(needle) + 1


def test_the_kits_rubric_is_fine_and_its_maxima_are_printed(capsys):
    assert main(["--lang", "en", "rubric", "check"]) == 0
    out = capsys.readouterr().out
    # by hand from grader/rubric.yaml: 6+1+3, 3+4+1+2+1, 3+4+1, 6+3+1, 3+4+1+2
    assert "Maximum score 49: minimax 10, alphabeta 11, alphabeta_cutoff 8, expectimax 10, ordering 10." in out
    assert len(out.strip().splitlines()) == 1


def test_direct_points_for_the_cutoff_exercise_are_refused_with_their_line(tmp_path, capsys):
    text = RUBRIC.replace("  alphabeta_cutoff:\n", "  alphabeta_cutoff:\n    direct: 5\n", 1)
    path = _write(tmp_path, text)
    assert main(["--lang", "en", "rubric", "check", str(path)]) == 2
    err = capsys.readouterr().err
    line = _line_of(text, "    direct: 5")
    assert f"{path}:{line}: alphabeta_cutoff: no test awards direct points" in err
    assert "values, pruning, nodes" in err


def test_games_points_outside_alphabeta_and_orders_outside_ordering_are_refused(tmp_path, capsys):
    text = RUBRIC.replace("  minimax:\n", "  minimax:\n    games: 1\n    orders: 2\n", 1)
    path = _write(tmp_path, text)
    assert main(["--lang", "en", "rubric", "check", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}:{_line_of(text, '    games: 1')}: minimax: no test awards games points" in err
    assert f"{path}:{_line_of(text, '    orders: 2')}: minimax: no test awards orders points" in err


def test_direct_points_with_no_direct_tests_are_refused(tmp_path, capsys):
    text = RUBRIC.replace("direct_tests: 12", "direct_tests: 0", 1)
    path = _write(tmp_path, text)
    assert main(["--lang", "en", "rubric", "check", str(path)]) == 2
    err = capsys.readouterr().err
    assert "minimax: no test awards direct points" in err and "alphabeta: no test awards direct points" in err


@pytest.mark.parametrize("value", ["9" * 400, "1.0e+308", "10001", "10000.5"])
def test_points_out_of_range_are_refused_at_their_line(tmp_path, value):
    text = RUBRIC.replace("    values: 6\n", f"    values: {value}\n", 1)
    path = _write(tmp_path, text)
    with pytest.raises(RubricError) as caught:
        load_rubric(path)
    assert caught.value.line == _line_of(text, f"    values: {value}")
    assert "from 0 to 10,000" in caught.value.render("en")


def test_the_largest_points_are_taken(tmp_path):
    text = RUBRIC.replace("    values: 6\n", "    values: 10000\n", 1)
    assert load_rubric(_write(tmp_path, text)).max_score("minimax") == 10000 + 1 + 3


def test_grade_refuses_before_any_student_runs(tmp_path, capsys):
    text = RUBRIC.replace("    values: 6\n", "    values: 1.0e+308\n", 1)
    path = _write(tmp_path, text)
    out = tmp_path / "out"
    code = main(["--lang", "en", "grade", "examples/submissions", "--out", str(out), "--rubric", str(path)])
    assert code == 2
    assert not out.exists()  # nothing graded, nothing written
    assert re.search(rf"{re.escape(str(path))}:\d+: points must be a number", capsys.readouterr().err)


def test_korean_refusal(tmp_path, capsys):
    text = RUBRIC.replace("  alphabeta_cutoff:\n", "  alphabeta_cutoff:\n    direct: 5\n", 1)
    path = _write(tmp_path, text)
    assert main(["--lang", "ko", "rubric", "check", str(path)]) == 2
    assert "direct 항목의 점수를 주는 테스트가 없습니다" in capsys.readouterr().err
