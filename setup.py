"""Build step: put the kit's own course (exercises, solutions, fixtures, rubric, handouts, examples) into the
wheel as the package data ``abkit/default_course``, which ``abkit init`` copies. The repository keeps one copy:
the folders at its root. Everything else is in pyproject.toml."""

import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


class BuildWithCourse(build_py):
    """``build_py`` that also copies the repository's course folder into the built ``abkit`` package."""

    def run(self):
        super().run()
        if self.editable_mode:  # an editable install finds the course in the repository itself
            return
        sys.path.insert(0, str(ROOT))
        from abkit.coursefolder import PACKAGED_COURSE, copy_course

        copy_course(ROOT, Path(self.build_lib) / "abkit" / PACKAGED_COURSE.name)


setup(cmdclass={"build_py": BuildWithCourse})
