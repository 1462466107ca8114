"""The student's loop: the stubs in hand, ``abkit check`` / ``hint`` / ``watch`` / ``trace --mine``, then ``abkit pack``.

Runs the student's own code in-process against traces rebuilt from the public fixtures, so it needs no
solutions; it imports only the core (:mod:`abkit`).
See README.md in this folder for its stages in order.
"""
