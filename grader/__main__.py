"""``python -m grader`` is the same as ``abkit``."""

import sys

from grader.cli import main

sys.exit(main())
