"""The ``abkit`` command line, by whose path each command serves: ``student/`` (check, hint, watch, trace, pack),
``instructor/`` (grade, export, rubric, handouts, lab, practice) and ``course/`` (init, stubs, release, fixtures).

Each group's ``__init__.py`` lists its commands (``COMMANDS``), each a module of the group with ``register(sub, lang,
add_lang)`` (its arguments) and ``run(args)`` (one library call, an exit status). The parser is built from the groups
that are present (:mod:`abkit.cli.groups`): the student edition ships ``student/`` alone. :mod:`abkit.cli.main` maps
errors to messages and exit statuses; :mod:`abkit.cli.arguments` is the parser.
"""
