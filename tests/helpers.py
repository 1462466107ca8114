"""Known wrong searches as textual edits of the reference solutions, a course under a chosen cut-off rule, and
students' files written as an LMS download holds them, shared by the tests."""

from __future__ import annotations

import contextlib
import io
import re
import zipfile
from pathlib import Path

#: the three mistakes issue 3 names, as edits of solutions/alphabeta.py
STRICT = [("v > beta or (v == beta and PRUNE_ON_EQUALITY)", "v > beta"),
          ("v < alpha or (v == alpha and PRUNE_ON_EQUALITY)", "v < alpha")]
NO_PASS = [("min_value(game, game.result(state, a), alpha, beta))\n        if v > beta",
            "min_value(game, game.result(state, a), -math.inf, math.inf))\n        if v > beta"),
           ("max_value(game, game.result(state, a), alpha, beta))\n        if v < alpha",
            "max_value(game, game.result(state, a), -math.inf, math.inf))\n        if v < alpha")]
ROOT_NO_PASS = [("v = min_value(game, game.result(state, a), alpha, beta)\n            if best_action",
                 "v = min_value(game, game.result(state, a), -math.inf, beta)\n            if best_action")]


def edited(source: str, edits) -> str:
    """``source`` with each ``(old, new)`` replacement made; every ``old`` must occur (a stale edit fails loudly)."""
    for old, new in edits:
        assert old in source, old
        source = source.replace(old, new)
    return source


@contextlib.contextmanager
def course_under(rule: str, folder: Path):
    """The kit's course copied into ``folder`` with ``rule = "<rule>"`` in its marker (the one line a course changes),
    as the course the code inside works on."""
    from abkit.coursefolder import MARKER, chosen_course, copy_course
    from abkit.loading import KIT_ROOT

    copy_course(KIT_ROOT, folder)
    marker = folder / MARKER
    text, count = re.subn(r'^rule = "\w+"$', f'rule = "{rule}"', marker.read_text(encoding="utf-8"), flags=re.M)
    assert count == 1
    marker.write_text(text, encoding="utf-8")
    with chosen_course(folder):
        yield folder


def zipped(files: dict[str, str | bytes]) -> bytes:
    """A zip archive (deflated) holding ``files``: name -> contents."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def write(folder: Path, files: dict[str, str | bytes]) -> None:
    """Write ``files`` (name -> contents, text as UTF-8) under ``folder``, making the folders their names hold."""
    for name, data in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
