"""``abkit grades export``: a grading folder's grades as the CSV file an LMS's gradebook imports.

Read from what ``abkit grade ... --out DIR`` wrote (its ``grades.csv``: nothing is graded again) and, with
``--roster``, the LMS identity of each course id (:mod:`abkit.grader.roster`, read in reverse). Each format writes
the columns its LMS documents for importing grades, and one column of scores named after the assignment:

- ``canvas`` — ``Student``, ``ID``, ``SIS User ID``, ``SIS Login ID``, ``Section``, then the assignment as
  ``Name (assignment id)`` (a column without an id makes a new assignment). Canvas matches a row on ``ID``, the
  Canvas user id: the number a Canvas download names each file with (``<name>_<userid>_<submission>_<file>``).
  Documented: "Importing a CSV file to Grades ... Student Name OR Student ID OR Student SIS User ID ... SIS Login ID
  ... Section ... Assignment Name" and "New assignment columns in the Gradebook generate new assignments",
  https://teaching.resources.osu.edu/toolsets/carmencanvas/guides/calculating-final-grades/import-csv-file-carmen-grades
  (the columns of Canvas's own gradebook export, which its import reads back).
- ``moodle`` — ``ID number``, ``Email address``, then the assignment. Moodle's CSV import maps one identifier
  column to a user field: "Email Address" to ``useremail`` or "Id Number" to ``useridnumber``, and a column to a
  grade item, https://docs.moodle.org/311/en/Grade_import ("The import file format is the same as the
  corresponding export format", whose columns are named "ID number" and "Email address"). A Moodle download's
  participant id names no user there, so an e-mail (a roster's ``lms_id``) or the course's id as the ID number
  (a roster's ``student_id``) is needed.
- ``gradescope-csv`` — ``Name``, ``Email``, ``SID``, then the assignment: the identity columns of Gradescope's
  roster CSV ("required columns (Name and Email)", the student id as ``SID``),
  https://help.gradescope.com/article/w59nl02vyt-instructor-course-add-members; Gradescope matches a student on
  the e-mail or the SID, which a Gradescope export's metadata holds (``:sid:``, ``:email:``).

A student the format cannot name (no Canvas user id; no e-mail or ID number for Moodle) stops the export with one
sentence naming them and what to pass (:class:`~abkit.errors.UsageError`); a student on whom the grader itself
failed has no grade to send and is left out (:attr:`Export.left_out`).
"""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from abkit.errors import UsageError
from abkit.i18n import Message
from abkit.safetext import FORMULA_STARTS, csv_cell

FORMATS = ("canvas", "moodle", "gradescope-csv")
#: the identity columns of each format, before the assignment's column
COLUMNS = {
    "canvas": ("Student", "ID", "SIS User ID", "SIS Login ID", "Section"),
    "moodle": ("ID number", "Email address"),
    "gradescope-csv": ("Name", "Email", "SID"),
}
GRADES_FILE = "grades.csv"
NEEDED = ("student", "status", "score", "max_score", "grader_error")
EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
NAMED = 5  # students named one by one in a refusal


@dataclass
class Who:
    """What is known of one graded student: the course's id (``student``), their LMS identities, their name, and
    whether a roster named them (their ``student`` is then the course's id, not an LMS's)."""

    student: str
    lms_ids: list[str] = field(default_factory=list)
    name: str = ""
    rostered: bool = False

    @property
    def email(self) -> str:
        return next((i for i in self.lms_ids if EMAIL.fullmatch(i)), "")

    @property
    def number(self) -> str:
        return next((i for i in self.lms_ids if i.isdigit()), "")

    @property
    def other(self) -> str:
        return next((i for i in self.lms_ids if not EMAIL.fullmatch(i)), "")


@dataclass
class Export:
    """An export's ``text`` (the CSV), how many ``rows`` it has, and the students ``left_out`` (no grade: the
    grader failed on them)."""

    text: str
    rows: int
    left_out: list[str]


def read_grades(folder: Path) -> list[dict[str, str]]:
    """The rows of ``folder``'s ``grades.csv`` (each a column -> cell dict, the student id as it was before the
    gradebook's formula guard); :class:`UsageError` when there is none or it is not one ``abkit grade`` wrote."""
    path = Path(folder) / GRADES_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        raise UsageError("gradebook.no_grades", path=folder) from None
    reader = csv.DictReader(io.StringIO(text, newline=""))
    try:
        rows = list(reader)
    except csv.Error:
        raise UsageError("gradebook.bad_grades", path=path) from None
    if any(column not in (reader.fieldnames or ()) for column in NEEDED):
        raise UsageError("gradebook.bad_grades", path=path)
    if not rows:
        raise UsageError("gradebook.no_rows", path=path)
    for row in rows:
        cell = row["student"]
        if cell.startswith("'") and cell[1:].startswith(FORMULA_STARTS):
            row["student"] = cell[1:]
    return rows


def roster_graded_with(folder: Path) -> str:
    """The ``--roster`` the class in ``folder`` was graded with, as its ``grading.json`` records it (``""``: none,
    or no record). With a roster, a student's id in ``grades.csv`` is the course's, not an LMS identity."""
    try:
        options = json.loads((Path(folder) / "grading.json").read_text(encoding="utf-8"))["options"]
        return str(options[options.index("--roster") + 1]) if "--roster" in options else ""
    except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError):
        return ""


def who_is_who(students: list[str], roster: dict[str, tuple[str, str]] | None) -> dict[str, Who]:
    """Each student's :class:`Who`: a roster's LMS ids and name for the course's id; without a roster (or for a
    student it does not name) the student's id is the LMS's own (as :func:`abkit.grader.intake.with_roster` left it)."""
    known: dict[str, Who] = {}
    for lms_id, (student, name) in (roster or {}).items():
        entry = known.setdefault(student, Who(student, rostered=True))
        entry.lms_ids.append(lms_id)
        entry.name = entry.name or name
    return {s: known.get(s) or Who(s, [s]) for s in students}


def identity_row(fmt: str, who: Who) -> list[str] | None:
    """The identity cells of ``who`` in format ``fmt``, or None when the format's import could not match them."""
    if fmt == "canvas":
        return None if not who.number else [csv_cell(who.name or who.student), who.number, "", "", ""]
    if fmt == "moodle":
        number = who.student if who.rostered else ""
        return None if not (who.email or number) else [number, who.email]
    email, sid = who.email, who.other
    return None if not (email or sid) else [csv_cell(who.name), email, sid]


def assignment_column(fmt: str, assignment: str, assignment_id: str = "") -> str:
    """The header of the scores' column: the assignment's name, and on Canvas its id in brackets when given.

    >>> assignment_column("canvas", "Alpha-beta", "4711"), assignment_column("moodle", "Alpha-beta", "4711")
    ('Alpha-beta (4711)', 'Alpha-beta')
    """
    return f"{assignment} ({assignment_id})" if fmt == "canvas" and assignment_id else assignment


def export_grades(folder: Path, fmt: str, roster: dict[str, tuple[str, str]] | None, assignment: str,
                  assignment_id: str = "") -> Export:
    """The CSV of ``folder``'s grades in format ``fmt`` (one of :data:`FORMATS`): its header (the format's
    :data:`COLUMNS` and the assignment's), then a row per graded student, sorted as ``grades.csv``; a
    :class:`UsageError` naming the students the format cannot identify and what to pass."""
    rows = read_grades(folder)
    graded_with = roster_graded_with(folder)
    if graded_with and roster is None:  # its ids are the course's: taken for an LMS's, they could name others
        raise UsageError("gradebook.roster_needed", path=folder, roster=graded_with)
    kept = [r for r in rows if not r["grader_error"]]
    left_out = [r["student"] for r in rows if r["grader_error"]]
    people = who_is_who([r["student"] for r in kept], roster)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([*COLUMNS[fmt], assignment_column(fmt, assignment, assignment_id)])
    missing = []
    for row in kept:
        cells = identity_row(fmt, people[row["student"]])
        if cells is None:
            missing.append(row["student"])
        else:
            writer.writerow([*cells, row["score"]])
    if missing:
        shown = ", ".join(missing[:NAMED]) + (", …" if len(missing) > NAMED else "")
        raise UsageError(f"gradebook.missing.{fmt}", path=folder, count=len(missing), students=shown,
                         roster=Message("gradebook.with_roster", path=getattr(roster, "path", "")) if roster is not None
                         else Message("gradebook.no_roster"))
    return Export(buffer.getvalue(), len(kept) - len(missing), left_out)
