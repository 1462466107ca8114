"""abkit core: the game protocol, game trees from YAML fixtures, search traces, and what every path judges and
speaks with (compare, judge, feedback, i18n).

The core imports nothing else of the kit. Its parts, each a folder of the repository and a package inside this
one once installed, import it: the command line (``abkit.cli``), the student's loop (``abkit.studentloop``), the
grader (``abkit.grader``), the reference search (``abkit.reference``), the handout builder (``abkit.handouts``),
the step-through pages (``abkit.stepthrough``) and course authoring (``abkit.authoring``). See
docs/architecture.md and README.md here.
"""

__version__ = "0.1.0"
