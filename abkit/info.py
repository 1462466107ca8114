"""The exercises' metadata file, ``exercises/info.yaml``: their order, titles, hints and tests.

One file fixes the learner's path, as rustlings' ``info.toml`` does; the
comment at its top documents every field. A file that cannot be used raises
:class:`InfoError` with a translatable message (the CLI exits 2).
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field
from pathlib import Path

from abkit.algorithms import Algorithm
from abkit.cache import cached
from abkit.errors import UsageError
from abkit.i18n import LANGS, Message, os_problem

RULES = {"aima": True, "cs188": False}


class InfoError(UsageError):
    """``exercises/info.yaml`` is missing a field or holds a wrong one."""

    def __init__(self, path: Path, problem: str, /, **params: object) -> None:
        super().__init__("info.bad", path=str(path), problem=Message(f"info.problem.{problem}", **params))


@dataclass(frozen=True)
class Exercise:
    """One exercise.

    name: its file stem (``exercises/<name>.py``); algorithm: the search its tests run;
    functions: what the file must define; title and hints: per language (hints staged);
    fixtures: glob patterns under ``fixtures/public/``; direct: also test
    ``max_value``/``min_value`` called directly (:func:`abkit.expected.direct_tests`: the calls grading makes on
    the public trees); play: also play whole
    tic-tac-toe games with the exercise's search (against a seeded random player and itself).
    """

    name: str
    algorithm: Algorithm
    functions: tuple[str, ...]
    title: dict[str, str]
    hints: dict[str, list[str]]
    fixtures: tuple[str, ...] = ("*.yaml",)
    direct: bool = False
    play: bool = False

    @property
    def file(self) -> str:
        return f"{self.name}.py"

    def label(self, lang: str) -> str:
        return self.title.get(lang) or self.title.get("en") or self.name

    def uses(self, fixture_file: str) -> bool:
        """Whether the public fixture with this file name is one of this exercise's tests."""
        return any(fnmatch.fnmatch(fixture_file, pattern) for pattern in self.fixtures)


@dataclass(frozen=True)
class Course:
    """The whole file: the cut-off rule, the time limit per test, the exercises in order.

    prune_on_equality: True for the AIMA rule, False for CS188's.
    hidden: exercise name -> how many hidden trees grading adds (written by
    ``abkit release``; in the full kit it is counted from ``fixtures/hidden/``).
    memory_limit: megabytes the student's code may add while ``abkit check`` runs it (:mod:`abkit.studentloop.limits`).
    """

    prune_on_equality: bool
    time_limit: float
    exercises: tuple[Exercise, ...]
    hidden: dict[str, int] = field(default_factory=dict)
    memory_limit: float = 1024

    @property
    def rule(self) -> str:
        return "aima" if self.prune_on_equality else "cs188"

    def names(self) -> list[str]:
        return [e.name for e in self.exercises]

    def get(self, name: str) -> Exercise | None:
        return next((e for e in self.exercises if e.name == name), None)


def load_info(path: Path) -> Course:
    """Read and check ``info.yaml`` at ``path`` (through the kit's cache, :mod:`abkit.cache`: parsed again only
    when the file or the course's marker changed). The cut-off rule is the course's (``rule`` in the
    ``abkit-course.toml`` of the course holding ``path``, :func:`abkit.coursefolder.course_rule`)."""
    from abkit.coursefolder import MARKER, course_rule, find_course

    course = find_course(Path(path).parent)
    marker = course.root / MARKER if course is not None else None
    rule = course_rule(course.root) if course is not None else "aima"
    return cached("info", [path, *([marker] if marker else [])], lambda: _read_info(path, rule, marker),
                  key=rule)


def _read_info(path: Path, course_rule: str = "aima", marker: Path | None = None) -> Course:
    import yaml

    from abkit.yamlsafe import parser_problem

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise InfoError(path, "unreadable", reason=os_problem(error)) from None
    except yaml.YAMLError as error:
        raise InfoError(path, "unreadable", reason=parser_problem(error)) from None
    if not isinstance(data, dict) or not isinstance(data.get("exercises"), list) or not data["exercises"]:
        raise InfoError(path, "exercises")
    if "rule" in data and data["rule"] != course_rule:  # the course sets the rule; an older info.yaml repeats it
        raise UsageError("info.rule_conflict", path=str(path), line=_line_of_key(path, "rule"), found=data["rule"],
                         course=course_rule, marker=str(marker or "abkit-course.toml"))
    limit = data.get("time_limit", 2)
    if isinstance(limit, bool) or not isinstance(limit, (int, float)) or limit <= 0:
        raise InfoError(path, "time_limit", limit=limit)
    memory = data.get("memory_limit", 1024)
    if isinstance(memory, bool) or not isinstance(memory, (int, float)) or memory < 16:
        raise InfoError(path, "memory_limit", limit=memory)
    exercises = tuple(_exercise(path, k, entry, course_rule) for k, entry in enumerate(data["exercises"], 1))
    names = [e.name for e in exercises]
    if len(set(names)) != len(names):
        raise InfoError(path, "duplicate")
    hidden = data.get("hidden") or {}
    return Course(RULES[course_rule], float(limit), exercises, {str(k): int(v) for k, v in hidden.items()}, float(memory))


def _ruled(hint: object, rule: str) -> str | None:
    """A hint as text under the course's ``rule``: a plain hint, or the ``rule`` entry of a hint given per rule
    (which must give both rules); None when it is neither."""
    if isinstance(hint, dict):
        return str(hint[rule]) if set(hint) == set(RULES) and all(isinstance(h, str) for h in hint.values()) else None
    return None if isinstance(hint, (list, type(None))) else str(hint)


def _line_of_key(path: Path, key: str) -> int:
    """The line of the top-level ``key:`` in the YAML file at ``path`` (1 when it is not found on a line of its own)."""
    import re

    lines = path.read_text(encoding="utf-8").splitlines()
    return next((n for n, line in enumerate(lines, 1) if re.match(rf"{key}\s*:", line)), 1)


def _exercise(path: Path, number: int, entry: object, rule: str = "aima") -> Exercise:
    """One entry of ``exercises:``, checked; a hint that states the cut-off rule is a mapping ``{aima: ..., cs188:
    ...}``, of which the course's ``rule`` is kept."""
    if not isinstance(entry, dict) or not isinstance(entry.get("name"), str) or not entry["name"].isidentifier():
        raise InfoError(path, "name", number=number)
    name = entry["name"]
    algorithm = Algorithm.named(entry.get("algorithm"))
    if algorithm is None:
        raise InfoError(path, "algorithm", name=name, choices=", ".join(Algorithm.names()))
    hints = entry.get("hints") or {}
    if not isinstance(hints, dict) or any(not isinstance(hints.get(lang), list) or not hints[lang] for lang in LANGS) \
            or len({len(hints[lang]) for lang in LANGS}) != 1:
        raise InfoError(path, "hints", name=name)
    hints = {lang: [_ruled(hint, rule) for hint in hints[lang]] for lang in LANGS}
    if any(hint is None for lang in LANGS for hint in hints[lang]):
        raise InfoError(path, "hints", name=name)
    title = entry.get("title") or {}
    if not isinstance(title, dict) or any(not isinstance(title.get(lang), str) for lang in LANGS):
        raise InfoError(path, "title", name=name)
    fixtures = entry.get("fixtures", ["*.yaml"])
    return Exercise(entry["name"], algorithm, tuple(entry.get("functions") or ()), dict(title),
                    {lang: [str(h) for h in hints[lang]] for lang in LANGS},
                    tuple(fixtures if isinstance(fixtures, list) else [fixtures]), bool(entry.get("direct", False)),
                    bool(entry.get("play", False)))
