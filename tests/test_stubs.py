"""The student stubs are generated from solutions/ and keep nothing of the solution."""

from __future__ import annotations

import ast
import re

import pytest

from abkit.loading import EXERCISES, SOLUTIONS, load_module
from abkit.info import load_info
from abkit.authoring.stubs import BEGIN, END, MarkerError, drifted, make_stub, stub_pairs

NAMES = load_info(EXERCISES / "info.yaml").names()


def solution_blocks(name: str) -> list[str]:
    """The code between the markers of solutions/<name>.py, one string per block."""
    blocks, current = [], None
    for line in (SOLUTIONS / f"{name}.py").read_text(encoding="utf-8").splitlines():
        if line.strip() == BEGIN:
            current = []
        elif line.strip() == END:
            blocks.append("\n".join(current))
            current = None
        elif current is not None:
            current.append(line)
    return blocks


def test_committed_stubs_are_what_the_generator_writes(abkit):
    assert drifted(stub_pairs(SOLUTIONS, EXERCISES, NAMES)) == []
    run = abkit("stubs", "--check", "--lang", "en")
    assert run.status == 0 and "5 stubs checked, 0 out of date." in run.out


def test_a_drifted_stub_is_reported_and_rewritten(abkit, tmp_path, monkeypatch):
    import abkit.authoring.stubs as stubs
    folder = tmp_path / "exercises"
    folder.mkdir()
    (folder / "minimax.py").write_text("# edited by hand\n", encoding="utf-8")
    monkeypatch.setattr("abkit.coursefolder.CourseFolder.exercises", property(lambda course: folder))
    (folder / "info.yaml").write_text((EXERCISES / "info.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    run = abkit("stubs", "--check", "--lang", "en")
    assert run.status == 1 and f"{folder / 'minimax.py'} differs" in run.out and "5 out of date" in run.out
    run = abkit("stubs", "--lang", "en")
    assert run.status == 0 and f"wrote {folder / 'alphabeta.py'}" in run.out
    assert drifted(stubs.stub_pairs(SOLUTIONS, folder, NAMES)) == []


@pytest.mark.parametrize("name", NAMES)
def test_a_stub_keeps_no_line_of_the_solution(name):
    stub = (EXERCISES / f"{name}.py").read_text(encoding="utf-8")
    code_lines = {line.strip() for block in solution_blocks(name) for line in block.splitlines()
                  if line.strip() and not line.strip().startswith("#")}
    stub_code = {line.strip() for line in stub.splitlines()}
    assert code_lines and code_lines & stub_code <= {"return v"}  # the pseudocode's own last line
    assert "PRUNE_ON_EQUALITY" not in stub and "SOLUTION" not in stub


@pytest.mark.parametrize("name", NAMES)
def test_every_stub_function_is_a_docstring_a_todo_and_raise(name):
    tree = ast.parse((EXERCISES / f"{name}.py").read_text(encoding="utf-8"))
    functions = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    expected = next(e for e in load_info(EXERCISES / "info.yaml").exercises if e.name == name).functions
    assert [f.name for f in functions] == list(expected)
    for function in functions:
        doc = ast.get_docstring(function)
        assert re.match(r"[A-Z]+(-[A-Z]+)*\(", doc), doc  # it opens with the textbook's name: MAX-VALUE(state, ...)
        if name in ("minimax", "alphabeta"):
            assert "TERMINAL-TEST(state)" in doc and "return" in doc
        assert [type(s).__name__ for s in function.body] == ["Expr", "Raise"]


def test_a_stub_raises_not_implemented_error_named_after_its_function():
    module = load_module(EXERCISES / "alphabeta.py")
    with pytest.raises(NotImplementedError, match="min_value"):
        module.min_value(None, "A", 0, 1)


@pytest.mark.parametrize("source,problem", [
    ("def f():\n    # BEGIN SOLUTION\n    return 1\n", "never closed"),
    ("def f():\n    return 1\n    # END SOLUTION\n", "without"),
    ("def f():\n    # BEGIN SOLUTION\n    # BEGIN SOLUTION\n", "inside another"),
])
def test_unpaired_markers_are_refused(source, problem):
    with pytest.raises(MarkerError, match=problem):
        make_stub(source, header=[], todo=[])


def test_module_level_blocks_vanish_and_one_line_docstrings_get_the_header():
    text = make_stub('"""One line."""\n\n# BEGIN SOLUTION\nSECRET = 1\n# END SOLUTION\n\n\n\nX = 2\n',
                     header=["Do it."], todo=[])
    assert text == '"""One line.\n\nDo it.\n"""\n\n\nX = 2\n'
    assert make_stub("X = 1\n", header=["H"], todo=[]) == "X = 1\n"
