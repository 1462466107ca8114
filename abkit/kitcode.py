"""Where the kit's code is. The repository keeps one folder per part (``abkit/`` the core, ``cli/``, ``grader/``,
...); installed, the kit is the one package ``abkit``, each part a package inside it (``abkit.grader``, ...): the
build maps each folder to its name (``setup.py``). Code that copies or confines the kit's code asks here."""

from __future__ import annotations

import ast
from importlib.util import find_spec
from pathlib import Path

#: the kit's parts beside the core, each installed as ``abkit.<part>`` from the repository's folder of that name
PARTS = ("cli", "grader", "handouts", "authoring", "studentloop", "stepthrough", "reference")


def part_folder(part: str = "") -> Path | None:
    """The folder of the kit's ``part`` (``""``: the core) in this installation, or None where it is not installed
    (the student edition has no ``grader``)."""
    spec = find_spec(f"abkit.{part}" if part else "abkit")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))

def imported_by(name: str) -> set[str]:
    """The kit's modules (``abkit...``) module ``name`` imports anywhere in its file, at its top or in a function."""
    spec = find_spec(name)
    tree = ast.parse(Path(spec.origin).read_text(encoding="utf-8"))
    package = name if Path(spec.origin).name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names if _is_module(f"{base}.{alias.name}"))
    return {module for module in found if module == "abkit" or module.startswith("abkit.")}
def _is_module(name: str) -> bool:
    try:
        return name.startswith("abkit.") and find_spec(name) is not None
    except (ImportError, ValueError):
        return False
def part_of(module: str) -> str:
    """The kit's part ``module`` belongs to (``""``: the core)."""
    second = module.split(".")[1] if "." in module else ""
    return second if second in PARTS else ""


def imported_modules(entries: list[str], stop: tuple[str, ...] = ()) -> dict[str, str]:
    """Every module of the kit ``entries`` import, followed from module to module (read from their files: what runs
    is what they say), each with the module found to import it first; the modules of a part in ``stop`` are listed
    but not followed."""
    seen: dict[str, str] = {}
    todo = [(name, name) for name in entries]
    while todo:
        module, importer = todo.pop()
        if module in seen:
            continue
        seen[module] = importer
        if part_of(module) not in stop:
            todo += [(name, module) for name in imported_by(module) if name not in seen]
    return seen


def part_files(part: str) -> list[tuple[str, Path]]:
    """Every file of the kit's ``part`` (``""``: the core) that an installation holds, ``(path as installed, source)``:
    code, messages, the step-through pages' script and style; of the core neither a part installed inside it nor the
    packaged course (an installed kit holds both in the core's folder)."""
    folder = part_folder(part)
    target = f"abkit/{part}" if part else "abkit"
    files = []
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        top = relative.parts[0] if len(relative.parts) > 1 else ""
        if path.is_file() and path.suffix in (".py", ".yaml", ".js", ".css") and "__pycache__" not in relative.parts \
                and (part or top in ("", "messages")):
            files.append((f"{target}/{relative.as_posix()}", path))
    return files
