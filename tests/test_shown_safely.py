"""What the batch writes and shows of student text: the terminal, the gradebook, Markdown, and hidden tests."""

from __future__ import annotations

import csv
import io

import pytest

from abkit.i18n import t
from abkit.loading import SOLUTIONS
from abkit.grader.batch import Outcome, Progress, grade_batch
from abkit.grader.rubric import load_rubric
from abkit.safetext import csv_cell, markdown, terminal
from abkit.grader.sandbox import Limits


@pytest.mark.parametrize("text, shown", [
    ("plain ok", "plain ok"),
    ("\x1b[2Jcleared", "cleared"),
    ("\x1b]0;new title\x07after", "after"),
    ("\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"),
    ("tab\tand\nnewline", "tab\tand\nnewline"),
    ("back\rspace\b\x00\x7f\x9b31m", "backspace31m"),
    ("\u202eevil", "evil"),
    ("bad \udcff byte", "bad \ufffd byte"),
])
def test_terminal_text_carries_no_control_characters(text, shown):
    assert terminal(text) == shown


@pytest.mark.parametrize("cell, written", [("=1+2", "'=1+2"), ("+1", "'+1"), ("-1", "'-1"), ("@SUM(A1)", "'@SUM(A1)"),
                                           ("\tx", "'\tx"), ("\rx", "'\rx"), ("alice", "alice"), (3, 3), (-2.5, -2.5)])
def test_a_cell_a_spreadsheet_would_run_as_a_formula_is_text(cell, written):
    assert csv_cell(cell) == written


def test_markdown_escapes_html_outside_code_blocks_even_when_student_text_fakes_a_fence():
    document = "\n".join(["# <b>x</b> & y", "```", "<kept as code>", "```", "- <script>1</script>",
                          "````", "```", "<still code: a shorter fence does not close>", "````",
                          "``` `not a fence`", "<escaped>", "~~~", "<code>", "~~~", "  ```  ", "<i>", "```"])
    lines = markdown(document).split("\n")
    assert lines[0] == "# &lt;b&gt;x&lt;/b&gt; &amp; y" and lines[2] == "<kept as code>"
    assert lines[4] == "- &lt;script&gt;1&lt;/script&gt;" and lines[7] == "<still code: a shorter fence does not close>"
    assert lines[10] == "&lt;escaped&gt;" and lines[12] == "<code>" and lines[15] == "<i>"
    assert "\x1b" not in markdown("a\x1b[31m\nb")


def test_the_progress_line_shows_an_id_without_its_escape_sequences():
    stream = io.StringIO()
    Progress(stream, "en", tty=False)(1, 1, Outcome("\x1b[2J\x1b]0;pwned\x07eve", "ok", 1, 2))
    assert stream.getvalue() == "[1/1] eve: ok, 1/2\n"


@pytest.fixture(scope="module")
def odd_ids(tmp_path_factory):
    """A class whose ids are an escape sequence, a formula, a class file's name and bytes that are not UTF-8."""
    import os

    folder = tmp_path_factory.mktemp("class")
    names = [b"\x1b[2Jclear", b"=1+1", b"summary.md", b"histogram.svg", b"caf\xe9"]
    for name in names:
        path = os.path.join(os.fsencode(folder), name)
        os.mkdir(path)
        with open(os.path.join(path, b"alphabeta.py"), "wb") as handle:
            handle.write((SOLUTIONS / "alphabeta.py").read_bytes())
    rubric = tmp_path_factory.mktemp("rubric") / "rubric.yaml"
    rubric.write_text("fixtures: [public]\nrandom_trees: {count: 0}\ndirect_tests: 0\n"
                      "exercises: {alphabeta: {values: 1}}\n", encoding="utf-8")
    out = tmp_path_factory.mktemp("out")
    result = grade_batch(folder, out, load_rubric(rubric), jobs=2, limits=Limits(test_seconds=5))
    return result, out


def test_any_student_id_gets_its_row_and_the_class_files_are_written(odd_ids):
    result, out = odd_ids
    assert len(result.rows) == 5 and {r["extra_data"]["status"] for r in result.rows} == {"ok"}
    assert all(r["score"] == r["extra_data"]["max_score"] for r in result.rows)
    assert (out / "summary.md").is_file() and (out / "histogram.svg").read_text(encoding="utf-8").startswith("<svg")
    assert (out / "students" / "summary.md" / "feedback.md").is_file()
    with open(out / "grades.csv", encoding="utf-8", newline="") as handle:
        ids = {row["student"] for row in csv.DictReader(handle)}
    assert ids == {"'=1+1", "clear", "summary.md", "histogram.svg", "caf\\xe9"}


ECHO = '''\
import os

CALLS = [0]


def alpha_beta_search(game, state):
    CALLS[0] += 1
    os.write(2, ("SEEN %s %s\\n" % (state, game.actions(state))).encode())  # straight to the process's log
    if CALLS[0] > {calls}:
        os._exit(5)
    return None


def max_value(game, state, alpha, beta):
    return 0


def min_value(game, state, alpha, beta):
    return 0
'''


@pytest.mark.slow
@pytest.mark.parametrize("sources", ["[public, hidden]", "[public]"])
def test_what_a_process_printed_before_it_ended_is_withheld_once_it_received_a_hidden_test(tmp_path, sources):
    from abkit.grader.grading import Grader

    rubric_path = tmp_path / "rubric.yaml"
    rubric_path.write_text(f"fixtures: {sources}\nrandom_trees: {{count: 0}}\ndirect_tests: 0\n"
                           "exercises: {alphabeta: {values: 1}}\n", encoding="utf-8")
    rubric = load_rubric(rubric_path)
    tests = Grader(rubric).tests_for("echo")["alphabeta"]
    public = sum(1 for test in tests if test.source == "public")  # it ends on the first hidden test, else the last
    public -= sources == "[public]"
    (tmp_path / "class" / "echo").mkdir(parents=True)
    (tmp_path / "class" / "echo" / "alphabeta.py").write_text(ECHO.format(calls=public), encoding="utf-8")
    grade_batch(tmp_path / "class", tmp_path / "out", rubric, jobs=1, limits=Limits(test_seconds=5))
    text = (tmp_path / "out" / "students" / "echo" / "feedback.md").read_text(encoding="utf-8")
    if sources == "[public]":  # it died on the last public test: its output shows only public trees
        assert "exit status 5" in text and "SEEN" in text and "is not shown" not in text
    else:  # it died on the first hidden test, having printed its tree: neither that nor its exit status is shown
        assert "SEEN" not in text and "exit status" not in text
        assert t("grade.note.sealed", "en", file="alphabeta.py") in text
