"""The instructor's grading pipeline (see README.md here: its stages in order), and the ``abkit`` command line
(``cli.py``, ``commands/``), the layer above every path."""
