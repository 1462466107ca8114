"""The kit above the core: reference runs, checks, grading and the ``abkit`` CLI."""
