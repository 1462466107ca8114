"""Shared helpers: run the CLI in-process and capture what a user would see."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest

# The kit's cache (abkit/cache.py) of the tests' run lives in a folder of its own, gone when the run ends: the tests
# never read or write the user's cache, and every run starts cold (subprocesses inherit the variable).
os.environ["ABKIT_CACHE_DIR"] = tempfile.mkdtemp(prefix="abkit-test-cache-")
atexit.register(shutil.rmtree, os.environ["ABKIT_CACHE_DIR"], True)

from abkit.loading import FIXTURES, KIT_ROOT  # noqa: E402
from grader.cli import main  # noqa: E402


class Run:
    """The outcome of one ``abkit`` call: exit status, stdout, stderr."""

    def __init__(self, status: int, out: str, err: str) -> None:
        self.status, self.out, self.err = status, out, err

    def __repr__(self) -> str:
        return f"Run(status={self.status}, out={self.out!r}, err={self.err!r})"


@pytest.fixture
def abkit(capsys):
    """Call ``abkit`` with arguments; returns a :class:`Run`."""

    def run(*args: str) -> Run:
        try:
            status = main([str(a) for a in args])
        except SystemExit as exit_:  # argparse's usage errors and --help
            status = exit_.code if isinstance(exit_.code, int) else 1
        captured = capsys.readouterr()
        return Run(status, captured.out, captured.err)

    return run


@pytest.fixture
def fixture_copy(tmp_path):
    """Copy a shipped fixture into a temporary folder; returns the copy's path."""

    def copy(relative: str) -> Path:
        target = tmp_path / Path(relative).name
        shutil.copy(FIXTURES / relative, target)
        return target

    return copy


@pytest.fixture
def write(tmp_path):
    """Write text to a file in a temporary folder; returns its path."""

    def make(text: str, name: str = "f.yaml") -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return make


__all__ = ["KIT_ROOT"]

# CI runs hypothesis derandomized, so a green run is reproducible; locally it explores.
from hypothesis import settings  # noqa: E402

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("HYPOTHESIS_PROFILE"):
    settings.load_profile(os.environ["HYPOTHESIS_PROFILE"])
