"""Build step: the kit is installed as one package, ``abkit``. The repository's ``abkit/`` (the core) is its top;
every other part of the kit (:data:`abkit.kitcode.PARTS`: ``cli/``, ``grader/``, ...) is mapped into it as
``abkit.<part>``, so nothing else lands at the top of site-packages. The kit's own course (exercises, solutions,
fixtures, rubric, handouts, examples) goes into the wheel as the package data ``abkit/default_course``, which
``abkit init`` copies; the repository keeps one copy: the folders at its root. Everything else is in pyproject.toml."""

import sys
from pathlib import Path

from setuptools import find_packages, setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))

from abkit.kitcode import PARTS  # noqa: E402 - the kit's own list of its parts, read from the clone being built


def mapped_packages() -> tuple[list[str], dict[str, str]]:
    """Every package the wheel holds, named as installed, and the folder each part comes from."""
    packages = ["abkit"]
    folders = {"abkit": "abkit"}
    for part in PARTS:
        packages += [f"abkit.{part}"] + [f"abkit.{part}.{sub}" for sub in find_packages(str(ROOT / part))]
        folders[f"abkit.{part}"] = part
    return packages, folders


class BuildWithCourse(build_py):
    """``build_py`` that also copies the repository's course folder into the built ``abkit`` package."""

    def run(self):
        super().run()
        if self.editable_mode:  # an editable install finds the course in the repository itself
            return
        from abkit.coursefolder import PACKAGED_COURSE, copy_course

        copy_course(ROOT, Path(self.build_lib) / "abkit" / PACKAGED_COURSE.name)


PACKAGES, PACKAGE_DIR = mapped_packages()
setup(cmdclass={"build_py": BuildWithCourse}, packages=PACKAGES, package_dir=PACKAGE_DIR)
