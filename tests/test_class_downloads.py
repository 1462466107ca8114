"""Issue 29's "done means", end to end through ``abkit grade``: a class as each LMS downloads it (named as the LMS
names its files), every student one row under the LMS's identity, correct code full marks, each bug less, the
older copy never the one graded, every file of the download in ``intake.md``; the bad rubrics refused before any
student runs; no message key in ``summary.md`` or ``feedback.md``.

Every class has the same seven students, laid out as their LMS writes them:

=========  ============================================================================================
kim        loose files (prefixed by the LMS where it prefixes them)
lee        a zip: in the student's folder, or the upload itself where the LMS has no folders
park       a zip in a zip
choi       an older copy with a bug and a later correct one (the LMS's stamps where it has them; a draft
           in a folder or zip below the graded files where it has none: Moodle keeps one submission, plain none)
jung       a notebook ``alphabeta.ipynb`` (the solution in its code cells) beside ``minimax.py``
yoon       near names: ``Alpha_Beta.py``, ``Minimax (1).py``
han        a bug in alpha-beta: ``>`` for ``>=`` in MAX-VALUE, or alpha never raised in MAX-VALUE
=========  ============================================================================================

The rubric (:data:`RUBRIC`) grades minimax and alpha-beta only, to keep the file fast; its maximum is summed from
the rubric's text here, never read from a grade.
"""

from __future__ import annotations

import csv
import json
import re
from collections import Counter
from pathlib import Path

import pytest
import yaml

from abkit.i18n import catalogue
from abkit.loading import KIT_ROOT
from abkit.cli.main import main

from helpers import write, zipped

pytestmark = pytest.mark.slow  # every test here reads whole LMS downloads graded as classes

SOLUTIONS = KIT_ROOT / "solutions"
GOOD = {name: (SOLUTIONS / name).read_text(encoding="utf-8") for name in ("minimax.py", "alphabeta.py")}

#: the solution's MAX-VALUE cut-off and alpha update, and the bugs written in their place
MAX_CUT = "        if v > beta or (v == beta and PRUNE_ON_EQUALITY):\n"
ALPHA_UPDATE = "        alpha = max(alpha, v)\n"
assert GOOD["alphabeta.py"].count(MAX_CUT) == 1 and GOOD["alphabeta.py"].count(ALPHA_UPDATE) == 1
BUGS = {
    # v == beta no longer cuts: under the course's AIMA rule the pruning trace and node counts differ on ties
    "gt": GOOD["alphabeta.py"].replace(MAX_CUT, "        if v > beta:\n"),
    # alpha never raised in MAX-VALUE: its MIN children cut too little (values stay right, traces do not)
    "alpha": GOOD["alphabeta.py"].replace(ALPHA_UPDATE, "        pass\n"),
}

RUBRIC = """\
fixtures: [public, hidden]
random_trees: {count: 2, branching: 3, depth: 3, min: -9, max: 9}
direct_tests: 4
visibility: {public: visible, hidden: after_published, random: visible}
step_pages: 1
exercises:
  minimax: {values: 6, nodes: 1, direct: 3}
  alphabeta: {values: 3, pruning: 4, nodes: 1, direct: 2}
"""
#: by hand from RUBRIC: 6 + 1 + 3 and 3 + 4 + 1 + 2
MAXIMA = {exercise: sum(points.values()) for exercise, points in yaml.safe_load(RUBRIC)["exercises"].items()}
MAXIMUM = sum(MAXIMA.values())
assert MAXIMA == {"minimax": 10, "alphabeta": 10}



def notebook(code: str) -> str:
    """A Jupyter notebook (nbformat 4) holding ``code`` in two code cells after a markdown cell, with a magic line
    IPython runs and Python would not."""
    head, tail = code.split("\ndef max_value", 1)
    cells = [("markdown", "# HW 3: alpha-beta\n"), ("code", "%matplotlib inline\n" + head),
             ("code", "def max_value" + tail)]
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": {"name": "python3"}},
                       "cells": [{"cell_type": kind, "metadata": {}, "source": source.splitlines(keepends=True),
                                  **({"outputs": [], "execution_count": None} if kind == "code" else {})}
                                 for kind, source in cells]}, indent=1)



def hand_ins(bug: str) -> dict[str, dict[str, str | bytes]]:
    """Each student's files but choi's (an LMS prefixes or folders them); han's alpha-beta has the bug ``bug``."""
    return {
        "kim": dict(GOOD),
        "lee": {"hw3.zip": zipped({f"hw3/{n}": d for n, d in GOOD.items()})},
        "park": {"outer.zip": zipped({"readme.txt": "see inner.zip", "hw/inner.zip": zipped(GOOD)})},
        "jung": {"minimax.py": GOOD["minimax.py"], "alphabeta.ipynb": notebook(GOOD["alphabeta.py"])},
        "yoon": {"Alpha_Beta.py": GOOD["alphabeta.py"], "Minimax (1).py": GOOD["minimax.py"]},
        "han": {"minimax.py": GOOD["minimax.py"], "alphabeta.py": BUGS[bug]},
    }


OLDER = {"minimax.py": GOOD["minimax.py"], "alphabeta.py": BUGS["gt"]}  # choi's first try: wrong at ties


class Download:
    """A class as an LMS wrote it: ``ids`` (name in the table above -> the id grades.csv must give) and ``older``
    (the download's paths of choi's older, buggy copy, which must not be graded)."""

    def __init__(self, ids: dict[str, str], older: list[str]) -> None:
        self.ids, self.older = ids, older


def canvas(root: Path) -> Download:
    """``<sortablename>[_LATE]_<userid>_<submissionid>_<file>``; a re-upload ``-1``."""
    users = {"kim": ("kimminsu", 1001), "lee": ("leejiwon", 1002), "park": ("park_seoyeon", 1003),
             "jung": ("jungyuna", 1005), "yoon": ("윤하나", 1007), "han": ("hanseojun", 1006)}  # names kept as words
    files = {}
    for student, hand_in in hand_ins("gt").items():
        name, user = users[student]
        files |= {f"{name}_{user}_{user + 4000}_{file}": data for file, data in hand_in.items()}
    files |= {f"choijunho_1004_5004_{n}": d for n, d in OLDER.items()}
    files["choijunho_LATE_1004_5090_alphabeta-1.py"] = GOOD["alphabeta.py"]  # re-uploaded, late
    write(root, files)
    return Download({s: str(u) for s, (_, u) in users.items()} | {"choi": "1004"},
                    ["choijunho_1004_5004_alphabeta.py"])


def canvas_anonymous(root: Path) -> Download:
    """Canvas under anonymous grading: ``[LATE_]anon_<anonymous id>_<submissionid>_<file>``, the anonymous id five
    base58 characters (Canvas's lib/content_zipper.rb, Anonymity.generate_id)."""
    users = {"kim": "Kim23", "lee": "Lee45", "park": "Prk67", "jung": "Jng12", "yoon": "Yn345", "han": "Han67"}
    files = {}
    for n, (student, hand_in) in enumerate(hand_ins("alpha").items()):
        files |= {f"anon_{users[student]}_{6000 + n}_{file}": data for file, data in hand_in.items()}
    files |= {f"anon_Chx89_6100_{n}": d for n, d in OLDER.items()}
    files["LATE_anon_Chx89_6190_alphabeta-1.py"] = GOOD["alphabeta.py"]
    write(root, files)
    return Download({s: f"anon_{u}" for s, u in users.items()} | {"choi": "anon_Chx89"},
                    ["anon_Chx89_6100_alphabeta.py"])


def moodle(root: Path) -> Download:
    """``<Full Name>_<participantid>_assignsubmission_file_/`` per student; online text beside it."""
    people = {"kim": ("Kim Minsu", 57), "lee": ("Lee Jiwon", 58), "park": ("Park Seoyeon", 59),
              "jung": ("Jung Yuna", 61), "yoon": ("Yoon Hana", 63), "han": ("Han Seojun", 62)}
    for student, hand_in in hand_ins("alpha").items():
        name, number = people[student]
        write(root / f"{name}_{number}_assignsubmission_file_", hand_in)
    write(root / "Choi Junho_60_assignsubmission_file_", {**GOOD, "old/alphabeta.py": OLDER["alphabeta.py"]})
    write(root / "Choi Junho_60_assignsubmission_onlinetext_", {"onlinetext.html": "<p>final version</p>"})
    return Download({s: str(n) for s, (_, n) in people.items()} | {"choi": "60"},
                    ["Choi Junho_60_assignsubmission_file_/old/alphabeta.py"])


def moodle_flat(root: Path) -> Download:
    """Moodle without "Download submissions in folders": ``<Full Name>_<participantid>_assignsubmission_file_<file>``
    loose; choi's older try is a zip beside the graded files."""
    people = {"kim": ("Kim Minsu", 57), "lee": ("Lee Jiwon", 58), "park": ("Park Seoyeon", 59),
              "jung": ("Jung Yuna", 61), "yoon": ("Yoon Hana", 63), "han": ("Han Seojun", 62)}
    files = {}
    for student, hand_in in hand_ins("gt").items():
        name, number = people[student]
        files |= {f"{name}_{number}_assignsubmission_file_{file}": data for file, data in hand_in.items()}
    files |= {f"Choi Junho_60_assignsubmission_file_{n}": d for n, d in GOOD.items()}
    files["Choi Junho_60_assignsubmission_file_drafts.zip"] = zipped(OLDER)
    files["Choi Junho_60_assignsubmission_onlinetext_onlinetext.html"] = "<p>final version</p>"
    write(root, files)
    return Download({s: str(n) for s, (_, n) in people.items()} | {"choi": "60"},
                    ["Choi Junho_60_assignsubmission_file_drafts.zip"])


def blackboard(root: Path) -> Download:
    """``<Assignment>_<username>_attempt_<YYYY-MM-DD-HH-MM-SS>_<file>`` and each attempt's receipt ``.txt``."""
    files = {}
    attempts = [(s, "2024-03-01-10-00-00", hand_in) for s, hand_in in hand_ins("gt").items()]
    attempts += [("choi", "2024-03-01-09-00-00", OLDER), ("choi", "2024-03-02-23-59-00", GOOD)]
    users = {s: f"{s}_24" if s in ("kim", "lee", "choi") else f"{s}2024" for s, _, _ in attempts}
    for student, stamp, hand_in in attempts:  # (a username may hold "_": kim_24, lee_24 and choi_24 are three)
        user = users[student]
        files |= {f"HW 3_{user}_attempt_{stamp}_{file}": data for file, data in hand_in.items()}
        files[f"HW 3_{user}_attempt_{stamp}.txt"] = f"Name: {student}\nSubmitted: {stamp}\n"
    write(root, files)
    return Download(users, ["HW 3_choi_24_attempt_2024-03-01-09-00-00_alphabeta.py"])


def _submitter(folder: str, name: str, sid: str, created: str) -> str:
    email = name.split()[0].lower() + "@example.edu"
    return (f"{folder}:\n  :submitters:\n  - :name: {name}\n    :sid: '{sid}'\n    :email: {email}\n"
            f"  :created_at: {created} +09:00\n  :score: 0.0\n")


def gradescope(root: Path) -> Download:
    """The export as unzipped: the top folder holding ``assignment_<id>_export/`` with ``submission_<n>/`` folders
    and ``submission_metadata.yml``; park has no sid (the e-mail is the id)."""
    export = root / "assignment_4242_export"
    people = {"kim": ("Kim Minsu", "2024001"), "lee": ("Lee Jiwon", "2024002"), "park": ("Park Seoyeon", ""),
              "jung": ("Jung Yuna", "2024005"), "yoon": ("Yoon Hana", "2024007"), "han": ("Han Seojun", "2024006")}
    metadata = []
    for n, (student, hand_in) in enumerate(hand_ins("alpha").items(), start=101):
        write(export / f"submission_{n}", hand_in)
        metadata.append(_submitter(f"submission_{n}", *people[student], f"2024-03-01 1{n % 10}:00:00.0"))
    write(export / "submission_90", OLDER)
    write(export / "submission_120", GOOD)
    metadata.append(_submitter("submission_90", "Choi Junho", "2024004", "2024-02-28 09:00:00.0"))
    metadata.append(_submitter("submission_120", "Choi Junho", "2024004", "2024-03-02 09:00:00.0"))
    write(export, {"submission_metadata.yml": "".join(metadata)})
    return Download({s: sid or "park@example.edu" for s, (_, sid) in people.items()} | {"choi": "2024004"},
                    ["assignment_4242_export/submission_90/alphabeta.py"])


def brightspace(root: Path) -> Download:
    """``<user>-<submission> - <Name> - <Mon d, yyyy hmm AM>/`` per submission beside ``index.html``."""
    people = {"kim": (301, "Kim Minsu"), "lee": (302, "Lee Jiwon"), "park": (303, "Park Seoyeon"),
              "jung": (305, "Jung Yuna"), "yoon": (307, "Yoon Hana"), "han": (306, "Han Seojun")}
    write(root, {"index.html": "<html><body>HW 3</body></html>"})
    for student, hand_in in hand_ins("gt").items():
        user, name = people[student]
        write(root / f"{user}-{user + 600} - {name} - Mar 1, 2024 1000 AM", hand_in)
    write(root / "304-800 - Choi Junho - Feb 28, 2024 1159 PM", OLDER)
    write(root / "304-950 - Choi Junho - Mar 2, 2024 930 AM", GOOD)
    return Download({s: str(u) for s, (u, _) in people.items()} | {"choi": "304"},
                    ["304-800 - Choi Junho - Feb 28, 2024 1159 PM/alphabeta.py"])


def brightspace_flat(root: Path) -> Download:
    """An older Brightspace download: files ``<user>-<submission> - <Name> - <date> - <file>`` beside ``index.html``."""
    people = {"kim": (301, "Kim Minsu"), "lee": (302, "Lee Jiwon"), "park": (303, "Park Seoyeon"),
              "jung": (305, "Jung Yuna"), "yoon": (307, "Yoon Hana"), "han": (306, "Han Seojun")}
    files = {"index.html": "<html><body>HW 3</body></html>"}
    for student, hand_in in hand_ins("alpha").items():
        user, name = people[student]
        files |= {f"{user}-{user + 600} - {name} - Mar 1, 2024 1000 AM - {file}": d for file, d in hand_in.items()}
    files |= {f"304-800 - Choi Junho - Feb 28, 2024 1159 PM - {file}": d for file, d in OLDER.items()}
    files |= {f"304-950 - Choi Junho - Mar 2, 2024 930 AM - {file}": d for file, d in GOOD.items()}
    write(root, files)
    return Download({s: str(u) for s, (u, _) in people.items()} | {"choi": "304"},
                    ["304-800 - Choi Junho - Feb 28, 2024 1159 PM - alphabeta.py"])


def plain(root: Path) -> Download:
    """One folder or ``.zip`` per student, named by the id: lee's zip is the entry itself."""
    hand_in = hand_ins("alpha")
    for student, files in hand_in.items():
        if student == "lee":
            write(root, {"lee.zip": zipped(GOOD)})
        else:
            write(root / student, files)
    write(root / "choi", {**GOOD, "drafts/alphabeta.py": OLDER["alphabeta.py"]})
    return Download({s: s for s in [*hand_in, "choi"]}, ["choi/drafts/alphabeta.py"])


LMS = {"canvas": canvas, "canvas_anonymous": canvas_anonymous, "moodle": moodle, "moodle_flat": moodle_flat,
       "blackboard": blackboard, "gradescope": gradescope, "brightspace": brightspace,
       "brightspace_flat": brightspace_flat, "plain": plain}
BUGGY = "han"


@pytest.fixture(scope="module")
def rubric(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("rubric") / "rubric.yaml"
    path.write_text(RUBRIC, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def classes(tmp_path_factory, rubric):
    """Each LMS's class built and graded once through the CLI: lms -> (exit status, download, out, Download)."""
    graded = {}
    for lms, build in LMS.items():
        root = tmp_path_factory.mktemp(lms)
        download = build(root)
        out = tmp_path_factory.mktemp(f"{lms}-out") / "out"
        status = main(["grade", str(root), "--out", str(out), "--rubric", str(rubric), "-j", "2", "--lang", "en"])
        graded[lms] = (status, root, out, download)
    return graded


def grades(out: Path) -> list[dict]:
    with open(out / "grades.csv", encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def test_the_small_rubric_is_accepted_by_rubric_check(rubric, capsys):
    assert main(["--lang", "en", "rubric", "check", str(rubric)]) == 0
    assert f"Maximum score {MAXIMUM}: minimax 10, alphabeta 10." in capsys.readouterr().out


@pytest.mark.parametrize("lms", list(LMS))
def test_every_student_has_exactly_one_row_under_the_lms_identity(classes, lms):
    status, _, out, download = classes[lms]
    assert status == 0
    counted = Counter(row["student"] for row in grades(out))
    assert counted == Counter(download.ids.values()), lms


@pytest.mark.parametrize("lms", list(LMS))
def test_correct_code_gets_full_marks_and_the_bug_less(classes, lms):
    _, _, out, download = classes[lms]
    rows = {row["student"]: row for row in grades(out)}
    for student, sid in download.ids.items():
        row = rows[sid]
        assert row["status"] == "ok" and float(row["max_score"]) == MAXIMUM, (lms, row)
        assert float(row["minimax"]) == MAXIMA["minimax"], (lms, row)  # every minimax.py is the solution
        if student == BUGGY:
            assert float(row["alphabeta"]) < MAXIMA["alphabeta"] and float(row["score"]) < MAXIMUM, (lms, row)
            assert float(row["alphabeta"]) > 0, (lms, row)  # a wrong trace, not a missing file
        else:  # choi included: the older, buggy copy would lose alpha-beta points
            assert float(row["score"]) == MAXIMUM, (lms, student, row)


@pytest.mark.parametrize("lms", list(LMS))
def test_the_intake_report_names_every_file_of_the_download(classes, lms):
    _, root, out, download = classes[lms]
    report = (out / "intake.md").read_text(encoding="utf-8")
    files = sorted(p.relative_to(root) for p in root.rglob("*") if p.is_file())
    if lms == "gradescope":  # the top folder was descended into: paths are named from the export's folder
        files = [p.relative_to("assignment_4242_export") for p in files]
    assert len(files) >= 8
    for path in files:
        assert f"- `{path.as_posix()}`: " in report, (lms, path)
    for sid in download.ids.values():
        assert f"| {sid} |" in report, (lms, sid)


@pytest.mark.parametrize("lms", list(LMS))
def test_the_older_copy_is_left_out_and_the_feedback_says_which_was_graded(classes, lms):
    _, _, out, download = classes[lms]
    report = (out / "intake.md").read_text(encoding="utf-8")
    for path in download.older:
        if lms == "gradescope":
            path = path.removeprefix("assignment_4242_export/")
        line = next(line for line in report.splitlines() if line.startswith(f"- `{path}`: "))
        if lms in ("moodle", "moodle_flat", "plain"):  # no stamps: the student's file; the feedback says not graded
            assert f": {download.ids['choi']}'s submission" in line, line
        else:
            assert ": left out (" in line, line
    feedback = (out / "students" / download.ids["choi"] / "feedback.md").read_text(encoding="utf-8")
    said = {"canvas": "2 copies of alphabeta.py: the latest, choijunho_LATE_1004_5090_alphabeta-1.py, was graded",
            "canvas_anonymous": "2 copies of alphabeta.py: the latest, LATE_anon_Chx89_6190_alphabeta-1.py, was graded",
            "blackboard": "2 attempts were handed in: the latest, of 2024-03-02-23-59-00, was graded",
            "gradescope": "2 submissions of this student: the latest, submission_120",
            "brightspace": "2 attempts were handed in: the latest, of Mar 2, 2024 930 AM, was graded",
            "brightspace_flat": "2 attempts were handed in: the latest, of Mar 2, 2024 930 AM, was graded",
            "moodle": "old/alphabeta.py: a file of the same name sits higher up",
            "moodle_flat": "drafts.zip/alphabeta.py: a file of the same name sits higher up",
            "plain": "drafts/alphabeta.py: a file of the same name sits higher up"}[lms]
    assert said in feedback, (lms, feedback)


@pytest.mark.parametrize("lms", list(LMS))
def test_the_notebook_and_the_near_names_are_graded_and_said(classes, lms):
    _, _, out, download = classes[lms]
    jung = (out / "students" / download.ids["jung"] / "feedback.md").read_text(encoding="utf-8")
    assert "alphabeta.py was graded from the code cells of alphabeta.ipynb (2 cells)" in jung, (lms, jung)
    yoon = (out / "students" / download.ids["yoon"] / "feedback.md").read_text(encoding="utf-8")
    assert "Alpha_Beta.py was graded as alphabeta.py" in yoon and "Minimax (1).py was graded as minimax.py" in yoon


def test_the_gradescope_export_folder_itself_is_graded_per_submission(tmp_path, rubric):
    download = gradescope(tmp_path / "download")
    out = tmp_path / "out"
    export = tmp_path / "download" / "assignment_4242_export"
    assert main(["grade", str(export), "--out", str(out), "--rubric", str(rubric), "-j", "2", "--lang", "en"]) == 0
    assert Counter(row["student"] for row in grades(out)) == Counter(download.ids.values())


def test_a_folder_around_the_export_is_refused_never_one_student(tmp_path, rubric, capsys):
    gradescope(tmp_path / "around" / "downloads")  # the export's top folder inside one more folder
    out = tmp_path / "out"
    status = main(["grade", str(tmp_path / "around"), "--out", str(out), "--rubric", str(rubric), "--lang", "en"])
    err = capsys.readouterr().err
    assert status == 2 and "holds a single entry, downloads," in err and "Traceback" not in err
    assert not (out / "grades.csv").exists()


# -- the bad rubrics of the issue: refused before any student runs ---------------------------------------------

@pytest.mark.parametrize("edit, says", [
    (("  alphabeta: {values: 3,", "  alphabeta_cutoff: {direct: 5}\n  alphabeta: {values: 3,"),
     "alphabeta_cutoff: no test awards direct points"),
    (("minimax: {values: 6,", "minimax: {values: " + "9" * 400 + ","), "points must be a number from 0 to 10,000"),
    (("minimax: {values: 6,", "minimax: {values: 1.0e+308,"), "points must be a number from 0 to 10,000"),
])
def test_the_issues_bad_rubrics_are_refused_by_grade_before_any_student_runs(tmp_path, capsys, edit, says):
    text = RUBRIC.replace(*edit)
    assert text != RUBRIC
    line = next(n for n, row in enumerate(text.splitlines(), start=1) if edit[1].splitlines()[0] in row)
    path = tmp_path / "rubric.yaml"
    path.write_text(text, encoding="utf-8")
    plain(tmp_path / "class")
    out = tmp_path / "out"
    for lang in ("en", "ko"):
        status = main(["grade", str(tmp_path / "class"), "--out", str(out), "--rubric", str(path), "--lang", lang])
        captured = capsys.readouterr()
        assert status == 2, captured
        assert f"{path}:{line}: " in captured.err, captured.err
        assert "Traceback" not in captured.err + captured.out
        assert "[1/" not in captured.out + captured.err  # no student's progress line: none ran
        assert not (out / "grades.csv").exists() and not (out / "students").exists()
    assert main(["--lang", "en", "rubric", "check", str(path)]) == 2
    assert f"{path}:{line}: " in capsys.readouterr().err
    main(["--lang", "en", "grade", str(tmp_path / "class"), "--out", str(out), "--rubric", str(path)])
    assert says in capsys.readouterr().err


# -- no message key shown ----------------------------------------------------------------------------------------

#: the first words of the message keys of what grading writes (``grade.``, ``mistake.``, ``intake.`` ...): a word of
#: text that starts with one, then a dot and a word (not a file's extension), is a key shown raw; so is any whole key
#: of the catalogue. (Not every first word: ``game.result`` in a student's traceback is code, not a key.)
CATALOGUE = set(catalogue("en"))
NAMESPACES = {"grade", "mistake", "intake", "notebook", "rubric", "feedback", "faults", "handin", "roster", "judge",
              "steps", "compare"} & {key.split(".")[0] for key in CATALOGUE}
EXTENSIONS = {"py", "ipynb", "zip", "md", "csv", "json", "html", "svg", "yaml", "txt", "toml"}


def keys_shown(text: str) -> list[str]:
    """Dotted words of ``text`` that read as message keys: ``grade.issue.kind.nodes``, ``mistake.anything``."""
    found = re.findall(r"(?<![\w./-])([a-z_]+)((?:\.[a-z_0-9]+)+)", text)
    return sorted({head + tail for head, tail in found if head + tail in CATALOGUE
                   or (head in NAMESPACES and tail.split(".")[-1] not in EXTENSIONS)})


def test_the_key_check_finds_keys_and_leaves_file_names():
    assert keys_shown("| grade.issue.kind.nodes | 3 |, mistake.some_new_one, (check.exercise)") == \
        ["check.exercise", "grade.issue.kind.nodes", "mistake.some_new_one"]
    assert keys_shown("ordering.py and alphabeta.ipynb, see intake.md; 1.5 points; game.result(state, a)") == []
    assert len(NAMESPACES) == 12 and "check.exercise" in CATALOGUE


LOOP = GOOD["alphabeta.py"].replace("        return game.utility(state)\n    v = -math.inf",
                                    "        return game.utility(state)\n    while True:\n        pass", 1)
assert LOOP != GOOD["alphabeta.py"]
#: students failing in every way the grader names: (files)
FAILING = {
    "syntax": {**GOOD, "alphabeta.py": GOOD["alphabeta.py"].replace("def max_value(", "def max_value(:", 1)},
    "missing": {"minimax.py": GOOD["minimax.py"]},
    "raises": {**GOOD, "minimax.py": GOOD["minimax.py"].replace("    v = -math.inf\n",
                                                                "    v = -math.inf\n    raise KeyError('x')\n", 1)},
    "values": {**GOOD, "minimax.py": GOOD["minimax.py"].replace("v = min(v, max_value", "v = max(v, max_value")},
    "nodes": {**GOOD, "alphabeta.py": BUGS["alpha"]},
    "ties": {**GOOD, "alphabeta.py": BUGS["gt"]},
    "loops": {**GOOD, "alphabeta.py": LOOP},
    "badnb": {"minimax.py": GOOD["minimax.py"], "alphabeta.ipynb": "{not a notebook"},
    "exits": {**GOOD, "alphabeta.py": "import sys\nsys.exit(3)\n"},
    "good": dict(GOOD),
}


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_no_summary_or_feedback_shows_a_message_key(tmp_path, rubric, lang):
    for student, files in FAILING.items():
        write(tmp_path / "class" / student, files)
    out = tmp_path / "out"
    status = main(["grade", str(tmp_path / "class"), "--out", str(out), "--rubric", str(rubric), "-j", "2",
                   "--timeout", "1", "--lang", lang])
    assert status == 0
    rows = {row["student"]: row for row in grades(out)}
    assert sorted(rows) == sorted(FAILING)
    assert float(rows["good"]["score"]) == MAXIMUM
    assert all(float(rows[s]["score"]) < MAXIMUM for s in FAILING if s != "good"), rows
    for path in [out / "summary.md", out / "intake.md", *sorted((out / "students").glob("*/feedback.md"))]:
        assert keys_shown(path.read_text(encoding="utf-8")) == [], path
