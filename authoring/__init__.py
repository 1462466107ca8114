"""Making and keeping a course: ``abkit init``, ``abkit stubs``, ``abkit fixtures verify|expect|generate|redraw-hidden``
and ``abkit release student``.

It prepares what the three paths run on, so it stands above them: besides the core it asks the grader how a
hidden tree is tested and which named mistakes it tells apart (:mod:`abkit.authoring.redraw`), and the student's loop
what the student edition ships (:mod:`abkit.authoring.release`). See README.md in this folder.
"""
