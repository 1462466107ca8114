"""The student edition of the kit: what ``abkit check`` needs and nothing a student must not see.

It holds the core (``abkit/``, but its reference loader), the student's loop (``studentloop/``), the step-through
pages it writes (``stepthrough/``) and of ``grader/`` only the command line with the student commands (an allow-list
below: no reference solutions, no grading pipeline, no mistake catalogue, no handout builder), the stubs, the public
fixtures, a ``pyproject.toml`` whose ``abkit`` offers only ``check``, ``hint``, ``watch``, ``trace`` (which draws the
reference's search from what the public fixtures record: :mod:`studentloop.fixturetrace`) and ``pack``, and whose
plain ``pytest`` runs the public tests, and the course marker (the edition is a course
folder the installed kit works in too).
Hidden fixtures, solutions and the packaged default course stay behind; only how many there are per exercise
is written into the edition's ``info.yaml``.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from abkit import __version__
from abkit.coursefolder import KIT_CODE, MARKER, course_id, current_course, marker_text
from abkit.errors import UsageError, writable_folder
from abkit.i18n import LANGS, t
from abkit.info import load_info

from authoring.stubs import for_rule
from studentloop.check import hidden_count

#: the kit's packages the student edition ships whole (their Python files, data and assets)
PACKAGES = ("abkit", "studentloop", "stepthrough")
#: of ``grader/``, the command line only (``cli.py`` is written with the student commands alone)
CLI_FILES = ("__init__.py", "__main__.py", "arguments.py", "commands/__init__.py", "commands/check.py",
             "commands/hint.py", "commands/watch.py", "commands/trace.py", "commands/pack.py")
#: what the edition leaves out of those packages: the reference loader (the edition has no solutions to load, and
#: the rule the reference is told stays unseen by student code), and the packaged default course
LEFT_OUT = ("abkit/reference.py", "abkit/default_course")
STUDENT_COMMANDS = ("check", "hint", "watch", "trace", "pack")
EXERCISE_FILES = ("README.md", "conftest.py")
#: the line of exercises/README.md from which on the text is for maintainers (stubs, solutions): left out
MAINTAINERS = "<!-- for maintainers:"

PYPROJECT = """\
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "abkit-student"
version = "{version}"
description = "abkit, student edition: minimax and alpha-beta exercises with abkit check"
readme = "README.md"
requires-python = ">=3.10"
dependencies = ["pyyaml>=6.0"]

[project.optional-dependencies]
test = ["pytest>=7.4"]

[project.scripts]
abkit = "grader.cli:script"

[tool.setuptools.packages.find]
include = ["abkit*", "studentloop*", "stepthrough*", "grader*"]

[tool.setuptools.package-data]
abkit = ["messages/*/*.yaml", "messages/*.yaml"]
stepthrough = ["assets/*"]

[tool.pytest.ini_options]
testpaths = ["exercises"]
addopts = "-q"
"""


def build_student_edition(out: Path, kit: Path = KIT_CODE, handouts: Path | None = None) -> list[Path]:
    """Write the student edition of the current course into ``out`` (new or empty), with the kit's code
    from ``kit``; returns the files written."""
    out = Path(out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise UsageError("release.not_empty", path=str(out))
    if handouts is not None and not Path(handouts).is_dir():
        raise UsageError("check.no_folder", path=str(handouts))
    folder = current_course()
    verified_public(folder.public_fixtures)
    writable_folder(out)
    exercises = folder.exercises
    course = load_info(exercises / "info.yaml")
    written: list[Path] = []

    def put(relative: str, text: str | None = None, source: Path | None = None) -> None:
        target = out / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if text is not None:
            target.write_text(text, encoding="utf-8")
        else:
            shutil.copyfile(source, target)
        written.append(target)

    for package in PACKAGES:
        for path in sorted((kit / package).rglob("*")):
            relative = path.relative_to(kit)
            if path.is_file() and path.suffix in (".py", ".yaml", ".js", ".css") and "__pycache__" not in path.parts \
                    and not any(relative.as_posix().startswith(left) for left in LEFT_OUT):
                put(relative.as_posix(), source=path)
    for name in CLI_FILES:
        put(f"grader/{name}", source=kit / "grader" / name)
    put("grader/cli.py", student_cli((kit / "grader" / "cli.py").read_text(encoding="utf-8")))
    for exercise in course.exercises:
        put(f"exercises/{exercise.file}", for_rule((exercises / exercise.file).read_text(encoding="utf-8"), folder.rule))
    for name in EXERCISE_FILES:
        text = (exercises / name).read_text(encoding="utf-8")
        put(f"exercises/{name}", text.split(MAINTAINERS)[0].rstrip() + "\n" if MAINTAINERS in text else text)
    counts = {e.name: hidden_count(course, e, folder.hidden_fixtures) for e in course.exercises}
    info = (exercises / "info.yaml").read_text(encoding="utf-8").rstrip("\n")
    put("exercises/info.yaml", info + "\n# written by abkit release: how many hidden trees grading adds\nhidden:\n"
        + "".join(f"  {name}: {count}\n" for name, count in counts.items()))
    for name, text in public_for_rule(folder.public_fixtures, folder.prune_on_equality):
        put(f"fixtures/public/{name}", text)
    put("pyproject.toml", PYPROJECT.format(version=__version__))
    put(MARKER, marker_text(course_id(folder.root), folder.rule))
    put("README.md", "\n\n".join(t("release.readme", lang, check=first_check(lang)) for lang in LANGS) + "\n")
    if handouts is not None:
        for path in sorted(Path(handouts).rglob("*")):
            if path.is_file():
                put(f"handouts/{path.relative_to(handouts)}", source=path)
    return written


def verified_public(folder: Path) -> None:
    """The public fixtures as the students' ``abkit check`` will hold code to them: each readable (ids of their own),
    with an ``expected:`` block that gives check a test wherever grading has one (an exercise whose patterns name
    the file and that grading tests on it), every field of which the reference solutions reproduce;
    :class:`UsageError` (or :class:`~abkit.fixture.FixtureError`) at the first that is not, before anything is
    written."""
    import json

    from abkit.fixture import load_fixtures
    from authoring.verify import verify_fixture

    from grader.testplan import fits
    from studentloop.check import checkable

    exercises = load_info(current_course().exercises / "info.yaml").exercises
    for fixture in load_fixtures([folder]) if folder.is_dir() else []:
        if not fixture.expected:
            raise UsageError("release.no_expected", path=str(fixture.path))
        for exercise in exercises:  # graded on it and named by check's patterns, yet not checkable: a silent gap
            if exercise.uses(fixture.path.name) and fits(exercise.algorithm, fixture) \
                    and not checkable(exercise, fixture):
                raise UsageError("release.incomplete", path=str(fixture.path), exercise=exercise.name,
                                 algorithm=exercise.algorithm)
        for d in verify_fixture(fixture):
            raise UsageError("release.disagrees", path=d.path, line=d.line, field=d.field,
                             expected=json.dumps(d.expected, ensure_ascii=False), got=json.dumps(d.got, ensure_ascii=False))


def public_for_rule(folder: Path, rule: bool) -> list[tuple[str, str]]:
    """The public fixtures as the edition ships them, ``(file name, text)``, all written for the course's cut-off
    ``rule`` (:func:`abkit.courserule.for_course_rule`: the edition holds no solutions to recompute them): one written
    for the other rule is left out when its counterpart is there, else its ``expected:`` block is the reference's
    under the course's rule and its ``prune_on_equality`` says so."""
    from abkit.fixture import load_fixtures

    from abkit.courserule import for_course_rule

    fixtures = load_fixtures([folder]) if folder.is_dir() else []
    out = []
    for fixture in for_course_rule(fixtures, rule):
        text = fixture.path.read_text(encoding="utf-8")
        if fixture.prune_on_equality != _written_rule(text):
            text = _rewritten(text, fixture)
        out.append((fixture.path.name, text))
    return out


def _written_rule(text: str) -> bool:
    found = re.search(r"^prune_on_equality:\s*(\S+)", text, re.M)
    return found is None or found.group(1).lower() in ("true", "yes", "on")


def _rewritten(text: str, fixture) -> str:
    """The fixture file ``text`` with ``prune_on_equality`` and the ``expected:`` block of ``fixture`` (recomputed)."""
    import yaml

    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if re.match(r"expected\s*:", line))
    end = next((i for i in range(start + 1, len(lines)) if lines[i][:1] not in ("", " ", "#", "\t")), len(lines))
    block = yaml.safe_dump({"expected": fixture.expected}, sort_keys=False, allow_unicode=True,
                           default_flow_style=None, width=120).splitlines()
    lines = [line for line in lines[:start] if not line.startswith("prune_on_equality:")]
    rule = "true" if fixture.prune_on_equality else "false"
    note = "# written by abkit release: the expectations under the course's cut-off rule"
    return "\n".join([*lines, f"prune_on_equality: {rule}", note, *block, *text.splitlines()[end:]]) + "\n"


def first_check(lang: str) -> str:
    """What ``abkit check`` says on the course's stubs, the student's first look at it (for the edition's README)."""
    from studentloop.report import check

    lines, _ = check(None, None, lang)
    return "\n".join(lines).rstrip()


def student_cli(text: str) -> str:
    """The kit's ``grader/cli.py`` with only the student commands registered."""
    names = " ".join(STUDENT_COMMANDS)
    text, tuples = re.subn(r"^COMMANDS = .*$", f'COMMANDS = tuple("{names}".split())', text, flags=re.M)
    if tuples != 1:  # pragma: no cover - grader/cli.py changed shape: update this function
        raise RuntimeError("grader/cli.py: expected one 'COMMANDS = ...' line")
    return text
