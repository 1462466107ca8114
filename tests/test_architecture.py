"""The layout docs/architecture.md draws is the one the code has.

Every import of the kit's packages is read with ``ast`` (lazy imports inside functions included) and held against
the page's table of what each package may import; each package's README names every module it holds; no class is
longer than 200 lines and no function than 60.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from abkit.loading import KIT_ROOT

PAGE = KIT_ROOT / "docs" / "architecture.md"
#: the command line: the layer above every path (``abkit``'s entry point is the documented ``grader.cli:script``)
CLI = ("grader.cli", "grader.arguments", "grader.__main__", "grader.commands")
MAX_CLASS, MAX_FUNCTION = 200, 60


def allowed() -> dict[str, set[str]]:
    """The page's table: package -> the packages and modules it may import besides its own."""
    table = PAGE.read_text(encoding="utf-8").split("<!-- imports -->")[1]  # between the two markers
    rules = {}
    for row in table.strip().splitlines()[2:]:
        cells = [c.strip() for c in row.strip("|").split("|")]
        package = cells[0].strip("`/")
        rules[package] = set(re.findall(r"`([\w.]+)/?`", cells[-1]))
    return rules


def packages() -> list[str]:
    return sorted(allowed())


def modules(package: str) -> list[tuple[str, Path]]:
    """(dotted name, path) of every module of ``package``; ``default_course`` (a built wheel's data) left out."""
    found = []
    for path in sorted((KIT_ROOT / package).rglob("*.py")):
        relative = path.relative_to(KIT_ROOT).with_suffix("")
        if "default_course" in relative.parts:
            continue
        parts = relative.parts[:-1] if relative.name == "__init__" else relative.parts
        found.append((".".join(parts), path))
    return found


def imports(name: str, path: Path) -> set[str]:
    """Every module of the kit that ``name`` imports, anywhere in it (at the top, or in a function when it runs)."""
    kit = set(packages())
    found = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                base = ".".join(up + ([base] if base else []))
            found.update(f"{base}.{alias.name}" for alias in node.names)
            found.add(base)
    return {_module(dotted) for dotted in found if dotted.split(".")[0] in kit}


def _module(dotted: str) -> str:
    """The module a dotted import name ends in (``grader.rubric.EXERCISES`` -> ``grader.rubric``)."""
    parts = dotted.split(".")
    for n in range(len(parts), 0, -1):
        place = KIT_ROOT.joinpath(*parts[:n])
        if place.with_suffix(".py").is_file() or (place / "__init__.py").is_file():
            return ".".join(parts[:n])
    return dotted


def is_cli(name: str) -> bool:
    return any(name == c or name.startswith(c + ".") for c in CLI)


def test_the_page_names_every_package_of_the_kit():
    pyproject = (KIT_ROOT / "pyproject.toml").read_text(encoding="utf-8")
    shipped = set(re.findall(r'"(\w+)\*"', re.search(r"\[tool.setuptools.packages.find\]\ninclude = \[(.*)\]",
                                                       pyproject).group(1)))
    assert shipped == set(packages())
    coverage = re.search(r'\[tool.coverage.run\][^\[]*source = \[(.*)\]', pyproject).group(1)
    assert set(packages()) <= set(re.findall(r'"(\w+)"', coverage))
    assert len(packages()) >= 4 and "abkit" in packages() and allowed()["abkit"] == set()


@pytest.mark.parametrize("package", packages())
def test_each_package_imports_only_what_the_page_allows(package):
    """A path's package imports the core, the shared pieces the page names and its own modules, nothing else;
    only the command line (grader/cli.py, grader/commands/) imports every path."""
    rules = allowed()
    wrong = []
    for name, path in modules(package):
        if is_cli(name):
            continue
        for target in sorted(imports(name, path)):
            top = target.split(".")[0]
            ok = top == package and not is_cli(target) or top in rules[package] or target in rules[package] \
                or any(target.startswith(rule + ".") for rule in rules[package])
            if not ok:
                wrong.append(f"{name} imports {target}")
    assert not wrong, "docs/architecture.md does not allow: " + "; ".join(wrong)


def test_the_allowed_imports_are_all_used():
    """A rule of the page that no import needs is an untruth about the layout."""
    rules = allowed()
    for package, allowed_here in rules.items():
        used = {target for name, path in modules(package) if not is_cli(name) for target in imports(name, path)}
        for rule in allowed_here:
            assert any(t == rule or t.startswith(rule + ".") for t in used), f"{package} never imports {rule}"


def test_the_core_and_the_shared_pieces_import_no_path():
    for package in ("abkit", "stepthrough"):
        for name, path in modules(package):
            assert {t.split(".")[0] for t in imports(name, path)} <= {"abkit", package}, name


def test_no_package_imports_the_command_line():
    for package in packages():
        for name, path in modules(package):
            if not is_cli(name):
                assert not any(is_cli(t) for t in imports(name, path)), name


def test_the_command_line_loads_only_the_core_until_a_command_runs():
    """grader/cli.py and grader/commands/ import a path's modules inside the command that needs them (a fast
    ``abkit --help``; the Gradescope bundle, which carries abkit/ and grader/ only, loads the command line too)."""
    for name, path in modules("grader"):
        if not is_cli(name):
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in packages():
                assert node.module.split(".")[0] == "abkit" or is_cli(node.module), f"{name} imports {node.module}"


@pytest.mark.parametrize("package", packages())
def test_each_package_has_a_readme_naming_every_module(package):
    readme = (KIT_ROOT / package / "README.md").read_text(encoding="utf-8")
    for name, path in modules(package):
        if path.name == "__init__.py" or is_cli(name) and name != "grader.cli":
            continue
        shown = path.relative_to(KIT_ROOT / package).as_posix()
        assert shown in readme, f"{package}/README.md does not name {shown}"


def test_the_readme_layout_shows_each_package():
    readme = (KIT_ROOT / "README.md").read_text(encoding="utf-8")
    layout = readme.split("## Layout")[1].split("\n## ")[0]
    for package in packages():
        assert re.search(rf"^{package}/ ", layout, re.M), package


def sizes():
    """(where, kind, lines) of every class and function of the kit."""
    for package in packages():
        for name, path in modules(package):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                    kind = "class" if isinstance(node, ast.ClassDef) else "function"
                    yield f"{path.relative_to(KIT_ROOT)}:{node.lineno} {node.name}", kind, \
                        node.end_lineno - node.lineno + 1


def test_no_class_over_200_lines_and_no_function_over_60():
    long = [f"{where} ({kind}, {n} lines)" for where, kind, n in sizes()
            if n > (MAX_CLASS if kind == "class" else MAX_FUNCTION)]
    assert not long, "split these: " + "; ".join(long)
    assert sum(1 for _, kind, _ in sizes() if kind == "class") > 50  # the measure sees the kit
