"""``python -m grader`` is the same as ``abkit``."""

from grader.cli import script

script()
