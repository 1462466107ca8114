"""Archives an LMS (or a student) hands over: zip slip, zip bombs, empty and corrupt archives, odd names, duplicates."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from abkit.loading import SOLUTIONS
from grader import submissions
from grader.batch import grade_batch
from grader.rubric import load_rubric
from grader.sandbox import Limits
from grader.submissions import Submission, unpack

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
    assert words in (out / student / "feedback.md").read_text(encoding="utf-8")


def test_the_shallowest_then_first_sorted_file_is_graded_and_the_others_are_listed(graded):
    rows, out = graded
    assert rows["twice"]["score"] == rows["twice"]["extra_data"]["max_score"]  # a/alphabeta.py, the correct one
    text = (out / "twice" / "feedback.md").read_text(encoding="utf-8")
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
