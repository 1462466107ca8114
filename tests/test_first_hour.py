"""A student's first hour, end to end: the student edition as ``abkit release student`` writes it, used only as
its README says. Fresh stubs: the first exercise in full, one line for each other, under 40 lines. A search that
never ends: one message in under 5 s. The edition's README and exercises/README.md: only what the edition has.

The edition is built once for the module (:func:`edition`); each test works on a copy (:func:`copy`).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time

import pytest

from abkit.loading import KIT_ROOT, SOLUTIONS

pytestmark = pytest.mark.slow  # every test here works in a student edition built for the module

LOOP = "    while True:\n        pass\n"


@pytest.fixture(scope="module")
def edition(tmp_path_factory):
    """The student edition, written by the command a teacher runs."""
    out = tmp_path_factory.mktemp("first-hour") / "abkit-student"
    proc = subprocess.run([sys.executable, "-m", "abkit.cli", "release", "student", "--out", str(out), "--lang", "en"],
                          cwd=KIT_ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return out


@pytest.fixture
def copy(edition, tmp_path):
    """A fresh copy of the edition for one student."""
    folder = tmp_path / "abkit-student"
    shutil.copytree(edition, folder)
    return folder


def env(lang: str = "en") -> dict:
    environment = {**os.environ, "ABKIT_LANG": lang, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    environment.pop("PYTHONPATH", None)
    return environment


def abkit(folder, *args, lang: str = "en") -> subprocess.CompletedProcess:
    """``abkit ARGS`` in the edition's folder, with the edition's own code (``python -m abkit.cli`` from there)."""
    return subprocess.run([sys.executable, "-m", "abkit.cli", *args], cwd=folder, capture_output=True, text=True,
                          encoding="utf-8", env=env(lang), timeout=120)


def test_check_on_the_fresh_stubs_shows_the_first_exercise_in_full_and_one_line_each(copy):
    proc = abkit(copy, "check")
    lines = proc.stdout.splitlines()
    assert proc.returncode == 1 and proc.stderr == "" and len(lines) < 40
    assert lines[0] == "== minimax · Minimax decision ==" and sum(line.startswith("== ") for line in lines) == 1
    assert [line.split(" · ")[0] for line in lines if line.startswith("○ ")] == \
        ["○ alphabeta", "○ alphabeta_cutoff", "○ expectimax", "○ ordering"]
    assert "Not started yet: minimax_decision still raises NotImplementedError at the TODO in exercises/minimax.py" \
        in proc.stdout and "Traceback" not in proc.stdout
    assert "Progress: 0/5 exercises" in proc.stdout


def test_an_endless_loop_is_told_in_under_5_seconds(copy):
    looping = (SOLUTIONS / "minimax.py").read_text(encoding="utf-8").replace("    v = math.inf\n", "    v = math.inf\n" + LOOP)
    (copy / "exercises" / "minimax.py").write_text(looping, encoding="utf-8")
    start = time.monotonic()
    with subprocess.Popen([sys.executable, "-m", "abkit.cli", "check"], cwd=copy, stdout=subprocess.PIPE, text=True,
                          encoding="utf-8", env=env()) as proc:
        told = None
        for line in proc.stdout:
            if "did not finish" in line and told is None:
                told = time.monotonic() - start
                message = line
        status = proc.wait(timeout=60)
    assert told is not None and told < 5, told
    assert "The search did not finish on AIMA Figure 5.2 within 2 s, so 36 other tests of minimax" in message
    assert "endless recursion" in message and status == 1


def test_a_correct_exercise_moves_the_student_on_and_hint_follows(copy):
    shutil.copy(SOLUTIONS / "minimax.py", copy / "exercises" / "minimax.py")
    proc = abkit(copy, "check")
    assert proc.stdout.startswith("✓ minimax · Minimax decision: passed (37 public tests)\n")
    assert "== alphabeta · Alpha-beta search ==" in proc.stdout and "Progress: 1/5 exercises" in proc.stdout
    assert abkit(copy, "hint").stdout.startswith("Hint 1 of 4 for alphabeta (Alpha-beta search):")


def test_trace_works_in_the_edition_without_solutions(copy):
    assert not (copy / "solutions").exists()
    proc = abkit(copy, "trace", "fixtures/public/aima-fig-5-2.yaml")
    assert proc.returncode == 0 and "#6  ├─ C  MIN  [α=3, β=+∞]  → 2   ✂ cut: 2 ≤ α=3" in proc.stdout
    assert "value 3 · action B · nodes 11 · states evaluated 7 · pruned: C2, C3" in proc.stdout
    proc = abkit(copy, "trace", "--mine", "fixtures/public/aima-fig-5-2.yaml")  # the current exercise's search
    assert proc.returncode == 1 and "Not started yet: minimax_decision" in proc.stdout
    shutil.copy(SOLUTIONS / "minimax.py", copy / "exercises" / "minimax.py")
    proc = abkit(copy, "trace", "--mine", "fixtures/public/aima-fig-5-2.yaml")
    assert proc.returncode == 1 and "Not started yet: alpha_beta_search" in proc.stdout
    shutil.copy(SOLUTIONS / "alphabeta.py", copy / "exercises" / "alphabeta.py")
    proc = abkit(copy, "trace", "--mine", "fixtures/public/aima-fig-5-2.yaml", lang="ko")
    assert proc.returncode == 0 and "이 트리에서 내 탐색은 의사코드와 같은 상태를 같은 순서로" in proc.stdout
    assert abkit(copy, "--version").stdout.startswith("abkit ")


def test_the_stubs_doctests_run_in_the_edition(copy):
    proc = subprocess.run([sys.executable, "-m", "doctest", "-v", "exercises/minimax.py"], cwd=copy, capture_output=True,
                          text=True, encoding="utf-8", env=env(), timeout=120)
    # doctest's summary: "3 passed and 0 failed." up to Python 3.12, "3 passed." from 3.13
    assert proc.returncode == 0 and re.search(r"^3 passed( and 0 failed)?\.$", proc.stdout, re.M), proc.stdout


def code_blocks(text: str) -> list[str]:
    return re.findall(r"```[a-z]*\n(.*?)```", text, re.S)


def test_the_editions_readme_names_only_commands_it_has_and_shows_what_check_says(copy):
    from abkit.cli.student import COMMANDS as STUDENT_COMMANDS

    readme = (copy / "README.md").read_text(encoding="utf-8")
    commands = {m for block in code_blocks(readme) for m in re.findall(r"^(?:ABKIT_LANG=ko )?abkit (\w+)", block, re.M)}
    assert commands == set(STUDENT_COMMANDS)
    for lang in ("en", "ko"):
        said = abkit(copy, "check", lang=lang).stdout.rstrip("\n")
        assert said in [block.rstrip("\n") for block in code_blocks(readme)], lang
    assert "Activate.ps1" in readme and "```powershell" in readme


def test_the_editions_exercises_readme_speaks_to_students(copy):
    text = (copy / "exercises" / "README.md").read_text(encoding="utf-8")
    assert "abkit check" in text and "abkit hint" in text
    assert not re.search(r"stub|solution|뼈대|풀이|maintainer|관리자", text, re.I)


@pytest.mark.parametrize("lang, page, heading", [("en", "students.md", "## What `abkit check` says"),
                                                 ("ko", "students.ko.md", "## `abkit check`가 보여 주는 것")])
def test_the_students_page_shows_what_check_says_on_the_stubs(capsys, lang, page, heading):
    from abkit.cli.main import main

    main(["check", "--lang", lang, "--course", str(KIT_ROOT)])
    said = capsys.readouterr().out.rstrip("\n")
    text = (KIT_ROOT / "docs" / page).read_text(encoding="utf-8")
    students = text.split(heading, 1)[1].split("\n## ", 1)[0]
    assert said in [block.rstrip("\n") for block in code_blocks(students)]


# -- the hand-in (issue 17, i17b) ---------------------------------------------------------------------------
# `abkit pack` in the edition and `abkit grade` on the packed zip continue this student's hour here: use the
# `copy` fixture (a fresh edition), solve with shutil.copy(SOLUTIONS / name, copy / "exercises" / name), and
# run the edition's commands with abkit(copy, ...).
