"""Archives an LMS (or a student) hands over: zip slip, zip bombs, empty and corrupt archives, odd names, duplicates."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import shutil
import tempfile
import zipfile
from pathlib import Path

import pytest

from abkit.loading import SOLUTIONS
from abkit.grader import submissions
from abkit.grader.batch import grade_batch
from abkit.grader.rubric import load_rubric
from abkit.grader.sandbox import Limits
from abkit.grader.submissions import Submission, unpack

REFERENCE = (SOLUTIONS / "alphabeta.py").read_bytes()
BROKEN = b"def alpha_beta_search(game, state):\n    raise ValueError('old draft')\n"


def make_zip(path: Path, entries: list[tuple[str | zipfile.ZipInfo, bytes]], compression=zipfile.ZIP_DEFLATED) -> Path:
    with zipfile.ZipFile(path, "w", compression) as archive:
        for name, data in entries:
            archive.writestr(name, data)
    return path


def skipped(unpacked) -> dict[str, str]:
    return {m.params["name"]: m.key for m in unpacked.skipped}


def test_entries_that_would_land_outside_the_folder_are_skipped_and_the_rest_is_extracted(tmp_path):
    link = zipfile.ZipInfo("hw/link.py")
    link.external_attr = 0o120777 << 16
    archive = make_zip(tmp_path / "s.zip", [("../evil.py", b"x"), ("/abs/alphabeta.py", b"x"), ("hw/../../up.py", b"x"),
                                            ("C:/windows.py", b"x"), ("hw\\..\\..\\back.py", b"x"), (link, b"/etc"),
                                            ("hw/alphabeta.py", REFERENCE)])
    root = tmp_path / "work" / "files"
    unpacked = unpack(Submission("s", archive), root)
    assert unpacked.files == ["hw/alphabeta.py"]
    assert set(skipped(unpacked).values()) == {"grade.skipped.outside"} and len(unpacked.skipped) == 6
    assert sorted(p.name for p in tmp_path.rglob("*.py")) == ["alphabeta.py"]


def test_a_zip_bomb_is_capped_by_size_ratio_and_count(tmp_path, monkeypatch):
    bomb = make_zip(tmp_path / "bomb.zip", [("big/alphabeta.py", b"\0" * 50_000_000),      # 50 MB of zeros
                                            ("dense/minimax.py", b"#" * 900_000),          # under the size cap, 1000:1
                                            ("ok/alphabeta.py", REFERENCE)])
    assert bomb.stat().st_size < 200_000
    unpacked = unpack(Submission("bomb", bomb), tmp_path / "out")
    assert unpacked.files == ["ok/alphabeta.py"]
    assert skipped(unpacked) == {"big/alphabeta.py": "grade.skipped.large", "dense/minimax.py": "grade.skipped.ratio"}
    assert sum(p.stat().st_size for p in (tmp_path / "out").rglob("*") if p.is_file()) == len(REFERENCE)


def test_too_many_files_or_bytes_are_skipped_and_too_many_entries_make_the_archive_unreadable(tmp_path, monkeypatch):
    monkeypatch.setattr(submissions, "MAX_FILES", 5)
    monkeypatch.setattr(submissions, "MAX_TOTAL_BYTES", 3 * len(REFERENCE))
    many = make_zip(tmp_path / "many.zip", [(f"f{i:02d}.py", REFERENCE) for i in range(8)])
    unpacked = unpack(Submission("many", many), tmp_path / "a")
    assert len(unpacked.files) == 3 and len(unpacked.skipped) == 5
    monkeypatch.setattr(submissions, "MAX_ENTRIES", 20)
    names = make_zip(tmp_path / "names.zip", [(f"n{i}.txt", b"") for i in range(21)])
    unpacked = unpack(Submission("names", names), tmp_path / "b")
    assert unpacked.unreadable is not None and unpacked.unreadable.key == "grade.zip_entries" and not unpacked.files


@pytest.mark.parametrize("data", [b"", b"PK\x05\x06" + b"\0" * 10, b"not an archive at all" * 50])
def test_corrupt_archives_are_unreadable_with_a_reason(tmp_path, data):
    (tmp_path / "c.zip").write_bytes(data)
    unpacked = unpack(Submission("c", tmp_path / "c.zip"), tmp_path / "out")
    assert unpacked.unreadable is not None and unpacked.unreadable.key == "grade.unreadable_zip"


def test_a_truncated_archive_is_unreadable(tmp_path):
    whole = make_zip(tmp_path / "w.zip", [("alphabeta.py", REFERENCE)]).read_bytes()
    (tmp_path / "t.zip").write_bytes(whole[: len(whole) // 2])
    assert unpack(Submission("t", tmp_path / "t.zip"), tmp_path / "out").unreadable is not None


def test_non_utf8_names_are_read_and_graded_by_file_name(tmp_path):
    archive = make_zip(tmp_path / "k.zip", [("AAAA/alphabeta.py", REFERENCE)])
    data = archive.read_bytes().replace(b"AAAA/", "과제/".encode("cp949"))  # a Windows archive: no UTF-8 flag
    archive.write_bytes(data)
    unpacked = unpack(Submission("k", archive), tmp_path / "out")
    assert len(unpacked.files) == 1 and unpacked.files[0].endswith("/alphabeta.py")
    assert (tmp_path / "out" / unpacked.files[0]).read_bytes() == REFERENCE


def test_an_archive_naming_one_path_twice_keeps_the_first(tmp_path):
    with pytest.warns(UserWarning):  # zipfile warns about the duplicate name when writing it
        archive = make_zip(tmp_path / "d.zip", [("alphabeta.py", REFERENCE), ("alphabeta.py", BROKEN)])
    unpacked = unpack(Submission("d", archive), tmp_path / "out")
    assert unpacked.files == ["alphabeta.py"] and skipped(unpacked) == {"alphabeta.py": "grade.skipped.duplicate"}
    assert (tmp_path / "out" / "alphabeta.py").read_bytes() == REFERENCE


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """A small class of odd archives, graded: empty, corrupt, and one file name at two depths."""
    folder = tmp_path_factory.mktemp("class")
    make_zip(folder / "empty.zip", [])
    (folder / "corrupt.zip").write_bytes(b"PK\x03\x04" + b"\x00" * 100)
    make_zip(folder / "twice.zip", [("b/alphabeta.py", BROKEN), ("hw3/old/alphabeta.py", BROKEN),
                                    ("a/alphabeta.py", REFERENCE), ("a/x.txt", b"notes")])
    rubric = tmp_path_factory.mktemp("rubric") / "rubric.yaml"
    rubric.write_text("fixtures: [public]\nrandom_trees: {count: 0}\ndirect_tests: 2\n"
                      "exercises: {alphabeta: {values: 1}}\n", encoding="utf-8")
    out = tmp_path_factory.mktemp("out")
    result = grade_batch(folder, out, load_rubric(rubric), jobs=2, limits=Limits(test_seconds=5))
    return {r["extra_data"]["student"]: r for r in result.rows}, out


@pytest.mark.parametrize("student, words", [("empty", "no gradable file found"),
                                            ("corrupt", "the archive could not be read")])
def test_empty_and_corrupt_archives_are_invalid_with_a_reason(graded, student, words):
    rows, out = graded
    assert rows[student]["extra_data"]["status"] == "invalid"
    assert words in (out / "students" / student / "feedback.md").read_text(encoding="utf-8")


def test_the_shallowest_then_first_sorted_file_is_graded_and_the_others_are_listed(graded):
    rows, out = graded
    assert rows["twice"]["score"] == rows["twice"]["extra_data"]["max_score"]  # a/alphabeta.py, the correct one
    text = (out / "students" / "twice" / "feedback.md").read_text(encoding="utf-8")
    assert "ignored b/alphabeta.py" in text and "ignored hw3/old/alphabeta.py" in text
    assert "(a/alphabeta.py)" in text


def test_zipfile_is_not_fooled_by_a_header_that_lies_about_the_size(tmp_path):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr("alphabeta.py", b"A" * 5000)
    data = bytearray(buffer.getvalue())
    central = data.rfind(b"PK\x01\x02")
    data[central + 24:central + 28] = (10).to_bytes(4, "little")  # the directory says 10 bytes
    (tmp_path / "l.zip").write_bytes(bytes(data))
    unpacked = unpack(Submission("l", tmp_path / "l.zip"), tmp_path / "out")
    written = sum(p.stat().st_size for p in (tmp_path / "out").rglob("*") if p.is_file())
    assert written <= submissions.MAX_FILE_BYTES and (unpacked.unreadable is not None or unpacked.files)


# -- what is not a regular file or folder, and paths the system refuses ---------------------------------------------

def test_a_fifo_a_socket_and_a_device_named_like_an_exercise_are_skipped_without_being_opened(tmp_path):
    import os
    import socket

    student = tmp_path / "class" / "mallory"
    (student / "hw").mkdir(parents=True)
    os.mkfifo(student / "alphabeta.py")          # opened, it would block the grader forever
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(student / "minimax.py"))
        (student / "hw" / "alphabeta.py").write_bytes(REFERENCE)
        entry = submissions.find_submissions(tmp_path / "class")[0]
        before = submissions.fingerprint(entry)
        unpacked = unpack(entry, tmp_path / "out")
    assert unpacked.files == ["hw/alphabeta.py"] and unpacked.unreadable is None
    assert skipped(unpacked) == {"alphabeta.py": "grade.skipped.special", "minimax.py": "grade.skipped.special"}
    assert "not a regular file" in unpacked.skipped[0].render("en") and "일반 파일이 아니라서" in unpacked.skipped[0].render("ko")
    assert before == submissions.fingerprint(entry)


@pytest.mark.skipif(not hasattr(__import__("os"), "geteuid") or __import__("os").geteuid() != 0,
                    reason="creating a device file needs root (CI runs as root)")
def test_a_device_file_named_like_an_exercise_is_skipped_without_being_opened(tmp_path):
    import os
    import stat

    student = tmp_path / "class" / "mallory"
    student.mkdir(parents=True)
    os.mknod(student / "alphabeta.py", 0o644 | stat.S_IFCHR, os.makedev(1, 8))  # /dev/random: read forever
    unpacked = unpack(submissions.find_submissions(tmp_path / "class")[0], tmp_path / "out")
    assert skipped(unpacked) == {"alphabeta.py": "grade.skipped.special"} and not unpacked.files


def test_links_inside_a_students_folder_are_skipped_and_reported(tmp_path):
    student = tmp_path / "class" / "eve"
    student.mkdir(parents=True)
    (tmp_path / "secret").mkdir()
    (tmp_path / "secret" / "minimax.py").write_bytes(REFERENCE)
    (student / "stolen").symlink_to(tmp_path / "secret")               # a folder outside the class folder
    (student / "alphabeta.py").symlink_to(tmp_path / "secret" / "minimax.py")
    unpacked = unpack(submissions.find_submissions(tmp_path / "class")[0], tmp_path / "out")
    assert not unpacked.files
    assert skipped(unpacked) == {"stolen": "grade.skipped.link", "alphabeta.py": "grade.skipped.link"}


def test_entries_of_the_class_folder_that_are_not_folders_or_regular_zips_get_a_row_saying_why(tmp_path):
    import os

    folder = tmp_path / "class"
    (folder / "alice").mkdir(parents=True)
    (folder / "alice" / "alphabeta.py").write_bytes(REFERENCE)
    (tmp_path / "elsewhere").mkdir()
    (folder / "bob").symlink_to(tmp_path / "elsewhere")        # leaves the class folder
    (folder / "carol").symlink_to(folder / "alice")            # another entry: not graded twice
    (folder / "dan.zip").symlink_to(tmp_path / "nowhere.zip")  # dangling
    os.mkfifo(folder / "erin.zip")
    os.mkfifo(folder / "fred")
    (folder / "notes.txt").write_text("not a student", encoding="utf-8")
    (folder / "gus.zip").mkdir()  # a folder: its id is its whole name
    entries = {e.student: e for e in submissions.find_submissions(folder)}
    assert sorted(entries) == ["alice", "bob", "carol", "dan", "erin", "fred", "gus.zip"]
    problems = {name: e.problem.key for name, e in entries.items() if e.problem is not None}
    assert problems == {"bob": "grade.entry.link_outside", "carol": "grade.entry.link_inside",
                        "dan": "grade.entry.link_outside", "erin": "grade.entry.special", "fred": "grade.entry.special"}
    for name in problems:  # never opened: the FIFOs would block
        assert unpack(entries[name], tmp_path / "out" / name).unreadable.key == problems[name]
        assert len(submissions.fingerprint(entries[name])) == 64
    rubric = tmp_path / "rubric.yaml"
    rubric.write_text("fixtures: [public]\nrandom_trees: {count: 0}\ndirect_tests: 0\n"
                      "exercises: {alphabeta: {values: 1}}\n", encoding="utf-8")
    result = grade_batch(folder, tmp_path / "grades", load_rubric(rubric), jobs=1, limits=Limits(test_seconds=5))
    rows = {r["extra_data"]["student"]: r for r in result.rows}
    assert {s: r["extra_data"]["status"] for s, r in rows.items()} == {
        "alice": "ok", "bob": "invalid", "carol": "invalid", "dan": "invalid", "erin": "invalid", "fred": "invalid",
        "gus.zip": "invalid"}
    text = (tmp_path / "grades" / "students" / "carol" / "feedback.md").read_text(encoding="utf-8")
    assert "is a link to another entry of the submissions folder" in text


def test_paths_longer_than_the_system_allows_are_skipped_with_a_reason(tmp_path):
    import os

    student = tmp_path / "class" / "deep"
    student.mkdir(parents=True)
    (student / "alphabeta.py").write_bytes(REFERENCE)
    descriptor = os.open(student, os.O_RDONLY)
    try:  # 25 folders of 200 characters: the whole path is longer than PATH_MAX (4096)
        for _ in range(25):
            os.mkdir("d" * 200, dir_fd=descriptor)
            inner = os.open("d" * 200, os.O_RDONLY, dir_fd=descriptor)
            os.close(descriptor)
            descriptor = inner
        os.close(os.open("minimax.py", os.O_WRONLY | os.O_CREAT, dir_fd=descriptor))
    finally:
        os.close(descriptor)
    unpacked = unpack(submissions.find_submissions(tmp_path / "class")[0], tmp_path / "out")
    assert unpacked.files == ["alphabeta.py"]
    [note] = unpacked.skipped
    assert note.key == "grade.skipped.unreadable" and "too long" in note.render("en") and len(note.render("en")) < 400
    archive = make_zip(tmp_path / "long.zip", [("x" * 300 + "/alphabeta.py", REFERENCE), ("minimax.py", REFERENCE)])
    unpacked = unpack(Submission("long", archive), tmp_path / "out2")
    assert unpacked.files == ["minimax.py"] and skipped(unpacked)[submissions.shown("x" * 300 + "/alphabeta.py")] \
        == "grade.skipped.unreadable"


# -- archives that cannot be read --------------------------------------------------------------------------------------

def encrypted(data: bytes) -> bytes:
    """``data`` (a zip) with every entry marked encrypted, as a password-protected archive is."""
    data = bytearray(data)
    for signature, offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        at = data.find(signature)
        while at >= 0:
            data[at + offset] |= 0x1
            at = data.find(signature, at + 4)
    return bytes(data)


def test_an_encrypted_archive_makes_the_student_invalid_with_a_clear_message(tmp_path):
    whole = make_zip(tmp_path / "w.zip", [("alphabeta.py", REFERENCE)]).read_bytes()
    (tmp_path / "e.zip").write_bytes(encrypted(whole))
    unpacked = unpack(Submission("e", tmp_path / "e.zip"), tmp_path / "out")
    assert unpacked.unreadable.key == "grade.zip_encrypted" and not unpacked.files
    assert "submit it without a password" in unpacked.unreadable.render("en")
    assert "암호 없이 제출하세요" in unpacked.unreadable.render("ko")


def test_the_archives_size_and_its_table_of_contents_are_capped_before_it_is_parsed(tmp_path, monkeypatch):
    archive = make_zip(tmp_path / "a.zip", [(f"f{i}.py", b"x = 1\n") for i in range(30)])
    parsed = []
    monkeypatch.setattr(zipfile.ZipFile, "_RealGetContents", lambda self: parsed.append(self))
    monkeypatch.setattr(submissions, "MAX_ENTRIES", 29)
    assert unpack(Submission("a", archive), tmp_path / "o1").unreadable.key == "grade.zip_entries"
    monkeypatch.setattr(submissions, "MAX_ENTRIES", 30)
    monkeypatch.setattr(submissions, "MAX_DIRECTORY_BYTES", 1000)
    assert unpack(Submission("a", archive), tmp_path / "o2").unreadable.key == "grade.zip_directory"
    monkeypatch.setattr(submissions, "MAX_ARCHIVE_BYTES", archive.stat().st_size - 1)
    unreadable = unpack(Submission("a", archive), tmp_path / "o3").unreadable
    assert unreadable.key == "grade.zip_large" and "MB" in unreadable.render("ko")
    assert not parsed  # refused from the end record (or the size) alone


@pytest.mark.slow
def test_random_corruptions_of_an_archive_always_give_a_row_never_an_exception(tmp_path, request):
    """2,000 seeded corruptions of a valid submission (flipped bytes, cuts, insertions, headers marked encrypted or
    stored), each graded up to running the code: every one is either graded or `invalid` with a reason."""
    import random

    from abkit.grader.grading import Grader
    from abkit.grader.running import ExerciseRun

    grader = Grader(load_rubric(), 0, "en")
    ran = []

    def run(tests, chosen, workspace):  # no student process: every exercise as if its file defined nothing
        ran.append(sorted(chosen))
        return {exercise: ExerciseRun(exercise, planned) for exercise, planned in tests.items()}

    grader._run = run
    whole = make_zip(tmp_path / "w.zip", [("hw/alphabeta.py", REFERENCE), ("hw/minimax.py", BROKEN),
                                          ("hw/notes.txt", b"notes " * 40)]).read_bytes()
    stored = make_zip(tmp_path / "s.zip", [("alphabeta.py", REFERENCE)], zipfile.ZIP_STORED).read_bytes()
    rng = random.Random(12)
    statuses: dict[str, int] = {}
    if Path("/dev/shm").is_dir():  # memory: thousands of small files written and removed, whatever the disk's load
        tmp_path = Path(tempfile.mkdtemp(prefix="abkit-fuzz-", dir="/dev/shm"))
        request.addfinalizer(lambda: shutil.rmtree(tmp_path, ignore_errors=True))
    for k in range(2000):
        data = bytearray(whole if k % 3 else stored)
        how = k % 5
        if how == 0:
            del data[rng.randrange(len(data)):]
        elif how == 1:
            at = rng.randrange(len(data))
            data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif how == 2:
            data = bytearray(encrypted(bytes(data))) if k % 2 else data
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        else:
            for _ in range(rng.randint(1, 6)):
                data[rng.randrange(len(data))] = rng.randrange(256)
        (tmp_path / "c.zip").write_bytes(bytes(data))
        grade = grader.grade(Submission("c", tmp_path / "c.zip"), tmp_path)
        statuses[grade.status] = statuses.get(grade.status, 0) + 1
        assert grade.status in ("ok", "invalid")
        if grade.status == "invalid":
            assert grade.notes and grade.notes[0]
    assert statuses["invalid"] > 1000 and statuses["ok"] > 30 and len(ran) == statuses["ok"]


def test_a_folder_that_cannot_be_listed_or_a_file_that_cannot_be_read_is_named_with_the_reason(tmp_path, monkeypatch):
    import errno
    import os

    student = tmp_path / "class" / "sam"
    for folder in ("locked", ".git", "hw"):
        (student / folder).mkdir(parents=True)
    (student / ".git" / "alphabeta.py").write_bytes(BROKEN)  # hidden folders are not looked into
    (student / "hw" / "alphabeta.py").write_bytes(REFERENCE)
    (student / "minimax.py").write_bytes(REFERENCE)
    scandir, read = os.scandir, submissions.read_regular

    def refuse(path="."):
        if str(path).endswith("locked"):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return scandir(path)

    def unreadable(path, limit):
        if path.name == "minimax.py":
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return read(path, limit)

    monkeypatch.setattr(os, "scandir", refuse)  # what a folder without read permission does (root ignores it)
    monkeypatch.setattr(submissions, "read_regular", unreadable)
    unpacked = unpack(submissions.find_submissions(tmp_path / "class")[0], tmp_path / "out")
    assert unpacked.files == ["hw/alphabeta.py"]
    assert [m.render("en") for m in unpacked.skipped] == ["skipped locked: it could not be read (permission denied).",
                                                          "skipped minimax.py: it could not be read (permission denied)."]


def test_too_many_files_in_a_folder_are_skipped(tmp_path, monkeypatch):
    monkeypatch.setattr(submissions, "MAX_FILES", 2)
    student = tmp_path / "class" / "many"
    student.mkdir(parents=True)
    for i in range(4):
        (student / f"f{i}.py").write_bytes(b"x = 1\n")
    unpacked = unpack(submissions.find_submissions(tmp_path / "class")[0], tmp_path / "out")
    assert unpacked.files == ["f0.py", "f1.py"] and set(skipped(unpacked).values()) == {"grade.skipped.large"}


def test_an_archive_that_is_not_a_regular_file_is_unreadable_and_its_fingerprint_does_not_block(tmp_path, monkeypatch):
    import os

    os.mkfifo(tmp_path / "pipe.zip")
    entry = Submission("pipe", tmp_path / "pipe.zip")  # made by hand: find_submissions would give it a problem
    assert unpack(entry, tmp_path / "out").unreadable.key == "grade.unreadable_zip"
    assert len(submissions.fingerprint(entry)) == 64
    archive = make_zip(tmp_path / "a.zip", [("alphabeta.py", REFERENCE)])
    whole = submissions.fingerprint(Submission("a", archive))
    monkeypatch.setattr(submissions, "MAX_ARCHIVE_BYTES", 10)  # only the first MiB is hashed: the archive is refused
    assert submissions.fingerprint(Submission("a", archive)) == whole


@pytest.mark.slow
def test_folders_nested_deeper_than_python_recurses_neither_stop_the_batch_nor_cost_the_student(tmp_path, monkeypatch):
    """Python 3.10-3.11's os.walk and shutil.rmtree recurse once a level: a hand-in with 1,100 nested folders, and a
    killed batch's temporary folder as deep, raised RecursionError (the student 'crashed'; the batch stopped with a
    traceback before grading anyone). The deep folders are skipped with a note and removed without recursion."""
    import tempfile

    from tests.test_grade_sandbox import _narrow_class

    temporary = tmp_path / "tmp"
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    stale = temporary / f"abkit-batch-{int(gone.stdout)}-deep"
    _nest(stale, 1_100)
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    folder, rubric = _narrow_class(tmp_path, students=2)
    _nest(folder / "s1" / "notes", 1_100)
    try:
        result = grade_batch(folder, tmp_path / "out", rubric, jobs=1)
    finally:
        submissions.remove_tree(folder / "s1" / "notes")  # pytest's own clean-up of old runs recurses too
        submissions.remove_tree(stale)
    assert result.graded == ["s0", "s1"] and list(temporary.iterdir()) == []
    rows = {row["extra_data"]["student"]: row for row in result.rows}
    assert rows["s1"]["score"] == rows["s0"]["score"] == rows["s0"]["extra_data"]["max_score"]
    feedback = (tmp_path / "out" / "students" / "s1" / "feedback.md").read_text(encoding="utf-8")
    assert "folders nested more than 32 deep are not read" in feedback


def _nest(top, depth: int) -> None:
    """``depth`` folders, one inside the next, below ``top`` (made with relative steps: the path grows too long)."""
    top.mkdir(parents=True)
    here = os.getcwd()
    try:
        os.chdir(top)
        for _ in range(depth):
            os.mkdir("d")
            os.chdir("d")
    finally:
        os.chdir(here)


@pytest.mark.slow
def test_a_student_whose_tests_use_up_the_time_of_all_of_them_costs_that_student_only(tmp_path):
    """Each test within its own limit, all of them beyond the student's: the exercise that was running stops with
    a note saying so, the next is not started (its process would be killed at once), and the batch finishes."""
    from abkit.grader.rubric import load_rubric
    from abkit.grader.sandbox import Limits

    (tmp_path / "rubric.yaml").write_text("fixtures: [public]\nrandom_trees: {count: 1}\ndirect_tests: 0\n"
                                          "exercises: {minimax: {values: 1}, alphabeta: {values: 1}}\n", encoding="utf-8")
    for student in ("s0", "s1"):
        (tmp_path / "class" / student).mkdir(parents=True)
        for name in ("minimax", "alphabeta"):
            source = (SOLUTIONS / f"{name}.py").read_text(encoding="utf-8")
            if student == "s1" and name == "minimax":  # slow, not wrong
                source = source.replace("def max_value(game, state):\n",
                                        "def max_value(game, state):\n    __import__('time').sleep(0.05)\n", 1)
            (tmp_path / "class" / student / f"{name}.py").write_text(source, encoding="utf-8")
    result = grade_batch(tmp_path / "class", tmp_path / "out", load_rubric(tmp_path / "rubric.yaml"), jobs=1,
                         limits=Limits(test_seconds=2, student_seconds=1))
    rows = {row["extra_data"]["student"]: row for row in result.rows}
    assert result.graded == ["s0", "s1"] and rows["s0"]["score"] == rows["s0"]["extra_data"]["max_score"]
    assert rows["s1"]["extra_data"]["status"] == "timeout"
    feedback = (tmp_path / "out" / "students" / "s1" / "feedback.md").read_text(encoding="utf-8")
    assert "the 1 s that all of a student's tests may take together ran out" in feedback  # minimax, stopped
    assert "not run: the 1 s that all of a student's tests may take together had already run out" in feedback
    assert "loop forever" not in feedback  # no test of s1 hit its own limit


def test_a_process_killed_before_it_has_a_process_group_of_its_own_ends():
    """The child makes its own process group (setsid) as it starts; killed before that, it has none, and killing
    the group alone left it waiting for a request while the grader waited for it to end (a student whose time was
    up as the next exercise began hung the batch). The kill reaches the process by its pid as well."""
    from abkit.grader.sandbox import Sandbox

    import threading

    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])  # in the grader's own group
    box = Sandbox.__new__(Sandbox)
    box.process = child
    killing = threading.Thread(target=box.kill, daemon=True)
    killing.start()
    killing.join(10)
    ended = not killing.is_alive()
    child.kill()  # a kill that did not reach it: end it here, and the thread with it
    killing.join(10)
    assert ended and child.returncode == -9


def test_a_zip_entry_nested_deeper_than_a_folder_may_be_is_skipped_not_made(tmp_path):
    """'a/' * 2,000 + 'x.py' in a 31 KB zip: made, it was a folder Python's recursive clean-up could not remove
    (the batch stopped, and every later batch on the machine at its start)."""
    deep, deepest = "a/" * 2_000 + "x.py", "b/" * 32 + "y.py"  # a file in a folder 32 deep is read, as from a folder
    archive = make_zip(tmp_path / "s.zip", [(deep, b"x = 1\n"), (deepest, b"y = 1\n"), ("hw/alphabeta.py", REFERENCE)])
    unpacked = unpack(Submission("s", archive), tmp_path / "work" / "files")
    assert unpacked.files == [deepest, "hw/alphabeta.py"] and list(skipped(unpacked).values()) == ["grade.skipped.deep"]
    assert not (tmp_path / "work" / "files" / "a").exists()


def test_a_student_id_longer_than_a_folder_name_once_composed_is_graded(tmp_path):
    """A folder named with 85 letters that Unicode's composed form doubles (255 bytes on disk, 510 composed): its
    feedback folder could not be made and the student crashed as a grader fault on every run. Its id keeps what
    fits and a digest of the whole name."""
    from tests.test_grade_sandbox import _narrow_class

    folder, rubric = _narrow_class(tmp_path, students=1)
    long_name = "\u0958" * 85
    (folder / "s0").rename(folder / long_name)
    result = grade_batch(folder, tmp_path / "out", rubric, jobs=1)
    (row,) = result.rows
    assert row["extra_data"]["status"] == "ok" and row["score"] == row["extra_data"]["max_score"]
    student = row["extra_data"]["student"]
    assert len(student.encode()) <= 255 and (tmp_path / "out" / "students" / student / "feedback.md").is_file()
    assert submissions.student_id(long_name) == student != submissions.student_id("\u0958" * 84 + "a")
