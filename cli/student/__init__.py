"""The student's commands: what a student types while working on the exercises, and the hand-in.

They import the core, :mod:`abkit.studentloop` and :mod:`abkit.stepthrough` only (the student edition ships this
group and those packages, and nothing of the grading pipeline, the handouts or the course tools)."""

#: in the order ``abkit --help`` lists them
COMMANDS = ("check", "hint", "watch", "trace", "pack")
