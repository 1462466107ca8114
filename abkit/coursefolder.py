"""Which course folder the commands work on, and where its parts are.

A course folder holds a marker file at its root (:data:`MARKER`, naming the
kit version it was made with) beside ``exercises/``, ``solutions/`` (absent in
the student edition), ``fixtures/public``, ``fixtures/hidden`` (optional), the
rubric (``rubric.yaml``; ``grader/rubric.yaml`` in older folders such as the
kit's own repository) and ``handouts/`` (outline, templates, words).

The kit's own code (``abkit/``, ``studentloop/``, ``grader/``, ``handouts/``, ...) is found beside this module
(:data:`KIT_CODE`), never in the course: a course can live anywhere.

One course per process: :func:`use_course` (``--course DIR``) fixes it, else
``ABKIT_COURSE``, else the nearest folder holding the marker, from the current
folder upwards (:func:`current_course`).
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
from dataclasses import dataclass
from pathlib import Path

from . import __version__

MARKER = "abkit-course.toml"
#: the folder holding the kit's packages ``abkit/`` and ``grader/`` (site-packages once installed)
_HERE = Path(__file__).resolve().parent  # resolved once: each resolve asks the system about every folder above
KIT_CODE = _HERE.parent
#: the default course shipped inside the wheel (absent in a clone: the clone is the default course)
PACKAGED_COURSE = _HERE / "default_course"


class NoCourse(Exception):
    """No course folder where one was looked for: ``where`` is the folder, ``named`` True for ``--course``."""

    def __init__(self, where: Path, named: bool = False):
        super().__init__(str(where))
        self.where = where
        self.named = named


@dataclass(frozen=True)
class CourseFolder:
    """The parts of the course folder at ``root``."""

    root: Path

    @property
    def exercises(self) -> Path:
        return self.root / "exercises"

    @property
    def solutions(self) -> Path:
        return self.root / "solutions"

    @property
    def fixtures(self) -> Path:
        return self.root / "fixtures"

    @property
    def public_fixtures(self) -> Path:
        return self.fixtures / "public"

    @property
    def hidden_fixtures(self) -> Path:
        return self.fixtures / "hidden"

    @property
    def handouts(self) -> Path:
        return self.root / "handouts"

    @property
    def rubric(self) -> Path:
        """``rubric.yaml`` at the root, else the older ``grader/rubric.yaml``."""
        new = self.root / "rubric.yaml"
        old = self.root / "grader" / "rubric.yaml"
        return old if not new.is_file() and old.is_file() else new

    @property
    def rule(self) -> str:
        """The course's cut-off rule, ``"aima"`` or ``"cs188"`` (:func:`course_rule`)."""
        return course_rule(self.root)

    @property
    def prune_on_equality(self) -> bool:
        """True under the AIMA rule (cut when ``v >= beta`` / ``v <= alpha``), False under CS188's (strict)."""
        return self.rule == "aima"

    def secrets(self) -> list[Path]:
        """What a student's process must never read: the hidden fixtures and the solutions."""
        return [self.hidden_fixtures, self.solutions]


def kit_secrets() -> list[Path]:
    """The secrets the kit itself holds, whichever course is graded: the default course an installed kit
    carries (:data:`PACKAGED_COURSE`) and, in a clone, the clone's own solutions and hidden fixtures."""
    secrets = [PACKAGED_COURSE] if PACKAGED_COURSE.exists() else []
    return secrets + (CourseFolder(KIT_CODE).secrets() if is_course(KIT_CODE) else [])


def is_course(folder: Path) -> bool:
    """True when ``folder`` holds the course marker."""
    return (Path(folder) / MARKER).is_file()


def find_course(start: Path | None = None) -> CourseFolder | None:
    """The course folder holding ``start`` (default: the current folder), looking upwards; None if none."""
    here = Path(start or os.getcwd()).resolve()
    for folder in (here, *here.parents):
        if is_course(folder):
            return CourseFolder(folder)
    return None


_chosen: CourseFolder | None = None


def use_course(root: Path | str) -> CourseFolder:
    """Fix the course of this process (and of the processes it starts) to ``root``; NoCourse if it is none."""
    global _chosen
    folder = Path(root).expanduser().resolve()
    if not is_course(folder):
        raise NoCourse(folder, named=True)
    _chosen = CourseFolder(folder)
    os.environ["ABKIT_COURSE"] = str(folder)
    return _chosen


def forget_course() -> None:
    """Undo :func:`use_course` (tests)."""
    global _chosen
    _chosen = None
    os.environ.pop("ABKIT_COURSE", None)


def current_course() -> CourseFolder:
    """The course this process works on (see the module's docstring); NoCourse when there is none."""
    if _chosen is not None:
        return _chosen
    named = os.environ.get("ABKIT_COURSE")
    if named:
        folder = Path(named).resolve()
        if not is_course(folder):
            raise NoCourse(folder, named=True)
        return CourseFolder(folder)
    found = find_course()
    if found is None:
        raise NoCourse(Path(os.getcwd()))
    return found


def marker_text(course_id: str | None = None, rule: str = "aima") -> str:
    """The marker file's contents for a course made by this kit (``course_id``: the course's name, which hand-ins
    carry; see :func:`course_id`; ``rule``: the course's cut-off rule, :func:`course_rule`)."""
    text = f'# an abkit course folder: the commands work on the folder holding this file\nkit_version = "{__version__}"\n'
    text += (f'course_id = "{course_id}"\n' if course_id else "")
    return text + RULE_COMMENT + f'rule = "{rule}"\n'


#: the course's cut-off rules (``rule = ...`` in the marker); the first is the default
RULES = ("aima", "cs188")
RULE_COMMENT = ("# the cut-off rule of the whole course (grading, abkit check, stubs, messages, handouts):\n"
                "# aima: MAX-VALUE returns when v >= beta, MIN-VALUE when v <= alpha; cs188: only when v > beta / v < alpha\n")
_RULE_LINE = r'^rule\s*=\s*(.*?)\s*$'
_RULE_VALUE = r'^("([^"\\]*)"|\'([^\']*)\')\s*(#.*)?$'


def course_rule(root: Path) -> str:
    """The cut-off rule the course at ``root`` names in its marker (``rule = "aima"`` or ``"cs188"``, a top-level
    key), ``"aima"`` when it names none; :class:`~abkit.errors.UsageError` naming the file and line when the value is
    not one of :data:`RULES` or the key is given twice."""
    from .errors import UsageError  # here: setup.py imports this module where PyYAML (abkit.i18n's) is not installed

    path = Path(root) / MARKER
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return RULES[0]  # an unreadable marker is no course: finding the course says so
    found: str | None = None
    for number, line in enumerate(lines, 1):
        if line.lstrip().startswith("["):  # a table: the keys below it are not the course's top-level ones
            break
        key = re.match(_RULE_LINE, line.strip())
        if key is None:
            continue
        value = re.match(_RULE_VALUE, key.group(1))
        name = value and (value.group(2) if value.group(2) is not None else value.group(3))
        if name not in RULES or found is not None:
            raise UsageError("course.bad_rule" if found is None else "course.rule_twice", path=str(path),
                             line=number, found=key.group(1), known=", ".join(f'"{r}"' for r in RULES))
        found = name
    return found or RULES[0]


_COURSE_ID = r'^course_id\s*=\s*"([A-Za-z0-9._-]{1,80})"\s*$'  # compiled when first read, not at every start


def course_id(root: Path) -> str | None:
    """The ``course_id`` the course at ``root`` names in its marker (``abkit init`` writes one; the student edition
    copies it), or None: an older folder, or this repository."""
    try:
        found = re.search(_COURSE_ID, (Path(root) / MARKER).read_text(encoding="utf-8"), re.M)
    except (OSError, UnicodeDecodeError):
        return None
    return found.group(1) if found else None


@contextlib.contextmanager
def chosen_course(root: Path | str | None, needed: bool = True):
    """For one command: the course named ``root`` (``--course``), else the current one when ``needed`` (found as the
    command starts).

    NoCourse when the course is needed and there is none; the process's earlier choice is restored afterwards.
    """
    global _chosen
    before, env = _chosen, os.environ.get("ABKIT_COURSE")
    try:
        if root is not None:
            use_course(root)
        elif needed:
            _chosen = current_course()  # found once: the command works on one course however long it runs
        yield
    finally:
        _chosen = before
        if env is None:
            os.environ.pop("ABKIT_COURSE", None)
        else:
            os.environ["ABKIT_COURSE"] = env


#: what a course folder holds besides its marker and rubric (copied by ``abkit init`` and into the wheel)
COURSE_PARTS = ("exercises", "solutions", "fixtures", "handouts", "examples")
#: parts whose folder in the kit's repository also holds the kit's code (the ``handouts`` package beside its outline,
#: words and templates): a course gets their data only
CODE_BESIDE = ("handouts",)


def copy_course(source: Path, target: Path) -> list[Path]:
    """Copy the course at ``source`` into ``target`` (made if missing): its parts, its rubric as
    ``rubric.yaml`` and a marker of this kit's version; returns the files written. No caches are copied."""
    import shutil  # here: only abkit init and the wheel's build copy a course

    source, target = Path(source), Path(target)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache")
    data_only = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache", "*.py")
    target.mkdir(parents=True, exist_ok=True)
    for part in COURSE_PARTS:
        if (source / part).is_dir():
            shutil.copytree(source / part, target / part, ignore=data_only if part in CODE_BESIDE else ignore,
                            dirs_exist_ok=True)
    shutil.copyfile(CourseFolder(source).rubric, target / "rubric.yaml")
    (target / MARKER).write_text(marker_text(rule=course_rule(source)), encoding="utf-8")
    return sorted(p for p in target.rglob("*") if p.is_file())


def default_course() -> Path:
    """The default course: the one packaged in the wheel, else (a clone of the kit) the kit's own folder."""
    return PACKAGED_COURSE if is_course(PACKAGED_COURSE) else KIT_CODE


def per_course(function):
    """Like ``functools.lru_cache(maxsize=None)``, with the current course's root as part of the key: what one
    course's files gave is never answered for another's (a process may work on two, one after the other)."""
    cached = functools.lru_cache(maxsize=None)(lambda root, *args, **kwargs: function(*args, **kwargs))

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        return cached(current_course().root, *args, **kwargs)

    wrapper.cache_clear = cached.cache_clear
    return wrapper


def same_course(paths: list[Path]) -> None:
    """UsageError when one of ``paths`` lies in another course folder than the one the command works on:
    its expectations would be checked with the other course's solutions."""
    from .errors import UsageError  # here: setup.py imports this module where PyYAML (abkit.i18n's) is not installed

    course = current_course()
    for path in paths:
        other = find_course(Path(path).resolve().parent)
        if other is not None and other != course:
            raise UsageError("course.other", path=str(path), other=str(other.root), course=str(course.root))
