"""The student edition of the kit: what ``abkit check`` needs and nothing a student must not see.

It holds the kit's code a student's commands import, each part whole (:mod:`abkit.authoring.editioncode`: the core,
``abkit.cli`` with the student's group alone, ``abkit.studentloop``, ``abkit.stepthrough``), the stubs, the public
fixtures, a ``pyproject.toml`` whose ``abkit`` offers only the student's commands (``trace`` draws the reference's
search from what the public fixtures record: :mod:`abkit.studentloop.fixturetrace`) and whose plain ``pytest`` runs
the public tests, and the course marker (the edition is a course folder the installed kit works in too).
Hidden fixtures, solutions and the packaged default course stay behind; only how many there are per exercise
is written into the edition's ``info.yaml``.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from abkit import __version__
from abkit.coursefolder import MARKER, course_id, current_course, marker_text
from abkit.errors import UsageError, writable_folder
from abkit.i18n import LANGS, t
from abkit.info import load_info

from abkit.authoring.editioncode import edition_files
from abkit.authoring.stubs import for_rule
from abkit.studentloop.check import hidden_count

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
abkit = "abkit.cli.main:script"

[tool.setuptools.packages.find]
include = ["abkit*"]

[tool.setuptools.package-data]
abkit = ["messages/*/*.yaml", "messages/*.yaml"]
"abkit.stepthrough" = ["assets/*"]

[tool.pytest.ini_options]
testpaths = ["exercises"]
addopts = "-q"
"""


def build_student_edition(out: Path, handouts: Path | None = None, lang: str = "en") -> list[Path]:
    """Write the student edition of the current course into ``out`` (new or empty), its README first in ``lang``;
    returns the files written."""
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

    for relative, source in edition_files():
        put(relative, source=source)
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
    put("README.md", "\n\n".join(t("release.readme", each, check=first_check(each))
                                  for each in sorted(LANGS, key=lambda each: each != lang)) + "\n")
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
    from abkit.authoring.verify import verify_fixture

    from abkit.grader.testplan import fits
    from abkit.studentloop.check import checkable

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
    from abkit.reference import recomputed

    fixtures = load_fixtures([folder]) if folder.is_dir() else []
    out = []
    for fixture in for_course_rule(fixtures, rule, recomputed):
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
    from abkit.studentloop.report import check

    lines, _ = check(None, None, lang)
    return "\n".join(lines).rstrip()
