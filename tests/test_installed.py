"""The kit as users install it: the student edition in a fresh virtual environment, installed the way its README
says, every command of it (mistyped ones too) answering in the student's language; the kit's wheel one package.

Both build and install for real (a venv, pip, a wheel): slow, and they need the package index pip is set up with
(pyyaml, pytest)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from abkit.cli.student import COMMANDS as STUDENT_COMMANDS
from abkit.loading import KIT_ROOT

pytestmark = pytest.mark.slow
HANGUL = re.compile("[가-힣]")


@pytest.fixture(scope="module")
def edition(tmp_path_factory):
    """A Korean course's student edition, installed in a virtual environment of its own by its README's command."""
    from abkit.authoring.release import build_student_edition

    folder = tmp_path_factory.mktemp("installed") / "edition"
    build_student_edition(folder, lang="ko")
    readme = (folder / "README.md").read_text(encoding="utf-8")
    install = next(line for line in readme.splitlines() if line.startswith("python3 -m venv"))
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["PATH"] = os.pathsep.join(p for p in env["PATH"].split(os.pathsep) if ".venv" not in p)
    done = subprocess.run(["bash", "-c", install], cwd=folder, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return folder


def abkit(edition: Path, lang: str, *args: str) -> subprocess.CompletedProcess:
    """The edition's own ``abkit`` (its venv's console script), in the edition's folder, no terminal on stdin."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "ABKIT_COURSE", "COVERAGE_PROCESS_START")}
    env["ABKIT_LANG"] = lang
    return subprocess.run([str(edition / ".venv" / "bin" / "abkit"), *args], cwd=edition, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, encoding="utf-8", timeout=300)


def test_the_edition_installs_only_its_own_code(edition):
    """Its venv imports the edition's code, not this kit's, and holds none of the grading pipeline."""
    python = edition / ".venv" / "bin" / "python"
    probe = ("import importlib.util as u, abkit.cli.main as m; print(m.__file__); "
             "print([n for n in ('abkit.grader', 'abkit.authoring', 'abkit.handouts', 'abkit.reference', "
             "'abkit.cli.instructor', 'abkit.cli.course') if u.find_spec(n)])")
    done = subprocess.run([str(python), "-c", probe], cwd="/", capture_output=True, text=True, timeout=60)
    where, found = done.stdout.splitlines()
    assert where.startswith(str(edition / "abkit")) and found == "[]", done.stdout + done.stderr


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_every_command_of_the_edition_works(edition, lang):
    said = {}
    for args, status in ((("check",), 1), (("hint",), 0), (("trace", "fixtures/public/aima-fig-5-2.yaml"), 0),
                         (("pack", "--id", f"s-{lang}"), 0), (("--help",), 0)):
        run = abkit(edition, lang, *args)
        assert run.returncode == status and "Traceback" not in run.stderr, (args, run.stdout, run.stderr)
        said[args[0]] = run.stdout
    assert (edition / f"s-{lang}.zip").is_file()
    assert ("진행: 연습 문제 5개 중 0개 완료" if lang == "ko" else "Progress: 0/5 exercises") in said["check"]
    assert set(re.findall(r"^    (\w+) ", said["--help"], re.M)) == set(STUDENT_COMMANDS)
    assert bool(HANGUL.search(said["hint"])) == (lang == "ko")


MISTYPED = [("chekc",), ("grade", "submissions"), ("check", "nosuch"), ("hint", "nosuch"), ("watch", "nosuch"),
            ("trace", "nosuch.yaml"), ("trace",), ("pack",), ("pack", "--id"), ("check", "--bogus"),
            ("trace", "fixtures/public/aima-fig-5-2.yaml", "--algorithm", "negamax"), ("--lang", "xx", "check")]


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("args", MISTYPED, ids=" ".join)
def test_a_mistyped_command_is_one_sentence_in_the_students_language(edition, lang, args):
    from abkit.studentloop.pack import STUDENT_FILE

    (edition / STUDENT_FILE).unlink(missing_ok=True)  # no id kept from a pack run before: ``pack`` must ask
    run = abkit(edition, lang, *args)
    assert run.returncode == 2 and run.stdout == "", (run.stdout, run.stderr)
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr, run.stderr
    # a fixture's fault is located as compilers write it (path:line: message); every other one starts "error: "
    located = args[0] == "trace" and len(args) == 2 and run.stderr.startswith(f"{args[1]}:")
    assert located or run.stderr.startswith("오류: " if lang == "ko" else "error: "), run.stderr
    assert bool(HANGUL.search(run.stderr)) == (lang == "ko"), run.stderr


def test_the_wheel_installs_one_top_level_package(tmp_path):
    """Every file of the kit's wheel lies in the package ``abkit`` or its metadata: nothing else lands at the top of
    site-packages (``grader``, ``handouts``, ... are ``abkit.grader``, ``abkit.handouts``, ...)."""
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", str(KIT_ROOT), "--no-deps", "-q", "-w", str(tmp_path)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    wheel = next(tmp_path.glob("abkit-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/")[0] for name in names}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"abkit"}, tops
    for part in ("cli/student/check.py", "grader/child.py", "handouts/render.py", "reference/__init__.py",
                 "stepthrough/assets/", "default_course/solutions/alphabeta.py"):
        assert any(name.startswith(f"abkit/{part}") for name in names), part
    assert not any(name.startswith("abkit/handouts/") and name.endswith((".yaml", ".typ")) for name in names)
