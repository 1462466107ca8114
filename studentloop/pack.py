"""``abkit pack``: the hand-in zip a student uploads, and the student id it is made for.

The zip holds the files a submission is graded by (each exercise's ``exercises/<name>.py``, and the Python
files beside them that they import, directly or through one another: contract §4), nothing else of the
course, and at its top the manifest (:mod:`abkit.manifest`): the kit version, the course id, the student id, when
it was made, each file's SHA-256 and the public tests' results, run as ``abkit check`` runs them. It is named
``<student id>.zip``, so that a folder of such zips is a class ``abkit grade`` reads as it is.

The student id is asked once and kept in the course folder (:data:`STUDENT_FILE`); ``--id`` sets it.
"""

from __future__ import annotations

import ast
import contextlib
import json
import os
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

from abkit.coursefolder import current_course
from abkit.errors import UsageError
from abkit.i18n import os_problem
from abkit.info import Course
from abkit.manifest import MANIFEST, manifest

from abkit.studentloop.report import find_course

#: where the student id is kept, relative to the course folder
STUDENT_FILE = Path(".abkit") / "student.toml"
#: a student id: letters (any script), digits and ``. _ @ + -``, not starting with a dot or a dash
_ID = re.compile(r"[^\W][\w.@+-]{0,63}\Z")
_STORED = re.compile(r'^id\s*=\s*"(.*)"\s*$', re.M)
HELPERS_MAX = 200  # Python files a hand-in holds at most (a runaway import graph, a virtualenv beside the stubs)


@dataclass
class Packed:
    """What :func:`pack` wrote: the zip, its files (relative to the course folder), per exercise (passed, total)."""

    path: Path
    files: list[str]
    results: dict[str, tuple[int, int]]


def valid_id(student: str) -> str:
    """``student`` stripped, if it can name a student (and their zip); UsageError saying what is allowed otherwise.

    >>> valid_id(" 2024-12345 "), valid_id("김민준"), valid_id("kim.mj@uni.ac.kr")
    ('2024-12345', '김민준', 'kim.mj@uni.ac.kr')
    """
    student = student.strip()
    if not _ID.match(student):
        raise UsageError("pack.bad_id", id=student)
    return student


def stored_id(root: Path) -> str | None:
    """The student id kept in the course folder at ``root``, or None (none kept, or not one that can name a student)."""
    try:
        found = _STORED.search((root / STUDENT_FILE).read_text(encoding="utf-8"))
        return valid_id(json.loads(f'"{found.group(1)}"')) if found else None
    except (OSError, UnicodeDecodeError, ValueError, UsageError):
        return None


def store_id(root: Path, student: str) -> Path:
    """Keep ``student`` in the course folder at ``root``; returns the file."""
    path = root / STUDENT_FILE
    try:
        path.parent.mkdir(exist_ok=True)
        path.write_text("# abkit pack: the student id this copy of the course hands in for\n"
                        f"id = {json.dumps(student, ensure_ascii=False)}\n", encoding="utf-8")
    except OSError as error:
        raise UsageError("pack.cannot_write", path=str(path), reason=os_problem(error)) from None
    return path


def handin_files(folder: Path, course: Course) -> list[Path]:
    """The files of ``folder`` a submission is graded by: each exercise's file that exists, then (sorted) the Python
    files beside them that they import, directly or through one another (a module ``m.py`` or a package folder
    ``m/``); paths relative to ``folder``."""
    chosen = [Path(e.file) for e in course.exercises if (folder / e.file).is_file()]
    seen = set(chosen)
    queue = list(chosen)
    while queue and len(seen) < HELPERS_MAX:
        for name in sorted(_imported(folder / queue.pop(0))):
            for found in _module_files(folder, name):
                if found not in seen and found.name != "conftest.py":
                    seen.add(found)
                    queue.append(found)
    helpers = sorted(seen - set(chosen), key=lambda p: p.as_posix())
    return chosen + helpers[: HELPERS_MAX - len(chosen)]


def _imported(path: Path) -> set[str]:
    """The top-level names of the modules the Python file at ``path`` imports (absolute imports; none if it does
    not parse: grading says why)."""
    try:
        tree = ast.parse(path.read_bytes(), filename=str(path))
    except (SyntaxError, ValueError, OSError):
        return set()
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def _module_files(folder: Path, name: str) -> list[Path]:
    """The files of module ``name`` beside the exercises: ``name.py``, or every Python file of the package ``name/``."""
    module = folder / f"{name}.py"
    if module.is_file():
        return [Path(module.name)]
    package = folder / name
    if package.is_dir() and not package.is_symlink():
        return sorted((p.relative_to(folder) for p in package.rglob("*.py")
                       if "__pycache__" not in p.parts and p.is_file() and not p.is_symlink()),
                      key=lambda p: p.as_posix())
    return []


def public_results(course: Course, folder: Path) -> dict[str, tuple[int, int]]:
    """Per exercise: how many of its public tests pass, of how many, run as ``abkit check`` runs them."""
    from abkit.studentloop.check import course_fixtures
    from abkit.studentloop.isolated import run_exercise

    fixtures = course_fixtures(course, current_course().public_fixtures)
    results = {}
    for exercise in course.exercises:
        outcome = run_exercise(course, exercise, folder, fixtures)
        results[exercise.name] = (sum(r.passed for r in outcome), len(outcome))
    return results


def pack(student: str, folder: Path | None = None, out: Path | None = None) -> Packed:
    """Write the hand-in zip of the student's files in ``folder`` (default: the course's ``exercises/``) to ``out``
    (default: ``<course>/<student>.zip``); UsageError when there is nothing to hand in or it cannot be written."""
    root = current_course().root
    course, folder = find_course(folder)  # as abkit check finds them (a folder that is none: a usage error)
    chosen = handin_files(folder, course)
    if not chosen:
        raise UsageError("pack.nothing", path=str(folder), names=", ".join(e.file for e in course.exercises))
    files = {f"exercises/{p.as_posix()}": (folder / p).read_bytes() for p in chosen}
    results = public_results(course, folder)
    data = json.dumps(manifest(student, files, results, course.rule), ensure_ascii=False, indent=1)
    out = Path(out) if out is not None else root / f"{student}.zip"
    temporary = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(temporary, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr(MANIFEST, data + "\n")
            for name, content in files.items():
                archive.writestr(name, content)
        os.replace(temporary, out)
    except OSError as error:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise UsageError("pack.cannot_write", path=str(out), reason=os_problem(error)) from None
    return Packed(out, list(files), results)
