"""The kit's code does what it reads as: no module put into ``sys.modules`` in place of another, no class or
function built from source text with ``exec``.

Every file of the core and its parts is read with ``ast``. Two uses are the kit's job and are allowed, each for
the one function that does it: loading a Python file as a fresh module (``abkit.loading.load_module`` registers
the module it loads under its own new name, as ``importlib``'s recipe does) and running a mutant of a reference
solution as a module (``grader.mistakes.mutant``: the mutant's source is the kit's own, made from a solution).
"""

from __future__ import annotations

import ast
from pathlib import Path

from abkit.kitcode import PARTS
from abkit.loading import KIT_ROOT

#: (file, function) -> the one trick it may use, and why
ALLOWED = {
    ("abkit/loading.py", "load_module"): "sys.modules",  # a file loaded as a new module, under its own name
    ("grader/mistakes.py", "fresh_mutant"): "exec",  # a mutant of a reference solution, run as a module
}


def tricks(source: str) -> list[tuple[str, str, int]]:
    """(kind, enclosing function, line) of every ``sys.modules[...] = ...``, ``sys.modules.update/setdefault``,
    ``exec(...)`` and ``eval(...)`` in ``source``."""
    found = []

    def visit(node: ast.AST, function: str) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            function = node.name
        kind = _kind(node)
        if kind:
            found.append((kind, function, node.lineno))
        for child in ast.iter_child_nodes(node):
            visit(child, function)

    visit(ast.parse(source), "")
    return found


def _kind(node: ast.AST) -> str:
    if isinstance(node, ast.Assign) and any(_is_sys_modules(t.value) for t in node.targets
                                            if isinstance(t, ast.Subscript)):
        return "sys.modules"
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name) and node.func.id in ("exec", "eval"):
            return "exec"
        if isinstance(node.func, ast.Attribute) and node.func.attr in ("update", "setdefault", "__setitem__") \
                and _is_sys_modules(node.func.value):
            return "sys.modules"
    return ""


def _is_sys_modules(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "modules" and isinstance(node.value, ast.Name) \
        and node.value.id in ("sys", "_sys")


def kit_files() -> list[Path]:
    return [p for folder in ("abkit", *PARTS) for p in sorted((KIT_ROOT / folder).rglob("*.py"))
            if "default_course" not in p.parts]


def test_no_stand_in_modules_and_no_code_built_from_text():
    found = []
    for path in kit_files():
        name = path.relative_to(KIT_ROOT).as_posix()
        for kind, function, line in tricks(path.read_text(encoding="utf-8")):
            if ALLOWED.get((name, function)) != kind:
                found.append(f"{name}:{line} ({function or 'module level'}): {kind}")
    assert not found, "\n".join(found)


def test_the_allowed_uses_are_still_there():
    """An allowance whose use is gone is dropped from ALLOWED, not kept as a hole."""
    for (name, function), kind in ALLOWED.items():
        assert (kind, function) in {(k, f) for k, f, _ in tricks((KIT_ROOT / name).read_text(encoding="utf-8"))}


def test_the_scan_finds_each_trick():
    planted = '''
import sys, types
sys.modules["inspect"] = types.ModuleType("inspect")
def build():
    exec("class A: pass", {})
    sys.modules.setdefault("x", None)
    return eval("1")
'''
    assert [(kind, function) for kind, function, _ in tricks(planted)] == [
        ("sys.modules", ""), ("exec", "build"), ("sys.modules", "build"), ("exec", "build")]
