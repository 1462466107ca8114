"""abkit pack (issue 17): the hand-in zip, the student id kept in the course folder, and what abkit grade says of a
hand-in that no longer matches its manifest."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import sys
import zipfile
from pathlib import Path

import pytest

from abkit import __version__
from abkit.loading import SOLUTIONS
from abkit.studentloop import pack as packing
from abkit.grader.handin import handin_cell
from abkit.manifest import BadManifest, parse_manifest
from abkit.manifest import MANIFEST
from abkit.studentloop.pack import STUDENT_FILE
from abkit.grader.reports import histogram_svg, score_bins

EXERCISES = ("minimax", "alphabeta", "alphabeta_cutoff", "expectimax", "ordering")


@pytest.fixture(scope="module")
def edition(tmp_path_factory):
    from abkit.authoring.release import build_student_edition

    out = tmp_path_factory.mktemp("pack") / "edition"
    build_student_edition(out)
    return out


@pytest.fixture
def course(edition, tmp_path, monkeypatch):
    """A fresh copy of the student edition, the current folder; stdin is not a terminal."""
    copy = tmp_path / "course"
    shutil.copytree(edition, copy)
    monkeypatch.delenv("ABKIT_COURSE", raising=False)
    monkeypatch.chdir(copy)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    return copy


def members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def solve(course: Path, *names: str) -> None:
    for name in names:
        shutil.copy(SOLUTIONS / f"{name}.py", course / "exercises" / f"{name}.py")


@pytest.mark.slow
def test_pack_writes_the_exercise_files_a_manifest_and_the_public_results(abkit, course):
    solve(course, "minimax")
    run = abkit("pack", "--id", "2024-12345", "--lang", "en")
    assert run.status == 0, run.err
    assert f"student id 2024-12345 kept in {course / STUDENT_FILE}" in run.out
    assert f"wrote {course / '2024-12345.zip'}: the hand-in of 2024-12345, 5 files" in run.out
    assert "public tests passed: minimax 37/37 · alphabeta 0/" in run.out
    files = members(course / "2024-12345.zip")
    assert sorted(files) == sorted([MANIFEST, *(f"exercises/{e}.py" for e in EXERCISES)])
    manifest = json.loads(files[MANIFEST])
    assert manifest["student"] == "2024-12345" and manifest["kit_version"] == __version__ and manifest["format"] == 1
    assert manifest["course"] is None  # this repository's course has no id; abkit init gives one
    assert manifest["created"][:2] == "20" and "T" in manifest["created"]
    for name, digest in manifest["files"].items():
        on_disk, in_zip = (hashlib.sha256(data).hexdigest() for data in ((course / name).read_bytes(), files[name]))
        assert on_disk == digest == in_zip
    results = manifest["check"]["exercises"]
    assert manifest["check"]["rule"] == "aima" and list(results) == list(EXERCISES)
    assert results["minimax"]["passed"] == results["minimax"]["total"] == 37
    assert results["alphabeta"]["passed"] == 0 < results["alphabeta"]["total"]
    parse_manifest(files[MANIFEST])  # what grading reads


@pytest.mark.slow
def test_the_id_is_asked_once_and_kept(abkit, course, monkeypatch):
    run = abkit("pack", "--lang", "en")  # no id kept, no terminal: say how to give one
    assert run.status == 2 and "Traceback" not in run.err and run.err.count("\n") == 1
    assert "no student id is kept yet" in run.err and "abkit pack --id YOUR_ID" in run.err
    run = abkit("pack", "--lang", "ko")
    assert run.status == 2 and "`abkit pack --id 학번`" in run.err
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    typed = iter(["../evil", "  kim.mj@uni.ac.kr "])
    monkeypatch.setattr("builtins.input", lambda prompt: next(typed))
    run = abkit("pack", "--lang", "en")
    assert run.status == 0 and "cannot be a student id" in run.err and (course / "kim.mj@uni.ac.kr.zip").is_file()
    assert 'id = "kim.mj@uni.ac.kr"' in (course / STUDENT_FILE).read_text(encoding="utf-8")
    monkeypatch.setattr("builtins.input", lambda prompt: pytest.fail("asked again"))
    run = abkit("pack", "--lang", "en")  # kept: not asked again, not saved again
    assert run.status == 0 and "kept in" not in run.out and "the hand-in of kim.mj@uni.ac.kr" in run.out
    run = abkit("pack", "--id", "김민준", "--lang", "ko")  # --id changes it
    assert run.status == 0 and "학번 김민준을" in run.out and (course / "김민준.zip").is_file()
    assert packing.stored_id(course) == "김민준"


@pytest.mark.slow
def test_a_wrong_id_typed_again_and_again_or_none_at_all_stops_cleanly(abkit, course, monkeypatch):
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr("builtins.input", lambda prompt: "a b")
    run = abkit("pack", "--lang", "en")
    assert run.status == 2 and run.err.count("cannot be a student id") == 3 and not (course / STUDENT_FILE).exists()

    def end_of_input(prompt):
        raise EOFError

    monkeypatch.setattr("builtins.input", end_of_input)
    run = abkit("pack", "--lang", "en")
    assert run.status == 2 and "no student id was typed" in run.err
    for bad in ("", ".hidden", "-x", "a/b", "a" * 65, "x\ty"):
        run = abkit("pack", f"--id={bad}", "--lang", "en")
        assert run.status == 2 and "cannot be a student id" in run.err and "Traceback" not in run.err


@pytest.mark.slow
def test_helpers_the_exercises_import_are_packed_and_nothing_else(abkit, course):
    folder = course / "exercises"
    solve(course, "alphabeta")
    text = (folder / "alphabeta.py").read_text(encoding="utf-8")
    (folder / "alphabeta.py").write_text("import helpers\nfrom tools.deep import x\nimport os, json\n" + text,
                                         encoding="utf-8")
    (folder / "helpers.py").write_text("import shared\n", encoding="utf-8")  # imported through helpers
    (folder / "shared.py").write_text("Y = 2\n", encoding="utf-8")
    (folder / "tools").mkdir()
    (folder / "tools" / "__init__.py").write_text("", encoding="utf-8")
    (folder / "tools" / "deep.py").write_text("x = 1\n", encoding="utf-8")
    (folder / "scratch.py").write_text("print('not imported')\n", encoding="utf-8")
    (folder / "minimax.py").write_text("def broken(:\n", encoding="utf-8")  # does not parse: still handed in
    run = abkit("pack", "--id", "s1", "--lang", "en")
    assert run.status == 0, run.err
    names = set(members(course / "s1.zip"))
    assert names == {MANIFEST, *(f"exercises/{e}.py" for e in EXERCISES), "exercises/helpers.py",
                     "exercises/shared.py", "exercises/tools/__init__.py", "exercises/tools/deep.py"}
    assert "exercises/scratch.py" not in names and "exercises/conftest.py" not in names


@pytest.mark.slow
def test_nothing_to_hand_in_or_nowhere_to_write_says_so(abkit, course, tmp_path):
    for name in EXERCISES:
        (course / "exercises" / f"{name}.py").unlink()
    run = abkit("pack", "--id", "s1", "--lang", "en")
    assert run.status == 2 and "nothing to hand in" in run.err and "minimax.py" in run.err
    solve(course, "minimax")
    (tmp_path / "file").write_text("", encoding="utf-8")
    run = abkit("pack", "--id", "s1", "--out", tmp_path / "file" / "x.zip", "--lang", "ko")
    assert run.status == 2 and "쓸 수 없습니다" in run.err and "Traceback" not in run.err
    run = abkit("pack", "--id", "s1", "--exercises", tmp_path / "none", "--lang", "en")
    assert run.status == 2 and "Traceback" not in run.err


# -- grading a hand-in -------------------------------------------------------------

@pytest.fixture
def handin(abkit, course):
    """A hand-in of the five reference solutions, packed as s1."""
    solve(course, *EXERCISES)
    assert abkit("pack", "--id", "s1", "--lang", "en").status == 0
    return course / "s1.zip"


def rewrite(source: Path, target: Path, change=lambda name, data: data, add=None) -> Path:
    """A copy of the zip ``source`` with each member passed through ``change`` (None drops it), plus ``add``."""
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w") as new:
        for name in old.namelist():
            data = change(name, old.read(name))
            if data is not None:
                new.writestr(name, data)
        for name, data in (add or {}).items():
            new.writestr(name, data)
    return target


def grade(abkit, folder: Path, out: Path, lang: str = "en"):
    run = abkit("--course", Path(__file__).resolve().parents[1], "grade", folder, "--out", out, "--lang", lang)
    assert run.status == 0, run.err
    rows = {line.split(",")[0]: line for line in (out / "grades.csv").read_text(encoding="utf-8").splitlines()[1:]}
    return rows


@pytest.mark.slow
def test_grade_reads_a_packed_zip_and_reports_each_mismatch(abkit, handin, tmp_path):
    klass = tmp_path / "class"
    klass.mkdir()
    shutil.copy(handin, klass / "s1.zip")
    shutil.copy(handin, klass / "s2.zip")  # handed in under another name
    rewrite(handin, klass / "s3.zip",
            change=lambda name, data: None if name.endswith("ordering.py") else data + b"\n# later\n"
            if name.endswith("minimax.py") else data, add={"exercises/extra.py": "X = 1\n"})

    def other(name, data):
        if name != MANIFEST:
            return data
        manifest = json.loads(data)
        return json.dumps({**manifest, "kit_version": "0.0.1", "course": "another-course"})

    rewrite(handin, klass / "s4.zip", change=other)

    def forged(name, data):  # the manifest's text is the student's: one line, no heading, no image in the summary
        if name != MANIFEST:
            return data
        lines = "0.1.0\n## Grader faults\nThe grader failed on **alice**\n![](http://evil.example/x.png)"
        return json.dumps({**json.loads(data), "kit_version": lines, "course": "c\n## Also ![](http://evil.example/y)"})

    rewrite(handin, klass / "s8.zip", change=forged)
    rewrite(handin, klass / "s5.zip", change=lambda name, data: b"{not json" if name == MANIFEST else data)
    folder = klass / "s6" / "downloaded"  # an LMS that unpacked the zip into a folder of its own
    folder.mkdir(parents=True)
    with zipfile.ZipFile(handin) as archive:
        archive.extractall(folder)
    (folder / "abkit-handin.json").write_text((folder / MANIFEST).read_text(encoding="utf-8").replace(
        '"student": "s1"', '"student": "s6"'), encoding="utf-8")
    shutil.copytree(SOLUTIONS, klass / "s7")  # a folder without a manifest: nothing is said
    out = tmp_path / "out"
    rows = grade(abkit, klass, out)
    assert rows["s1"].startswith("s1,ok,49,49,") and rows["s1"].endswith(",ok")
    assert rows["s2"].startswith("s2,ok,49,49,") and rows["s2"].endswith('"mismatch: packed by the student id s1, '
                                                                          'handed in as s2"')
    assert "exercises/minimax.py changed after packing" in rows["s3"]
    assert "exercises/ordering.py is listed in the manifest but not in the hand-in" in rows["s3"]
    assert "exercises/extra.py was added after packing" in rows["s3"]
    assert f"packed with abkit 0.0.1, graded with abkit {__version__}" in rows["s4"]
    assert "packed for the course another-course, graded in the course None" in rows["s4"]
    assert f"packed with abkit ?, graded with abkit {__version__}" in rows["s8"]
    assert "its manifest abkit-handin.json cannot be read (not JSON" in rows["s5"] and rows["s5"].startswith("s5,ok,49,")
    assert rows["s6"].endswith(",ok") and rows["s7"].endswith(",") and rows["s7"].startswith("s7,ok,49,49")
    feedback = (out / "students" / "s3" / "feedback.md").read_text(encoding="utf-8")
    assert "This hand-in does not match its manifest (abkit pack): exercises/minimax.py changed" in feedback
    assert "does not match" not in (out / "students" / "s1" / "feedback.md").read_text(encoding="utf-8")
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert "## Hand-ins that do not match their manifest" in summary and "- s2: packed by the student id s1" in summary
    assert "- s1:" not in summary and "- s7:" not in summary
    assert "packed for the course c ## Also ! [](http://evil.example/y)" in summary
    assert "\n## Grader faults" not in summary and "\n## Also" not in summary and "![](http" not in summary
    results = json.loads((out / "students" / "s3" / "results.json").read_text(encoding="utf-8"))
    assert results["extra_data"]["handin"]["status"] == "mismatch" and "manifest" in results["output"]
    rows = grade(abkit, klass, tmp_path / "ko", "ko")
    assert "exercises/minimax.py가 제출 파일을 만든 뒤에 바뀌었습니다" in rows["s3"]
    assert "학번 s1로 만든 제출 파일이 다른 이름(s2)으로 제출되었습니다" in rows["s2"]
    assert "## 파일 목록과 맞지 않는 제출물" in (tmp_path / "ko" / "summary.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("data, why", [
    (b"[]", "not a JSON object"), (b"\xff", "not JSON"), (b"[" * 50_000, "not JSON"),
    (b'{"kit_version": 1}', "no text field 'kit_version'"),
    (b'{"kit_version": "1", "student": "s", "created": "", "course": 3}', "'course' is not text"),
    (b'{"kit_version": "1", "student": "s", "created": "", "files": {"a.py": "beef"}}', "SHA-256"),
    (b" " * 1_000_001, "larger than")])
def test_a_manifest_that_is_not_one_is_refused_with_the_reason(data, why):
    with pytest.raises(BadManifest, match=why):
        parse_manifest(data)
    assert handin_cell({"status": "mismatch", "problems": ["x" * 400]}) == "mismatch: " + "x" * 290


@pytest.mark.slow
def test_a_broken_or_manifest_less_zip_is_graded_as_before(abkit, handin, tmp_path):
    klass = tmp_path / "class"
    klass.mkdir()
    rewrite(handin, klass / "plain.zip", change=lambda name, data: None if name == MANIFEST else data)
    (klass / "broken.zip").write_bytes(b"PK\x03\x04 not really")
    rows = grade(abkit, klass, tmp_path / "out")
    assert rows["plain"].startswith("plain,ok,49,49") and rows["plain"].endswith(",")
    assert rows["broken"].startswith("broken,invalid,0,") and rows["broken"].endswith(",")


# -- the histogram -------------------------------------------------------------------

def test_the_histogram_has_round_bins_and_a_y_axis(tmp_path):
    assert score_bins(49) == [0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 49]
    assert score_bins(100) == list(range(0, 101, 10)) and score_bins(3) == [0, 0.5, 1, 1.5, 2, 2.5, 3]
    assert score_bins(0) == [0, 0]
    svg = histogram_svg([0, 4.9, 5, 44.5, 45, 49, 49, 49], 49, "en")
    bars = [line for line in svg.splitlines() if 'fill="#4a78b5"' in line]
    assert len(bars) == 10
    assert "0 ≤ score &lt; 5 · students: 2" in bars[0] and "5 ≤ score &lt; 10 · students: 1" in bars[1]
    assert "45 ≤ score ≤ 49 · students: 4" in bars[-1] and "40 ≤ score &lt; 45 · students: 1" in bars[-2]
    assert ">students</text>" in svg and ">score (of 49)</text>" in svg
    x_labels = [f">{edge}</text>" for edge in (0, 5, 45, 49)]
    assert all(label in svg for label in x_labels)
    y_ticks = [line for line in svg.splitlines() if 'text-anchor="end"' in line]
    assert [tick.split(">")[1].split("<")[0] for tick in y_ticks] == ["0", "1", "2", "3", "4", "5"]
    korean = histogram_svg([10, 20], 49, "ko")
    assert ">학생 수</text>" in korean and "45점 이상 49점 이하: 0명" in korean and ">점수 (49점 만점)</text>" in korean
    many = histogram_svg([1.0] * 37, 10, "en")
    ticks = [line.split(">")[1].split("<")[0] for line in many.splitlines() if 'text-anchor="end"' in line]
    assert ticks == ["0", "10", "20", "30", "40"]


def test_the_manifest_is_found_where_an_lms_may_put_it_and_never_in_a_broken_entry(tmp_path):
    from abkit.i18n import Message
    from abkit.grader.handin import check_handin, find_manifest
    from abkit.grader.submissions import Submission, unpack

    manifest = {"format": 1, "kit_version": __version__, "course": None, "student": "s1", "created": "now",
                "files": {"alphabeta.py": hashlib.sha256(b"A = 1\n").hexdigest()}}
    nested = tmp_path / "nested.zip"
    with zipfile.ZipFile(nested, "w") as archive:
        archive.writestr("deep/er/abkit-handin.json", "{}")
        archive.writestr("deep/abkit-handin.json", json.dumps(manifest))
        archive.writestr("deep/alphabeta.py", "A = 1\n")
        archive.writestr("other/minimax.py", "M = 1\n")  # outside the manifest's folder: not compared
    assert find_manifest(Submission("s1", nested))[0] == "deep"
    check = check_handin(Submission("s1", nested), unpack(Submission("s1", nested), tmp_path / "work"), None,
                         __version__)
    assert check.matches and check.to_dict("en") == {"status": "ok", "student": "s1", "created": "now",
                                                      "kit_version": __version__, "problems": []}
    (tmp_path / "not.zip").write_bytes(b"not a zip at all")
    (tmp_path / "cut.zip").write_bytes(nested.read_bytes()[:-30])  # its end record cut off
    (tmp_path / "plain").mkdir()
    for entry in (Submission("x", tmp_path / "not.zip"), Submission("x", tmp_path / "cut.zip"),
                  Submission("x", tmp_path / "plain"),
                  Submission("x", tmp_path / "fifo", Message("grade.entry.special", name="fifo"))):
        assert find_manifest(entry) is None


def test_a_hand_in_far_from_its_manifest_names_ten_differences_and_counts_the_rest(tmp_path):
    from abkit.grader.handin import check_handin
    from abkit.grader.submissions import Submission, unpack

    listed = {f"gone{k}.py": "0" * 64 for k in range(30)}
    entry = tmp_path / "s1.zip"
    with zipfile.ZipFile(entry, "w") as archive:
        archive.writestr(MANIFEST, json.dumps({"kit_version": __version__, "student": "s1", "created": "",
                                               "files": listed}))
    check = check_handin(Submission("s1", entry), unpack(Submission("s1", entry), tmp_path / "w"), None, __version__)
    problems = check.to_dict("en")["problems"]
    assert len(problems) == 10 and problems[0] == "gone0.py is listed in the manifest but not in the hand-in"
    assert problems[-1] == "and 21 more differences" and check.to_dict("ko")["problems"][-1] == "그 밖의 차이 21개"


def test_a_saved_grade_is_not_reused_when_what_the_hand_in_is_held_against_changes(tmp_path):
    """A folder's fingerprint covers its Python files; its manifest (top or one folder down), the course and whether
    names are ids decide the hand-in's verdict too, so each of them changes what a saved grade must match."""
    from abkit.grader.grading import Grader
    from abkit.grader.rubric import load_rubric
    from abkit.grader.submissions import Submission

    grader = Grader(load_rubric(), seed=3)
    (tmp_path / "s1" / "inner").mkdir(parents=True)
    (tmp_path / "s1" / "minimax.py").write_text("x = 1\n", encoding="utf-8")
    entry = Submission("s1", tmp_path / "s1")
    seen = [grader.fingerprint(entry)]
    (tmp_path / "s1" / "inner" / MANIFEST).write_text("{}", encoding="utf-8")
    seen.append(grader.fingerprint(entry))
    (tmp_path / "s1" / "inner" / MANIFEST).write_text('{"student": "s2"}', encoding="utf-8")
    seen.append(grader.fingerprint(entry))
    grader.names_are_ids = False
    seen.append(grader.fingerprint(entry))
    grader.course_id = "another course"
    seen.append(grader.fingerprint(entry))
    assert len(set(seen)) == len(seen)
    assert grader.fingerprint(entry) == seen[-1]  # and the same entry, the same fingerprint
