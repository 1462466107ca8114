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
from abkit.kitcode import imported_modules, part_files, part_of

from abkit.grader.grading import Grader
from abkit.grader.reports import json_text, results_json, write_atomic
from abkit.grader.rubric import load_rubric
from abkit.grader.submissions import Submission

SETUP = """#!/usr/bin/env bash
# Gradescope runs this once when the autograder is built: install the kit (Python 3.10+).
set -euo pipefail
if ! command -v python3 >/dev/null || ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 10))'; then
  apt-get update -qq && apt-get install -y -qq python3 python3-pip python3-venv
fi
python3 -m pip install -q --upgrade pip || true
python3 -m pip install -q /autograder/source
"""

RUN = """#!/usr/bin/env bash
# Gradescope runs this for each submission: grade /autograder/submission into
# /autograder/results/results.json. AUTOGRADER_ROOT (default /autograder) lets it run elsewhere.
set -euo pipefail
ROOT="${{AUTOGRADER_ROOT:-/autograder}}"
cd "$ROOT/source"
exec "${{ABKIT_PYTHON:-python3}}" -m abkit.grader.gradescope "$ROOT" {lang}
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


def export_bundle(out: Path, rubric_path: Path | None = None, lang: str = "en") -> list[str]:
    """Write the autograder zip to ``out`` (the rubric checked first); returns the names it holds."""
    rubric = load_rubric(rubric_path)
    files: dict[str, bytes] = {}
    course = current_course().root
    for part in sorted({part_of(module) for module in imported_modules([ENTRY])}):
        files.update((name, path.read_bytes()) for name, path in part_files(part))
    for folder, pattern in COURSE_CONTENTS:
        for path in sorted((course / folder).glob(pattern)):
            if path.is_file():
                files[path.relative_to(course).as_posix()] = path.read_bytes()
    files["grader/rubric.yaml"] = rubric.text.encode("utf-8")
    files[MARKER] = marker_text(course_id(course), rubric.rule).encode("utf-8")  # the course's rule goes along
    files["pyproject.toml"] = PYPROJECT.encode("utf-8")
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


def student_id(root: Path) -> str:
    """The student's id from Gradescope's ``submission_metadata.json`` (it seeds the random trees), else ``submission``."""
    try:
        users = json.loads((root / "submission_metadata.json").read_text(encoding="utf-8"))["users"]
        return str(users[0].get("email") or users[0].get("id") or users[0]["name"])
    except (OSError, ValueError, KeyError, IndexError, TypeError, AttributeError):
        return "submission"


def run_autograder(root: Path, lang: str = "en", seed: int = 0) -> dict:
    """Grade ``root/submission`` with the bundled rubric; write and return ``root/results/results.json``."""
    rubric = load_rubric()
    grader = Grader(rubric, seed, lang)
    grader.names_are_ids = False  # the submission is named by the student's e-mail, not the id they packed with
    # Graded unconfined where the kernel lacks Landlock or seccomp, as `abkit grade --unconfined` would be, on
    # purpose: Gradescope's container, one per submission and holding no other student's work, is the confinement,
    # and refusing there would leave the student with no grade. The child still applies every layer the kernel has.
    with tempfile.TemporaryDirectory(prefix="abkit-gs-") as work:
        grade = grader.grade(Submission(student_id(root), root / "submission"), Path(work))
    results = results_json(grade, rubric, lang)
    write_atomic(root / "results" / "results.json", json_text(results))
    return results


def main(argv: list[str]) -> int:
    """``python -m abkit.cli.gradescope [ROOT] [LANG]``, as ``run_autograder`` calls it."""
    root = Path(argv[1]) if len(argv) > 1 else Path("/autograder")
    run_autograder(root, argv[2] if len(argv) > 2 else "en")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
