"""One student never changes another's grade: an honest student graded right after each attacker, by the same worker
and the same fork server (``-j 1``), gets exactly what it gets when graded alone.

The attackers (tests/adversarial/) try to reach the processes that outlive them: lowering the fork server's or the
worker's resource limits, renicing or pinning them, signalling them, blocking signals or lowering limits in the hope
that the next student's process inherits them, holding memory or disk. Each is followed in sorted order by a copy of
the correct submission.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest

from abkit.grader.batch import grade_batch
from abkit.grader.confine import available
from abkit.grader.rubric import load_rubric
from abkit.grader.sandbox import Limits

from tests.test_adversarial import CORPUS, DANGEROUS, RUBRIC

LIMITS = Limits(test_seconds=3.0, student_seconds=10.0, memory_mb=512)
ATTACKERS = ("limits_server", "renices", "lowers_own_limits", "signals_others", "regains_root", "memfd_hog", "shm_fill",
             "fills_disk", "kills_grader", "fork_bomb", "eats_memory")
LAYERS = available()


def attackers() -> list[str]:
    """The attackers this machine contains (the dangerous ones only where the OS contains them)."""
    return [a for a in ATTACKERS if a not in DANGEROUS or LAYERS.get(DANGEROUS[a])]


def shared_memory() -> set[str]:
    """The System V shared memory segments of this machine (they outlive the process that made them)."""
    table = Path("/proc/sysvipc/shm")
    return {line.split()[1] for line in table.read_text().splitlines()[1:]} if table.exists() else set()


def comparable(row: dict) -> dict:
    """What a student's row says about their grade: status, score and every test's score and output."""
    return {"status": row["extra_data"]["status"], "score": row["score"],
            "tests": [(t["name"], t["score"], t.get("output")) for t in row["tests"]]}


@pytest.mark.skipif(not attackers(), reason="this machine contains none of the attackers (no Landlock, no seccomp)")
def test_an_honest_student_graded_after_each_attacker_gets_what_it_gets_alone(tmp_path, capfd, monkeypatch):
    temporary = tmp_path / "tmp"  # the grader's temporary folders (students', fork servers'), to see none is left
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    segments = shared_memory()
    folder = tmp_path / "class"
    honest = []
    for i, attacker in enumerate(attackers()):
        shutil.copytree(CORPUS / attacker, folder / f"{i:02d}a-{attacker}")
        shutil.copytree(CORPUS / "correct", folder / f"{i:02d}b-honest")
        honest.append(f"{i:02d}b-honest")
    rubric = tmp_path / "rubric.yaml"
    rubric.write_text(RUBRIC, encoding="utf-8")
    together = grade_batch(folder, tmp_path / "together", load_rubric(rubric), jobs=1, limits=LIMITS)
    rows = {r["extra_data"]["student"]: r for r in together.rows}
    assert len(rows) == 2 * len(honest)
    for student in honest:
        alone = grade_batch(folder, tmp_path / "alone" / student, load_rubric(rubric), jobs=1, limits=LIMITS,
                            student=student)
        assert comparable(rows[student]) == comparable(alone.rows[0]), student
        assert rows[student]["score"] == rows[student]["extra_data"]["max_score"]
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err and "Error" not in err
    assert not list(temporary.iterdir())  # no student folder, fork-server folder or file an attacker left behind
    assert shared_memory() <= segments  # nor a shared memory segment (shm_fill's, on a kernel without seccomp)
