"""The course maintainer's commands: a course folder made, its stubs, its fixtures, its student edition."""

#: in the order ``abkit --help`` lists them
COMMANDS = ("init", "stubs", "fixtures", "release")
