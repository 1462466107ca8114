"""Gradescope: the autograder bundle (``abkit export gradescope``) and what its ``run_autograder`` runs.

Gradescope unpacks the bundle into ``/autograder/source``, runs ``setup.sh`` once
(it installs the kit) and, for each submission, ``run_autograder``, which calls
:func:`run_autograder` on ``/autograder``: the same grader as ``abkit grade``, on
``/autograder/submission``, writing ``/autograder/results/results.json``. The
root is a parameter (``AUTOGRADER_ROOT``), so the bundle can be tried locally.
"""

from __future__ import annotations

import json
import sys
import tempfile
import zipfile
from pathlib import Path

from abkit.coursefolder import MARKER, course_id, current_course, marker_text
from abkit.i18n import t
from abkit.kitcode import imported_modules, part_files, part_of
from abkit.safetext import terminal

from abkit.grader.grading import Grader
from abkit.grader.reports import json_text, results_json, write_atomic
from abkit.grader.rubric import Rubric, load_rubric
from abkit.grader.submissions import Submission

SETUP = """#!/usr/bin/env bash
# Gradescope runs this once when the autograder is built: install the kit (Python 3.10+) into a virtual
# environment, $ROOT/venv, which run_autograder uses. Images whose Python refuses system-wide pip installs
# (PEP 668, "externally-managed-environment": Ubuntu 23.04+, Debian 12+) are never asked for one. Only where no
# virtual environment can be made at all does it install system-wide, past that refusal (--break-system-packages):
# the container is Gradescope's, built for this one autograder. AUTOGRADER_ROOT (default /autograder) as in run_autograder.
set -euo pipefail
ROOT="${AUTOGRADER_ROOT:-/autograder}"
VENV="$ROOT/venv"
apt_install() { command -v apt-get >/dev/null && apt-get update -qq && apt-get install -y -qq "$@"; }
if ! command -v python3 >/dev/null || ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 10))'; then
  apt_install python3 python3-pip python3-venv
fi
if python3 -m venv "$VENV" || { rm -rf "$VENV"; apt_install python3-venv && python3 -m venv "$VENV"; }; then
  "$VENV/bin/python" -m pip install -q --upgrade pip || true
  "$VENV/bin/python" -m pip install -q "$ROOT/source"
else
  echo "setup.sh: no virtual environment could be made; installing the kit system-wide" >&2
  rm -rf "$VENV"
  python3 -m pip install -q --break-system-packages "$ROOT/source" || python3 -m pip install -q "$ROOT/source"
fi
"""

RUN = """#!/usr/bin/env bash
# Gradescope runs this for each submission: grade /autograder/submission into
# /autograder/results/results.json. AUTOGRADER_ROOT (default /autograder) lets it run elsewhere;
# ABKIT_PYTHON names the Python; by default setup.sh's virtual environment, else python3.
set -euo pipefail
ROOT="${{AUTOGRADER_ROOT:-/autograder}}"
PYTHON="${{ABKIT_PYTHON:-}}"
if [ -z "$PYTHON" ]; then
  if [ -x "$ROOT/venv/bin/python" ]; then PYTHON="$ROOT/venv/bin/python"; else PYTHON=python3; fi
fi
cd "$ROOT/source"
exec "$PYTHON" -m abkit.grader.gradescope "$ROOT" {lang}
"""

#: where the bundle's kit code starts: grading a submission; every part of the kit it imports goes along, whole
ENTRY = "abkit.grader.gradescope"
#: and of the course: hidden fixtures included, exercises not (the rubric is written apart)
COURSE_CONTENTS = (("solutions", "*.py"), ("fixtures/public", "*.yaml"), ("fixtures/hidden", "*.yaml"))

#: the bundle's pyproject.toml: the kit's code laid out as installed (the one package ``abkit``)
PYPROJECT = """\
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "abkit"
version = "0"
requires-python = ">=3.10"
dependencies = ["pyyaml>=6.0", "jinja2>=3.1"]

[project.scripts]
abkit = "abkit.cli.main:script"

[tool.setuptools.packages.find]
include = ["abkit*"]

[tool.setuptools.package-data]
abkit = ["messages/*/*.yaml", "messages/*.yaml"]
"abkit.stepthrough" = ["assets/*"]
"""


def grader_files(entry: str, rubric: Rubric) -> dict[str, bytes]:
    """What grading needs, by relative path: every part of the kit ``entry`` imports (whole), the course's
    solutions and public and hidden fixtures, ``rubric`` as ``grader/rubric.yaml``, the course's marker (its id and
    rule) and a ``pyproject.toml`` that installs the kit's code. Never for students: it holds the hidden fixtures."""
    files: dict[str, bytes] = {}
    course = current_course().root
    for part in sorted({part_of(module) for module in imported_modules([entry])}):
        files.update((name, path.read_bytes()) for name, path in part_files(part))
    for folder, pattern in COURSE_CONTENTS:
        for path in sorted((course / folder).glob(pattern)):
            if path.is_file():
                files[path.relative_to(course).as_posix()] = path.read_bytes()
    files["grader/rubric.yaml"] = rubric.text.encode("utf-8")
    files[MARKER] = marker_text(course_id(course), rubric.rule).encode("utf-8")  # the course's rule goes along
    files["pyproject.toml"] = PYPROJECT.encode("utf-8")
    return files


def export_bundle(out: Path, rubric_path: Path | None = None, lang: str = "en") -> list[str]:
    """Write the autograder zip to ``out`` (the rubric checked first); returns the names it holds."""
    rubric = load_rubric(rubric_path)
    files = grader_files(ENTRY, rubric)
    files["README.md"] = b"abkit: the Gradescope autograder\n"
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as bundle:
        for name, mode, data in (("setup.sh", 0o755, SETUP.encode()),
                                 ("run_autograder", 0o755, RUN.format(lang=lang).encode())):
            info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
            info.external_attr = (0o100000 | mode) << 16
            bundle.writestr(info, data)
        for name, data in sorted(files.items()):
            bundle.writestr(zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0)), data)
    return ["setup.sh", "run_autograder", *sorted(files)]


def submitters(root: Path) -> list[dict[str, str]]:
    """Who handed the submission in, from Gradescope's ``root/submission_metadata.json`` (its ``users``, several for
    a group): each one's ``name``, ``email`` and ``sid`` as text, ``""`` where Gradescope gave none; ``[]`` when the
    file is missing or not Gradescope's."""
    try:
        users = json.loads((root / "submission_metadata.json").read_text(encoding="utf-8"))["users"]
        people = [{key: str(user.get(key) or "").strip() for key in ("name", "email", "sid")} for user in users]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return []
    return [person for person in people if any(person.values())]


def student_id(root: Path) -> str:
    """The id the submission in ``root`` is graded under (it seeds the student's random trees), read from Gradescope's
    ``submission_metadata.json`` there (:func:`submitters`): :func:`first_submitter`'s."""
    return first_submitter(submitters(root))


def first_submitter(people: list[dict[str, str]]) -> str:
    """As ``abkit grade`` names a student of a Gradescope export: the first submitter's sid, else e-mail, else
    name; ``submission`` for nobody.

    >>> first_submitter([{"name": "Ann Lee", "email": "ann@example.edu", "sid": ""}]), first_submitter([])
    ('ann@example.edu', 'submission')
    """
    for person in people[:1]:
        return person["sid"] or person["email"] or person["name"]
    return "submission"


def submitted_by(people: list[dict[str, str]], lang: str) -> str:
    """One line naming the submitters for the results' overview ("Handed in by Ann Lee (2024-001, ann@…)."), or
    ``""`` for nobody."""
    if not people:
        return ""
    shown = []
    for person in people:
        details = ", ".join(value for value in (person["sid"], person["email"]) if value)
        shown.append(f"{person['name']} ({details})" if person["name"] and details else person["name"] or details)
    return t("gradescope.submitted_by", lang, people="; ".join(shown))


def run_autograder(root: Path, lang: str = "en", seed: int = 0) -> dict:
    """Grade ``root/submission`` with the bundled rubric, under the submitter's identity (:func:`submitters`);
    write and return ``root/results/results.json``."""
    rubric = load_rubric()
    grader = Grader(rubric, seed, lang)
    grader.names_are_ids = False  # named by Gradescope's identity of the student, not the id they packed with
    # Graded unconfined where the kernel lacks Landlock or seccomp, as `abkit grade --unconfined` would be, on
    # purpose: Gradescope's container, one per submission and holding no other student's work, is the confinement,
    # and refusing there would leave the student with no grade. The child still applies every layer the kernel has.
    people = submitters(root)
    with tempfile.TemporaryDirectory(prefix="abkit-gs-") as work:
        grade = grader.grade(Submission(first_submitter(people), root / "submission"), Path(work))
    results = results_json(grade, rubric, lang)
    results["output"] = "\n".join(filter(None, [terminal(submitted_by(people, lang)), results["output"]]))
    results["extra_data"]["users"] = people
    write_atomic(root / "results" / "results.json", json_text(results))
    return results


def main(argv: list[str]) -> int:
    """``python -m abkit.grader.gradescope [ROOT] [LANG]``, as ``run_autograder`` calls it."""
    root = Path(argv[1]) if len(argv) > 1 else Path("/autograder")
    run_autograder(root, argv[2] if len(argv) > 2 else "en")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
