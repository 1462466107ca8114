"""The layout docs/architecture.md draws is the one the code has.

Every import of the kit's parts is read with ``ast`` (lazy imports inside functions included) and held against
the page's table of what each part may import; no import runs in a circle; each part's README names every module
it holds; no class is longer than 200 lines and no function than 60. A module is named here as the repository
lays it out (``grader.testplan``, ``abkit.fixture``); installed, every part but the core is inside ``abkit``
(``abkit.grader.testplan``: ``setup.py``).
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

from abkit.kitcode import PARTS
from abkit.loading import KIT_ROOT

PAGE = KIT_ROOT / "docs" / "architecture.md"
MAX_CLASS, MAX_FUNCTION = 200, 60


@cache
def allowed() -> dict[str, frozenset[str]]:
    """The page's table: package (a folder, ``cli/student`` for a group) -> what it may import besides itself."""
    table = PAGE.read_text(encoding="utf-8").split("<!-- imports -->")[1]  # between the two markers
    rules = {}
    for row in table.strip().splitlines()[2:]:
        cells = [c.strip() for c in row.strip("|").split("|")]
        package = cells[0].strip("`/").replace("/", ".")
        rules[package] = frozenset(re.findall(r"`([\w.]+)/?`", cells[-1]))
    return rules


def packages() -> list[str]:
    return sorted(allowed())


def folders() -> list[str]:
    """The kit's top-level folders of code: the core and its parts."""
    return ["abkit", *PARTS]


def modules(folder: str) -> list[tuple[str, Path]]:
    """(name as the repository lays it out, path) of every module under ``folder``; ``default_course`` (a built
    wheel's data) left out."""
    found = []
    for path in sorted((KIT_ROOT / folder).rglob("*.py")):
        relative = path.relative_to(KIT_ROOT).with_suffix("")
        if "default_course" in relative.parts:
            continue
        parts = relative.parts[:-1] if relative.name == "__init__" else relative.parts
        found.append((".".join(parts), path))
    return found


def every_module() -> list[tuple[str, Path]]:
    return [m for folder in folders() for m in modules(folder)]


def local(dotted: str) -> str:
    """An installed name as the repository lays it out: ``abkit.grader.rubric`` -> ``grader.rubric``."""
    parts = dotted.split(".")
    return ".".join(parts[1:]) if len(parts) > 1 and parts[0] == "abkit" and parts[1] in PARTS else dotted


@cache
def imports(name: str, path: Path) -> frozenset[str]:
    """Every module of the kit that ``name`` imports, anywhere in it (at the top, or in a function when it runs)."""
    found = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(local(alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = local(node.module or "")
            if node.level:
                up = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                base = ".".join(up + ([base] if base else []))
            found.update(f"{base}.{alias.name}" for alias in node.names)
            found.add(base)
    return frozenset(_module(dotted) for dotted in found if dotted.split(".")[0] in folders())


def _module(dotted: str) -> str:
    """The module a dotted import name ends in (``grader.rubric.EXERCISES`` -> ``grader.rubric``)."""
    parts = dotted.split(".")
    for n in range(len(parts), 0, -1):
        place = KIT_ROOT.joinpath(*parts[:n])
        if place.with_suffix(".py").is_file() or (place / "__init__.py").is_file():
            return ".".join(parts[:n])
    return dotted


def row_of(name: str) -> str:
    """The table's row a module is held to: the longest package of the table it lies in."""
    return max((p for p in packages() if name == p or name.startswith(p + ".")), key=len)


def within(target: str, rule: str) -> bool:
    return target == rule or target.startswith(rule + ".")


def test_the_page_names_every_part_of_the_kit_and_the_build_ships_them():
    assert {p.split(".")[0] for p in packages()} == set(folders())
    pyproject = (KIT_ROOT / "pyproject.toml").read_text(encoding="utf-8")
    coverage = re.search(r'\[tool.coverage.run\][^\[]*source = \[(.*)\]', pyproject).group(1)
    assert set(folders()) <= set(re.findall(r'"(\w+)"', coverage))
    assert "packages=PACKAGES, package_dir=PACKAGE_DIR" in (KIT_ROOT / "setup.py").read_text(encoding="utf-8")
    assert allowed()["abkit"] == frozenset()
    assert {"cli", "cli.student", "cli.instructor", "cli.course"} <= set(packages())


@pytest.mark.parametrize("package", packages())
def test_each_package_imports_only_what_the_page_allows(package):
    """A package imports the core, the pieces the page names and its own modules, nothing else; no exemption."""
    rules = allowed()[package]
    wrong = [f"{name} imports {target}" for name, path in every_module() if row_of(name) == package
             for target in sorted(imports(name, path))
             if not (within(target, package) or any(within(target, rule) for rule in rules))]
    assert not wrong, "docs/architecture.md does not allow: " + "; ".join(wrong)


def test_the_allowed_imports_are_all_used():
    """A rule of the page that no import needs is an untruth about the layout."""
    for package, rules in allowed().items():
        used = {t for name, path in every_module() if row_of(name) == package for t in imports(name, path)}
        for rule in rules:
            assert any(within(t, rule) for t in used), f"{package} never imports {rule}"


def test_no_import_runs_in_a_circle():
    """Neither between modules (lazy imports included) nor between the table's packages."""
    graph = {name: {t for t in imports(name, path) if t != name} for name, path in every_module()}
    circles = [c for c in _strongly_connected(graph) if len(c) > 1]
    assert not circles, "circles: " + "; ".join(" <-> ".join(sorted(c)) for c in circles)
    by_package = {p: {row_of(t) for name in graph if row_of(name) == p for t in graph[name]} - {p} for p in packages()}
    circles = [c for c in _strongly_connected(by_package) if len(c) > 1]
    assert not circles, "packages in a circle: " + "; ".join(" <-> ".join(sorted(c)) for c in circles)


def _strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's strongly connected components of ``graph`` (node -> its successors)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = set()
            while True:
                top = stack.pop()
                component.add(top)
                if top == node:
                    break
            found.append(component)

    for node in graph:
        if node not in index:
            visit(node)
    return found


def test_nothing_but_the_command_line_imports_it():
    for name, path in every_module():
        if not within(name, "cli"):
            assert not any(within(t, "cli") for t in imports(name, path)), name


def test_the_command_line_loads_only_the_core_until_a_command_runs():
    """The command line's modules import a path's modules inside the command that needs them (a fast
    ``abkit --help``, and a plain ``abkit check`` that imports no parser)."""
    for name, path in modules("cli"):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("abkit."):
                assert local(node.module).split(".")[0] in ("abkit", "cli"), f"{name} imports {node.module}"


@pytest.mark.parametrize("folder", folders())
def test_each_part_has_a_readme_naming_every_module(folder):
    readme = (KIT_ROOT / folder / "README.md").read_text(encoding="utf-8")
    for name, path in modules(folder):
        if path.name == "__init__.py" and path.parent == KIT_ROOT / folder:
            continue
        shown = path.relative_to(KIT_ROOT / folder).as_posix()
        if path.name == "__init__.py":
            shown = path.parent.relative_to(KIT_ROOT / folder).as_posix() + "/"
        assert shown in readme, f"{folder}/README.md does not name {shown}"


def test_the_readme_layout_shows_each_part():
    readme = (KIT_ROOT / "README.md").read_text(encoding="utf-8")
    layout = readme.split("## Layout")[1].split("\n## ")[0]
    for folder in folders():
        assert re.search(rf"^{folder}/ ", layout, re.M), folder


def sizes():
    """(where, kind, lines) of every class and function of the kit."""
    for name, path in every_module():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                kind = "class" if isinstance(node, ast.ClassDef) else "function"
                yield f"{path.relative_to(KIT_ROOT)}:{node.lineno} {node.name}", kind, node.end_lineno - node.lineno + 1


def test_no_class_over_200_lines_and_no_function_over_60():
    long = [f"{where} ({kind}, {n} lines)" for where, kind, n in sizes()
            if n > (MAX_CLASS if kind == "class" else MAX_FUNCTION)]
    assert not long, "split these: " + "; ".join(long)
    assert sum(1 for _, kind, _ in sizes() if kind == "class") > 50  # the measure sees the kit
