"""PrairieLearn: externally graded questions (``abkit export prairielearn``) and the grader they run.

This follows PrairieLearn's "External Grading" documentation (``docs/externalGrading.md`` of
github.com/PrairieLearn/PrairieLearn, published at https://prairielearn.readthedocs.io/en/latest/externalGrading/):

- a question's ``info.json`` sets ``"gradingMethod": "External"`` and ``externalGradingOptions``: ``enabled``,
  ``image`` (anything ``docker pull`` understands), ``entrypoint`` (an absolute path, arguments allowed; a file
  mounted under ``/grade`` is made executable by the grading process), ``serverFilesCourse`` (files or folders of
  the course's ``serverFilesCourse/`` copied to ``/grade/serverFilesCourse/``) and ``timeout`` (seconds, at most 600);
- in the container, ``/grade/student/`` holds the submitted files, ``/grade/serverFilesCourse/`` the files named
  above, ``/grade/tests/`` the question's ``tests/`` folder (unused here), ``/grade/data/data.json`` the question's
  ``data``; the entrypoint must write ``/grade/results/results.json`` (creating ``/grade/results``): ``score`` in
  [0, 1], ``gradable`` (false: "invalid, not gradable", no attempt used, ``format_errors`` say why), ``message``,
  ``output`` and ``tests[]`` of ``name``, ``points``, ``max_points``, ``message``, ``output``, as the
  ``<pl-external-grader-results>`` element shows them;
- a question's files other than ``clientFilesQuestion/`` and the course's ``serverFilesCourse/`` never reach the
  student's browser.

The export is a course folder (copy it into the PrairieLearn course, or write it there with ``--out``) with one
question per exercise, ``questions/abkit/<exercise>/`` (``info.json``, ``question.html``), which all run the one
grader in ``serverFilesCourse/abkit/``: the kit's code, the rubric, the solutions and the hidden fixtures, where
students cannot read them. One question per exercise, because PrairieLearn scores a question from 0 to 1 and gives
attempts per question: each exercise keeps its own points and attempts in an assessment, and a student hands in
one file per question. Each question's tests are the ones ``abkit grade`` and Gradescope run for that exercise; a
hidden fixture's test (its rubric visibility not ``visible``, which Gradescope holds back) is shown by a number
and its points alone.

The grade root is a parameter (``GRADE_ROOT``, default ``/grade``), so a question can be tried locally on any
folder laid out as PrairieLearn lays out ``/grade``.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
import uuid
from html import escape
from pathlib import Path

from abkit.coursefolder import course_id, current_course
from abkit.errors import UsageError, writable_folder
from abkit.feedback import render_result
from abkit.i18n import t
from abkit.info import load_info
from abkit.safetext import terminal

from abkit.grader.grades import ExerciseGrade, StudentGrade
from abkit.grader.gradescope import grader_files
from abkit.grader.grading import Grader
from abkit.grader.reports import json_text, mistake_line, number, unique_names, visible, write_atomic
from abkit.grader.rubric import Rubric, load_rubric
from abkit.grader.submissions import Submission

#: the grading image info.json names: the repository's Dockerfile, built as ``docker build -t abkit-grader .``
IMAGE = "abkit-grader"
#: seconds PrairieLearn gives one grading job (its limit is 600)
TIMEOUT = 120
#: the grader's folder under the course's serverFilesCourse/, and the questions' folder under questions/
FOLDER = "abkit"
#: where the grader's code starts in the container; every part of the kit it imports goes along, whole
ENTRY = "abkit.grader.prairielearn"

RUN = """#!/usr/bin/env bash
# PrairieLearn runs this in the grading container (info.json's entrypoint, with the exercise): grade the files in
# /grade/student as that exercise into /grade/results/results.json. GRADE_ROOT (default /grade) lets it run on
# any folder laid out the same way; ABKIT_PYTHON names a Python with the kit's dependencies (default python3).
set -euo pipefail
ROOT="${{GRADE_ROOT:-/grade}}"
cd "$ROOT/serverFilesCourse/{folder}"
exec "${{ABKIT_PYTHON:-python3}}" -m {entry} "$ROOT" "$1" {lang}
"""

QUESTION = """<pl-question-panel>
  <p>{task}</p>
</pl-question-panel>

<pl-file-upload file-names="{file}"></pl-file-upload>

<pl-submission-panel>
  <pl-external-grader-results></pl-external-grader-results>
</pl-submission-panel>
"""


def export_course(out: Path, lang: str = "en") -> list[str]:
    """Write the PrairieLearn course folder to ``out`` (made if missing; a PrairieLearn course may already be
    there): ``serverFilesCourse/abkit/`` (the grader, replaced whole) and ``questions/abkit/<exercise>/``. Returns
    the relative paths written. :class:`UsageError` when ``out`` cannot be written or its
    ``serverFilesCourse/abkit`` was not written by this export (it is then left alone)."""
    rubric = load_rubric()
    out = writable_folder(out)
    server = out / "serverFilesCourse" / FOLDER
    if server.exists() and not (server / "run.sh").is_file():
        raise UsageError("prairielearn.not_ours", path=str(server))
    files = {f"serverFilesCourse/{FOLDER}/{name}": data for name, data in grader_files(ENTRY, rubric).items()}
    files[f"serverFilesCourse/{FOLDER}/run.sh"] = RUN.format(folder=FOLDER, entry=ENTRY, lang=lang).encode()
    for exercise in rubric.points:
        files.update(question_files(exercise, lang))
    shutil.rmtree(server, ignore_errors=True)
    for name, data in sorted(files.items()):
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(data)
    (server / "run.sh").chmod(0o755)
    return sorted(files)


def question_files(exercise: str, lang: str) -> dict[str, bytes]:
    """One exercise's question, by path under the course: ``info.json`` (external grading by :data:`IMAGE` and
    ``run.sh <exercise>``; a uuid fixed by the course id and the exercise, so a new export keeps the question's
    history) and ``question.html`` (the task in ``lang``, one file to upload, the grader's results)."""
    course = current_course()
    info_path = course.exercises / "info.yaml"
    described = load_info(info_path).get(exercise) if info_path.is_file() else None
    title = described.label(lang) if described else exercise
    info = {
        "uuid": str(uuid.uuid5(uuid.NAMESPACE_URL, f"abkit:{course_id(course.root)}:{exercise}")),
        "title": title,
        "topic": t("prairielearn.topic", lang),
        "tags": ["abkit"],
        "type": "v3",
        "singleVariant": True,
        "gradingMethod": "External",
        "externalGradingOptions": {
            "enabled": True,
            "image": IMAGE,
            "serverFilesCourse": [f"{FOLDER}/"],
            "entrypoint": [f"/grade/serverFilesCourse/{FOLDER}/run.sh", exercise],
            "timeout": TIMEOUT,
        },
    }
    html = QUESTION.format(task=escape(t("prairielearn.task", lang, title=title, file=f"{exercise}.py")),
                           file=escape(f"{exercise}.py"))
    where = f"questions/{FOLDER}/{exercise}"
    return {f"{where}/info.json": (json.dumps(info, ensure_ascii=False, indent=2) + "\n").encode("utf-8"),
            f"{where}/question.html": html.encode("utf-8")}


def grade_question(root: Path, exercise: str, lang: str = "en") -> dict:
    """Grade ``root/student`` as ``exercise`` with the rubric of the course the current folder is in (the exported
    ``serverFilesCourse/abkit``); write and return ``root/results/results.json`` (:func:`question_results`).
    :class:`UsageError` for an exercise the rubric does not grade (info.json's entrypoint names it)."""
    rubric = load_rubric()
    if exercise not in rubric.points:
        raise UsageError("prairielearn.no_exercise", exercise=exercise, known=", ".join(rubric.points))
    grader = Grader(rubric, 0, lang)
    grader.names_are_ids = False  # a packed hand-in names the student's id, which PrairieLearn does not give
    # Graded where the kernel lacks Landlock or seccomp all the same, as on Gradescope: PrairieLearn's container,
    # one per submission, is the confinement. The child still applies every layer the kernel has.
    with tempfile.TemporaryDirectory(prefix="abkit-pl-") as work:
        grade = grader.grade(Submission(variant_id(root), root / "student"), Path(work))
    results = question_results(grade, exercise, rubric, lang)
    write_atomic(root / "results" / "results.json", json_text(results))
    return results


def variant_id(root: Path) -> str:
    """The id the submission is graded under (it seeds the random trees, which score nothing): PrairieLearn gives
    the grader no student, so the variant's seed from ``root/data/data.json``, else ``submission``."""
    try:
        seed = json.loads((root / "data" / "data.json").read_text(encoding="utf-8"))["variant_seed"]
    except (OSError, ValueError, KeyError, TypeError):
        return "submission"
    return f"variant-{seed}" if isinstance(seed, (int, str)) and str(seed).isalnum() else "submission"


def question_results(grade: StudentGrade, exercise: str, rubric: Rubric, lang: str) -> dict:
    """PrairieLearn's results of one exercise: ``score`` its points over its maximum (0 to 1), ``tests`` whose
    ``points`` add up to it over their ``max_points``; not ``gradable`` when the file could not be graded (none,
    or it does not load) or the grader itself failed, with ``format_errors`` saying why."""
    graded = grade.exercises[exercise]
    gradable = grade.status != "crashed" and bool(graded.tests)
    score = min(1.0, max(0.0, graded.score / graded.max_score)) if graded.max_score else 0.0
    results = {
        "gradable": gradable,
        "score": round(score, 4),
        "message": t("prairielearn.message", lang, exercise=exercise, score=number(graded.score),
                     max_score=number(graded.max_score)),
        "output": terminal(overview(grade, graded, lang)),
        "tests": question_tests(graded, rubric, lang),
    }
    if not gradable:
        why = graded.note or grade.grader_error or t("prairielearn.not_graded", lang)
        results["format_errors"] = [terminal(why)]
    return results


def overview(grade: StudentGrade, graded: ExerciseGrade, lang: str) -> str:
    """The results' ``output``: the exercise's points and note, its named mistakes, the submission's notes."""
    lines = [t("grade.report.exercise", lang, exercise=graded.exercise, score=number(graded.score),
               max_score=number(graded.max_score)) + (f" · {graded.note}" if graded.note else "")]
    lines.extend(f"  {mistake_line(mistake, lang)}" for mistake in graded.mistakes)
    lines.extend(graded.traceback)
    lines.extend(grade.notes)
    return "\n".join(lines)


def question_tests(graded: ExerciseGrade, rubric: Rubric, lang: str) -> list[dict]:
    """The ``tests`` of one exercise's results: a visible test by its name (made unique as on Gradescope), what it
    found and its output; a hidden one (its source's rubric visibility not ``visible``) by a number, passed or
    not, with no tree, values or output, which would show the hidden fixture and its expected answers."""
    shown = [tg for tg in graded.tests if visible(tg.test.source, rubric.visibility)]
    names = dict(zip(map(id, shown), unique_names([f"{graded.exercise}: {tg.result.label(lang)}" for tg in shown])))
    tests, hidden = [], 0
    for tg in graded.tests:
        entry = {"points": number(tg.score, 4), "max_points": number(tg.max_score, 4)}
        verdict = "passed" if tg.result.passed else "failed"
        if id(tg) in names:
            entry.update(name=names[id(tg)], message=t(f"prairielearn.test.{verdict}", lang),
                         output="" if tg.result.passed else terminal(render_result(tg.result, lang, show_tree=False)))
        else:
            hidden += 1
            entry.update(name=t("prairielearn.test.hidden_name", lang, exercise=graded.exercise, number=hidden),
                         message=t(f"prairielearn.test.hidden_{verdict}", lang), output="")
        tests.append(entry)
    return tests


def main(argv: list[str]) -> int:
    """``python -m abkit.grader.prairielearn ROOT EXERCISE [LANG]``, as ``run.sh`` calls it: 0 with results.json
    written; 2 with one sentence on stderr for a missing or unknown exercise."""
    if len(argv) < 3:
        print(t("prairielearn.usage", "en"), file=sys.stderr)
        return 2
    lang = argv[3] if len(argv) > 3 else "en"
    try:
        grade_question(Path(argv[1]), argv[2], lang)
    except UsageError as error:
        print(error.message.render(lang), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
