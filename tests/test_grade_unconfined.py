"""Where the kit cannot confine student code (no Landlock or no seccomp: macOS, older Linux kernels), ``abkit grade``
refuses before any student code runs, says what the machine lacks and where to grade confined; ``--unconfined``
grades anyway. The probe (``abkit.grader.confine.available``) is replaced to play such a machine; the students' processes
themselves are confined as this machine allows, which the policy does not change."""

from __future__ import annotations

import os
import shutil

import pytest

import abkit.grader.confine as confine
from abkit.loading import KIT_ROOT

EXAMPLES = KIT_ROOT / "examples" / "submissions"
MACOS = {"landlock": 0, "seccomp": False}
OLD_LINUX = {"landlock": 0, "seccomp": True}
ODD_ARCHITECTURE = {"landlock": 3, "seccomp": False}
WHERE_INSTEAD = ("Grade where student code is confined: on Linux 5.13 or later with Landlock enabled (x86-64 or arm64), "
                 "in a Linux container on such a kernel, or on Gradescope (abkit export gradescope) or PrairieLearn, "
                 "which grade each submission in a container of its own. To grade on this machine anyway, at your "
                 "own risk, add --unconfined.")
WHERE_INSTEAD_KO = ("학생 코드를 격리한 채로 채점하려면 Landlock이 켜진 Linux 5.13 이상(x86-64 또는 arm64)에서, 그런 커널 위의 "
                    "Linux 컨테이너에서, 또는 제출물마다 컨테이너를 따로 쓰는 Gradescope(abkit export gradescope)나 "
                    "PrairieLearn에서 채점하세요. 위험을 감수하고 이 컴퓨터에서 그대로 채점하려면 --unconfined 옵션을 붙이세요.")


@pytest.fixture
def machine(monkeypatch):
    """Play a machine whose probe reports ``layers``; counts the batches started (none may start on a refusal)."""
    import abkit.grader.batch as batch
    started = []
    real = batch.grade_batch

    def counted(*args, **kwargs):
        started.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(batch, "grade_batch", counted)

    def play(layers: dict) -> list:
        monkeypatch.setattr(confine, "available", lambda: dict(layers))
        return started

    return play


@pytest.fixture
def one_student(tmp_path):
    shutil.copytree(EXAMPLES / "alice", tmp_path / "class" / "alice")
    return tmp_path / "class"


def this_linux() -> str:
    uname = os.uname()
    return f"Linux {uname.release}, {uname.machine}"


@pytest.mark.parametrize("lang, words", [
    ("en", ["error: this machine (macOS) cannot keep student code from reading the hidden tests and the solutions, "
            "nor from starting processes: it offers neither Landlock nor seccomp. " + WHERE_INSTEAD]),
    ("ko", ["이 컴퓨터(macOS)에서는 학생 코드가 숨은 테스트와 참조 풀이를 읽거나 프로세스를 만드는 것을 막을 수 없습니다. "
            "Landlock도 seccomp도 없습니다. " + WHERE_INSTEAD_KO]),
])
def test_on_macos_grading_is_refused_before_any_student_runs_saying_where_to_grade(
        abkit, machine, monkeypatch, one_student, tmp_path, lang, words):
    import abkit.cli.instructor.grade as command
    started = machine(MACOS)
    real = command.this_system
    monkeypatch.setattr(command, "this_system", lambda: real("darwin"))
    run = abkit("grade", one_student, "--out", tmp_path / "out", "--lang", lang)
    assert run.status == 2 and "Traceback" not in run.err and run.out == ""
    assert all(w in run.err for w in words), run.err
    assert started == [] and not (tmp_path / "out").exists()


@pytest.mark.parametrize("lang, words", [
    ("en", ["error: this machine (LINUX) cannot keep student code from reading the hidden tests and the solutions: "
            "it offers no Landlock. " + WHERE_INSTEAD]),
    ("ko", ["이 컴퓨터(LINUX)에서는 학생 코드가 숨은 테스트와 참조 풀이를 읽는 것을 막을 수 없습니다. Landlock을 쓸 수 "
            "없습니다. " + WHERE_INSTEAD_KO]),
])
def test_on_linux_without_landlock_grading_is_refused_naming_the_kernel(abkit, machine, one_student, tmp_path, lang,
                                                                        words):
    started = machine(OLD_LINUX)
    run = abkit("grade", one_student, "--out", tmp_path / "out", "--lang", lang)
    assert run.status == 2 and "Traceback" not in run.err
    assert all(w.replace("LINUX", this_linux()) in run.err for w in words), run.err
    assert "processes" not in run.err.split("Grade where")[0] and "프로세스" not in run.err
    assert started == [] and not (tmp_path / "out").exists()


def test_without_seccomp_grading_is_refused_for_the_processes_student_code_could_start(abkit, machine, one_student,
                                                                                       tmp_path):
    started = machine(ODD_ARCHITECTURE)
    run = abkit("grade", one_student, "--out", tmp_path / "out", "--lang", "en")
    assert run.status == 2 and "Traceback" not in run.err
    assert f"error: this machine ({this_linux()}) cannot keep student code from starting processes and reaching " \
           "the grader's: the kit's seccomp filter is for Linux on x86-64 and arm64 only. " + WHERE_INSTEAD in run.err
    assert "hidden tests" not in run.err
    assert started == [] and not (tmp_path / "out").exists()


def test_a_bad_rubric_is_told_first_and_the_refusal_comes_before_the_gradebook_folder_is_made(abkit, machine,
                                                                                              one_student, tmp_path):
    machine(MACOS)
    (tmp_path / "rubric.yaml").write_text("exercises: {minimax: {values: -1}}\n", encoding="utf-8")
    run = abkit("grade", one_student, "--out", tmp_path / "out", "--rubric", tmp_path / "rubric.yaml", "--lang", "en")
    assert run.status == 2 and "points cannot be negative" in run.err and "--unconfined" not in run.err
    run = abkit("grade", one_student, "--out", tmp_path / "out", "--lang", "en")
    assert run.status == 2 and "--unconfined" in run.err and not (tmp_path / "out").exists()


@pytest.mark.slow
@pytest.mark.parametrize("layers", [MACOS, OLD_LINUX], ids=["macos", "linux-without-landlock"])
def test_with_unconfined_the_class_is_graded(abkit, machine, one_student, tmp_path, layers):
    started = machine(layers)
    run = abkit("grade", one_student, "--out", tmp_path / "out", "--unconfined", "--lang", "en")
    assert run.status == 0, run.err
    assert started == [one_student] and "cannot keep student code" not in run.err
    rows = (tmp_path / "out" / "grades.csv").read_text(encoding="utf-8").splitlines()
    assert len(rows) == 2 and rows[1].startswith("alice,ok,49,49,")  # the example class's alice: full marks


def test_the_command_that_grades_again_a_student_the_grader_failed_on_keeps_unconfined(abkit, machine, monkeypatch,
                                                                                          tmp_path):
    """On a machine that cannot confine, the regrade command the terminal and summary.md give must run there."""
    import abkit.grader.batch as batch
    from tests.test_grade_sandbox import _failing_for, _narrow_class

    machine(MACOS)
    folder, _ = _narrow_class(tmp_path, students=2)
    monkeypatch.setattr(batch, "grade_and_save", _failing_for("s1", "raises"))  # the workers are forked: inherited
    run = abkit("grade", folder, "--out", tmp_path / "out", "--rubric", tmp_path / "rubric.yaml", "-j", "2",
                "--unconfined", "--lang", "en")
    assert run.status == 1, run.err
    wanted = f"--rubric {tmp_path / 'rubric.yaml'} --unconfined --lang en --student s1 --force"
    assert wanted in run.err and wanted in (tmp_path / "out" / "summary.md").read_text(encoding="utf-8")


def test_the_regrade_command_carries_unconfined_only_when_asked():
    from abkit.grader.batch import regrade_command
    from abkit.grader.rubric import Rubric
    from pathlib import Path

    words = (Path("class"), Path("out"), Rubric({}), 0, "ko", None, ["s1"])
    assert regrade_command(*words) == "abkit grade class --out out --lang ko --student s1 --force"
    assert regrade_command(*words, unconfined=True) == \
        "abkit grade class --out out --unconfined --lang ko --student s1 --force"


def test_the_system_is_named_as_its_user_knows_it():
    from abkit.cli.instructor.grade import this_system

    assert this_system("darwin", "23.5.0", "arm64") == "macOS"  # Darwin's release is not the macOS version
    assert this_system("linux", "5.10.0-21-amd64", "x86_64") == "Linux 5.10.0-21-amd64, x86_64"
    assert this_system("freebsd14", "14.0-RELEASE", "amd64") == "freebsd14 14.0-RELEASE, amd64"


def test_on_a_machine_that_can_confine_grading_asks_for_nothing(abkit, one_student, tmp_path):
    """The real probe: where Landlock and seccomp are both offered (the kit's CI), grading needs no flag, says it
    confined the students and warns of nothing."""
    layers = confine.available()
    if not (layers["landlock"] and layers["seccomp"]):
        pytest.skip(f"this machine cannot confine student code ({layers}): the refusal tests above cover it")
    assert confine.missing_layers() == ()
    run = abkit("grade", one_student, "--out", tmp_path / "out", "--lang", "en")
    assert run.status == 0 and "warning" not in run.err and "--unconfined" not in run.err, run.err
    assert f"sandbox: student code ran under Landlock (ABI {layers['landlock']})" in run.out
    assert "(seccomp)" in run.out


def test_the_gradescope_autograder_grades_where_the_kernel_cannot_confine(machine, tmp_path):
    """Gradescope's container is the confinement, and its kernel may lack Landlock: the autograder never refuses."""
    from abkit.loading import SOLUTIONS
    from abkit.grader.gradescope import run_autograder

    machine(MACOS)
    for name in ("minimax", "alphabeta", "alphabeta_cutoff", "expectimax", "ordering"):
        (tmp_path / "submission").mkdir(exist_ok=True)
        shutil.copy(SOLUTIONS / f"{name}.py", tmp_path / "submission" / f"{name}.py")
    results = run_autograder(tmp_path)
    assert results["score"] == 49 and results["extra_data"]["status"] == "ok"
