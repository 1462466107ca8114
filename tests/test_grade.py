"""``abkit grade`` on the bundled example class: every row, the right statuses, marks, named mistakes, reproducibility."""

from __future__ import annotations

import csv
import json
import os
import shutil
from pathlib import Path

import pytest

from abkit.loading import KIT_ROOT

EXAMPLES = KIT_ROOT / "examples" / "submissions"
#: student -> (status, full marks, named mistakes): what the example class is built to show
EXPECTED = {
    "alice": ("ok", True, ""),
    "bob": ("ok", True, ""),
    "carol": ("ok", False, "minimax_v_zero no_pass_down expectimax_plain_average"),
    "dave": ("ok", False, "equality_rule"),
    "erin": ("crashed", False, ""),
    "frank": ("timeout", False, ""),
    "grace": ("invalid", False, ""),
    "heidi": ("ok", False, "fail_hard"),
}
GRADESCOPE_KEYS = {"score", "tests", "output", "visibility"}
TEST_KEYS = {"name", "score", "max_score", "status", "output", "visibility"}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The example class graded once (in-process CLI), and the folder it wrote."""
    from abkit.cli.main import main

    out = tmp_path_factory.mktemp("grades")
    status = main(["grade", str(EXAMPLES), "--out", str(out), "-j", "4", "--timeout", "1.5", "--lang", "en"])
    return status, out


def rows(out: Path) -> list[dict]:
    with open(out / "grades.csv", encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


@pytest.mark.slow
def test_the_example_class_gets_every_row_with_the_right_status_marks_and_mistakes(graded):
    status, out = graded
    assert status == 0
    table = rows(out)
    assert [r["student"] for r in table] == sorted(EXPECTED)
    for row in table:
        want_status, full, mistakes = EXPECTED[row["student"]]
        assert row["status"] == want_status, row
        assert (row["score"] == row["max_score"]) is full, row
        assert row["mistakes"] == mistakes, row
    header = list(table[0])
    assert header[:4] == ["student", "status", "score", "max_score"] and {"minimax", "alphabeta", "alphabeta_cutoff", "expectimax", "ordering"} <= set(header)


@pytest.mark.slow
def test_results_are_in_the_gradescope_format_and_add_up(graded):
    _, out = graded
    for student in EXPECTED:
        results = json.loads((out / "students" / student / "results.json").read_text(encoding="utf-8"))
        assert GRADESCOPE_KEYS <= set(results)
        assert all(set(test) == TEST_KEYS for test in results["tests"])
        assert {test["status"] for test in results["tests"]} <= {"passed", "failed"}
        assert results["score"] == pytest.approx(sum(test["score"] for test in results["tests"]), abs=0.05)
        assert results["extra_data"]["seed"] and results["extra_data"]["rule"] == "aima"
        assert (out / "students" / student / "feedback.md").read_text(encoding="utf-8").startswith(f"# Feedback for {student}")


@pytest.mark.slow
def test_feedback_names_the_mistake_and_the_pseudocode_line(graded):
    _, out = graded
    text = (out / "students" / "carol" / "feedback.md").read_text(encoding="utf-8")
    assert "Named mistake: α and β are not passed down" in text
    assert "`v ← MAX(v, MIN-VALUE(RESULT(s, a), α, β))`" in text
    assert "minimax: v starts at 0" in text
    assert "Named mistake: chance nodes average without the probabilities" in text
    assert "First difference:" in text and "```" in text  # the compare findings and a drawn tree


@pytest.mark.slow
def test_a_direct_call_is_told_as_a_call_once(graded):
    """heidi returns the bound at a cut-off: her failing direct calls name the call, say the node's return once (not
    again as the call's value) and show no action (a call returns none)."""
    _, out = graded
    text = (out / "students" / "heidi" / "feedback.md").read_text(encoding="utf-8")
    blocks = [b for b in text.split("\n#### ") if " called directly on " in b.split("\n")[0] and b.startswith("✗")
              and "A hidden test" not in b]  # (a hidden test's details are withheld)
    assert blocks
    for block in blocks:
        lines = block.splitlines()
        assert lines[1].startswith("Called directly: max_value(game, '") or lines[1].startswith(
            "Called directly: min_value(game, '")
        findings = lines[:next(k for k, line in enumerate(lines) if line.startswith("Your call: "))]
        said = [line for line in findings if line.startswith("- ")]  # (after them: the tests failing alike)
        assert len(said) == len(set(line.split(": ", 1)[1] for line in said))  # no finding said twice
        assert any(line.startswith("Your call: value ") for line in lines) and "action None" not in block


@pytest.mark.slow
def test_feedback_names_hidden_tests_without_their_trees_and_results_keep_them_for_later(graded):
    _, out = graded
    hidden_blocks, kept, naming = 0, 0, set()
    for student in EXPECTED:
        text = (out / "students" / student / "feedback.md").read_text(encoding="utf-8")
        if "/hidden/" in text:  # a hidden test named: in a block of its own, or listed with those failing alike
            naming.add(student)
        for block in text.split("\n#### ")[1:]:
            head, _, body = block.partition("\n")
            if "/hidden/" in head:
                hidden_blocks += 1
                assert body.startswith("A hidden test: what went wrong in it is shown once the instructor publishes")
                assert "```" not in body.split("\n####")[0] and "First difference" not in body.split("\n####")[0]
        results = json.loads((out / "students" / student / "results.json").read_text(encoding="utf-8"))
        for test in results["tests"]:
            if "/hidden/" in test["output"]:  # the details, for Gradescope to show after publishing
                assert test["visibility"] == "after_published"
                kept += "First difference" in test["output"]
    assert naming == {"carol", "dave", "heidi"} and hidden_blocks >= 2 and kept >= hidden_blocks  # they fail
    # hidden tests


@pytest.mark.slow
def test_statuses_explain_themselves(graded):
    _, out = graded
    erin = (out / "students" / "erin" / "feedback.md").read_text(encoding="utf-8")
    assert "could not be loaded: SyntaxError" in erin and "exit status 3" in erin
    frank = (out / "students" / "frank" / "feedback.md").read_text(encoding="utf-8")
    assert "stopped after 1.5 s" in frank and "were not run" in frank
    assert "no gradable file found" in (out / "students" / "grace" / "feedback.md").read_text(encoding="utf-8")
    assert "skipped archive entry ../escape.py" in (out / "students" / "heidi" / "feedback.md").read_text(encoding="utf-8")
    assert "ignored Assignment 3 - alice_1001/hw3/old/alphabeta.py" in \
        (out / "students" / "alice" / "feedback.md").read_text(encoding="utf-8")


@pytest.mark.slow
def test_the_summary_has_a_histogram_and_the_common_mistakes(graded):
    _, out = graded
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert "8 students: ok 5, timeout 1, crashed 1, invalid 1." in summary
    assert "- timeout: frank\n- crashed: erin\n- invalid (no gradable file): grace\n" in summary  # who, not only how many
    assert "![Histogram of the scores](histogram.svg)" in summary
    assert "| α and β are not passed down | 1 |" in summary
    svg = (out / "histogram.svg").read_text(encoding="utf-8")
    assert svg.startswith("<svg") and svg.count('fill="#4a78b5"') == 10  # bins of 5 points: 0, 5, ..., 45, 49


@pytest.mark.slow
def test_a_rerun_resumes_and_a_forced_rerun_gives_identical_results(graded, abkit, tmp_path):
    _, out = graded
    copy = tmp_path / "again"
    shutil.copytree(out, copy)
    run = abkit("grade", EXAMPLES, "--out", copy, "--lang", "en", "--timeout", "1.5")
    assert run.status == 0 and "(0 graded now, 8 kept from an earlier run)" in run.out
    run = abkit("grade", EXAMPLES, "--out", copy, "--lang", "en", "--timeout", "1.5", "--force", "-j", "4")
    assert run.status == 0 and "(8 graded now, 0 kept" in run.out
    for student in EXPECTED:
        assert (copy / "students" / student / "results.json").read_bytes() == (out / "students" / student / "results.json").read_bytes()
    assert (copy / "grades.csv").read_bytes() == (out / "grades.csv").read_bytes()


@pytest.mark.slow
def test_one_student_is_regraded_alone(graded, abkit, tmp_path):
    _, out = graded
    copy = tmp_path / "one"
    shutil.copytree(out, copy)
    (copy / "students" / "dave" / "results.json").unlink()
    run = abkit("grade", EXAMPLES, "--out", copy, "--student", "dave", "--lang", "en")
    assert run.status == 0 and "(1 graded now, 0 kept" in run.out
    assert "[1/1] dave: ok" in run.out  # not a terminal: plain lines
    assert rows(copy) == rows(out)


def test_another_seed_gives_other_random_trees(tmp_path):
    from abkit.grader.grading import Grader
    from abkit.grader.rubric import load_rubric

    grader = Grader(load_rubric(), seed=1)
    other = Grader(load_rubric(), seed=2)
    assert grader.tests_for("alice")["alphabeta"][-1].tree != other.tests_for("alice")["alphabeta"][-1].tree
    assert grader.tests_for("alice")["alphabeta"][0] == other.tests_for("alice")["alphabeta"][0]  # fixtures are shared


@pytest.mark.parametrize("args, message", [
    (["no/such/folder"], "the submissions folder no/such/folder does not exist"),
    ([str(EXAMPLES), "--student", "zoe"], "there is no submission for student zoe"),
    ([str(EXAMPLES), "-j", "0"], "-j must be at least 1"),
    ([str(EXAMPLES), "--timeout", "nan"], "--timeout a number of seconds from 0.01 to 3600"),
    ([str(EXAMPLES), "--timeout", "inf"], "--timeout a number of seconds from 0.01 to 3600"),
    ([str(EXAMPLES), "--timeout", "1e-9"], "--timeout a number of seconds from 0.01 to 3600"),
])
def test_instructor_errors_exit_2_with_a_message(abkit, tmp_path, args, message):
    run = abkit("grade", *args, "--out", tmp_path / "out", "--lang", "en")
    assert run.status == 2 and message in run.err and "Traceback" not in run.err


def test_a_class_zip_or_a_flat_download_says_what_to_do(abkit, tmp_path):
    import zipfile

    with zipfile.ZipFile(tmp_path / "class.zip", "w") as archive:
        archive.write(KIT_ROOT / "solutions" / "minimax.py", "alice/minimax.py")
    run = abkit("grade", tmp_path / "class.zip", "--out", tmp_path / "out", "--lang", "en")
    assert run.status == 2 and "class.zip is a .zip file, not a folder: extract it" in run.err
    (tmp_path / "flat").mkdir()
    for name in ("kim_123_minimax-1.py", "lee_124_minimax.py"):
        shutil.copy(KIT_ROOT / "solutions" / "minimax.py", tmp_path / "flat" / name)
    run = abkit("grade", tmp_path / "flat", "--out", tmp_path / "out", "--lang", "en")
    assert run.status == 2 and "only loose Python files (kim_123_minimax-1.py, lee_124_minimax.py): put each " \
                               "student's files" in run.err


def test_an_empty_folder_is_an_instructor_error(abkit, tmp_path):
    (tmp_path / "class").mkdir()
    run = abkit("grade", tmp_path / "class", "--out", tmp_path / "out", "--lang", "ko")
    assert run.status == 2 and "제출물이 없습니다" in run.err


def test_progress_draws_a_bar_with_an_eta_on_a_terminal():
    import io

    from abkit.grader.batch import Progress
    from abkit.grader.grades import StudentGrade

    stream = io.StringIO()
    progress = Progress(stream, "en", tty=True)
    grade = StudentGrade("alice", "ok", 20, 20, 1, {})
    progress(1, 2, grade)
    progress(2, 2, grade)
    text = stream.getvalue()
    assert "\r" in text and "1/2  ETA 0:00  alice" in text and text.endswith("\n") and "█" in text


def test_grading_on_windows_says_where_it_runs_instead_of_failing(abkit, tmp_path, monkeypatch):
    import abkit.cli.instructor.grade as command
    monkeypatch.setattr(command, "GRADES_HERE", False)
    run = abkit("grade", EXAMPLES, "--out", tmp_path / "out", "--lang", "ko")
    assert run.status == 2 and "WSL" in run.err and "Traceback" not in run.err and not (tmp_path / "out").exists()


@pytest.mark.slow
@pytest.mark.parametrize("where,words", [
    ("a-file", "is a file, not a folder"),
    ("class/out", "is inside the submissions folder"),
    ("class", "is the submissions folder"),
    ("COURSE/exercises", "one of its exercises/, solutions/, fixtures/, handouts/"),
    ("COURSE", "is the course folder"),
    ("/proc/abkit-out", "cannot write into /proc/abkit-out ("),
])
def test_a_gradebook_folder_that_cannot_be_one_is_refused_before_grading(abkit, tmp_path, where, words):
    """--out is checked before any student is graded: a file, a folder inside the class or the course's own
    folders, a place that cannot be written; exit 2 and one sentence, nothing written."""
    course = tmp_path / "course"  # a course of the test's own: a regression would write into it, not the kit
    assert abkit("init", course, "--seed", "1", "--lang", "en").status == 0
    shutil.copytree(EXAMPLES / "alice", tmp_path / "class" / "alice")
    (tmp_path / "a-file").write_text("notes\n", encoding="utf-8")
    before = sorted(p.relative_to(course) for p in course.rglob("*"))
    out = where.replace("COURSE", str(course)) if where.startswith(("COURSE", "/")) else tmp_path / where
    run = abkit("--course", course, "grade", tmp_path / "class", "--out", out, "--lang", "en")
    assert run.status == 2 and words in run.err and "Traceback" not in run.err
    assert sorted(p.relative_to(course) for p in course.rglob("*")) == before
    assert sorted(p.name for p in (tmp_path / "class").iterdir()) == ["alice"]
    assert (tmp_path / "a-file").read_text(encoding="utf-8") == "notes\n"


def test_a_gradebook_folder_whose_students_folder_is_the_class_is_refused(abkit, tmp_path):
    """Each student's feedback goes to OUT/students/<id>/: with the class at OUT/students, into their hand-ins."""
    shutil.copytree(EXAMPLES / "alice", tmp_path / "term" / "students" / "alice")
    run = abkit("grade", tmp_path / "term" / "students", "--out", tmp_path / "term", "--lang", "en")
    assert run.status == 2 and "would write each student's feedback into" in run.err and "Traceback" not in run.err
    assert sorted(p.name for p in (tmp_path / "term" / "students" / "alice").iterdir()) == \
        sorted(p.name for p in (EXAMPLES / "alice").iterdir())


def test_an_error_naming_what_was_typed_puts_no_escape_on_the_terminal(abkit):
    run = abkit("check", "alpha\x1b[2Jbeta", "--lang", "en")
    assert run.status == 2 and "no exercise named 'alpha" in run.err and "\x1b" not in run.err


def test_an_instructor_error_naming_the_class_s_files_puts_no_escape_on_the_terminal(abkit, tmp_path):
    (tmp_path / "flat").mkdir()
    shutil.copy(KIT_ROOT / "solutions" / "minimax.py", tmp_path / "flat" / "kim_\x1b[2J\x1b]0;pwned\x07_minimax.py")
    run = abkit("grade", tmp_path / "flat", "--out", tmp_path / "out", "--lang", "en")
    assert run.status == 2 and "only loose Python files (kim_" in run.err and "\x1b" not in run.err


def test_a_student_id_is_one_line_without_a_markdown_image(abkit, tmp_path):
    """A folder's name may hold line breaks and Markdown: shown raw, it wrote made-up progress lines and a
    'Grader faults' section with a remote image into summary.md."""
    name = "mallory\n[4∕4] eve: ok, 49∕49\n\n## Grader faults\n![x](https:∕∕evil.example∕t)"  # (∕: no folder)
    shutil.copytree(EXAMPLES / "alice", tmp_path / "class" / name)
    run = abkit("grade", tmp_path / "class", "--out", tmp_path / "out", "--lang", "en")
    assert run.status == 0 and "\n[4∕4] eve" not in run.out and "\n## Grader faults" not in run.out
    summary = (tmp_path / "out" / "summary.md").read_text(encoding="utf-8")
    assert "\n## Grader faults" not in summary and "![x]" not in summary
    assert [p.name for p in (tmp_path / "out" / "students").iterdir()] == \
        ["mallory\\x0a[4∕4] eve: ok, 49∕49\\x0a\\x0a## Grader faults\\x0a! [x](https:∕∕evil.example∕t)"]


def test_files_under_near_names_are_graded_with_a_note_and_prefixed_ones_pointed_out(abkit, tmp_path):
    """An LMS download renames files (letter case, a copy's mark, a prefix): a near name (letter case, a copy's mark)
    is graded as the exercise, saying so; a file after a prefix is not, but the feedback says it looks like the
    missing one, and what an invalid submission holds."""
    kim, park, lee = tmp_path / "class" / "kim", tmp_path / "class" / "park", tmp_path / "class" / "lee"
    kim.mkdir(parents=True)
    park.mkdir()
    lee.mkdir()
    shutil.copy(KIT_ROOT / "solutions" / "minimax.py", kim / "Minimax.py")
    shutil.copy(KIT_ROOT / "solutions" / "alphabeta.py", kim / "alphabeta (1).py")
    shutil.copy(KIT_ROOT / "solutions" / "minimax.py", park / "minimax.py")
    shutil.copy(KIT_ROOT / "solutions" / "alphabeta.py", park / "kim_123_alphabeta-1.py")
    shutil.copy(KIT_ROOT / "solutions" / "alphabeta.py", lee / "kim_123_alphabeta-1.py")
    run = abkit("grade", tmp_path / "class", "--out", tmp_path / "out", "--lang", "en")
    assert run.status == 0
    kim_says = (tmp_path / "out" / "students" / "kim" / "feedback.md").read_text(encoding="utf-8")
    assert "Minimax.py was graded as minimax.py, whose name it is close to. Name the file minimax.py next time." \
        in kim_says
    assert "alphabeta (1).py was graded as alphabeta.py, whose name it is close to." in kim_says
    assert "expectimax.py is missing from the submission: 0 points" in kim_says
    table = {row["student"]: row for row in rows(tmp_path / "out")}
    assert table["kim"]["minimax"] == "10" and table["kim"]["alphabeta"] == "11"  # the rubric's full points
    park_says = (tmp_path / "out" / "students" / "park" / "feedback.md").read_text(encoding="utf-8")
    assert "(status: ok)" in park_says
    assert "alphabeta.py is missing from the submission, but kim_123_alphabeta-1.py looks like it" in park_says
    lee_says = (tmp_path / "out" / "students" / "lee" / "feedback.md").read_text(encoding="utf-8")
    assert table["lee"]["status"] == "invalid" and "It holds these Python files: kim_123_alphabeta-1.py." in lee_says


@pytest.mark.slow
def test_one_name_in_two_unicode_forms_is_one_student_and_the_summary_says_what_was_not_graded(abkit, tmp_path):
    """A Hangul name as macOS's archives write it (decomposed) is the same student id as the composed one: the second
    entry is not graded, and the summary says so (not only the console)."""
    import unicodedata

    for form in ("NFD", "NFC"):  # the decomposed one listed first: still, the one named as the id is graded
        folder = tmp_path / "class" / unicodedata.normalize(form, "김철수")
        folder.mkdir(parents=True)
        shutil.copy(KIT_ROOT / ("solutions" if form == "NFC" else "exercises") / "minimax.py", folder / "minimax.py")
    if len(list((tmp_path / "class").iterdir())) < 2:
        pytest.skip("this file system stores one form of a name")
    run = abkit("grade", tmp_path / "class", "--out", tmp_path / "out", "--lang", "ko")
    assert run.status == 0 and "학번이 같아 채점하지 않았습니다" in run.err
    assert [row["student"] for row in rows(tmp_path / "out")] == ["김철수"]
    assert "ok" in [row["status"] for row in rows(tmp_path / "out")] and rows(tmp_path / "out")[0]["minimax"] != "0"
    assert f"학번이 다른 항목과 같아 채점하지 않은 항목: {unicodedata.normalize('NFD', '김철수')}." in \
        (tmp_path / "out" / "summary.md").read_text(encoding="utf-8")  # the entry not graded: the decomposed one
    again = abkit("grade", tmp_path / "class", "--out", tmp_path / "out", "--student",
                  unicodedata.normalize("NFD", "김철수"), "--lang", "en")  # as a terminal may pass it
    assert again.status == 0 and "(1 graded now" in again.out


def test_a_rubric_that_is_not_a_file_or_is_huge_is_refused_in_words(abkit, tmp_path):
    """--rubric /dev/zero read until the memory ran out, and a FIFO waited for ever."""
    (tmp_path / "big.yaml").write_text("a" * 1_000_001, encoding="utf-8")
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "folder.yaml").mkdir()
    os.symlink(tmp_path / "loop2", tmp_path / "loop1")
    os.symlink(tmp_path / "loop1", tmp_path / "loop2")
    for path, words in (("/dev/zero", "it is not a regular file"), (tmp_path / "fifo", "it is not a regular file"),
                        (tmp_path / "big.yaml", "the file is larger than 1000000 bytes"),
                        (tmp_path / "folder.yaml", "it is a folder, not a file"),
                        (tmp_path / "loop1", "too many links in a row")):
        run = abkit("grade", EXAMPLES, "--out", tmp_path / "out", "--rubric", path, "--lang", "en")
        assert run.status == 2 and words in run.err and "Traceback" not in run.err


@pytest.mark.parametrize("text,words", [
    ("", "rubric must be a mapping of names to values, found an empty file."),
    ("exercises: {minimax: {values: 1}}\nfixtures:\n  - public\n  - secret\n", "4: fixtures cannot be 'secret'"),
    ("exercises: {minimax: {values: 1}}\nfixtures: public\n", "2: fixtures cannot be 'public'"),
    ("exercises: {minimax: {values: 1}}\nfixtures: {public: 1}\n", "2: fixtures cannot be"),
])
def test_a_rubric_error_names_the_entry_it_is_about(abkit, tmp_path, text, words):
    rubric = tmp_path / "rubric.yaml"
    rubric.write_text(text, encoding="utf-8")
    run = abkit("grade", EXAMPLES, "--out", tmp_path / "out", "--rubric", rubric, "--lang", "en")
    assert run.status == 2 and words in run.err, run.err


def test_a_search_that_starts_a_thread_is_told_the_sandbox_refused_it(abkit, tmp_path):
    source = (KIT_ROOT / "solutions" / "alphabeta.py").read_text(encoding="utf-8").replace(
        "def alpha_beta_search(game, state):",
        "import threading\n\n\ndef alpha_beta_search(game, state):\n    found = []\n"
        "    worker = threading.Thread(target=lambda: found.append(_search(game, state)))\n"
        "    worker.start()\n    worker.join()\n    return found[0]\n\n\ndef _search(game, state):", 1)
    (tmp_path / "class" / "tom").mkdir(parents=True)
    (tmp_path / "class" / "tom" / "alphabeta.py").write_text(source, encoding="utf-8")
    assert abkit("grade", tmp_path / "class", "--out", tmp_path / "out", "--lang", "en").status == 0
    feedback = (tmp_path / "out" / "students" / "tom" / "feedback.md").read_text(encoding="utf-8")
    if "can't start new thread" not in feedback:
        pytest.skip("this system's sandbox lets a thread start")
    assert "While grading, a student's code may not start threads (the sandbox allows none)" in feedback


@pytest.mark.slow
def test_the_summary_names_feedback_left_from_students_no_longer_in_the_class(abkit, tmp_path):
    for student in ("ann", "ben"):
        (tmp_path / "class" / student).mkdir(parents=True)
        shutil.copy(KIT_ROOT / "solutions" / "minimax.py", tmp_path / "class" / student / "minimax.py")
    assert abkit("grade", tmp_path / "class", "--out", tmp_path / "out", "--lang", "en").status == 0
    shutil.rmtree(tmp_path / "class" / "ben")
    assert abkit("grade", tmp_path / "class", "--out", tmp_path / "out", "--lang", "en").status == 0
    assert [row["student"] for row in rows(tmp_path / "out")] == ["ann"]
    summary = (tmp_path / "out" / "summary.md").read_text(encoding="utf-8")
    assert "students/ still holds the feedback of ben from an earlier run: they are not in this class" in summary
    assert (tmp_path / "out" / "students" / "ben" / "feedback.md").is_file()  # kept: the instructor decides


def test_of_two_entries_one_in_another_unicode_form_the_one_named_as_the_id_is_graded_zip_or_not():
    from pathlib import Path

    from abkit.grader.batch import _unique
    from abkit.grader.submissions import Submission

    composed, decomposed = "jos\u00e9", "jose\u0301"
    for named in (composed, composed + ".zip", composed + ".ZIP"):
        unique, duplicates = _unique([Submission(composed, Path(decomposed)), Submission(composed, Path(named))])
        assert unique[composed].path.name == named and duplicates == [decomposed]


@pytest.mark.slow
def test_no_summary_or_feedback_of_the_example_class_shows_a_message_key(graded):
    """A message key (``grade.issue.kind.nodes``) where its phrase belongs: the catalogue's keys, found as words."""
    import re

    from abkit.i18n import catalogue

    _, out = graded
    keys = catalogue("en")
    texts = [out / "summary.md", *sorted((out / "students").glob("*/feedback.md"))]
    assert len(texts) == len(EXPECTED) + 1
    for path in texts:
        words = set(re.findall(r"[a-z_]+(?:\.[a-z_0-9]+)+", path.read_text(encoding="utf-8")))
        assert not words & set(keys), (path, sorted(words & set(keys)))
