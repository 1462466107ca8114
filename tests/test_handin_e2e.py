"""Issue 17, "done means" (the hand-in half): in the student edition, as a student runs it, `abkit pack --id` writes
the hand-in; it carries nothing hidden; the instructor's `abkit grade` reads the zip as it is, gives a correct one
full marks and says when a zip no longer matches its manifest."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from abkit.fixture import fixture_paths, load_fixture
from abkit.loading import HIDDEN_FIXTURES, KIT_ROOT, SOLUTIONS
from abkit.manifest import MANIFEST
from tests.test_release import normalised, solution_blocks

EXERCISES = ("minimax", "alphabeta", "alphabeta_cutoff", "expectimax", "ordering")


def student(edition: Path, *args: str) -> subprocess.CompletedProcess:
    """The edition's own ``abkit`` (its grader/ and abkit/, as after ``pip install -e .`` there), run in it."""
    env = {**os.environ, "ABKIT_LANG": "en"}
    for name in ("PYTHONPATH", "ABKIT_COURSE"):
        env.pop(name, None)
    return subprocess.run([sys.executable, "-m", "abkit.cli", *args], cwd=edition, capture_output=True, text=True,
                          encoding="utf-8", env=env, stdin=subprocess.DEVNULL, timeout=180)


def hidden_secrets() -> list[tuple[str, str]]:
    """(what, text) that must not leave the instructor: each hidden fixture's id, tree and expectations."""
    secrets = []
    for fixture in map(load_fixture, fixture_paths([HIDDEN_FIXTURES])):
        raw = fixture.path.read_text(encoding="utf-8")
        secrets.append((fixture.id, fixture.id))
        secrets.append((f"{fixture.id} expected", normalised(raw[raw.index("\nexpected:"):])))
        if "\ntree:" in raw:
            secrets.append((f"{fixture.id} tree", normalised(raw[raw.index("\ntree:"):raw.index("\nexpected:")])))
    return secrets


@pytest.mark.slow
def test_done_means_pack_in_the_edition_and_grade_the_hand_in(abkit, tmp_path, monkeypatch):
    from abkit.authoring.release import build_student_edition

    monkeypatch.delenv("ABKIT_COURSE", raising=False)
    edition = tmp_path / "edition"
    build_student_edition(edition)

    # Packing the fresh stubs: a student who hands in early. The zip holds nothing hidden.
    run = student(edition, "pack", "--id", "s2024001")
    assert run.returncode == 0, run.stderr
    assert "wrote" in run.stdout and "s2024001.zip" in run.stdout and "public tests passed: minimax 0/" in run.stdout
    with zipfile.ZipFile(edition / "s2024001.zip") as archive:
        packed = {name: archive.read(name).decode("utf-8") for name in archive.namelist()}
    assert set(packed) == {MANIFEST, *(f"exercises/{e}.py" for e in EXERCISES)}
    everything = "\n".join(normalised(text) for text in packed.values())
    for what, secret in hidden_secrets():
        assert secret not in everything, f"{what} is in the hand-in"
    for name, block in solution_blocks():
        assert block not in everything, f"a solution block of {name} is in the hand-in"
    assert "PRUNE_ON_EQUALITY" not in everything

    # Solved, packed again (the id is kept: no --id), graded by the instructor: full marks, the manifest matches.
    for name in EXERCISES:
        shutil.copy(SOLUTIONS / f"{name}.py", edition / "exercises" / f"{name}.py")
    run = student(edition, "pack")
    assert run.returncode == 0, run.stderr
    assert "public tests passed: minimax 37/37 · alphabeta 30/30" in run.stdout
    manifest = json.loads(zipfile.ZipFile(edition / "s2024001.zip").read(MANIFEST))
    assert all(r["passed"] == r["total"] > 0 for r in manifest["check"]["exercises"].values())
    klass = tmp_path / "class"
    klass.mkdir()
    shutil.copy(edition / "s2024001.zip", klass / "s2024001.zip")
    # ... and a copy edited after packing, handed in as another student
    with zipfile.ZipFile(edition / "s2024001.zip") as old, zipfile.ZipFile(klass / "s2024002.zip", "w") as new:
        for name in old.namelist():
            data = old.read(name)
            new.writestr(name, data + b"\n# copied\n" if name == "exercises/alphabeta.py" else data)
    out = tmp_path / "grades"
    run = abkit("--course", KIT_ROOT, "grade", klass, "--out", out, "--lang", "en")
    assert run.status == 0, run.err
    rows = (out / "grades.csv").read_text(encoding="utf-8").splitlines()
    assert rows[0].endswith(",handin")
    assert rows[1].startswith("s2024001,ok,49,49,") and rows[1].endswith(",ok")
    assert rows[2].startswith("s2024002,ok,49,49,") and "exercises/alphabeta.py changed after packing" in rows[2] \
        and "packed by the student id s2024001, handed in as s2024002" in rows[2]
    feedback = (out / "students" / "s2024002" / "feedback.md").read_text(encoding="utf-8")
    assert "This hand-in does not match its manifest (abkit pack)" in feedback
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert "## Hand-ins that do not match their manifest" in summary and "- s2024002: " in summary
    assert "- s2024001:" not in summary


@pytest.mark.slow
@pytest.mark.parametrize("lang, words", [("en", "no student id is kept yet"), ("ko", "저장된 학번이 없고")])
def test_pack_in_the_edition_without_a_terminal_or_an_id(tmp_path, lang, words):
    from abkit.authoring.release import build_student_edition

    edition = tmp_path / "edition"
    build_student_edition(edition)
    run = student(edition, "pack", "--lang", lang)
    assert run.returncode == 2 and words in run.stderr and "Traceback" not in run.stderr
    assert not list(edition.glob("*.zip"))
