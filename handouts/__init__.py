"""The printed handouts: lecture notes, worked examples, exercise sheets and answer keys.

``build(langs, out)`` writes, per language, an A4 PDF (typst) and a
self-contained HTML page of each document; with ``students`` it adds each
student's own exercise sheet and an answer key per variant. The words live in
``handouts/messages/``, the structure in ``handouts/outline.yaml``, the
templates in ``handouts/templates/``. Dependencies: this package reads the core
(``abkit``, the reference searches ``abkit.reference`` among it) and the shared
``stepthrough`` (the SVG tree, the step-through pages), never the student-code
runner; the CLI (``cli/instructor/handouts.py``) calls it. README.md here lists
the builder's stages in order.
"""

from __future__ import annotations

import csv
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from abkit.errors import UsageError
from abkit.i18n import os_problem

from abkit.handouts.content import build_document
from abkit.handouts.fonts import HangulFont, find_hangul_font, font_folder
from abkit.handouts.render import compile_pdf, render_html, render_typst

LANGS = ("ko", "en")
FORMATS = ("pdf", "html")
STUDENT_ID = re.compile(r"^\w[\w.\-]*$")
ID_COLUMNS = ("student", "student_id", "id")
#: edition -> where it is written under OUT/<lang>/ ({student} is the variant's id)
FILES = {"handout": "handout", "answer_key": "answer-key",
         "student_sheet": "students/{student}", "variant_key": "answer-keys/{student}"}


@dataclass(frozen=True)
class Job:
    """One document to write: its language, edition and student (``""`` for the shared ones), and the students
    listed before that one on the class list (whose variants its own is kept apart from)."""

    lang: str
    edition: str
    student: str = ""
    roster: tuple[str, ...] = ()

    def path(self, out: Path, fmt: str) -> Path:
        return out / self.lang / f"{FILES[self.edition].format(student=self.student)}.{fmt}"


def parse_langs(text: str) -> list[str]:
    """``"ko,en"`` -> ``["ko", "en"]``; :class:`UsageError` for an unknown or missing language.

    >>> parse_langs(" en , ko,en")
    ['en', 'ko']
    """
    langs = list(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
    bad = [lang for lang in langs if lang not in LANGS]
    if bad or not langs:
        raise UsageError("handouts.bad_lang", found=text, known=",".join(LANGS))
    return langs


def read_students(path: Path) -> list[str]:
    """Student ids from a CSV file: the ``student``/``student_id``/``id`` column, else the first one.

    Ids must be usable as file names (letters, digits, ``_ . -``, not starting
    with a dot or dash) and appear once each; otherwise :class:`UsageError`.
    """
    try:
        rows = [row for row in csv.reader(path.read_text(encoding="utf-8-sig").splitlines()) if any(c.strip() for c in row)]
    except (OSError, UnicodeDecodeError):
        raise UsageError("handouts.variants.unreadable", path=path) from None
    column = 0
    if rows:
        header = [cell.strip().lower() for cell in rows[0]]
        named = next((header.index(name) for name in ID_COLUMNS if name in header), None)
        if named is not None:
            column, rows = named, rows[1:]
    students: list[str] = []
    for line, row in enumerate(rows, 1):
        student = row[column].strip() if column < len(row) else ""
        if not STUDENT_ID.match(student):
            raise UsageError("handouts.variants.bad_id", path=path, id=student)
        if student in students:
            raise UsageError("handouts.variants.duplicate", path=path, id=student)
        students.append(student)
    if not students:
        raise UsageError("handouts.variants.empty", path=path)
    return students


def jobs(langs: list[str], students: list[str] | None = None) -> list[Job]:
    """Every document to write: the handout and answer key per language, then each student's pair."""
    out = []
    for lang in langs:
        out += [Job(lang, "handout"), Job(lang, "answer_key")]
        for k, student in enumerate(students or ()):  # each variant kept apart from those listed before it
            before = tuple(students[:k])
            out += [Job(lang, "student_sheet", student, before), Job(lang, "variant_key", student, before)]
    return out


def fonts_for(langs: list[str]) -> HangulFont | None:
    """The Hangul font: required for Korean, used as a fallback for English when present."""
    try:
        return find_hangul_font()
    except UsageError:
        if "ko" in langs:
            raise
        return None


def build(langs: list[str], out: Path, students: list[str] | None = None,
          formats: tuple[str, ...] = FORMATS) -> list[Path]:
    """Write the handouts of ``langs`` under ``out``; returns the files written, in order."""
    font = fonts_for(langs) if "pdf" in formats else None
    written: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="abkit-fonts-") as tmp:
        folder = font_folder(font, Path(tmp)) if font else None
        for job in jobs(langs, students):
            document = build_document(job.lang, job.edition, job.student, job.roster)
            for fmt in formats:
                path = job.path(out, fmt)
                try:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    if fmt == "html":
                        path.write_text(render_html(document), encoding="utf-8")
                    else:
                        path.write_bytes(compile_pdf(render_typst(document, font), folder))
                except OSError as error:
                    raise UsageError("handouts.cannot_write", path=path, reason=os_problem(error)) from None
                written.append(path)
    return written
