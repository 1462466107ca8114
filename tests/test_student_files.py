"""What is found inside one student's submission, and what a student's grade depends on (issue 29).

Notebooks (``NAME.ipynb``: its code cells graded as ``NAME.py``), files named close to an exercise's, several copies
of one exercise; a student's random trees follow the student id alone, never the entry's name; two ids that differ
only in letter case keep their own folders; the summary and the feedback never show a message key.
"""

from __future__ import annotations

import csv
import json
import re
import shutil
import zipfile
from pathlib import Path

import pytest

from abkit.algorithms import Algorithm
from abkit.i18n import catalogue
from abkit.loading import KIT_ROOT, SOLUTIONS
from abkit.grader import picking
from abkit.grader.batch import grade_batch
from abkit.grader.grading import Grader
from abkit.grader.picking import NotebookError, near_stem, notebook_code, pick
from abkit.grader.reports import folder_names, issue_text, read_results, results_json
from abkit.grader.rubric import load_rubric
from abkit.grader.sandbox import Limits
from abkit.grader.submissions import Submission

EXERCISES = Algorithm.exercises()
NAMES = [f"{e}.py" for e in EXERCISES]
REFERENCE = {e: (SOLUTIONS / f"{e}.py").read_text(encoding="utf-8") for e in EXERCISES}
EXAMPLES = KIT_ROOT / "examples" / "submissions"
#: dave's alphabeta.py of the example class: cuts on equality under the AIMA rule, so it fails some random trees
with zipfile.ZipFile(EXAMPLES / "dave.zip") as _archive:
    EQUALITY = _archive.read("alphabeta.py").decode("utf-8")


def notebook(*cells: tuple[str, object], version: int = 4) -> bytes:
    """A notebook's bytes: each cell as (cell_type, source), source a string or a list of lines."""
    return json.dumps({"nbformat": version, "nbformat_minor": 5, "metadata": {},
                       "cells": [{"cell_type": kind, "metadata": {}, "source": source, "outputs": []}
                                 for kind, source in cells]}).encode()


def lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


# -- a notebook's code -----------------------------------------------------------------------------

def test_a_notebooks_code_cells_become_python_with_ipythons_lines_commented_out():
    data = notebook(("markdown", "# Homework 3\n%not code"),
                    ("code", ["%matplotlib inline\n", "!pip install numpy\n", "files = !ls\n", "x = 7 % 3\n",
                              "s = '%d' % x"]),
                    ("code", "%%time\ny = x + 1\n  %timeit y\n"),
                    ("code", "%%bash\necho hi\nls"),
                    ("code", []))
    code, cells, magics = notebook_code(data)
    assert cells == 4  # the markdown cell is no code cell; the empty code cell is one
    # by hand: %matplotlib, !pip, files = !ls; %%time, %timeit; %%bash with its two lines
    assert magics == 3 + 2 + 3
    body = code.splitlines()
    for line in ("# %matplotlib inline", "# !pip install numpy", "# files = !ls", "x = 7 % 3", "s = '%d' % x",
                 "# %%time", "y = x + 1", "#   %timeit y", "# %%bash", "# echo hi", "# ls"):
        assert line in body, line
    assert "%not code" not in code  # markdown is left out
    assert [line for line in body if line.startswith("# In[")] == ["# In[1]:", "# In[2]:", "# In[3]:", "# In[4]:"]
    namespace: dict = {}
    exec(compile(code, "alphabeta.py", "exec"), namespace)  # plain Python now
    assert namespace["x"] == 1 and namespace["y"] == 2 and namespace["s"] == "1"


@pytest.mark.parametrize("data, key", [
    (b"{not json", "notebook.not_json"),
    (b"\xff\xfe\x00garbage", "notebook.not_utf8"),
    (b"[" * 100_000 + b"]" * 100_000, "notebook.not_json"),
    (b'{"nbformat": 3, "worksheets": [{"cells": []}]}', "notebook.version"),
    (b'{"nbformat": 4, "metadata": {}}', "notebook.no_cells"),
    (b'["cells"]', "notebook.no_cells"),
    (b'{"nbformat": 4, "cells": [{"cell_type": "code", "source": 5}]}', "notebook.cell"),
    (b'{"nbformat": 4, "cells": [{"cell_type": "code", "source": ["x = 1", 2]}]}', "notebook.cell"),
])
def test_a_broken_notebook_is_a_reason_never_an_exception(data, key):
    with pytest.raises(NotebookError) as raised:
        notebook_code(data)
    assert raised.value.message.key == key


def test_a_notebook_whose_code_is_larger_than_a_python_file_may_be_is_refused(monkeypatch):
    monkeypatch.setattr(picking, "MAX_FILE_BYTES", 1000)
    notebook_code(notebook(("code", "x = 1\n" * 100)))  # 600 bytes of code: read
    with pytest.raises(NotebookError) as raised:
        notebook_code(notebook(("code", "x = 1\n" * 200)))
    assert raised.value.message.key == "notebook.large"


# -- which file is graded --------------------------------------------------------------------------

@pytest.mark.parametrize("stem, exercise", [("alpha_beta", "alphabeta"), ("AlphaBeta", "alphabeta"),
                                            ("alphabeta (1)", "alphabeta"), ("alphabeta-2", "alphabeta"),
                                            ("Minimax", "minimax"), ("alphabeta copy", "alphabeta"),
                                            ("Alphabeta_Cutoff", "alphabeta_cutoff"), ("alphabeta-cutoff (2)",
                                                                                       "alphabeta_cutoff")])
def test_near_names_are_the_exercises(stem, exercise):
    assert near_stem(stem) == near_stem(exercise)
    assert [e for e in EXERCISES if near_stem(e) == near_stem(stem)] == [exercise]


def lay_out(root: Path, files: dict[str, str | bytes]) -> tuple[list[str], list[str]]:
    """Write ``files`` under ``root``; (python files, notebooks) as unpacking lists them."""
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data if isinstance(data, bytes) else data.encode())
    return sorted(f for f in files if f.endswith(".py")), sorted(f for f in files if f.endswith(".ipynb"))


def test_a_near_name_is_graded_but_never_another_exercises_file_or_a_helper(tmp_path):
    files, notebooks = lay_out(tmp_path, {"alphabeta_cutoff.py": "", "bounds.py": "", "hw/Minimax.py": "",
                                          "alpha_beta.py": "", "test_alphabeta.py": ""})
    picked = pick(tmp_path, files, notebooks, NAMES)
    assert picked.chosen == {"alphabeta_cutoff.py": "alphabeta_cutoff.py", "minimax.py": "hw/Minimax.py",
                             "alphabeta.py": "alpha_beta.py"}
    assert {name: m.key for name, m in picked.notes.items()} == {"minimax.py": "grade.note.near_name",
                                                                  "alphabeta.py": "grade.note.near_name"}
    assert picked.files["alphabeta"] == {"graded": "alpha_beta.py", "how": "near_name", "ignored": []}
    assert picked.files["alphabeta_cutoff"]["how"] == "name" and picked.files["expectimax"]["graded"] is None
    assert picked.ignored == []  # bounds.py and test_alphabeta.py are no copy of any exercise


def test_of_several_copies_the_exact_name_wins_then_a_notebook_then_a_near_name_and_each_other_is_named(tmp_path):
    files, notebooks = lay_out(tmp_path, {
        "hw/old/alphabeta.py": "", "alphabeta (1).py": "", "hw/alphabeta.py": "", "alphabeta.ipynb": b"{",
        "minimax.ipynb": notebook(("code", "x = 1")), "Minimax.py": "",
        "expectimax-2.py": "", "Expectimax.ipynb": notebook(("code", "x = 2"))})
    picked = pick(tmp_path, files, notebooks, NAMES)
    assert picked.chosen == {"alphabeta.py": "hw/alphabeta.py", "minimax.py": "minimax.py",
                             "expectimax.py": "expectimax-2.py"}
    assert (tmp_path / "minimax.py").read_text(encoding="utf-8").endswith("# In[1]:\nx = 1\n")
    assert picked.files["alphabeta"] == {"graded": "hw/alphabeta.py", "how": "name",
                                         "ignored": ["hw/old/alphabeta.py", "alphabeta.ipynb", "alphabeta (1).py"]}
    assert picked.files["minimax"] == {"graded": "minimax.ipynb", "how": "notebook", "ignored": ["Minimax.py"]}
    assert picked.files["expectimax"]["how"] == "near_name"
    said = {(m.key, m.params["path"]) for m in picked.ignored}
    assert said == {("grade.note.ignored", "hw/old/alphabeta.py"), ("grade.note.other_copy", "alphabeta.ipynb"),
                    ("grade.note.other_copy", "alphabeta (1).py"), ("grade.note.other_copy", "Minimax.py"),
                    ("grade.note.other_copy", "Expectimax.ipynb")}


def test_a_broken_notebook_gives_way_to_the_next_copy_and_is_the_note_when_none_is_left(tmp_path):
    files, notebooks = lay_out(tmp_path, {"alphabeta.ipynb": b"{", "alpha_beta.py": "", "minimax.ipynb": b"\xff"})
    picked = pick(tmp_path, files, notebooks, NAMES)
    assert picked.chosen == {"alphabeta.py": "alpha_beta.py"}
    assert [m.key for m in picked.ignored] == ["grade.note.notebook_bad"]  # said once, for alphabeta
    assert picked.problems["minimax.py"].params["reason"].key == "notebook.not_utf8"
    assert "alphabeta.py" not in picked.problems


def test_a_notebook_beside_a_python_file_of_its_stem_is_written_under_another_name(tmp_path):
    files, notebooks = lay_out(tmp_path, {"Minimax.py": "old = 1", "Minimax.ipynb": notebook(("code", "new = 1"))})
    assert pick(tmp_path, files, notebooks, NAMES).chosen == {"minimax.py": "Minimax.py"}  # a near .py outranks
    picked = pick(tmp_path, [], notebooks, NAMES)  # (as if Minimax.py were not Python: the notebook is graded)
    assert picked.chosen == {"minimax.py": "Minimax_ipynb.py"}
    assert (tmp_path / "Minimax.py").read_text(encoding="utf-8") == "old = 1"
    assert (tmp_path / "Minimax_ipynb.py").read_text(encoding="utf-8").endswith("new = 1\n")


# -- ids on a disk that ignores letter case --------------------------------------------------------

def folders_of(ids: list[str]) -> list[str]:
    names = folder_names(ids)
    return [names.get(s, s) for s in ids]


def test_ids_that_differ_only_in_letter_case_get_folders_apart_under_case_folding():
    ids = ["kim", "Kim", "KIM", "kIm", "straße", "STRASSE", "strasse", "Straße", "kim~d25949ef", "김민준", "20231234",
           "ı", "i", "I", "Lee", "=SUM(1+1)"]
    folders = folders_of(ids)
    assert len({f.casefold() for f in folders}) == len(ids)
    assert len({f.upper().casefold() for f in folders}) == len(ids)
    # an id with no twin keeps its name, and so does the twin written in folded case
    assert {s: f for s, f in zip(ids, folders) if s == f} == \
        {s: s for s in ("kim", "strasse", "김민준", "20231234", "i", "Lee", "=SUM(1+1)")}
    # a digest of the id, the same on every run (sha256 of "Kim" begins d25949ef, computed with sha256sum)
    assert folder_names(ids)["Kim"] == "Kim~d25949ef" == folder_names(["kim", "Kim"])["Kim"]
    # both twins apart when neither is in folded case
    assert folder_names(["Kim", "KIM"]) == {"Kim": "Kim~d25949ef", "KIM": "KIM~db8d6f07"}


def test_a_long_id_with_a_twin_still_fits_a_folder_name():
    ids = ["A" * 255, "a" * 255]
    name = folder_names(ids)["A" * 255]
    assert len(name.encode()) <= 255 and name.casefold() != "a" * 255


def test_saved_results_of_another_student_are_not_taken_for_theirs(tmp_path):
    """On a disk that ignores letter case, kim's folder is the one Kim had before kim joined the class."""
    folder = tmp_path / "students" / "kim"
    folder.mkdir(parents=True)
    (folder / "results.json").write_text(json.dumps({"score": 1, "extra_data": {"student": "Kim"}}), encoding="utf-8")
    assert read_results(tmp_path, "kim") is None
    assert read_results(tmp_path, "Kim", "kim")["score"] == 1


# -- the summary's phrases -------------------------------------------------------------------------

def test_every_kind_of_finding_the_kit_makes_has_a_phrase_in_the_summary():
    kinds = set()
    for path in list((KIT_ROOT / "abkit").glob("*.py")) + list((KIT_ROOT / "grader").glob("*.py")):
        kinds |= set(re.findall(r'Finding\("(\w+)"', path.read_text(encoding="utf-8")))
    assert {"nodes", "leaves", "orders", "function", "game", "value"} <= kinds  # the scan finds them
    for lang in ("en", "ko"):
        for kind in kinds:
            assert f"grade.issue.kind.{kind}" in catalogue(lang), (lang, kind)
            assert not issue_text(f"kind:{kind}", lang).startswith("grade."), kind
        assert issue_text("kind:some_future_kind", lang) == catalogue(lang)["grade.issue.kind.other"]


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_summary_whose_commonest_finding_is_a_node_count_shows_its_phrase(lang):
    from abkit.grader.reports import summary_markdown

    rubric = load_rubric()
    row = {"score": 40, "extra_data": {"student": "s1", "status": "ok", "max_score": 49, "exercises": {
        "alphabeta": {"score": 2, "max_score": 11, "status": "ok", "mistakes": [],
                      "first_kinds": {"nodes": 3, "leaves": 1}}}}}
    summary = summary_markdown([row], rubric, lang)
    assert f"| {catalogue(lang)['grade.issue.kind.nodes']} | 1 |" in summary
    assert message_keys_in(summary) == []


def message_keys_in(text: str) -> list[str]:
    """The message keys (of abkit/messages) that ``text`` shows as such."""
    keys = catalogue("en")
    return sorted({word for word in re.findall(r"[a-z_]+(?:\.[a-z_0-9]+)+", text) if word in keys})


def test_message_keys_are_found_by_the_check():
    assert message_keys_in("| grade.issue.kind.nodes | 3 |") == ["grade.issue.kind.nodes"]
    assert message_keys_in("alphabeta.py was graded") == []


# -- a small class, graded -------------------------------------------------------------------------

def write_class(folder: Path) -> None:
    """Students whose files are found in each way above (see :data:`EXPECTED`)."""
    def student(name: str, files: dict[str, str | bytes]) -> None:
        lay_out(folder / name, files)

    full = {f"{e}.py": REFERENCE[e] for e in EXERCISES}
    magic = ["%matplotlib inline\n", "!pip install numpy\n"]
    student("nb", {**{k: v for k, v in full.items() if k != "alphabeta.py"},
                   "alphabeta.ipynb": notebook(("markdown", "# HW 3"), ("code", magic),
                                               ("code", lines(REFERENCE["alphabeta"])))})
    student("near", {**{k: v for k, v in full.items() if k not in ("alphabeta.py", "minimax.py")},
                     "hw3/alpha_beta.py": REFERENCE["alphabeta"], "Minimax.py": REFERENCE["minimax"]})
    student("copies", {**full, "alphabeta (1).py": EQUALITY, "alphabeta.ipynb": b"{broken",
                       "old/alphabeta.py": EQUALITY})
    student("badnb", {**{k: v for k, v in full.items() if k != "alphabeta.py"}, "alphabeta.ipynb": b"{broken"})
    student("onlynb", {"hw/alphabeta.ipynb": notebook(("code", REFERENCE["alphabeta"]))})
    student("Kim", {**full, "alphabeta.py": EQUALITY})
    student("kim", full)


#: student -> (alphabeta's points out of its maximum: full or less, extra_data.files' alphabeta record)
EXPECTED = {
    "nb": (True, {"graded": "alphabeta.ipynb", "how": "notebook", "ignored": []}),
    "near": (True, {"graded": "hw3/alpha_beta.py", "how": "near_name", "ignored": []}),
    "copies": (True, {"graded": "alphabeta.py", "how": "name",
                      "ignored": ["old/alphabeta.py", "alphabeta.ipynb", "alphabeta (1).py"]}),
    "badnb": (False, {"graded": None, "how": None, "ignored": ["alphabeta.ipynb"]}),
    "onlynb": (True, {"graded": "hw/alphabeta.ipynb", "how": "notebook", "ignored": []}),
    "Kim": (False, {"graded": "alphabeta.py", "how": "name", "ignored": []}),
    "kim": (True, {"graded": "alphabeta.py", "how": "name", "ignored": []}),
}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("class")
    write_class(folder)
    out = tmp_path_factory.mktemp("out")
    result = grade_batch(folder, out, load_rubric(), jobs=2, limits=Limits(test_seconds=5))
    return {r["extra_data"]["student"]: r for r in result.rows}, out


def feedback(out: Path, student: str) -> str:
    folder = {"Kim": "Kim~d25949ef"}.get(student, student)  # Kim beside kim: apart (sha256 of "Kim": d25949ef…)
    return (out / "students" / folder / "feedback.md").read_text(encoding="utf-8")


@pytest.mark.slow
def test_each_student_is_graded_from_the_file_found_and_the_record_says_which(graded):
    rows, _ = graded
    assert sorted(rows) == sorted(EXPECTED)
    for student, (full, record) in EXPECTED.items():
        extra = rows[student]["extra_data"]
        alphabeta = extra["exercises"]["alphabeta"]
        assert (alphabeta["score"] == alphabeta["max_score"]) is full, student
        assert extra["files"]["alphabeta"] == record, student
    assert rows["badnb"]["extra_data"]["exercises"]["alphabeta"]["score"] == 0
    assert rows["onlynb"]["extra_data"]["status"] == "ok"  # a notebook alone is a gradable hand-in


@pytest.mark.slow
def test_the_feedback_says_how_each_file_was_found(graded):
    _, out = graded
    assert "alphabeta.py was graded from the code cells of alphabeta.ipynb (2 cells); 2 lines that only IPython " \
           "runs" in feedback(out, "nb")
    near = feedback(out, "near")
    assert "hw3/alpha_beta.py was graded as alphabeta.py, whose name it is close to." in near
    assert "Minimax.py was graded as minimax.py" in near
    copies = feedback(out, "copies")
    assert "ignored old/alphabeta.py: a file of the same name sits higher up" in copies
    assert "alphabeta (1).py was not graded as alphabeta.py: alphabeta.py was (one file per exercise)." in copies
    assert "alphabeta.ipynb was not graded as alphabeta.py" in copies
    bad = feedback(out, "badnb")
    assert bad.count("alphabeta.ipynb could not be read as a Jupyter notebook: it is not valid JSON (line 1).") == 1
    assert "alphabeta.py is missing" not in bad


@pytest.mark.slow
def test_the_feedback_says_it_in_korean_too(tmp_path, graded):
    folder = tmp_path / "class"
    write_class(folder)
    for name in ("copies", "badnb", "onlynb", "Kim", "kim"):
        shutil.rmtree(folder / name)
    result = grade_batch(folder, tmp_path / "out", load_rubric(), lang="ko", jobs=2, limits=Limits(test_seconds=5))
    assert len(result.rows) == 2
    nb = feedback(tmp_path / "out", "nb")
    assert "alphabeta.ipynb 노트북의 코드 셀 2개를 alphabeta.py 파일로 보고 채점했습니다." in nb
    assert "주석으로 바꾸었습니다" in nb
    assert "hw3/alpha_beta.py 파일은 이름이 alphabeta.py와 비슷해서" in feedback(tmp_path / "out", "near")
    for student in ("nb", "near"):
        assert message_keys_in(feedback(tmp_path / "out", student)) == []
    assert message_keys_in((tmp_path / "out" / "summary.md").read_text(encoding="utf-8")) == []


@pytest.mark.slow
def test_two_ids_that_differ_only_in_case_keep_their_own_folder_and_row(graded):
    rows, out = graded
    folders = {p.name for p in (out / "students").iterdir()}
    assert len({f.casefold() for f in folders}) == len(folders)
    assert feedback(out, "Kim").startswith("# Feedback for Kim\n") and feedback(out, "kim").startswith("# Feedback for kim\n")
    assert rows["Kim"]["score"] < rows["kim"]["score"] == rows["kim"]["extra_data"]["max_score"]
    with open(out / "grades.csv", encoding="utf-8", newline="") as handle:
        table = {r["student"]: r for r in csv.DictReader(handle)}
    assert float(table["Kim"]["score"]) == rows["Kim"]["score"] and float(table["kim"]["score"]) == rows["kim"]["score"]
    assert rows["Kim"]["extra_data"]["folder"] == "Kim~d25949ef" and rows["kim"]["extra_data"]["folder"] == "kim"
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert "Kim~" not in summary  # the real ids, never the folder's
    assert folders == {s for s in EXPECTED if s != "Kim"} | {"Kim~d25949ef"}  # no other student's folder changes


@pytest.mark.slow
def test_a_rerun_finds_every_saved_result_and_names_no_folder_as_gone(graded, tmp_path):
    rows, out = graded
    folder = tmp_path / "class"
    write_class(folder)
    again = grade_batch(folder, out, load_rubric(), jobs=2, limits=Limits(test_seconds=5))
    assert sorted(again.reused) == sorted(EXPECTED) and again.graded == []
    assert "still holds the feedback" not in (out / "summary.md").read_text(encoding="utf-8")


@pytest.mark.slow
def test_no_summary_or_feedback_of_the_class_shows_a_message_key(graded):
    _, out = graded
    for path in [out / "summary.md", *sorted((out / "students").glob("*/feedback.md"))]:
        assert message_keys_in(path.read_text(encoding="utf-8")) == [], path


# -- a student's random trees follow the student id alone ------------------------------------------

@pytest.mark.slow
def test_the_same_files_under_two_differently_named_entries_of_one_id_grade_alike(tmp_path):
    """Moodle's folder and Canvas's zip of one student (the id is the LMS's identity, the same in both): the same
    seed, the same random trees, the same score; another id gets other trees."""
    files = {**{f"{e}.py": REFERENCE[e] for e in EXERCISES}, "alphabeta.py": EQUALITY}
    moodle = tmp_path / "Kim Minsu_1030_assignsubmission_file_"
    lay_out(moodle / "hw3", files)
    canvas = tmp_path / "kimminsu_LATE_1030_90012_hw3.zip"
    with zipfile.ZipFile(canvas, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    grader = Grader(load_rubric(), seed=7, limits=Limits(test_seconds=5))
    one = grader.grade(Submission("1030", moodle))
    two = grader.grade(Submission("1030", canvas))
    other = grader.grade(Submission("1031", moodle))
    assert one.grader_error == two.grader_error == ""
    assert one.seed == two.seed != other.seed
    assert one.score == two.score < one.max_score

    def random_trees(grade) -> list:
        return [(test.id, test.tree, test.state) for e in grade.exercises.values() for test in e.planned
                if test.source == "random"]

    assert random_trees(one) == random_trees(two) and random_trees(one)
    assert random_trees(one) != random_trees(other)
    outcome = [(t["name"], t["score"]) for t in results_json(one, grader.rubric, "en")["tests"]]
    assert outcome == [(t["name"], t["score"]) for t in results_json(two, grader.rubric, "en")["tests"]]
