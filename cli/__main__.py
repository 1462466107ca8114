"""``python -m abkit.cli`` is the same as ``abkit``."""

from abkit.cli.main import script

script()
