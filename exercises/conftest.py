"""Lets plain `pytest` run the public tests of these exercises, with the same feedback as `abkit check`."""

from abkit.studentloop.pytest_plugin import pytest_collect_file  # noqa: F401 - the hook pytest looks for
