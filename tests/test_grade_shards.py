"""``abkit grade --shard K/N`` and ``abkit grades merge``: a class graded in shards, then merged, is the class
graded once."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from abkit.loading import KIT_ROOT

EXAMPLES = KIT_ROOT / "examples" / "submissions"
CLASS = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]
SETTINGS = ["--timeout", "1.5", "--lang", "en", "-j", "2"]


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The example class graded once whole, and in 3 shards merged: {"whole", "out-1", …, "merged"} -> folder."""
    from abkit.cli.main import main

    root = tmp_path_factory.mktemp("shards")
    folders = {name: root / name for name in ("whole", "out-1", "out-2", "out-3", "merged")}
    assert main(["grade", str(EXAMPLES), "--out", str(folders["whole"]), *SETTINGS]) == 0
    for k in (1, 2, 3):
        assert main(["grade", str(EXAMPLES), "--out", str(folders[f"out-{k}"]), "--shard", f"{k}/3", *SETTINGS]) == 0
    shards = [str(folders[f"out-{k}"]) for k in (3, 1, 2)]  # in any order
    assert main(["grades", "merge", *shards, "--out", str(folders["merged"]), "--lang", "en"]) == 0
    return folders


def files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def students(folder: Path) -> list[str]:
    return (folder / "grades.csv").read_text(encoding="utf-8").split("\n")[1:-1]


@pytest.mark.slow
def test_three_shards_merged_are_byte_for_byte_the_class_graded_once(graded):
    """Every file of the merged folder, byte for byte, and no file more or less: the gradebook, the summary, the
    histogram, intake.md, grading.json and each student's results.json, feedback.md and step-through pages.

    Nothing is excluded: no file holds a time, a duration or the folder it was written to. (The one text that
    names its folder, the command that grades again the students on whom the grader itself failed, appears only
    when it fails on one; the example class has no such student.)"""
    whole, merged = files(graded["whole"]), files(graded["merged"])
    assert sorted(merged) == sorted(whole)
    assert {"grades.csv", "summary.md", "histogram.svg", "grading.json", "students/dave/feedback.md"} <= set(whole)
    different = [name for name in whole if merged[name] != whole[name]]
    assert not different, different


@pytest.mark.slow
def test_each_shard_grades_its_part_of_the_sorted_class_and_no_other(graded):
    parts = [[row.split(",")[0] for row in students(graded[f"out-{k}"])] for k in (1, 2, 3)]
    assert parts == [CLASS[0:2], CLASS[2:5], CLASS[5:8]]
    for k, part in zip((1, 2, 3), parts):
        assert sorted(p.name for p in (graded[f"out-{k}"] / "students").iterdir()) == part
        assert json.loads((graded[f"out-{k}"] / "grading.json").read_text())["shard"] == [k, 3]


@pytest.mark.parametrize("ids", [CLASS, list(reversed(CLASS)), [f"s{n:03d}" for n in range(31)], ["a"], []])
@pytest.mark.parametrize("count", [1, 2, 3, 7])
def test_the_shards_cover_the_class_once_in_sizes_one_apart_whatever_the_order_ids_are_found_in(ids, count):
    from abkit.grader.shards import Shard, members

    parts = [members(ids, Shard(k, count)) for k in range(1, count + 1)]
    assert sorted(s for part in parts for s in part) == sorted(ids)
    sizes = [len(part) for part in parts]
    assert max(sizes) - min(sizes) <= 1
    assert parts == [members(sorted(ids, reverse=True), Shard(k, count)) for k in range(1, count + 1)]


@pytest.mark.parametrize("value", ["0/3", "4/3", "x/y", "2", "1/0", "-1/3", "1/3/3"])
def test_a_bad_shard_is_one_sentence_and_status_2(abkit, tmp_path, value):
    run = abkit("grade", EXAMPLES, "--out", tmp_path / "out", f"--shard={value}", "--lang", "en")
    assert run.status == 2 and "Traceback" not in run.err
    assert run.err == f"error: --shard {value} is not a shard: write K/N with K from 1 to N, for example --shard 2/3.\n"
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
@pytest.mark.parametrize("into, shard, words", [
    ("out-1", "2/3", "--out {out} holds the results of shard 1/3: grade shard 2/3 into a folder of its own"),
    ("whole", "2/3", "--out {out} holds the results of a whole-class run: grade shard 2/3 into a folder"),
    ("out-2", None, "--out {out} holds the results of shard 2/3 alone: grade the whole class into another folder"),
])
def test_grading_into_another_runs_folder_is_refused_and_leaves_it_as_it_was(graded, abkit, tmp_path, into, shard,
                                                                           words):
    out = tmp_path / into
    shutil.copytree(graded[into], out)
    before = files(out)
    run = abkit("grade", EXAMPLES, "--out", out, *(["--shard", shard] if shard else []), *SETTINGS)
    assert run.status == 2 and run.err.startswith(f"error: {words.format(out=out)}")
    assert run.err.count("\n") == 1 and run.err.endswith(".\n") and "Traceback" not in run.err
    assert files(out) == before


@pytest.mark.slow
def test_a_shard_whose_folder_predates_records_is_refused_too(graded, abkit, tmp_path):
    out = tmp_path / "old"
    shutil.copytree(graded["whole"], out)
    (out / "grading.json").unlink()  # a folder graded before folders had a record
    run = abkit("grade", EXAMPLES, "--out", out, "--shard", "1/3", *SETTINGS)
    assert run.status == 2 and "holds the results of a whole-class run" in run.err


@pytest.mark.slow
def test_an_unfinished_shard_is_finished_in_its_folder_and_another_shard_is_kept_out_of_it(graded, abkit, tmp_path):
    """A shard interrupted before its class files (and record) are written: its students' results alone."""
    out = tmp_path / "unfinished"
    shutil.copytree(graded["out-2"], out)
    for name in ("grading.json", "grades.csv", "summary.md", "histogram.svg", "intake.md"):
        (out / name).unlink()
    run = abkit("grade", EXAMPLES, "--out", out, "--shard", "1/3", *SETTINGS)
    assert run.status == 2 and run.err.startswith(f"error: --out {out} holds the results of student carol, who is not "
                                                  "in shard 1/3 (an unfinished run of another shard)")
    run = abkit("grade", EXAMPLES, "--out", out, "--shard", "2/3", *SETTINGS)
    assert run.status == 0 and "(0 graded now, 3 kept from an earlier run)" in run.out
    assert files(out) == files(graded["out-2"])


@pytest.mark.slow
def test_the_same_shard_again_reuses_its_grades_and_a_student_of_another_shard_is_pointed_there(graded, abkit,
                                                                                                tmp_path):
    out = tmp_path / "again"
    shutil.copytree(graded["out-2"], out)
    run = abkit("grade", EXAMPLES, "--out", out, "--shard", "2/3", *SETTINGS)
    assert run.status == 0 and "3 students in the gradebook (0 graded now, 3 kept from an earlier run)" in run.out
    assert files(out) == files(graded["out-2"])
    run = abkit("grade", EXAMPLES, "--out", out, "--shard", "2/3", "--student", "alice", *SETTINGS)
    assert run.status == 2 and "student alice is in shard 1/3, not in shard 2/3: grade them with --shard 1/3." \
        in run.err


def _edited(graded, tmp_path, name: str, **changes) -> Path:
    """A copy of shard ``name``'s folder whose record says otherwise (as another run of it would have written it)."""
    copy = tmp_path / f"{name}-edited"
    shutil.copytree(graded[name], copy)
    record = json.loads((copy / "grading.json").read_text(encoding="utf-8"))
    (copy / "grading.json").write_text(json.dumps({**record, **changes}), encoding="utf-8")
    return copy


@pytest.mark.slow
@pytest.mark.parametrize("change, words", [
    ({"seed": 7}, "was graded with another --seed than {first}: grade every shard with the same seed."),
    ({"rubric": {"digest": "0", "rule": "aima", "points": {}}}, "was graded with another rubric than {first}"),
    ({"kit": "0.0.1"}, "was graded by another version of abkit than {first}"),
    ({"lang": "ko"}, "was graded in another language than {first}"),
    ({"class": "0"}, "was graded from another download of the class than {first}"),
])
def test_shards_graded_otherwise_are_not_merged(graded, abkit, tmp_path, change, words):
    other = _edited(graded, tmp_path, "out-3", **change)
    run = abkit("grades", "merge", graded["out-1"], graded["out-2"], other, "--out", tmp_path / "m", "--lang", "en")
    assert run.status == 2 and run.err.startswith(f"error: {other} {words.format(first=graded['out-1'])}")
    assert run.err.count("\n") == 1 and run.err.endswith(".\n") and not (tmp_path / "m" / "grades.csv").exists()


@pytest.mark.slow
def test_a_merge_refuses_what_is_not_one_whole_class_in_one_sentence(graded, abkit, tmp_path):
    one, two, three = graded["out-1"], graded["out-2"], graded["out-3"]
    overlapping = _edited(graded, tmp_path, "out-2", shard=[3, 3])  # shard 3/3 by its record, 2/3's students
    unfinished = tmp_path / "unfinished"
    shutil.copytree(three, unfinished)
    (unfinished / "students" / "grace" / "results.json").unlink()
    (tmp_path / "plain").mkdir()
    cases = {
        (one, two): "error: shards missing from the merge: 3/3; grade each with abkit grade --shard K/3 and name its",
        (one, two, two, three): f"error: {two} and {two} are both shard 2/3: name each shard's folder once.",
        (one, two, overlapping): f"error: student carol was graded in both {overlapping} and {two}",
        (one, two, unfinished): f"error: {unfinished} (shard 3/3) has no results for student grace",
        (one, two, tmp_path / "plain"): f"error: {tmp_path / 'plain'} is not a grading output folder",
        (one, two, graded["whole"]): f"error: {graded['whole']} holds a whole-class run, not a shard",
        (one, two, tmp_path / "nowhere"): f"error: {tmp_path / 'nowhere'} is not a grading output folder",
    }
    for folders, words in cases.items():
        run = abkit("grades", "merge", *folders, "--out", tmp_path / "m", "--lang", "en")
        assert run.status == 2 and run.err.startswith(words) and run.err.count("\n") == 1, (folders, run)
        assert run.err.endswith(".\n") and "Traceback" not in run.err
    run = abkit("grades", "merge", one, two, three, "--out", two, "--lang", "en")
    assert run.status == 2 and run.err.startswith(f"error: --out {two} holds a shard's results: merge into")
    assert not (tmp_path / "m").exists()


@pytest.mark.slow
def test_a_merge_again_into_its_folder_gives_the_same_files_and_grading_it_whole_reuses_every_grade(graded, abkit,
                                                                                                  tmp_path):
    merged = tmp_path / "merged"
    shutil.copytree(graded["merged"], merged)
    run = abkit("grades", "merge", graded["out-1"], graded["out-2"], graded["out-3"], "--out", merged, "--lang", "en")
    assert run.status == 0 and f"merged 3 shards (8 students) into {merged}." in run.out
    assert files(merged) == files(graded["whole"])
    run = abkit("grade", EXAMPLES, "--out", merged, *SETTINGS)
    assert run.status == 0 and "(0 graded now, 8 kept from an earlier run)" in run.out


def test_the_shards_modules_examples_hold():
    import doctest

    from abkit.grader import shards

    result = doctest.testmod(shards)
    assert result.failed == 0 and result.attempted >= 2


@pytest.mark.slow
def test_a_grader_fault_in_a_shard_is_named_after_the_merge_with_the_command_one_run_would_give(graded, abkit,
                                                                                                 tmp_path):
    """The command that grades again a student on whom the grader failed names the merged folder, as one run
    into that folder would (a grader fault made by hand: the kit has none to make one with)."""
    from abkit.grader.batch import regrade_command
    from abkit.grader.confine import missing_layers
    from abkit.grader.rubric import load_rubric
    from abkit.grader.sandbox import Limits

    shards = []
    for k in (1, 2, 3):
        shards.append(tmp_path / f"out-{k}")
        shutil.copytree(graded[f"out-{k}"], shards[-1])
    results = tmp_path / "out-2" / "students" / "dave" / "results.json"
    row = json.loads(results.read_text(encoding="utf-8"))
    row["extra_data"]["grader_error"] = "Traceback (most recent call last):\nKeyError: 'x'\n"
    results.write_text(json.dumps(row), encoding="utf-8")
    merged = tmp_path / "merged"
    run = abkit("grades", "merge", *shards, "--out", merged, "--lang", "en")
    want = regrade_command(EXAMPLES, merged, load_rubric(), 0, "en", Limits(test_seconds=1.5), ["dave"],
                           unconfined=bool(missing_layers()))
    assert run.status == 1 and f"  {want}\n" in run.err
    assert f"```\n{want}\n```" in (merged / "summary.md").read_text(encoding="utf-8")
