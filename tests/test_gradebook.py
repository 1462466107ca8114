"""``abkit grades export``: a grading folder's grades written as each LMS's gradebook import reads them.

The columns are held to the ones each LMS documents (cited in grader/gradebook.py's docstring); the grades to the
ones a tiny class, graded once here, got in grades.csv; an identity a format needs and the folder lacks is refused
in one sentence that says what to pass."""

from __future__ import annotations

import csv
import io

import pytest

from abkit.grader.mistakes import BY_ID, mutant_source
from abkit.loading import KIT_ROOT

RUBRIC = "step_pages: 0\nfixtures: [public]\nexercises:\n  alphabeta: {pruning: 1}\n"
ROSTER = ("lms_id,student_id,name\n1030,2024001,Kim Minsu\nminsu@example.edu,2024001,Kim Minsu\n"
          "1031,2024002,Lee Jiwon\n")
#: the documented columns, before the assignment's (grader/gradebook.py names the pages)
CANVAS = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
MOODLE = ["ID number", "Email address"]
GRADESCOPE = ["Name", "Email", "SID"]


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """A class of two as Canvas downloads it (user ids 1030 and 1031: the reference and a mutant), graded with a
    roster; the folder, the roster and grades.csv's scores by course id."""
    from abkit.cli.main import main

    root = tmp_path_factory.mktemp("gradebook")
    (root / "in").mkdir()
    (root / "in" / "kimminsu_1030_5001_alphabeta.py").write_text(
        (KIT_ROOT / "solutions" / "alphabeta.py").read_text(encoding="utf-8"), encoding="utf-8")
    (root / "in" / "leejiwon_1031_5002_alphabeta.py").write_text(mutant_source(BY_ID["no_pass_down"]),
                                                                 encoding="utf-8")
    (root / "rubric.yaml").write_text(RUBRIC, encoding="utf-8")
    (root / "roster.csv").write_text(ROSTER, encoding="utf-8")
    out = root / "out"
    assert main(["grade", str(root / "in"), "--out", str(out), "--rubric", str(root / "rubric.yaml"), "--roster",
                 str(root / "roster.csv"), "-j", "2", "--timeout", "5", "--lang", "en"]) == 0
    with open(out / "grades.csv", encoding="utf-8", newline="") as handle:
        scores = {row["student"]: row["score"] for row in csv.DictReader(handle)}
    assert scores["2024001"] == "1" and float(scores["2024002"]) < 1  # the reference full marks, the mutant less
    return out, root / "roster.csv", scores


def table(path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"), newline="")))


@pytest.mark.slow
def test_canvas_gets_its_columns_the_canvas_user_id_and_the_grade(graded, abkit, tmp_path):
    out, roster, scores = graded
    run = abkit("grades", "export", out, "--format", "canvas", "--roster", roster, "--assignment", "Alpha-beta",
                "--assignment-id", "4711", "--out", tmp_path / "canvas.csv", "--lang", "en")
    assert run.status == 0, run
    header, *rows = table(tmp_path / "canvas.csv")
    assert header == [*CANVAS, "Alpha-beta (4711)"]
    assert rows == [["Kim Minsu", "1030", "", "", "", scores["2024001"]],
                    ["Lee Jiwon", "1031", "", "", "", scores["2024002"]]]
    assert "2 grades for Canvas's gradebook import" in run.out


@pytest.mark.slow
def test_moodle_gets_the_id_number_and_the_e_mail(graded, abkit, tmp_path):
    out, roster, scores = graded
    run = abkit("grades", "export", out, "--format", "moodle", "--roster", roster, "--assignment", "Alpha-beta",
                "--lang", "en")
    assert run.status == 0, run
    header, *rows = table(out / "grades-moodle.csv")  # the default file, beside grades.csv
    assert header == [*MOODLE, "Alpha-beta"]
    assert rows == [["2024001", "minsu@example.edu", scores["2024001"]], ["2024002", "", scores["2024002"]]]


@pytest.mark.slow
def test_gradescope_gets_the_name_the_e_mail_and_the_sid(graded, abkit, tmp_path):
    out, roster, scores = graded
    run = abkit("grades", "export", out, "--format", "gradescope-csv", "--roster", roster, "--out",
                tmp_path / "gs.csv", "--lang", "en")
    assert run.status == 0, run
    header, *rows = table(tmp_path / "gs.csv")
    assert header == [*GRADESCOPE, "abkit"]
    assert rows[0] == ["Kim Minsu", "minsu@example.edu", "1030", scores["2024001"]]


@pytest.mark.slow
@pytest.mark.parametrize("lang, words", [("en", "Pass that roster again"), ("ko", "그 명단을 다시 지정하세요")])
def test_a_class_graded_with_a_roster_is_not_exported_without_it(graded, abkit, tmp_path, lang, words):
    """Graded with --roster, grades.csv holds the course's ids (2024001): without the roster they would be taken
    for Canvas user ids, which may be other students'. The export says so, names the roster, and writes nothing."""
    out, roster, _ = graded
    run = abkit("grades", "export", out, "--format", "canvas", "--out", tmp_path / "c.csv", "--lang", lang)
    assert run.status == 2 and "Traceback" not in run.err
    assert words in run.err and f"--roster {roster}" in run.err
    assert len(run.err.strip().splitlines()) == 1 and not (tmp_path / "c.csv").exists()


@pytest.mark.parametrize("lang, words", [("en", "neither an e-mail address nor a course id"), ("ko", "이메일 주소도")])
def test_moodle_without_the_roster_says_what_is_missing_and_what_to_pass(abkit, tmp_path, lang, words):
    grades_csv(tmp_path / "out", "2024001,ok,3,3,3,,1,,\n2024002,ok,2,3,2,,2,,\n")
    run = abkit("grades", "export", tmp_path / "out", "--format", "moodle", "--out", tmp_path / "m.csv",
                "--lang", lang)
    assert run.status == 2 and "Traceback" not in run.err
    assert words in run.err and "--roster" in run.err and "2024001, 2024002" in run.err
    assert len(run.err.strip().splitlines()) == 1 and not (tmp_path / "m.csv").exists()


def grades_csv(folder, rows: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "grades.csv").write_text("student,status,score,max_score,alphabeta,mistakes,seed,grader_error,handin\n"
                                       + rows, encoding="utf-8")


def test_a_class_graded_without_ids_canvas_knows_is_refused_naming_the_roster(abkit, tmp_path):
    grades_csv(tmp_path / "out", "alice,ok,3,3,3,,1,,\nbob,ok,2,3,2,,2,,\n")
    run = abkit("grades", "export", tmp_path / "out", "--format", "canvas", "--lang", "en")
    assert run.status == 2
    assert "2 students have no Canvas user id" in run.err and "(alice, bob)" in run.err and "--roster" in run.err


def test_a_student_the_grader_failed_on_is_left_out_and_named(abkit, tmp_path):
    grades_csv(tmp_path / "out", "'=1+1,ok,3,3,3,,1,,\nbob,crashed,0,3,0,,2,KeyError: 'x',\n")
    run = abkit("grades", "export", tmp_path / "out", "--format", "gradescope-csv", "--lang", "en")
    assert run.status == 0, run
    assert table(tmp_path / "out" / "grades-gradescope-csv.csv")[1:] == [["", "", "=1+1", "3"]]  # the id, unguarded
    assert "grader itself failed on them: bob" in run.err


@pytest.mark.parametrize("make, words", [
    (lambda p: p.mkdir(), "holds no readable grades.csv"),
    (lambda p: (p.mkdir(), (p / "grades.csv").write_text("a,b\n1,2\n")), "is not a grades.csv that abkit grade wrote"),
    (lambda p: grades_csv(p, ""), "has no student's row"),
])
def test_a_folder_that_is_not_a_grading_output_is_refused_in_one_sentence(abkit, tmp_path, make, words):
    make(tmp_path / "out")
    run = abkit("grades", "export", tmp_path / "out", "--format", "canvas", "--lang", "en")
    assert run.status == 2 and words in run.err and len(run.err.strip().splitlines()) == 1
