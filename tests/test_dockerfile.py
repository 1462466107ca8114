"""The grading image (issue 34): the repository's Dockerfile installs the kit as pyproject.toml names it, its build
context holds what that install needs, and the PrairieLearn export and the documentation name the image it builds.
Docker is not run here: the file is read as Docker reads it, one instruction a line."""

from __future__ import annotations

import fnmatch
import json
import re
import shlex
import sys
from pathlib import Path

import pytest

from abkit.kitcode import PARTS

KIT = Path(__file__).resolve().parents[1]

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - the kit supports 3.10, whose standard library has no TOML reader
    tomllib = pytest.importorskip("tomli")


def instructions() -> list[tuple[str, str]]:
    """The Dockerfile's instructions as (KEYWORD, arguments), comments and blank lines left out."""
    lines = (KIT / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ").splitlines()
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1].strip()) for line in lines
            if line.strip() and not line.lstrip().startswith("#")]


def project() -> dict:
    return tomllib.loads((KIT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_the_image_is_a_slim_python_the_kit_supports():
    (keyword, image), *_ = instructions()
    found = re.fullmatch(r"python:3\.(\d+)-slim", image)
    wanted = re.fullmatch(r">=3\.(\d+)", project()["requires-python"])
    assert keyword == "FROM" and found and wanted and int(found[1]) >= int(wanted[1])


def test_the_kit_is_installed_from_the_build_context_as_pyproject_names_it():
    steps = instructions()
    copies = [shlex.split(arguments) for keyword, arguments in steps if keyword == "COPY"]
    assert copies and copies[0][0] == "."
    source = copies[0][-1]
    installs = [shlex.split(arguments) for keyword, arguments in steps if keyword == "RUN" and "pip install" in arguments]
    assert installs and installs[0][:3] == ["pip", "install", source]  # the project itself, not an editable link
    assert project()["name"] == "abkit"
    entry = dict(steps)["ENTRYPOINT"]
    assert json.loads(entry) == ["abkit"] and "abkit" in project()["scripts"]


def test_the_build_context_keeps_what_the_install_reads():
    ignored = [line.strip() for line in (KIT / ".dockerignore").read_text(encoding="utf-8").splitlines()
               if line.strip() and not line.startswith("#")]
    needed = ["pyproject.toml", "setup.py", "MANIFEST.in", project()["readme"], "abkit", *PARTS,
              *[line.split()[1] for line in (KIT / "MANIFEST.in").read_text(encoding="utf-8").splitlines()
                if line.startswith(("graft", "include"))]]
    assert not [name for name in needed for pattern in ignored if fnmatch.fnmatch(name, pattern)]
    assert ".venv" in ignored and ".git" in ignored


def test_prairielearn_and_the_documentation_name_the_image_the_dockerfile_builds(tmp_path):
    from abkit.grader.prairielearn import IMAGE, export_course

    tag = f"docker build -t {IMAGE} ."
    assert tag in (KIT / "Dockerfile").read_text(encoding="utf-8")
    assert tag in (KIT / "docs" / "instructors.md").read_text(encoding="utf-8")
    export_course(tmp_path / "course")
    images = {json.loads(path.read_text(encoding="utf-8"))["externalGradingOptions"]["image"]
              for path in (tmp_path / "course" / "questions").rglob("info.json")}
    assert images == {IMAGE}


def test_the_documented_docker_run_grades_the_mounted_class_into_the_mounted_folder():
    text = (KIT / "docs" / "instructors.md").read_text(encoding="utf-8")
    runs = [line for line in text.splitlines() if line.startswith("docker run ")]
    assert runs
    for line in runs:
        words = shlex.split(line.replace("${PWD}", "PWD").replace("$PWD", "PWD"))
        mounts = [words[k + 1].split(":")[1] for k, word in enumerate(words) if word == "-v"]
        assert {"/course", "/submissions", "/out"} <= set(mounts)
        assert words[words.index("abkit-grader"):] == ["abkit-grader", "grade", "/submissions", "--out", "/out"]
