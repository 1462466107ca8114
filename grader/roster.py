"""``--roster roster.csv``: the course's own id and name for each LMS identity of a student.

The file is CSV (UTF-8, a header row first) with the columns ``lms_id`` (the LMS's identity of the student: the
Canvas user id, the Moodle participant id, the Gradescope sid or e-mail, the Blackboard username, or an entry's
name in the plain layout) and ``student_id`` (the course's id, which names the student in ``grades.csv`` and their
feedback folder), and optionally ``name``; other columns are ignored. One student may have several rows (an id
and an e-mail); one ``lms_id`` only one. Every fault is refused with the file's path and line (:class:`RosterError`).
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from abkit.i18n import Message

from abkit.grader.submissions import LINE_BREAKS, NAME_BYTES, read_regular

MAX_ROSTER_BYTES = 5_000_000
COLUMNS = ("lms_id", "student_id")


class Roster(dict):
    """LMS id -> (the course's student id, name), and the ``path`` it was read from."""

    path: Path | None = None


class RosterError(ValueError):
    """The roster cannot be used (the instructor's error): its :class:`Message` names the path and line."""

    def __init__(self, key: str, /, **params: object) -> None:
        self.message = Message(key, **params)
        super().__init__(str(self.message))


def load_roster(path: Path) -> Roster:
    """The roster at ``path``: LMS id -> (the course's student id, name); :class:`RosterError` for any fault."""
    try:
        data = read_regular(Path(path), MAX_ROSTER_BYTES + 1)
    except OSError as error:
        raise RosterError("roster.unreadable", path=path, reason=error.strerror or str(error)) from error
    if len(data) > MAX_ROSTER_BYTES:
        raise RosterError("roster.large", path=path, limit=MAX_ROSTER_BYTES // 1_000_000)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise RosterError("roster.encoding", path=path) from error
    rows = csv.reader(io.StringIO(text, newline=""))
    try:
        header = [cell.strip().lower() for cell in next(rows, [])]
    except csv.Error as error:
        raise RosterError("roster.csv", path=path, line=1, reason=str(error)) from error
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        raise RosterError("roster.columns", path=path, missing=", ".join(missing))
    where = {c: header.index(c) for c in (*COLUMNS, "name") if c in header}
    return _rows(path, rows, where)


def _rows(path: Path, rows, where: dict[str, int]) -> Roster:
    """The roster's rows after its header (``where``: column -> index), each checked."""
    roster = Roster()
    roster.path = Path(path)
    first: dict[str, int] = {}
    try:
        for row in rows:
            line = rows.line_num
            if not any(cell.strip() for cell in row):
                continue
            cells = {c: (row[i].strip() if i < len(row) else "") for c, i in where.items()}
            for column in COLUMNS:
                if not cells[column]:
                    raise RosterError("roster.empty_cell", path=path, line=line, column=column)
            lms_id, student = cells["lms_id"], cells["student_id"]
            if student in (".", "..") or "/" in student or "\\" in student or LINE_BREAKS.search(student) \
                    or len(student.encode()) > NAME_BYTES:
                raise RosterError("roster.bad_id", path=path, line=line, id=student)
            if lms_id in roster:
                raise RosterError("roster.duplicate", path=path, line=line, id=lms_id, first=first[lms_id])
            roster[lms_id], first[lms_id] = (student, cells.get("name", "")), line
    except csv.Error as error:
        raise RosterError("roster.csv", path=path, line=rows.line_num, reason=str(error)) from error
    if not roster:
        raise RosterError("roster.no_rows", path=path)
    return roster
