"""abkit core: the game protocol, game trees from YAML fixtures, search traces, the reference search, and what
every path judges and speaks with (compare, judge, feedback, i18n).

The core imports nothing else of the kit; the student's loop (``studentloop``), the grader (``grader``), the
handout builder (``handouts``), the shared step-through pages (``stepthrough``), course authoring (``authoring``)
and the command line import it. See docs/architecture.md and README.md here.
"""

__version__ = "0.1.0"
