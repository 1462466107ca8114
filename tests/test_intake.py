"""``abkit grade`` on classes downloaded from each LMS, named as the LMS names them: every student one row, correct
code full marks, the buggy one less, every file in ``intake.md``; the roster; downloads refused with exit 2.

Each LMS's class has five students: loose files, a zip in a folder, a zip in a zip, a late or repeated copy, a
hand-in made by ``abkit pack``, and one student with a bug (``min_value`` starting from 0 instead of +inf). A
notebook hand-in (``.ipynb``) belongs in these classes too; reading notebooks is tested where it is built.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from abkit.loading import KIT_ROOT
from abkit.manifest import MANIFEST, manifest

from helpers import write, zipped

SOLUTIONS = KIT_ROOT / "solutions"
NAMES = ("minimax.py", "alphabeta.py", "alphabeta_cutoff.py", "expectimax.py", "ordering.py")
GOOD = {name: (SOLUTIONS / name).read_bytes() for name in NAMES}
BUGGY = {**GOOD, "minimax.py": GOOD["minimax.py"].replace(b"v = math.inf", b"v = 0", 1)}
assert BUGGY["minimax.py"] != GOOD["minimax.py"]



def packed(student: str) -> bytes:
    """A hand-in as ``abkit pack`` makes it (its manifest naming ``student``) of the correct files."""
    files = {f"exercises/{name}": data for name, data in GOOD.items()}
    text = json.dumps(manifest(student, files, {}, "aima"))
    return zipped({MANIFEST: text.encode(), **files})



def canvas(root: Path) -> dict[str, bool]:
    """Canvas's Download Submissions; student id -> whether their code is correct."""
    files = {f"kimminsu_1030_90012_{n}": d for n, d in BUGGY.items() if n == "minimax.py"}  # the first upload
    files |= {f"kimminsu_LATE_1030_90020_{n.replace('.py', '-1.py') if n == 'minimax.py' else n}": d
              for n, d in GOOD.items()}  # all again, late, minimax.py re-uploaded
    files["leejiwon_1031_90013_hw3.zip"] = zipped({f"hw3/{n}": d for n, d in GOOD.items()})
    files["parkseoyeon_1032_90014_final.zip"] = zipped({"inner.zip": zipped(GOOD), "notes.txt": b"see inner.zip"})
    files |= {f"choijunho_1033_90015_{n}": d for n, d in BUGGY.items()}
    files["jungyuna_1034_90016_2024005.zip"] = packed("2024005")  # renamed by Canvas, packed under the course id
    write(root, files)
    return {"1030": True, "1031": True, "1032": True, "1033": False, "1034": True}


def moodle(root: Path) -> dict[str, bool]:
    """Moodle's Download all submissions."""
    write(root / "Kim Minsu_57_assignsubmission_file_", GOOD)
    write(root / "Lee Jiwon_58_assignsubmission_file_", {"hw3.zip": zipped(GOOD)})
    write(root / "Park Seoyeon_59_assignsubmission_file_", {"outer.zip": zipped({"hw/inner.zip": zipped(GOOD)})})
    write(root / "Choi Junho_60_assignsubmission_file_", BUGGY)
    write(root / "Jung Yuna_61_assignsubmission_file_", {"2024005.zip": packed("2024005")})
    write(root / "Jung Yuna_61_assignsubmission_onlinetext_", {"onlinetext.html": b"<p>done</p>"})
    return {"57": True, "58": True, "59": True, "60": False, "61": True}


def blackboard(root: Path) -> dict[str, bool]:
    """Blackboard's assignment download: each attempt's files and its receipt."""
    files = {}
    for user, stamp, content in (("kimminsu", "2024-03-01-09-00-00", BUGGY), ("kimminsu", "2024-03-02-10-30-00", GOOD),
                                 ("choijunho", "2024-03-01-11-00-00", BUGGY)):
        files |= {f"HW 3_{user}_attempt_{stamp}_{n}": d for n, d in content.items()}
    files["HW 3_leejiwon_attempt_2024-03-01-12-00-00_hw3.zip"] = zipped(GOOD)
    files["HW 3_parkseoyeon_attempt_2024-03-01-13-00-00_all.zip"] = zipped({"in.zip": zipped(GOOD)})
    files["HW 3_jungyuna_attempt_2024-03-01-14-00-00_2024005.zip"] = packed("2024005")
    for name in list(files):
        files[name.split("_attempt_")[0] + "_attempt_" + name.split("_attempt_")[1][:19] + ".txt"] = b"Name: x\n"
    write(root, files)
    return {"kimminsu": True, "leejiwon": True, "parkseoyeon": True, "choijunho": False, "jungyuna": True}


METADATA = """\
submission_101:
  :submitters:
  - :name: Kim Minsu
    :sid: '2024001'
    :email: minsu@example.edu
  :created_at: 2024-03-01 10:00:00.000000000 +09:00
  :score: 0.0
submission_102:
  :submitters:
  - :name: Lee Jiwon
    :sid: '2024002'
    :email: jiwon@example.edu
  :created_at: 2024-03-01 11:00:00.000000000 +09:00
submission_103:
  :submitters:
  - :name: Park Seoyeon
    :sid: ''
    :email: seoyeon@example.edu
  :created_at: 2024-03-01 12:00:00.000000000 +09:00
submission_104:
  :submitters:
  - :name: Choi Junho
    :sid: '2024004'
    :email: junho@example.edu
  :created_at: 2024-03-01 13:00:00.000000000 +09:00
submission_105:
  :submitters:
  - :name: Jung Yuna
    :sid: '2024005'
    :email: yuna@example.edu
  :created_at: 2024-03-01 14:00:00.000000000 +09:00
submission_99:
  :submitters:
  - :name: Kim Minsu
    :sid: '2024001'
    :email: minsu@example.edu
  :created_at: 2024-02-28 10:00:00.000000000 +09:00
"""


def gradescope(root: Path) -> dict[str, bool]:
    """Gradescope's export, as unzipped: the export's top folder holding ``assignment_<id>_export/``."""
    export = root / "assignment_4242_export"
    write(export, {"submission_metadata.yml": METADATA.encode()})
    write(export / "submission_99", BUGGY)  # Kim Minsu's earlier submission
    write(export / "submission_101", GOOD)
    write(export / "submission_102", {"hw3.zip": zipped(GOOD)})
    write(export / "submission_103", {"a.zip": zipped({"b.zip": zipped(GOOD)})})
    write(export / "submission_104", BUGGY)
    write(export / "submission_105", {"2024005.zip": packed("2024005")})
    return {"2024001": True, "2024002": True, "seoyeon@example.edu": True, "2024004": False, "2024005": True}


def brightspace(root: Path) -> dict[str, bool]:
    """Brightspace's download: a folder per submission beside index.html."""
    write(root, {"index.html": b"<html></html>"})
    write(root / "55-901 - Kim Minsu - Mar 1, 2024 900 AM", BUGGY)
    write(root / "55-950 - Kim Minsu - Mar 2, 2024 1030 AM", GOOD)
    write(root / "56-902 - Lee Jiwon - Mar 1, 2024 1000 AM", {"hw3.zip": zipped(GOOD)})
    write(root / "57-903 - Park Seoyeon - Mar 1, 2024 1100 AM", {"x.zip": zipped({"y.zip": zipped(GOOD)})})
    write(root / "58-904 - Choi Junho - Mar 1, 2024 1200 PM", BUGGY)
    write(root / "59-905 - Jung Yuna - Mar 1, 2024 100 PM", {"2024005.zip": packed("2024005")})
    return {"55": True, "56": True, "57": True, "58": False, "59": True}


LMS = {"canvas": canvas, "moodle": moodle, "blackboard": blackboard, "gradescope": gradescope,
       "brightspace": brightspace}


@pytest.fixture(scope="module")
def classes(tmp_path_factory):
    """Each LMS's class built and graded once: name -> (exit status, the class folder, out folder, expected)."""
    from abkit.cli.main import main

    graded = {}
    for name, build in LMS.items():
        root = tmp_path_factory.mktemp(name)
        expected = build(root)
        out = tmp_path_factory.mktemp(f"{name}-out")
        status = main(["grade", str(root), "--out", str(out), "-j", "2", "--lang", "en"])
        graded[name] = (status, root, out, expected)
    return graded


def rows(out: Path) -> list[dict]:
    with open(out / "grades.csv", encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


@pytest.mark.slow
@pytest.mark.parametrize("lms", sorted(LMS))
def test_every_student_has_one_row_correct_code_full_marks_the_bug_less(classes, lms):
    status, _, out, expected = classes[lms]
    assert status == 0
    found = rows(out)
    full = {e: max(float(r[e]) for r in found) for e in ("minimax", "alphabeta")}
    assert sorted(r["student"] for r in found) == sorted(expected)
    for row in found:
        if expected[row["student"]]:
            assert float(row["score"]) == float(row["max_score"]) > 0, (lms, row)
        else:
            assert row["status"] == "ok" and float(row["score"]) < float(row["max_score"]), (lms, row)
            assert float(row["minimax"]) < full["minimax"]
            assert float(row["alphabeta"]) > 0  # the rest of the buggy student's files were graded


@pytest.mark.slow
@pytest.mark.parametrize("lms", sorted(LMS))
def test_the_intake_report_lists_every_file_of_the_download(classes, lms):
    _, root, out, expected = classes[lms]
    text = (out / "intake.md").read_text(encoding="utf-8")
    files = [p.relative_to(root) for p in root.rglob("*") if p.is_file()]
    if lms == "gradescope":  # read inside the export's folder: its files are named from there
        files = [p.relative_to("assignment_4242_export") for p in files]
    assert len(files) >= 10
    for path in files:
        assert f"`{path.as_posix()}`" in text, (lms, path)
    for student in expected:
        assert f"| {student} |" in text


@pytest.mark.slow
def test_the_copy_graded_is_the_lms_latest_and_the_feedback_says_so(classes):
    _, _, out, _ = classes["canvas"]
    feedback = (out / "students" / "1030" / "feedback.md").read_text(encoding="utf-8")
    assert "Canvas marked as handed in late: alphabeta.py, alphabeta_cutoff.py, expectimax.py, minimax.py, " \
        "ordering.py." in feedback
    assert "2 copies of minimax.py: the latest, kimminsu_LATE_1030_90020_minimax-1.py, was graded" in feedback
    intake = (out / "intake.md").read_text(encoding="utf-8")
    assert "`kimminsu_1030_90012_minimax.py`: left out (an older copy of minimax.py" in intake
    _, _, out, _ = classes["blackboard"]
    assert "2 attempts were handed in: the latest, of 2024-03-02-10-30-00, was graded" in \
        (out / "students" / "kimminsu" / "feedback.md").read_text(encoding="utf-8")
    intake = (out / "intake.md").read_text(encoding="utf-8")
    assert "`HW 3_kimminsu_attempt_2024-03-01-09-00-00_minimax.py`: left out (an earlier attempt" in intake
    assert "`HW 3_leejiwon_attempt_2024-03-01-12-00-00.txt`: left out (the LMS's receipt" in intake
    _, _, out, _ = classes["gradescope"]
    intake = (out / "intake.md").read_text(encoding="utf-8")
    assert "`submission_99/minimax.py`: left out (an earlier submission of the same student" in intake
    assert "Gradescope's export assignment_4242_export" in intake
    assert "2 submissions of this student: the latest, submission_101 (2024-03-01 10:00:00" in \
        (out / "students" / "2024001" / "feedback.md").read_text(encoding="utf-8")
    _, _, out, _ = classes["moodle"]
    intake = (out / "intake.md").read_text(encoding="utf-8")
    assert "`Jung Yuna_61_assignsubmission_onlinetext_/onlinetext.html`: left out (online text" in intake


@pytest.mark.slow
def test_an_lms_renamed_pack_hand_in_is_not_a_mismatch(classes):
    for lms, (_, _, out, _) in classes.items():
        student = {"canvas": "1034", "moodle": "61", "blackboard": "jungyuna", "gradescope": "2024005",
                   "brightspace": "59"}[lms]
        row = next(r for r in rows(out) if r["student"] == student)
        assert row["handin"] == "ok", (lms, row["handin"])


@pytest.mark.slow
def test_a_roster_gives_the_course_ids_and_checks_the_hand_in_against_them(classes, tmp_path):
    from abkit.cli.main import main

    _, root, _, _ = classes["canvas"]
    roster = tmp_path / "roster.csv"
    roster.write_text("lms_id,student_id,name\n1030,2024001,Kim Minsu\n1031,2024002,Lee Jiwon\n"
                      "1033,2024004,Choi Junho\n1034,2024009,Jung Yuna\n9999,2024010,Nobody\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["grade", str(root), "--out", str(out), "-j", "2", "--roster", str(roster), "--lang", "en"]) == 0
    found = {r["student"]: r for r in rows(out)}
    assert sorted(found) == ["1032", "2024001", "2024002", "2024004", "2024009"]  # 1032 is not in the roster
    assert found["2024009"]["handin"].startswith("mismatch")  # packed as 2024005, the roster says 2024009
    assert "2024005" in found["2024009"]["handin"]
    intake = (out / "intake.md").read_text(encoding="utf-8")
    assert "| 2024001 | 1030 | Kim Minsu |" in intake
    assert "1032 is not in the roster" in intake
    assert "1 student of the roster handed in nothing and have no row: 2024010" in intake


@pytest.mark.parametrize("text, where", [
    ("student_id,name\n1,a\n", "no column lms_id"),
    ("lms_id,student_id\n1,a\n2,\n", "roster.csv:3: the column student_id is empty"),
    ("lms_id,student_id\n1,a\n1,b\n", "roster.csv:3: the LMS id '1' is already on line 2"),
    ("lms_id,student_id\n1,../x\n", "roster.csv:2: '../x' cannot be a student id"),
    ("lms_id,student_id\n", "has a header but no student"),
])
def test_a_bad_roster_is_refused_with_its_line(abkit, tmp_path, text, where):
    (tmp_path / "class" / "alice").mkdir(parents=True)
    (tmp_path / "roster.csv").write_text(text, encoding="utf-8")
    run = abkit("grade", tmp_path / "class", "--out", tmp_path / "out", "--roster", tmp_path / "roster.csv",
                "--lang", "en")
    assert run.status == 2 and where in run.err, run.err
    assert "Traceback" not in run.err and not (tmp_path / "out").exists()


def test_a_class_that_looks_like_one_student_is_refused(abkit, tmp_path):
    klass = tmp_path / "download" / "everyone"
    for n in range(4):
        write(klass / f"submission_{n}", {"minimax.py": GOOD["minimax.py"]})
    run = abkit("grade", tmp_path / "download", "--out", tmp_path / "out", "--lang", "en")
    assert run.status == 2
    assert "holds a single entry, everyone, whose 4 folders look like a whole class's submissions" in run.err
    run = abkit("grade", tmp_path / "download", "--out", tmp_path / "out", "--lang", "ko")
    assert run.status == 2 and "한 반 전체의 제출물" in run.err
    gradescope(tmp_path / "wrapped" / "downloads")  # the export two folders down
    run = abkit("grade", tmp_path / "wrapped", "--out", tmp_path / "out", "--lang", "en")
    assert run.status == 2 and "holds a single entry, downloads," in run.err, run.err
    assert not (tmp_path / "out").exists()


def test_one_student_with_drafts_in_folders_is_still_one_student(tmp_path):
    from abkit.grader.intake import read_download

    write(tmp_path / "class" / "alice", {"alphabeta.py": b"", "v1/alphabeta.py": b"", "v2/alphabeta.py": b"",
                                         "v3/alphabeta.py": b""})
    write(tmp_path / "class2" / "bob", {"a/alphabeta.py": b"", "b/minimax.py": b"", "c/ordering.py": b""})
    assert [e.student for e in read_download(tmp_path / "class").entries] == ["alice"]
    assert [e.student for e in read_download(tmp_path / "class2").entries] == ["bob"]


def test_an_export_beside_student_folders_is_refused(tmp_path):
    from abkit.grader.intake import read_download
    from abkit.grader.submissions import SubmissionsError

    write(tmp_path / "assignment_7_export" / "submission_1", GOOD)
    write(tmp_path / "carol", GOOD)
    with pytest.raises(SubmissionsError) as error:
        read_download(tmp_path)
    assert error.value.message.render("en").endswith(
        "holds Gradescope's export assignment_7_export beside other entries (carol): grade the export's folder on its "
        "own, and the others apart from it.")


def test_an_export_without_metadata_is_graded_per_submission_never_as_one_student(tmp_path):
    from abkit.grader.intake import read_download

    write(tmp_path / "assignment_7_export" / "submission_1", GOOD)
    write(tmp_path / "assignment_7_export" / "submission_2", GOOD)
    intake = read_download(tmp_path)
    assert [e.student for e in intake.entries] == ["submission_1", "submission_2"]


def test_an_archive_never_opened_is_named_with_why(tmp_path):
    from abkit.grader.submissions import MAX_NESTING, Submission, unpack

    deep = zipped(GOOD)
    for _ in range(MAX_NESTING):
        deep = zipped({"deeper.zip": deep})
    write(tmp_path / "s1", {"deep.zip": deep, "broken.zip": b"PK\x03\x04 not really"})
    result = unpack(Submission("s1", tmp_path / "s1"), tmp_path / "work")
    said = [m.render("en") for m in result.skipped]
    assert any("broken.zip was not opened: the archive could not be read" in s for s in said), said
    assert any("deeper.zip was not opened: archives inside archives are opened 3 levels deep" in s for s in said)
    assert not any(f.endswith(".py") for f in result.files)


def test_a_zip_slip_inside_an_inner_zip_is_skipped(tmp_path):
    from abkit.grader.submissions import Submission, unpack

    write(tmp_path / "s1", {"hw.zip": zipped({"../../evil.py": b"x = 1", "minimax.py": GOOD["minimax.py"]})})
    result = unpack(Submission("s1", tmp_path / "s1"), tmp_path / "work")
    assert result.files == ["hw.zip/minimax.py"]
    assert any("evil.py" in m.render("en") and "outside" in m.render("en") for m in result.skipped)
    assert not (tmp_path / "evil.py").exists() and not (tmp_path / "work" / ".." / "evil.py").exists()


def test_canvas_names_are_read_as_canvas_writes_them(tmp_path):
    from abkit.grader.intake import read_download

    write(tmp_path, {"kimminsu_LATE_1030_90012_minimax.py": b"", "kimminsu_1030_90013_minimax-2.py": b"",
                     "kimminsu_1030_90013_minimax-1.py": b"", "leejiwon_1031_90014_hw3.zip": zipped({}),
                     "stray.txt": b"?", "parkseoyeon_1032_text.html": b"<p>see my code</p>"})
    intake = read_download(tmp_path)
    assert intake.layout == "canvas"
    kim, lee, park = intake.entries
    assert (kim.student, lee.student, lee.path.name) == ("1030", "1031", "leejiwon_1031_90014_hw3.zip")
    # online text alone is a student with a row that says so (an entry never opened), not a student lost
    assert park.student == "1032" and park.problem.render("en").startswith("Only online text was handed in on Canvas")
    assert [name for name, _ in kim.files] == ["minimax.py"] and kim.files[0][1].endswith("minimax-2.py")
    lines = {line.path: line for line in intake.files}
    assert lines["stray.txt"].student is None and lines["kimminsu_1030_90013_minimax-2.py"].student == "1030"
    assert lines["kimminsu_LATE_1030_90012_minimax.py"].student is None
    assert lines["parkseoyeon_1032_text.html"].why.render("en") == "online text, not code"


def test_the_terminal_names_the_surprising_files_left_out_first(tmp_path):
    from abkit.grader.intake import read_download
    from abkit.grader.intake_report import intake_summary

    blackboard(tmp_path)
    text = intake_summary(read_download(tmp_path), "en", "out/intake.md")
    lines = text.splitlines()
    assert lines[0] == ("intake: Blackboard's assignment download, 24 files, 5 students, 11 left out; every file is "
                        "listed in out/intake.md")
    assert all("an earlier attempt (2024-03-01-09-00-00)" in line for line in lines[1:6])  # before the 6 receipts
    assert lines[6] == "  - 6 more files left out: see the report"
    ko = intake_summary(read_download(tmp_path), "ko", "out/intake.md")
    assert ko.startswith("제출물 접수: Blackboard의 과제 내려받기, 파일 24개, 학생 5명, 채점에서 뺀 파일 11개.")


def test_archives_inside_an_entry_share_its_caps(tmp_path, monkeypatch):
    from abkit.grader import submissions
    from abkit.grader.submissions import MAX_ARCHIVES, Submission, unpack

    many = zipped({f"z{k:02}.zip": zipped({"minimax.py": b"x = 1\n"}) for k in range(MAX_ARCHIVES + 5)})
    write(tmp_path / "s1", {"many.zip": many})
    result = unpack(Submission("s1", tmp_path / "s1"), tmp_path / "work")
    # many.zip itself is the first archive opened: MAX_ARCHIVES - 1 of the inner ones, the rest named
    assert len(result.files) == MAX_ARCHIVES - 1
    said = [m.render("en") for m in result.skipped]
    assert len(said) == 6 and all(f"at most {MAX_ARCHIVES} archives are opened" in s for s in said)
    monkeypatch.setattr(submissions, "MAX_TOTAL_BYTES", 25)  # two files of 12 bytes fit, a third does not
    write(tmp_path / "s2", {"a.zip": zipped({"a.py": b"x = 1234567\n"}), "b.py": b"y = 1234567\n",
                            "c.zip": zipped({"c.py": b"z = 1234567\n"})})
    result = unpack(Submission("s2", tmp_path / "s2"), tmp_path / "work2")
    assert result.files == ["a.zip/a.py", "b.py"] and result.written == 24
    assert [m.key for m in result.skipped] == ["grade.skipped.large"]


def test_a_roster_maps_plain_entries_by_their_names(tmp_path):
    from abkit.grader.intake import read_download, with_roster
    from abkit.grader.roster import load_roster

    write(tmp_path / "class" / "alice", {"minimax.py": b""})
    write(tmp_path / "class", {"bob.zip": zipped({"minimax.py": b""})})
    (tmp_path / "roster.csv").write_text("Name,lms_id,student_id,Section\nAlice Kim,alice,2024001,A\n",
                                         encoding="utf-8")
    roster = load_roster(tmp_path / "roster.csv")
    assert dict(roster) == {"alice": ("2024001", "Alice Kim")}  # headers in any case and order; Section ignored
    intake = read_download(tmp_path / "class")
    with_roster(intake, roster)
    alice, bob = intake.entries
    assert (alice.student, alice.aliases, alice.verify, alice.path.name) == ("2024001", ("alice",), True, "alice")
    assert bob.student == "bob" and intake.who["2024001"] == ("alice", "Alice Kim")
    assert [m.render("en") for m in intake.notes] == ["bob is not in the roster: graded under the LMS's id."]
    assert {line.path: line.student for line in intake.files} == {"alice/minimax.py": "2024001", "bob.zip": "bob"}


GROUP_METADATA = """\
submission_7:
  :submitters:
  - :name: Han Dohyun
    :sid: '2024010'
  :created_at: 2024-03-01 09:00:00.000000000 +09:00
submission_8:
  :submitters:
  - :name: Han Dohyun
    :sid: '2024010'
  - :name: Oh Sumin
    :sid: '2024011'
  :created_at: 2024-03-02 09:00:00.000000000 +09:00
"""


def test_every_member_of_a_gradescope_group_has_a_row(tmp_path):
    """A group submission names two students: both are graded on it (no member lost), each under their own id; the
    member's own earlier, solo submission is left out as older."""
    from abkit.grader.intake import read_download

    export = tmp_path / "assignment_4242_export"
    write(export, {"submission_metadata.yml": GROUP_METADATA.encode()})
    write(export / "submission_7", BUGGY)
    write(export / "submission_8", GOOD)
    intake = read_download(tmp_path)
    entries = {entry.student: entry for entry in intake.entries}
    assert sorted(entries) == ["2024010", "2024011"]
    assert {entry.path.name for entry in entries.values()} == {"submission_8"}
    assert intake.who["2024011"] == ("2024011", "Oh Sumin")
    group = [m.render("en") for m in entries["2024011"].notes]
    assert group == ["a group submission of Han Dohyun, Oh Sumin: each member is graded on it, under their own id."]
    lines = {line.path: line for line in intake.files}
    assert lines["submission_7/minimax.py"].student is None
    assert "submission_8" in lines["submission_7/minimax.py"].why.render("en")
    assert lines["submission_8/minimax.py"].student == "2024010"
