"""The student edition: nothing of the solutions or the hidden tests in it, and it works on its own."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

from abkit.fixture import fixture_paths, load_fixture
from abkit.loading import HIDDEN_FIXTURES, PUBLIC_FIXTURES, SOLUTIONS
from abkit.authoring.stubs import BEGIN, END


@pytest.fixture(scope="module")
def edition(tmp_path_factory):
    """The student edition, written once for this module's tests."""
    from abkit.authoring.release import build_student_edition

    out = tmp_path_factory.mktemp("release") / "abkit-student"
    build_student_edition(out)
    return out


def texts(folder):
    """Every file of the release as text, whitespace-normalised line by line."""
    for path in folder.rglob("*"):
        if path.is_file() and "__pycache__" not in path.parts:
            raw = path.read_text(encoding="utf-8", errors="replace")
            yield path, "\n".join(line.strip() for line in raw.splitlines() if line.strip())


def solution_blocks():
    """Every marked block of every solution file, whitespace-normalised."""
    for path in sorted(SOLUTIONS.glob("*.py")):
        block = None
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip() == BEGIN:
                block = []
            elif line.strip() == END:
                yield path.name, "\n".join(block)
                block = None
            elif block is not None and line.strip():
                block.append(line.strip())


def run(folder, *args, env=None):
    environment = {**os.environ, "ABKIT_LANG": "en", "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", **(env or {})}
    environment.pop("PYTHONPATH", None)
    return subprocess.run([sys.executable, *args], cwd=folder, capture_output=True, text=True, encoding="utf-8",
                          env=environment, timeout=120)


@pytest.mark.slow
def test_no_solution_body_appears_anywhere(edition):
    files = dict(texts(edition))
    assert not (edition / "solutions").exists() and not (edition / "fixtures" / "hidden").exists()
    blocks = list(solution_blocks())
    assert len(blocks) >= 7
    for name, block in blocks:
        calls = [line for line in block.splitlines() if "_value(" in line or "PRUNE_ON_EQUALITY" in line]
        for path, text in files.items():
            assert block not in text, f"a solution block of {name} is in {path}"
            assert not any(line in text.splitlines() for line in calls), f"a line of {name} is in {path}"
    assert not any("PRUNE_ON_EQUALITY" in text for text in files.values())


def normalised(text: str) -> str:
    return "\n".join(line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#"))


def shape(tree) -> tuple:
    """A tree's nodes, children and leaf values, hashable: equal for the same tree however it was written."""
    return tuple(sorted(tree.children.items())), tuple(sorted(tree.utilities.items()))


@pytest.mark.slow
def test_no_hidden_tree_or_expectation_appears_anywhere(edition):
    hidden = [load_fixture(p) for p in fixture_paths([HIDDEN_FIXTURES])]
    public = {shape(f.tree) for f in map(load_fixture, fixture_paths([PUBLIC_FIXTURES])) if f.tree is not None}
    shipped = [load_fixture(p) for p in fixture_paths([edition / "fixtures"])]
    files = dict(texts(edition))
    assert hidden and shipped
    for secret in hidden:
        raw = secret.path.read_text(encoding="utf-8")
        expected = normalised(raw[raw.index("\nexpected:"):])
        for path, text in files.items():
            assert expected not in text and secret.id not in text, f"{secret.id} is in {path}"
        if secret.tree is None or shape(secret.tree) in public:
            continue  # a public tree searched another way (another depth): only its expectation is secret
        tree_text = normalised(raw[raw.index("\ntree:"):raw.index("\nexpected:")])
        for path, text in files.items():
            assert tree_text not in text, f"the tree of {secret.id} is in {path}"
        assert all(shape(f.tree) != shape(secret.tree) for f in shipped if f.tree is not None), secret.id


@pytest.mark.slow
def test_only_the_student_commands_and_the_hidden_counts(edition):
    info = (edition / "exercises" / "info.yaml").read_text(encoding="utf-8")
    assert "hidden:\n  minimax: " in info
    proc = run(edition, "-m", "abkit.cli", "--help")
    assert proc.returncode == 0
    assert all(f"    {name} " in proc.stdout for name in ("check", "hint", "watch", "trace"))
    assert not any(f"    {name} " in proc.stdout for name in ("grade", "stubs", "release", "fixtures", "handouts"))
    assert "exercises and checks for minimax" in proc.stdout and "grading" not in proc.stdout  # what it offers


@pytest.mark.slow
def test_check_fails_on_the_stubs_and_passes_with_correct_code(edition, tmp_path):
    copy = tmp_path / "edition"
    shutil.copytree(edition, copy)
    proc = run(copy, "-m", "abkit.cli", "check")
    assert proc.returncode == 1 and "Not started yet" in proc.stdout and "Progress: 0/5 exercises" in proc.stdout
    for name in ("minimax.py", "alphabeta.py", "alphabeta_cutoff.py", "expectimax.py", "ordering.py"):
        shutil.copy(SOLUTIONS / name, copy / "exercises" / name)
    proc = run(copy, "-m", "abkit.cli", "check", "--lang", "ko")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "진행: 연습 문제 5개 중 5개 완료" in proc.stdout and "✗" not in proc.stdout
    assert str(copy) in run(copy, "-c", "import abkit.cli.main as m, abkit.loading as l; print(l.KIT_ROOT, m.__file__)").stdout
    proc = run(copy, "-m", "pytest", "-p", "no:cacheprovider")
    assert proc.returncode == 0 and " passed" in proc.stdout and "failed" not in proc.stdout


@pytest.mark.slow
def test_the_step_through_pages_work_in_the_edition(edition, tmp_path):
    """``trace --html`` and ``check --html`` (docs/students.md) write their pages from the edition's own code."""
    copy = tmp_path / "edition"
    shutil.copytree(edition, copy)
    proc = run(copy, "-m", "abkit.cli", "trace", "fixtures/public/aima-fig-5-2.yaml", "--html", str(tmp_path / "fig.html"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert 'class="abk-data"' in (tmp_path / "fig.html").read_text(encoding="utf-8")
    # a position, with no reference search here: the boards its fixture records, drawn as a tree
    proc = run(copy, "-m", "abkit.cli", "trace", "fixtures/public/ttt-o-blocks.yaml", "--html", str(tmp_path / "b.html"))
    assert proc.returncode == 0 and '"g": "XX.\\n.O.\\n..."' in (tmp_path / "b.html").read_text(encoding="utf-8")
    proc = run(copy, "-m", "abkit.cli", "trace", "fixtures/public/ttt-o-blocks.yaml", "--algorithm", "minimax",
               "--html", str(tmp_path / "m.html"))
    assert proc.returncode == 2 and "records only the outcome and counts of minimax" in proc.stderr
    wrong = (SOLUTIONS / "minimax.py").read_text(encoding="utf-8").replace("v = max(v,", "v = min(v,")
    (copy / "exercises" / "minimax.py").write_text(wrong, encoding="utf-8")  # MAX-VALUE keeps the least value
    proc = run(copy, "-m", "abkit.cli", "check", "minimax", "--html", str(tmp_path / "pages"))
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stdout + proc.stderr
    assert list((tmp_path / "pages").glob("*.html"))
    where = run(copy, "-c", "import abkit.stepthrough.page as p; print(p.ASSETS)").stdout
    assert str(copy) in where


@pytest.mark.slow
def test_pytest_reports_a_wrong_search_in_check_words(edition, tmp_path):
    copy = tmp_path / "edition"
    shutil.copytree(edition, copy)
    shutil.copy(SOLUTIONS / "minimax.py", copy / "exercises" / "minimax.py")
    wrong = (SOLUTIONS / "alphabeta.py").read_text(encoding="utf-8").replace(
        "v < alpha or (v == alpha and PRUNE_ON_EQUALITY)", "v < alpha")
    (copy / "exercises" / "alphabeta.py").write_text(wrong, encoding="utf-8")
    proc = run(copy, "-m", "pytest", "-p", "no:cacheprovider", "exercises/alphabeta.py", env={"ABKIT_LANG": "ko"})
    assert proc.returncode == 1
    assert "exercises/alphabeta.py::rule-split-min " in proc.stdout
    assert "의사코드는 C (MIN, α=3, β=+∞)에서 멈춥니다. 자식 C1(값 3)까지 탐색하고 나면 v = 3 ≤ α = 3" in proc.stdout
    assert "Traceback" not in proc.stdout


def test_the_release_refuses_a_folder_in_use(abkit, tmp_path):
    (tmp_path / "keep.txt").write_text("mine", encoding="utf-8")
    run_ = abkit("release", "student", "--out", tmp_path, "--lang", "en")
    assert run_.status == 2 and "is not an empty folder" in run_.err
    run_ = abkit("release", "student", "--out", tmp_path / "new", "--handouts", tmp_path / "none", "--lang", "en")
    assert run_.status == 2 and "does not exist" in run_.err


def test_the_release_command_copies_handouts(abkit, tmp_path):
    handouts = tmp_path / "built"
    (handouts / "ko").mkdir(parents=True)
    (handouts / "ko" / "notes.html").write_text("<p>notes</p>", encoding="utf-8")
    run_ = abkit("release", "student", "--out", tmp_path / "out", "--handouts", handouts, "--lang", "en")
    assert run_.status == 0 and f"to {tmp_path / 'out'}" in run_.out
    assert (tmp_path / "out" / "handouts" / "ko" / "notes.html").read_text(encoding="utf-8") == "<p>notes</p>"


@pytest.mark.slow
def test_every_module_the_edition_imports_is_in_the_edition(edition):
    """An editable install would find a missing module in the kit, so the release test run alone cannot tell: every
    kit module a shipped module imports (read with ``ast``, at its top or in a function) is shipped too, but the
    reference loader, which a student's command imports only where the course holds solutions."""
    import ast

    for path in sorted((edition / "abkit").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level else []
            for name in (n for n in names if n.split(".")[0] == "abkit" and n != "abkit.reference"):
                module = edition.joinpath(*name.split("."))
                assert module.with_suffix(".py").is_file() or (module / "__init__.py").is_file(), \
                    f"{path.relative_to(edition)} imports {name}, which the release leaves out"


@pytest.mark.slow
def test_the_edition_is_the_student_commands_and_what_they_import_whole(edition):
    """Whole folders, none of the grading pipeline, the course tools or the handouts: the command line's student
    group alone, and every file of the parts shipped."""
    from abkit.kitcode import part_folder

    shipped = edition / "abkit"
    assert sorted(p.name for p in shipped.iterdir() if p.is_dir() and p.name != "__pycache__") == \
        ["cli", "messages", "stepthrough", "studentloop"]
    assert sorted(p.name for p in (shipped / "cli").iterdir() if p.is_dir() and p.name != "__pycache__") == ["student"]
    assert not [p for p in edition.rglob("*") if p.name in ("grader", "authoring", "handouts", "reference")]
    for part in ("studentloop", "stepthrough"):
        kit = sorted(p.relative_to(part_folder(part)) for p in part_folder(part).rglob("*")
                     if p.is_file() and p.suffix != ".md" and "__pycache__" not in p.parts)
        assert sorted(p.relative_to(shipped / part) for p in (shipped / part).rglob("*")
                      if p.is_file() and "__pycache__" not in p.parts) == kit


@pytest.mark.slow
def test_the_release_refuses_public_trees_whose_answers_students_would_be_held_to_wrongly(abkit, tmp_path):
    """The edition's check holds code to the public fixtures' expected: blocks, which grading does not read: a
    block the reference does not reproduce, or none, is refused before anything is written."""
    course = tmp_path / "course"
    assert abkit("init", course, "--seed", "1", "--lang", "en").status == 0
    fixture = course / "fixtures" / "public" / "aima-fig-5-2.yaml"
    text = fixture.read_text(encoding="utf-8")
    line = next(k for k, row in enumerate(text.splitlines(), 1) if row.startswith("  minimax: {value: 3"))
    fixture.write_text(text.replace("  minimax: {value: 3", "  minimax: {value: 4"), encoding="utf-8")
    run_ = abkit("--course", course, "release", "student", "--out", tmp_path / "edition", "--lang", "en")
    assert run_.status == 2 and not (tmp_path / "edition").exists()
    assert f"{fixture}:{line}: expected.minimax.value expects 4, but the reference solutions give 3" in run_.err
    fixture.write_text(text.split("\nexpected:")[0] + "\n", encoding="utf-8")
    run_ = abkit("--course", course, "release", "student", "--out", tmp_path / "edition", "--lang", "ko")
    assert run_.status == 2 and f"{fixture} 파일에 expected: 항목이 없습니다." in run_.err
    fixture.write_text(text.split("\n  alphabeta:")[0] + "\n", encoding="utf-8")  # minimax's answers only
    run_ = abkit("--course", course, "release", "student", "--out", tmp_path / "edition", "--lang", "en")
    assert run_.status == 2 and f"{fixture}: grading tests exercise alphabeta on this tree, but its " \
                                "expected.alphabeta block is missing" in run_.err
    fixture.write_text(text, encoding="utf-8")
    assert abkit("--course", course, "release", "student", "--out", tmp_path / "edition", "--lang", "en").status == 0


def test_the_editions_readme_is_in_the_release_language_first(edition, tmp_path):
    """A Korean student's first screen is Korean (``release --lang ko``); the default edition's is English. Both
    languages are there whole, the release language's first."""
    from abkit.authoring.release import build_student_edition

    build_student_edition(tmp_path / "ko", lang="ko")
    korean = (tmp_path / "ko" / "README.md").read_text(encoding="utf-8")
    english = (edition / "README.md").read_text(encoding="utf-8")
    assert korean.startswith("# abkit — 학생용\n") and english.startswith("# abkit — student edition\n")
    first = korean.split("```", 1)[0].splitlines()
    assert len([line for line in first if line.strip()]) >= 5 and all(
        re.search(r"[가-힣]", line) for line in first if line.strip()), first
    assert korean.index("# abkit — student edition") > korean.index("```")
    assert english.index("# abkit — 학생용") > english.index("```")


@pytest.mark.slow
def test_outside_its_folder_the_edition_advises_only_what_it_has(edition, tmp_path):
    """The edition has no ``abkit init`` and its folder no solutions, rubric or handouts: its advice names none."""
    code = f"import sys; sys.path.insert(0, {str(edition)!r}); from abkit.cli.main import main; sys.exit(main(sys.argv[1:]))"
    for args, words in ((["check", "--lang", "en"], "run the command inside the folder of the student edition"),
                        (["check", "--course", str(tmp_path), "--lang", "en"], "name the folder of the student edition"),
                        (["check", "--lang", "ko"], "받은 학생용 판의 폴더")):
        proc = run(tmp_path, "-c", code, *args)
        assert str(edition) in run(tmp_path, "-c", code.replace("from abkit.cli.main import main; sys.exit(main(sys.argv[1:]))", "import abkit; print(abkit.__file__)")).stdout
        assert proc.returncode == 2 and words in proc.stderr, proc.stderr
        assert "abkit init" not in proc.stderr and "solutions/" not in proc.stderr and "Traceback" not in proc.stderr
