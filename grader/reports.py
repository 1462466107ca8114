"""What a batch leaves behind (contract §4): per student ``results.json`` and ``feedback.md``; ``grades.csv``; a summary.

The class files (``grades.csv``, ``summary.md``, ``histogram.svg``) sit at the top of the output folder and each
student's files in ``students/<id>/`` (the contract said ``DIR/<student>/``: a student named ``grades.csv`` then
collided with the gradebook).

Every file is written atomically (a temporary file in the same folder, then a
rename), so an interrupted batch never leaves half a file; ``results.json`` is
written last, and its ``extra_data`` holds what the gradebook and the summary
need, so both can be rebuilt from the folder alone (resume, ``--student``).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import os
import re
import statistics
import threading
from collections import Counter
from pathlib import Path
from xml.sax.saxutils import escape

from abkit import textree
from abkit.feedback import render_result
from abkit.i18n import DEFAULT_LANG, catalogue, t
from abkit.textree import UNICODE

from abkit.grader.grades import ExerciseGrade, StudentGrade
from abkit.grader.handin import handin_cell, handin_summary
from abkit.grader.judgement import TestGrade
from abkit.grader.mistakes import pseudocode_line, rule_words
from abkit.grader.rubric import Rubric
from abkit.grader.running import AHEAD
from abkit.safetext import csv_cell, markdown, terminal
from abkit.grader.submissions import NAME_BYTES

MAX_TESTS_SHOWN = 6     # failing tests drawn in full per exercise in feedback.md
TREES_SHOWN = 2         # of which with the tree drawn
STATUSES = ("ok", "timeout", "crashed", "invalid")
STUDENTS_FOLDER = "students"  # DIR/students/<id>/: each student's results.json and feedback.md
STEP_PAGES = "steps-"  # DIR/students/<id>/steps-<test>.html: a failing visible test stepped through
#: a student's feedback.md is cut (and says so) past this many bytes, and the whole folder (results.json, feedback.md
#: and the step-through pages, each at most :data:`abkit.stepthrough.page.MAX_PAGE_BYTES`) holds at most this many:
#: the pages that would go past it are not written, and the feedback says how many
MAX_FEEDBACK_BYTES = 1_000_000
MAX_STUDENT_BYTES = 10_000_000


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that readers see the old file or the new one, never a part. Text that is not
    valid Unicode (a file name that was not UTF-8) is written with ``?`` in its place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    with open(temporary, "w", encoding="utf-8", errors="replace", newline="") as handle:
        handle.write(text)
    os.replace(temporary, path)


def json_text(data: dict) -> str:
    """``data`` (a JSON object) as text a person can scan and a program reads as JSON: one key per line, and a
    list's items one per line (each written compactly by json's C encoder; an indented dump runs in Python,
    several times slower).

    >>> print(json_text({"score": 1, "tests": [{"name": "a"}, {"name": "b"}], "extra_data": {}}), end="")
    {
     "score": 1,
     "tests": [
      {"name": "a"},
      {"name": "b"}
     ],
     "extra_data": {}
    }
    """
    def one(value: object) -> str:
        return json.dumps(value, ensure_ascii=False)

    lines = [f" {one(key)}: " + ("[\n  " + ",\n  ".join(map(one, value)) + "\n ]" if isinstance(value, list) and value
                                 else one(value)) for key, value in data.items()]
    return "{\n" + ",\n".join(lines) + "\n}\n" if lines else "{}\n"


def number(value: float, digits: int = 2) -> float | int:
    """A score as it is shown and stored: at most ``digits`` decimals, whole numbers without ``.0``."""
    value = round(value + 0.0, digits)
    return int(value) if value.is_integer() else value


# -- one student ---------------------------------------------------------------

def results_json(grade: StudentGrade, rubric: Rubric, lang: str) -> dict:
    """The Gradescope results of one student (top-level ``score``, ``tests[]``), with ``extra_data`` for the batch.
    The ``output`` texts carry no control characters (Gradescope shows them as plain text, its default format)."""
    tests = []
    for exercise in grade.exercises.values():
        tests.extend(_gradescope_tests(exercise, rubric, lang))
    return {
        "score": number(grade.score),
        "output": terminal(_overview(grade, rubric, lang)),
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": tests,
        "extra_data": {
            "student": grade.student, "status": grade.status, "max_score": number(grade.max_score),
            "seed": grade.seed, "rule": rubric.rule, "lang": lang, "fingerprint": grade.fingerprint,
            "grader_error": grade.grader_error, "handin": grade.handin, "files": grade.files,
            "folder": grade.folder or grade.student,
            "exercises": {name: {"score": number(e.score), "max_score": number(e.max_score), "status": e.status,
                                 "mistakes": e.mistakes, "first_kinds": dict(e.first_kinds())}
                          for name, e in grade.exercises.items()},
        },
    }


def _gradescope_tests(exercise: ExerciseGrade, rubric: Rubric, lang: str) -> list[dict]:
    """An exercise's entries of Gradescope's ``tests[]``, each named once (:func:`unique_names`); one failed entry
    saying why when the exercise has no tests (no file, or it could not be loaded)."""
    if not exercise.tests:  # no file, or it could not be loaded: one entry that says why
        output = terminal("\n".join([exercise.note, *exercise.traceback]).strip())
        return [{"name": f"{exercise.exercise}.py", "score": 0, "max_score": number(exercise.max_score),
                 "status": "failed", "output": output, "visibility": "visible"}]
    names = unique_names([f"{exercise.exercise}: {tg.result.label(lang)}" for tg in exercise.tests])
    entries = []
    for tg, name in zip(exercise.tests, names):
        entries.append({"name": name, "score": number(tg.score, 4),
                        "max_score": number(tg.max_score, 4), "status": "passed" if tg.result.passed else "failed",
                        "output": "" if tg.result.passed else terminal(render_result(tg.result, lang, show_tree=False)),
                        "visibility": rubric.visibility.get(tg.test.source, "visible")})
    return entries


def unique_names(labels: list[str]) -> list[str]:
    """Each test's shown name, given the tests' labels in order: the label, and where tests share a label (two
    hidden trees of one title, one per cut-off rule) the second and later get their place among their namesakes
    (``#2``). Never a test's id: a hidden test's id would name a hidden fixture in what students see. The result is
    as long as ``labels`` and has no name twice.

    >>> unique_names(["a: T", "a: T", "a: U", "a: T"])
    ['a: T', 'a: T #2', 'a: U', 'a: T #3']
    """
    seen: Counter = Counter()
    unique = []
    for label in labels:
        seen[label] += 1
        unique.append(label if seen[label] == 1 else f"{label} #{seen[label]}")
    return unique


def _overview(grade: StudentGrade, rubric: Rubric, lang: str) -> str:
    lines = [t("grade.report.score", lang, score=number(grade.score), max_score=number(grade.max_score),
               status=t(f"grade.status.{grade.status}", lang)),
             t("grade.report.seed", lang, seed=grade.seed, rule=t(f"grade.rule.{rubric.rule}", lang))]
    for exercise in grade.exercises.values():
        lines.append(t("grade.report.exercise", lang, exercise=exercise.exercise, score=number(exercise.score),
                       max_score=number(exercise.max_score)) + (f" · {exercise.note}" if exercise.note else ""))
        lines.extend(f"  {mistake_line(m, lang)}" for m in exercise.mistakes)
    lines.extend(grade.notes)
    return "\n".join(lines)


def mistake_line(mistake_id: str, lang: str) -> str:
    """One named mistake as the results' overview lists it ("Named mistake: …")."""
    return t("grade.report.mistake", lang, name=t(f"mistake.{mistake_id}.name", lang, **rule_words()))


def feedback_markdown(grade: StudentGrade, rubric: Rubric, lang: str, pages: dict[str, str] | None = None) -> str:
    """A student's ``feedback.md``: score, per exercise the named mistakes and the failing tests with their trees;
    ``pages``: test id -> the file name of its step-through page (:func:`step_pages`), named under the test."""
    out = [f"# {t('grade.feedback.title', lang, student=grade.student)}", "",
           t("grade.feedback.score", lang, score=number(grade.score), max_score=number(grade.max_score),
             status=t(f"grade.status.{grade.status}", lang)),
           "", t("grade.report.seed", lang, seed=grade.seed, rule=t(f"grade.rule.{rubric.rule}", lang))]
    if grade.notes:
        out += [""] + [f"- {note}" for note in grade.notes]
    saw_hidden = False  # one process (and one folder) serves all the exercises: what it saw, it may still show
    for exercise in grade.exercises.values():
        loaded = bool(exercise.replies or exercise.functions)
        saw_hidden |= loaded and any(not visible(test.source, rubric.visibility) for test in _sent(exercise))
        out += ["", *_exercise_markdown(exercise, lang, rubric.visibility, show_output=not (loaded and saw_hidden),
                                        pages=pages or {})]
    return "\n".join(out) + "\n"


def _sent(exercise: ExerciseGrade) -> list:
    """The tests of a loaded ``exercise`` its process may have received: the answered ones and the
    :data:`~abkit.grader.running.AHEAD` sent after them without an answer (the process ended during one of them)."""
    unanswered = [test for test in exercise.planned if test.id not in exercise.replies]
    return [test for test in exercise.planned if test.id in exercise.replies] + unanswered[:AHEAD]


def _exercise_markdown(exercise: ExerciseGrade, lang: str, visibility: dict[str, str],
                       show_output: bool = True, pages: dict[str, str] | None = None) -> list[str]:
    """One exercise's part of ``feedback.md``. A failing test that the rubric does not show students at once
    (``visibility`` of its source other than ``visible``: the hidden fixtures) is named without its findings,
    tree or output, which would show the hidden tree; results.json keeps them, under that visibility. Unless
    ``show_output``, what the process printed before it ended is withheld too: it had received a hidden test by
    then and could print its tree. (A traceback at loading is shown: its message is in the note anyway.)"""
    heading = t("grade.feedback.exercise", lang, exercise=exercise.exercise, file=exercise.file or f"{exercise.exercise}.py",
                score=number(exercise.score), max_score=number(exercise.max_score))
    out = [f"## {heading}"]
    if exercise.note:
        out += ["", exercise.note]
    if exercise.traceback:
        out += ["", "```", *exercise.traceback, "```"] if show_output else ["", t("grade.feedback.output_withheld", lang)]
    if exercise.categories and any(total for _, total in exercise.categories.values()):
        parts = [t("grade.feedback.category", lang, category=t(f"grade.category.{c}", lang), passed=p, total=n)
                 for c, (p, n) in exercise.categories.items() if n]
        out += ["", " · ".join(parts)]
    for mistake_id in exercise.mistakes:
        out += ["", f"### {mistake_line(mistake_id, lang)}", "", t(f"mistake.{mistake_id}.why", lang, **rule_words()), "",
                t("grade.feedback.pseudocode", lang, line=pseudocode_line(mistake_id))]
    failed = [tg for tg in exercise.tests if not tg.result.passed and not tg.not_run]
    # the tests described in full come first, and first among them one that tells of state kept between calls
    failed.sort(key=lambda tg: (not _shown(tg, visibility), not tg.state_kept))
    not_run = sum(1 for tg in exercise.tests if tg.not_run)
    if exercise.tests and not failed and not not_run:
        out += ["", t("grade.feedback.all_passed", lang, total=len(exercise.tests))]
    if failed or not_run:
        out += ["", f"### {t('grade.feedback.failed', lang, count=len(failed) + not_run, total=len(exercise.tests))}"]
    for k, tg in enumerate(failed[:MAX_TESTS_SHOWN]):
        if not _shown(tg, visibility):
            out += ["", f"#### {UNICODE.bad} {tg.result.label(lang)} ({tg.result.name})",
                    t("grade.feedback.hidden", lang)]
            continue
        show_tree = k < TREES_SHOWN and drawable(tg)
        out += ["", _demote(render_result(tg.result, lang, markdown=True, show_tree=show_tree))]
        if pages and tg.test.id in pages:
            out += ["", t("grade.feedback.step_page", lang, file=pages[tg.test.id])]
    rest = failed[MAX_TESTS_SHOWN:]
    if rest:
        out += ["", t("grade.feedback.more", lang, count=len(rest)),
                *(f"- {tg.result.label(lang)} (`{tg.test.id}`)"
                  + (f" · `{pages[tg.test.id]}`" if pages and tg.test.id in pages else "") for tg in rest)]
    if not_run:
        out += ["", t("grade.feedback.not_run", lang, count=not_run)]
    return out


def _shown(tg: TestGrade, visibility: dict[str, str]) -> bool:
    """Whether students see this test's details at once (its source's rubric visibility is ``visible``)."""
    return visible(tg.test.source, visibility)


def visible(source: str, visibility: dict[str, str]) -> bool:
    """Whether students see the tests of ``source`` at once (the rubric's ``visibility`` of it is ``visible``)."""
    return visibility.get(source, "visible") == "visible"


def drawable(tg: TestGrade) -> bool:
    """Whether the student's search in ``tg`` can be drawn on its test's tree (:func:`abkit.textree.drawable`)."""
    return textree.drawable(tg.result.student, tg.test.tree)


def _demote(markdown: str) -> str:
    """Test headings one level below the exercise's."""
    return markdown.replace("### ", "#### ", 1) if markdown.startswith("### ") else markdown


def student_folder(out: Path, student: str, folder: str = "") -> Path:
    """Where a student's files go: ``out/students/<folder or student>/``, a folder of their own that no student id
    can make collide with the class files (``grades.csv``, ``summary.md``, ``histogram.svg``) beside it; ``folder``:
    the name :func:`folder_names` gives the id in its class, if any."""
    return out / STUDENTS_FOLDER / (folder or student)


#: the mark of a folder name that carries a digest of its id: ``~`` and 8 hex digits
APART = re.compile(r"~[0-9a-f]{8}\Z")


def folded(student: str) -> str:
    """``student`` as a disk that ignores letter case compares it (``Kim``, ``KIM`` and ``kim`` are one name there;
    so are ``straße`` and ``STRASSE``, ``ı`` and ``i``)."""
    return student.upper().casefold()


def folder_names(students: list[str]) -> dict[str, str]:
    """The ids of a class whose folder is not named as the id itself, and its name: each id that another differs
    from only in letter case (``Kim`` beside ``kim``), unless it is written in folded case (``kim`` keeps its name),
    and any id that looks like such a name (``kim~0a1b2c3d``), get ``~`` and 8 hex digits of their id's digest
    (:func:`apart_name`). Every folder of the class then differs from the others even on a disk that ignores letter
    case (macOS's, Windows'), and the names depend on the class alone: a rerun finds the saved results.

    >>> folder_names(["Kim", "kim", "lee", "Park", "KIM"])
    {'Kim': 'Kim~d25949ef', 'KIM': 'KIM~db8d6f07'}
    """
    groups: dict[str, list[str]] = {}
    for student in students:
        groups.setdefault(folded(student), []).append(student)
    return {student: apart_name(student) for student in students
            if APART.search(student) or len(groups[folded(student)]) > 1 and student != folded(student)}


def apart_name(student: str) -> str:
    """``student``, then ``~`` and 8 hex digits of its digest, cut to the length of a folder's name."""
    digest = "~" + hashlib.sha256(student.encode("utf-8", "surrogateescape")).hexdigest()[:8]
    name = student
    while len((name + digest).encode("utf-8", "surrogateescape")) > NAME_BYTES:
        name = name[:-1]
    return name + digest


def write_student(out: Path, grade: StudentGrade, rubric: Rubric, lang: str) -> dict:
    """Write ``out/students/<student>/feedback.md`` (its HTML escaped: :func:`~abkit.safetext.markdown`) then
    ``results.json``; returns the results."""
    folder = student_folder(out, grade.student, grade.folder)
    results = results_json(grade, rubric, lang)
    report = json_text(results)
    shown = step_pages(grade, rubric)
    pages, dropped = {}, 0
    if shown or any(folder.glob(f"{STEP_PAGES}*.html")):  # new pages, or old ones to remove
        from abkit.stepthrough.page import page_names, write_pages

        try:
            written = write_pages(shown, folder, lang, STEP_PAGES)
            dropped = within_budget(written, MAX_STUDENT_BYTES - MAX_FEEDBACK_BYTES - len(report.encode("utf-8")))
            kept = {path.name for path in written[:len(written) - dropped]}
            pages = {name: file for name, file in page_names([r.name for r in shown], STEP_PAGES).items()
                     if file in kept}
        except Exception:  # noqa: BLE001 - a page is an extra: the grade and its feedback are written without it
            pass
    text = feedback_markdown(grade, rubric, lang, pages)
    if dropped:
        text += "\n" + t("gradebook.cut.pages", lang, count=dropped, limit=MAX_STUDENT_BYTES // 1_000_000) + "\n"
    write_atomic(folder / "feedback.md", cut_feedback(markdown(text), lang))
    write_atomic(folder / "results.json", report)
    return results


def within_budget(paths: list[Path], budget: int) -> int:
    """Remove the last of ``paths`` (written files) until the others add up to at most ``budget`` bytes; how many
    were removed."""
    sizes = [path.stat().st_size for path in paths]
    removed = 0
    while sizes and sum(sizes) > budget:
        paths[len(sizes) - 1].unlink(missing_ok=True)
        sizes.pop()
        removed += 1
    return removed


def cut_feedback(text: str, lang: str, most: int = MAX_FEEDBACK_BYTES) -> str:
    """``text`` (a feedback.md) whole when it has at most ``most`` bytes; otherwise its first lines that fit, a code
    block left open closed, and a sentence saying it was cut there."""
    if len(text.encode("utf-8")) <= most:
        return text
    lines, size = [], 0
    for line in text.splitlines():
        size += len(line.encode("utf-8")) + 1
        if size > most - 1_000:  # room for the closing fence and the sentence
            break
        lines.append(line)
    if sum(1 for line in lines if line.startswith("```")) % 2:
        lines.append("```")
    return "\n".join(lines) + "\n\n" + t("gradebook.cut.feedback", lang, limit=most // 1_000) + "\n"


def step_pages(grade: StudentGrade, rubric: Rubric) -> list:
    """The results of the failing tests that get a step-through page: per exercise the first ``rubric.step_pages``
    failing visible tests with a trace of the student's on a game tree (:func:`abkit.stepthrough.page.wants_page`);
    by default two, the interactive form of the trees ``feedback.md`` draws, so that a student's pages stay a few
    hundred kilobytes however many tests fail (``step_pages: all`` gives every one a page). A hidden test never gets
    one (it would show its tree)."""
    from abkit.stepthrough.page import wants_page

    chosen = []
    for exercise in grade.exercises.values():
        failed = [tg.result for tg in exercise.tests if not tg.result.passed and not tg.not_run
                  and _shown(tg, rubric.visibility) and wants_page(tg.result)]
        chosen += failed[:rubric.step_pages]
    return chosen


def read_results(out: Path, student: str, folder: str = "") -> dict | None:
    """The saved results of ``student`` (in ``folder``, if :func:`folder_names` names it otherwise), or ``None`` when
    there are none, they cannot be read, or they are another student's (``Kim``'s, found under ``kim``'s name on a
    disk that ignores letter case)."""
    try:
        data = json.loads((student_folder(out, student, folder) / "results.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("extra_data"), dict):
        return None
    return data if data["extra_data"].get("student") == student else None


# -- the class -------------------------------------------------------------------

def grades_csv(rows: list[dict], rubric: Rubric, lang: str) -> str:
    """The gradebook: one row per student (sorted by id), status, score, max_score, one column per exercise. An id
    a spreadsheet would read as a formula is written with a leading ``'`` (:func:`~abkit.safetext.csv_cell`)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["student", "status", "score", "max_score", *rubric.points, "mistakes", "seed", "grader_error",
                     "handin"])
    for results in sorted(rows, key=lambda r: r["extra_data"]["student"]):
        extra = results["extra_data"]
        mistakes = [m for e in extra["exercises"].values() for m in e.get("mistakes", [])]
        writer.writerow([csv_cell(terminal(extra["student"])), extra["status"], results["score"], extra["max_score"],
                         *(extra["exercises"].get(e, {}).get("score", 0) for e in rubric.points),
                         " ".join(mistakes), extra["seed"], grader_error_line(extra.get("grader_error") or ""),
                         csv_cell(terminal(handin_cell(extra.get("handin"))))])
    return buffer.getvalue()


def grader_error_line(error: str) -> str:
    """A grader fault in one line: the last line of its traceback (``KeyError: 'x'``), or nothing.

    >>> grader_error_line("Traceback (most recent call last):\\n  File ...\\nKeyError: 'x'\\n"), grader_error_line("")
    ("KeyError: 'x'", '')
    """
    lines = [line for line in error.strip().splitlines() if line.strip()]
    return lines[-1].strip()[:200] if lines else ""


def common_issues(rows: list[dict]) -> list[tuple[str, int]]:
    """What went wrong most often, per student and exercise: the named mistake, else the first finding's kind."""
    counts: Counter = Counter()
    for results in rows:
        for name, exercise in results["extra_data"]["exercises"].items():
            if exercise["status"] != "ok":
                counts[f"status:{exercise['status']}"] += 1
            elif exercise.get("mistakes"):
                counts.update(f"mistake:{m}" for m in exercise["mistakes"])
            elif exercise.get("first_kinds"):
                counts[f"kind:{max(exercise['first_kinds'].items(), key=lambda kv: (kv[1], kv[0]))[0]}"] += 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def issue_text(issue: str, lang: str) -> str:
    """An entry of :func:`common_issues` in words: the mistake's name, or the status's or finding kind's phrase; a
    kind no phrase is written for (a finding added later) reads as a failed test, never as its message key."""
    kind, _, name = issue.partition(":")
    if kind == "mistake":
        return t(f"mistake.{name}.name", lang, **rule_words())
    key = f"grade.issue.{kind}.{name}"
    return t(key if key in catalogue(DEFAULT_LANG) else "grade.issue.kind.other", lang)


def summary_markdown(rows: list[dict], rubric: Rubric, lang: str, histogram: str = "histogram.svg",
                     regrade: str = "", duplicates: list[str] = (), gone: list[str] = ()) -> str:
    """The class summary: statuses (and who is not ok), the entries not graded for a student id already taken
    (``duplicates``), the feedback folders of students no longer in the class (``gone``), the students on whom the
    grader itself failed (with ``regrade``, the command that grades them
    again), score statistics, the histogram, the most common mistakes, per-exercise means."""
    statuses = Counter(r["extra_data"]["status"] for r in rows)
    scores = [float(r["score"]) for r in rows]
    out = [f"# {t('grade.summary.title', lang)}", "",
           t("grade.summary.counts", lang, students=len(rows), **{s: statuses.get(s, 0) for s in STATUSES})]
    who = {s: [r["extra_data"]["student"] for r in rows if r["extra_data"]["status"] == s] for s in STATUSES}
    out += [f"- {t(f'grade.summary.who.{s}', lang, students=', '.join(who[s]))}" for s in STATUSES
            if s != "ok" and who[s]]
    if duplicates:
        out += ["", t("grade.summary.duplicates", lang, names=", ".join(duplicates))]
    if gone:  # feedback of an earlier run whose student is no longer in the class: kept, but said
        out += ["", t("grade.summary.gone", lang, names=", ".join(gone), folder=STUDENTS_FOLDER)]
    failed = [r["extra_data"] for r in rows if r["extra_data"].get("grader_error")]
    if failed:
        out += ["", f"## {t('faults.summary.title', lang)}", "",
                t("faults.batch.failed", lang, count=len(failed), students=", ".join(e["student"] for e in failed)),
                "", *(f"- {e['student']}: `{grader_error_line(e['grader_error'])}`" for e in failed), ""]
        if regrade:
            out += [t("faults.batch.regrade", lang), "", "```", regrade, "```", ""]
        out.append(t("faults.batch.details", lang))
    out += handin_summary(rows, lang)
    if scores:
        out += ["", t("grade.summary.stats", lang, mean=number(statistics.mean(scores)),
                      median=number(statistics.median(scores)), max_score=number(rubric.max_score()),
                      full=sum(1 for s in scores if s >= rubric.max_score() - 1e-9))]
    out += ["", f"![{t('grade.summary.histogram', lang)}]({histogram})", "",
            f"## {t('grade.summary.exercises', lang)}", "",
            f"| {t('grade.summary.exercise', lang)} | {t('grade.summary.mean', lang)} | {t('grade.summary.full', lang)} |",
            "|---|---:|---:|"]
    for exercise in rubric.points:
        got = [r["extra_data"]["exercises"].get(exercise, {}) for r in rows]
        mean = statistics.mean([float(g.get("score", 0)) for g in got]) if got else 0
        full = sum(1 for g in got if g and float(g["score"]) >= float(g["max_score"]) - 1e-9)
        out.append(f"| {exercise} | {number(mean)} / {number(rubric.max_score(exercise))} | {full} |")
    issues = common_issues(rows)
    out += ["", f"## {t('grade.summary.mistakes', lang)}", ""]
    if issues:
        out += [f"| {t('grade.summary.mistake', lang)} | {t('grade.summary.students', lang)} |", "|---|---:|"]
        out += [f"| {issue_text(issue, lang)} | {count} |" for issue, count in issues[:12]]
    else:
        out.append(t("grade.summary.no_mistakes", lang))
    return "\n".join(out) + "\n"


#: bin widths a histogram may use (times a power of ten): round numbers a reader adds up at a glance
NICE_STEPS = (1, 2, 5)


def nice_step(span: float, most: int) -> float:
    """The smallest round width (1, 2 or 5 times a power of ten) that cuts ``span`` into at most ``most`` parts.

    >>> nice_step(49, 12), nice_step(100, 12), nice_step(10, 12), nice_step(3, 12), nice_step(7, 5)
    (5, 10, 1, 0.5, 2)
    """
    if span <= 0:
        return 1
    scale = 10.0 ** math.floor(math.log10(span / most))
    for factor in (1, 10):
        for step in NICE_STEPS:
            width = step * scale * factor
            if span / width <= most + 1e-9:
                return int(width) if float(width).is_integer() else width
    return span  # pragma: no cover - 10 * scale always fits


def score_bins(max_score: float, most: int = 12) -> list[float]:
    """The edges of the histogram's bins over ``0..max_score``: round steps, the last bin ending at the top score
    (and holding it).

    >>> score_bins(49), score_bins(10)
    ([0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 49], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    """
    if max_score <= 0:
        return [0, 0]
    width = nice_step(max_score, most)
    count = math.ceil(max_score / width - 1e-9)
    return [number(k * width) for k in range(count)] + [number(max_score)]


def histogram_svg(scores: list[float], max_score: float, lang: str) -> str:
    """An SVG bar chart of the scores: round bins over ``0..max_score`` (:func:`score_bins`, the top score in the last)
    marked at their edges on the x axis, and a y axis of students with round ticks and its label."""
    edges = score_bins(max_score)
    bins = len(edges) - 1
    counts = [0] * bins
    for score in scores:
        k = next((i for i in range(bins) if score < edges[i + 1]), bins - 1)
        counts[k] += 1
    step = nice_step(max(counts) or 1, 5)
    step = max(1, math.ceil(step))  # whole students
    top_count = (max(counts) // step + 1) * step  # room above the tallest bar for its count
    width, height, left, right, bottom, top = 560, 300, 58, 14, 52, 24
    plot_w, plot_h = width - left - right, height - top - bottom
    bar = plot_w / bins

    def y(count: float) -> float:
        return top + plot_h - plot_h * count / top_count

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
             f"<title>{escape(t('grade.summary.histogram', lang))}</title>",
             f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fff"/>']
    for tick in range(0, top_count + 1, step):  # the y axis: students, round ticks, light grid lines
        parts.append(f'<line x1="{left}" y1="{y(tick):.1f}" x2="{width - right}" y2="{y(tick):.1f}" '
                     f'stroke="{"#333" if tick == 0 else "#ddd"}"/>')
        parts.append(f'<line x1="{left - 5}" y1="{y(tick):.1f}" x2="{left}" y2="{y(tick):.1f}" stroke="#333"/>')
        parts.append(f'<text x="{left - 8}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick}</text>')
    parts.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{y(0):.1f}" stroke="#333"/>')
    parts.append(f'<text transform="translate(16 {top + plot_h / 2:.1f}) rotate(-90)" text-anchor="middle">'
                 f"{escape(t('grade.summary.y_axis', lang))}</text>")
    for k, count in enumerate(counts):
        x = left + k * bar
        low, high = edges[k], edges[k + 1]
        key = "grade.summary.bin_last" if k == bins - 1 else "grade.summary.bin"
        label = escape(t(key, lang, low=low, high=high, count=count))
        parts.append(f'<rect x="{x + 2:.1f}" y="{y(count):.1f}" width="{bar - 4:.1f}" '
                     f'height="{y(0) - y(count):.1f}" fill="#4a78b5"><title>{label}</title></rect>')
        if count:
            parts.append(f'<text x="{x + bar / 2:.1f}" y="{y(count) - 4:.1f}" text-anchor="middle">{count}</text>')
    for k, edge in enumerate(edges):  # the x axis: each bin's edges marked, the top score last
        x = left + k * bar
        parts.append(f'<line x1="{x:.1f}" y1="{y(0):.1f}" x2="{x:.1f}" y2="{y(0) + 5:.1f}" stroke="#333"/>')
        parts.append(f'<text x="{x:.1f}" y="{y(0) + 18:.1f}" text-anchor="middle">{edge}</text>')
    parts.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 10}" text-anchor="middle">'
                 f"{escape(t('grade.summary.axis', lang, max_score=number(max_score)))}</text>")
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def write_class(out: Path, rows: list[dict], rubric: Rubric, lang: str, regrade: str = "",
                duplicates: list[str] = (), gone: list[str] = ()) -> None:
    """Write ``grades.csv``, ``summary.md`` and ``histogram.svg`` from every student's saved results (``regrade``:
    the command that grades again the students on whom the grader failed; ``duplicates``: the entries not graded,
    their student id taken; ``gone``: feedback folders of an earlier run's students not in this class: all for the
    summary)."""
    write_atomic(out / "grades.csv", grades_csv(rows, rubric, lang))
    write_atomic(out / "histogram.svg", histogram_svg([float(r["score"]) for r in rows], rubric.max_score(), lang))
    write_atomic(out / "summary.md", markdown(summary_markdown(rows, rubric, lang, regrade=regrade,
                                                               duplicates=duplicates, gone=gone)))
