"""Which commands this installation of ``abkit`` has: those of the groups of :mod:`abkit.cli` that are present.

The full kit has the three groups; the student edition (``abkit release student``) ships ``student/`` alone, and its
parser, help and "invalid choice" know only those commands."""

from __future__ import annotations

from functools import cache
from importlib import import_module
from importlib.machinery import PathFinder

#: the groups, in the order ``abkit --help`` lists their commands
GROUPS = ("student", "instructor", "course")


@cache
def commands() -> dict[str, str]:
    """Every command present, in help order, mapped to the module that registers and runs it."""
    from abkit import cli

    found: dict[str, str] = {}
    for group in GROUPS:
        package = f"abkit.cli.{group}"
        if PathFinder.find_spec(package, cli.__path__) is None:  # a folder of this command line's own
            continue
        for name in import_module(package).COMMANDS:
            found[name] = f"{package}.{name}"
    return found


def student_edition() -> bool:
    """Whether this is the student edition: the student's commands alone (no grading, no handouts)."""
    return set(commands()) == set(import_module("abkit.cli.student").COMMANDS)
