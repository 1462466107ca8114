"""``intake.md``: how the download was read, written beside ``grades.csv`` on every run, and its terminal summary.

It names the layout read, each student with their LMS identity and name, and every file of the download: whose
submission it became, or why it was left out (:class:`abkit.grader.intake.Intake`).
"""

from __future__ import annotations

from abkit.i18n import t

from abkit.grader.intake import Intake

INTAKE_REPORT = "intake.md"


def _cell(text: str) -> str:
    """``text`` in a Markdown table's cell: its bars escaped."""
    return str(text).replace("|", "\\|")


def intake_markdown(intake: Intake, lang: str, duplicates: list[str] = ()) -> str:
    """The intake report in ``lang``: layout, notes, the students, then every file and what became of it."""
    left = sum(1 for line in intake.files if line.student is None)
    out = [f"# {t('intake.title', lang)}", "",
           t("intake.layout", lang, layout=t(f"intake.layout.{intake.layout}", lang), folder=str(intake.root)),
           "", t("intake.counts", lang, files=len(intake.files), students=len(intake.entries), left=left)]
    notes = [note.render(lang) for note in intake.notes]
    notes += [t("grade.duplicate", lang, name=name) for name in duplicates]
    if notes:
        out += [""] + [f"- {note}" for note in notes]
    out += ["", f"## {t('intake.students', lang)}", "",
            f"| {t('intake.column.student', lang)} | {t('intake.column.lms_id', lang)} | "
            f"{t('intake.column.name', lang)} | {t('intake.column.notes', lang)} |", "|---|---|---|---|"]
    for entry in intake.entries:
        lms_id, name = intake.who.get(entry.student, (entry.student, ""))
        said = " ".join(m.render(lang) for m in entry.notes)
        out.append(f"| {_cell(entry.student)} | {_cell(lms_id)} | {_cell(name)} | {_cell(said)} |")
    out += ["", f"## {t('intake.files', lang)}", ""]
    for line in intake.files:
        why = f" ({line.why.render(lang)})" if line.why is not None else ""
        if line.student is None:
            out.append(f"- `{line.path}`: {t('intake.left_out', lang)}{why}")
        else:
            out.append(f"- `{line.path}`: {t('intake.became', lang, student=line.student)}{why}")
    return "\n".join(out) + "\n"


#: why a file is left out that every download of its LMS has: named on the terminal after the others
ROUTINE = frozenset({"intake.why.receipt", "intake.why.metadata", "intake.why.index"})
#: files left out named one by one on the terminal (intake.md names every one)
LEFT_OUT_SHOWN = 5


def intake_summary(intake: Intake, lang: str, out: str) -> str:
    """The report's short version for the terminal: the layout, the students, the first files left out and why,
    the report's notes."""
    left = sorted((line for line in intake.files if line.student is None),
                  key=lambda line: line.why is not None and line.why.key in ROUTINE)  # the surprising ones first
    lines = [t("intake.summary", lang, layout=t(f"intake.layout.{intake.layout}", lang), files=len(intake.files),
               students=len(intake.entries), left=len(left), report=out)]
    for line in left[:LEFT_OUT_SHOWN]:
        why = f" ({line.why.render(lang)})" if line.why is not None else ""
        lines.append(f"  - {line.path}{why}")
    if len(left) > LEFT_OUT_SHOWN:
        lines.append("  - " + t("intake.more_left_out", lang, count=len(left) - LEFT_OUT_SHOWN))
    lines += [f"  {note.render(lang)}" for note in intake.notes]
    return "\n".join(lines)
