"""The instructor's commands: grading a class and what goes with it, the handouts and the pages made for a class."""

#: in the order ``abkit --help`` lists them
COMMANDS = ("grade", "grades", "export", "rubric", "handouts", "practice", "lab")
