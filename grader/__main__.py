"""``python -m grader`` is the same as ``abkit``."""

import sys

from .cli import main

sys.exit(main())
