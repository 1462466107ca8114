"""The grading rubric (``grader/rubric.yaml`` by default): points, the random trees (the cut-off rule is the course's).

Read with the kit's safe YAML reader, so a mistake is reported as
``path:line: what is wrong`` (:class:`RubricError`) and the batch never starts.
"""

from __future__ import annotations

import os
import stat

from dataclasses import dataclass, field
from pathlib import Path

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from abkit.algorithms import Algorithm
from abkit.errors import LocatedError
from abkit.i18n import Message, os_problem
from abkit.yamlsafe import YamlError, compose, describe, line_of, number, scalar

CATEGORIES = ("values", "pruning", "nodes", "direct", "orders", "games")
RULES = {"aima": True, "cs188": False}
SOURCES = ("public", "hidden")
VISIBILITIES = ("visible", "hidden", "after_due_date", "after_published")
KEYS = ("rule", "fixtures", "random_trees", "direct_tests", "visibility", "step_pages", "exercises")
ALL = "all"  # step_pages: a page for every failing visible test
#: the most points one category may be worth (a larger number is a typo, and a huge one overflows the sums)
MAX_POINTS = 10_000
RANDOM_KEYS = {"count": (0, 20), "branching": (1, 6), "depth": (0, 6), "min": (-10**6, 10**6), "max": (-10**6, 10**6)}


class RubricError(LocatedError):
    """A rubric file that cannot be used: ``path:line: message`` (:class:`~abkit.errors.LocatedError`)."""


@dataclass(frozen=True)
class Rubric:
    """What is graded and how much it weighs.

    points: exercise -> category -> points (only categories worth something).
    prune_on_equality: the course's cut-off rule (True: AIMA), from its ``abkit-course.toml``. sources: fixture folders used.
    random_trees: count, branching, depth, min, max. direct_tests: direct calls per exercise.
    visibility: test source -> Gradescope visibility. text: the file's text (part of a grade's fingerprint).
    step_pages: per exercise, how many failing visible tests get a step-through page (``None``: all of them).
    """

    points: dict[str, dict[str, float]]
    prune_on_equality: bool = True
    sources: tuple[str, ...] = SOURCES
    random_trees: dict[str, int] = field(default_factory=lambda: {"count": 2, "branching": 3, "depth": 3,
                                                                   "min": -9, "max": 9})
    direct_tests: int = 12
    visibility: dict[str, str] = field(default_factory=lambda: {"public": "visible", "hidden": "after_published",
                                                                "random": "visible"})
    step_pages: int | None = 2
    path: str = ""
    text: str = ""
    #: "exercise.category" -> the line of its points in the file (for messages), the exercise alone -> its line
    lines: dict[str, int] = field(default_factory=dict, compare=False)

    @property
    def rule(self) -> str:
        return "aima" if self.prune_on_equality else "cs188"

    def max_score(self, exercise: str | None = None) -> float:
        """The points of one exercise, or of all of them."""
        exercises = [exercise] if exercise else list(self.points)
        return sum(sum(self.points[e].values()) for e in exercises)


def default_rubric() -> Path:
    """The course's rubric (see :class:`abkit.coursefolder.CourseFolder`)."""
    from abkit.coursefolder import current_course

    return current_course().rubric


#: the largest rubric read (the kit's is 2 KB)
MAX_RUBRIC_BYTES = 1_000_000


def load_rubric(path: str | Path | None = None) -> Rubric:
    """The rubric at ``path`` (default: the course's); :class:`RubricError` if it is unusable."""
    path = Path(path) if path is not None else default_rubric()
    try:  # (links followed) a FIFO or a device is never opened, a file is read only if it is small
        info = os.stat(path)
    except OSError:
        info = None  # reading it says why
    if info is not None and not stat.S_ISREG(info.st_mode) and not stat.S_ISDIR(info.st_mode):
        raise RubricError(path, 0, Message("rubric.not_file"))
    if info is not None and stat.S_ISREG(info.st_mode) and info.st_size > MAX_RUBRIC_BYTES:
        raise RubricError(path, 0, Message("rubric.too_large", limit=MAX_RUBRIC_BYTES))
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise RubricError(path, 0, Message("rubric.unreadable", reason=os_problem(error))) \
            from None
    try:
        return _read(compose(text), path, text)
    except YamlError as error:
        raise RubricError(path, error.line, error.message) from None


def _fail(path: Path, node: Node | None, key: str, /, **params: object) -> RubricError:
    return RubricError(path, line_of(node) if node is not None else 1, Message(key, **params))


def _mapping(path: Path, node: Node | None, what: str) -> dict[str, tuple[Node, Node]]:
    if not isinstance(node, MappingNode):
        raise _fail(path, node, "rubric.not_mapping", what=what,
                    found=describe(node) if node is not None else Message("rubric.nothing"))
    return {str(scalar(k)): (k, v) for k, v in node.value}


def _unknown(path: Path, items: dict, known: tuple | dict, what: str) -> None:
    for name, (key, _) in items.items():
        if name not in known:
            raise _fail(path, key, "rubric.unknown_key", key=name, what=what, known=", ".join(known))


def _int(path: Path, node: Node, low: int, high: int) -> int:
    value = number(node)
    if not isinstance(value, int) or not low <= value <= high:
        raise _fail(path, node, "rubric.bad_int", found=describe(node), low=low, high=high)
    return value


def _read(doc: Node | None, path: Path, text: str) -> Rubric:
    items = _mapping(path, doc, "rubric")
    _unknown(path, items, KEYS, "rubric")
    if "exercises" not in items:
        raise _fail(path, doc, "rubric.missing", key="exercises")
    lines: dict[str, int] = {}
    options: dict = {"path": str(path), "text": text, "points": _points(path, items["exercises"][1], lines),
                     "lines": lines}
    options["prune_on_equality"] = _course_rule(path, items.get("rule", (None, None))[1])
    if "fixtures" in items:
        node = items["fixtures"][1]
        names = [scalar(n) if isinstance(n, ScalarNode) else None for n in getattr(node, "value", [])]
        bad = [n for n in node.value if not isinstance(n, ScalarNode) or scalar(n) not in SOURCES] \
            if isinstance(node, SequenceNode) else []
        if not isinstance(node, SequenceNode) or bad:  # the entry that is not a source, else the whole value
            raise _fail(path, bad[0] if bad else node, "rubric.bad_choice", key="fixtures",
                        found=describe(bad[0] if bad else node), known=", ".join(SOURCES))
        options["sources"] = tuple(n for n in SOURCES if n in names)
    if "random_trees" in items:
        options["random_trees"] = _random(path, items["random_trees"][1])
    if "direct_tests" in items:
        options["direct_tests"] = _int(path, items["direct_tests"][1], 0, 200)
    if "visibility" in items:
        options["visibility"] = _visibility(path, items["visibility"][1])
    if "step_pages" in items:
        node = items["step_pages"][1]
        options["step_pages"] = None if isinstance(node, ScalarNode) and scalar(node) == ALL else _int(path, node, 0, 1000)
    return Rubric(**options)


def _course_rule(path: Path, node: Node | None) -> bool:
    """The course's cut-off rule (``rule`` in its ``abkit-course.toml``, :func:`abkit.coursefolder.course_rule`) as
    ``prune_on_equality``. A rubric's own ``rule:`` (older rubrics held one) is accepted when it names the course's
    rule and refused at its line when it names another: the course sets the rule in one place."""
    from abkit.coursefolder import MARKER, NoCourse, current_course

    try:
        course = current_course()
        rule, marker = course.rule, course.root / MARKER
    except NoCourse:
        rule, marker = "aima", Path(MARKER)
    if node is not None and not (isinstance(node, ScalarNode) and scalar(node) in RULES):
        raise _fail(path, node, "rubric.bad_choice", key="rule", found=describe(node), known=", ".join(RULES))
    if node is not None and scalar(node) != rule:
        raise _fail(path, node, "rubric.rule_conflict", found=describe(node), course=rule, marker=str(marker))
    return RULES[rule]


def _points(path: Path, node: Node, lines: dict[str, int]) -> dict[str, dict[str, float]]:
    exercises = _mapping(path, node, "exercises")
    _unknown(path, exercises, Algorithm.exercises(), "exercises")
    if not exercises:
        raise _fail(path, node, "rubric.no_exercises")
    points: dict[str, dict[str, float]] = {}
    for name, (key, body) in exercises.items():
        lines[name] = line_of(key)
        categories = _mapping(path, body, name)
        _unknown(path, categories, CATEGORIES, name)
        points[name] = {}
        for category, (_, value) in categories.items():
            worth = number(value)
            if worth < 0:
                raise _fail(path, value, "rubric.negative", found=describe(value))
            if worth > MAX_POINTS:  # before any sum: a 400-digit integer or 1e308 would overflow or become inf
                raise _fail(path, value, "rubric.too_many_points", found=describe(value), most=f"{MAX_POINTS:,}")
            lines[f"{name}.{category}"] = line_of(value)
            if worth:
                points[name][category] = worth
    if not any(points.values()):
        raise _fail(path, node, "rubric.no_points")
    return points


def _random(path: Path, node: Node) -> dict[str, int]:
    items = _mapping(path, node, "random_trees")
    _unknown(path, items, RANDOM_KEYS, "random_trees")
    trees = dict(Rubric.__dataclass_fields__["random_trees"].default_factory())
    for name, (_, value) in items.items():
        trees[name] = _int(path, value, *RANDOM_KEYS[name])
    if trees["min"] > trees["max"]:
        raise _fail(path, node, "rubric.empty_range", low=trees["min"], high=trees["max"])
    if trees["branching"] ** trees["depth"] > 5000:
        raise _fail(path, node, "rubric.too_big", leaves=trees["branching"] ** trees["depth"])
    return trees


def _visibility(path: Path, node: Node) -> dict[str, str]:
    items = _mapping(path, node, "visibility")
    known = ("public", "hidden", "random")
    _unknown(path, items, known, "visibility")
    visibility = dict(Rubric.__dataclass_fields__["visibility"].default_factory())
    for name, (_, value) in items.items():
        if not isinstance(value, ScalarNode) or scalar(value) not in VISIBILITIES:
            raise _fail(path, value, "rubric.bad_choice", key=name, found=describe(value), known=", ".join(VISIBILITIES))
        visibility[name] = scalar(value)
    return visibility
