"""The record of a course's hidden trees: every seed they were drawn from, kept in ``fixtures/hidden/README.md``.

The ids, titles, file names and ``source:`` lines of hidden fixtures name no seed (students see the ids and titles
in their feedback, and the generator is public); the seeds live here only, a file grading never reads and neither
the student edition nor the Gradescope bundle ships. Each draw (``abkit init``, ``abkit fixtures redraw-hidden``,
``abkit fixtures generate --hidden``) adds one dated line with its seed, its command and the files it wrote, in every
language part of the README; earlier lines are kept, so last term's trees can be drawn again.

The lines of one language sit between two comment markers (:data:`START`, :data:`END`), which a Markdown viewer
does not show. A README written before the record was kept names its seed as ``**seed N**`` (``**시드 N**``): that
seed becomes the record's first line.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path

from abkit.i18n import LANGS, t

README = "README.md"
START = "<!-- abkit record {lang} -->"
END = "<!-- abkit record {lang} end -->"
#: how a README written before the record was kept names its seed, per language
_LEGACY = {"en": r"\*\*seed (-?\d+)\*\*", "ko": r"\*\*시드 (-?\d+)\*\*"}


def today() -> str:
    """The date a record line carries (UTC, ``YYYY-MM-DD``)."""
    return datetime.now(timezone.utc).date().isoformat()


def record_lines(text: str, lang: str) -> list[str]:
    """The record's lines in ``text``'s part for ``lang``, oldest first; for a README written before the record was
    kept, one line naming the seed it gives; else none.

    >>> record_lines("**seed 7** ...", "en")
    ['- (before this record was kept): seed 7']
    """
    found = re.search(re.escape(START.format(lang=lang)) + r"\n(.*?)" + re.escape(END.format(lang=lang)), text, re.S)
    if found:
        return [line for line in found.group(1).splitlines() if line.strip()]
    legacy = re.search(_LEGACY.get(lang, _LEGACY["en"]), text) if START.format(lang="en") not in text else None
    return [t("record.legacy", lang, seed=legacy.group(1))] if legacy else []


def record_line(lang: str, seed: int, command: str, files: list[str]) -> str:
    """One dated line of the record: the seed, the command that drew with it, the files it wrote."""
    return t("record.line", lang, date=today(), seed=seed, command=command,
             files=", ".join(f"`{name}`" for name in files))


def section(lang: str, lines: list[str]) -> str:
    """The record's part for ``lang``: its heading, what it is, and its lines between the markers."""
    return "\n".join([t("record.heading", lang), "", START.format(lang=lang), *lines, END.format(lang=lang)])


def with_new_head(old: str, heads: dict[str, str], seed: int, command: str, files: list[str]) -> str:
    """A README whose part per language is ``heads[lang]`` followed by the record: the lines ``old`` (the README it
    replaces, or "") holds, then one for this draw."""
    parts = [heads[lang] + "\n\n" + section(lang, [*record_lines(old, lang), record_line(lang, seed, command, files)])
             for lang in LANGS]
    return "\n\n".join(parts) + "\n"


def add_line(folder: Path, seed: int, command: str, files: list[str]) -> Path:
    """Add one line to the record in ``folder``'s README (written when there is none, its part per language
    starting with :func:`section`'s heading; a README holding no record keeps its text and gets one at its end);
    return the README's path."""
    path = Path(folder) / README
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    if START.format(lang=LANGS[0]) in text:
        for lang in LANGS:
            end = END.format(lang=lang)
            if end in text:
                text = text.replace(end, record_line(lang, seed, command, files) + "\n" + end, 1)
            else:
                text = text.rstrip("\n") + "\n\n" + section(lang, [record_line(lang, seed, command, files)]) + "\n"
    else:
        parts = [("" if text.strip() else t("record.title", lang) + "\n\n")
                 + section(lang, [*record_lines(text, lang), record_line(lang, seed, command, files)])
                 for lang in LANGS]
        text = (text.rstrip("\n") + "\n\n" if text.strip() else "") + "\n\n".join(parts) + "\n"
    path.write_text(text, encoding="utf-8")
    return path
