"""The kit's code the student edition ships: the student's commands (``cli/student/``, with the command line's own
modules) and every part of the kit they import, each copied whole, laid out as installed (``abkit/`` the core,
``abkit/cli/``, ``abkit/studentloop/``, ...).

Which parts that is, is read from the code, not kept by hand: the imports of the student's commands, followed from
module to module (:func:`abkit.kitcode.imported_modules`). The grading pipeline, the course tools and the handouts
must not be among them (:data:`NEVER`); the reference loader is imported only where a course holds solutions, which
the edition has none of, and is left out (:data:`WHERE_SOLUTIONS_ARE`).
"""

from __future__ import annotations

from pathlib import Path

from abkit.kitcode import imported_modules, part_files, part_folder, part_of

#: the parts no student command may import: the edition ships no grading code, no course tools, no handout builder
NEVER = ("grader", "authoring", "handouts")
#: the part a student's command imports only when the course folder holds the reference solutions
#: (:func:`abkit.studentloop.fixturetrace.has_reference`), which the edition does not: left out with them
WHERE_SOLUTIONS_ARE = ("reference",)
#: the command line's groups that are not the student's: left out
OTHER_GROUPS = ("instructor", "course")


class ImportsTooMuch(RuntimeError):
    """A student's command imports a part of the kit the edition must not hold (a defect of the kit itself)."""


def entry_modules() -> list[str]:
    """The modules a student's command starts from: the command line's own and each command of ``cli/student/``."""
    cli = part_folder("cli")
    names = ["abkit.cli"] + [f"abkit.cli.{p.stem}" for p in sorted(cli.glob("*.py")) if p.stem != "__init__"]
    return names + ["abkit.cli.student"] + [f"abkit.cli.student.{p.stem}" for p in sorted((cli / "student").glob("*.py"))
                                            if p.stem != "__init__"]


def imported_parts() -> list[str]:
    """The parts of the kit the student's commands import (``""``: the core) that the edition ships;
    :class:`ImportsTooMuch` if one of :data:`NEVER` is among them."""
    modules = imported_modules(entry_modules(), stop=NEVER + WHERE_SOLUTIONS_ARE)
    parts: list[str] = []
    for module, importer in modules.items():
        part = part_of(module)
        if part in NEVER:
            raise ImportsTooMuch(f"{importer} imports {module}: the student edition ships no abkit.{part}")
        if part not in parts and part not in WHERE_SOLUTIONS_ARE:
            parts.append(part)
    return parts


def edition_files() -> list[tuple[str, Path]]:
    """The kit's files the edition ships, ``(path in the edition, source)``: each part the student's commands
    import, whole (:func:`imported_parts`), but the command line's other groups."""
    return [(relative, source) for part in imported_parts() for relative, source in part_files(part)
            if not (part == "cli" and relative.split("/")[2] in OTHER_GROUPS)]
