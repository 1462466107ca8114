"""Which of one student's files is graded as each exercise: found by name, in a notebook, or by a near name.

An exercise ``NAME.py`` is graded from the first of, each tier's shallowest path first (then sorted order):

1. a file named ``NAME.py`` (contract §4);
2. a Jupyter notebook ``NAME.ipynb``: its code cells, in order, written to ``NAME.py`` beside it
   (:func:`notebook_code`: IPython's magics and shell lines commented out);
3. a Python file whose name is close to it (:func:`near_stem`: ``alpha_beta.py``, ``AlphaBeta.py``,
   ``alphabeta (1).py``, ``alphabeta-2.py``), then a notebook so named.

Every other candidate is named in the feedback as not graded, and :attr:`Picked.files` records, per exercise,
which file was graded, how it was found and which copies were left (``results.json``'s ``extra_data.files``).
A notebook that cannot be read (not UTF-8, not JSON, no cells, another nbformat) is a note; the next candidate
is tried.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from abkit.i18n import Message

from abkit.grader.submissions import MAX_FILE_BYTES, shown

NOTEBOOK = ".ipynb"
#: the start of a line IPython reads and Python does not: a magic (``%matplotlib``, ``%%time``), a shell escape (``!pip``)
MAGIC = re.compile(r"%%?[A-Za-z]|!")
#: the names a line assigns to, as in ``files = !ls``
TARGETS = re.compile(r"[\w.,\s]+")
#: cell magics under which the cell's body is still Python (only the magic's own line is commented out)
PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "debug"})
#: a copy's mark at the end of a file's stem: `` (1)``, ``-2``, ``_3``, `` copy``, `` - Copy``, ``복사본``
COPY_MARK = re.compile(r"([\s_-]*(\(\d+\)|\d+|copy|복사본))+$")
#: how an exercise's file was found, as ``extra_data.files`` names it
HOW = ("name", "notebook", "near_name", "near_notebook")
#: lines of one kind a student's feedback lists one by one (copies not graded, files left out of the entry): a folder
#: of 30,000 copies of a file made a feedback.md of 2.4 MB, a zip of 19,990 entries one of 1.5 MB
NOTES_LISTED = 20


class NotebookError(ValueError):
    """A notebook whose code cannot be read; carries the reason as a :class:`Message`."""

    def __init__(self, key: str, /, **params: object) -> None:
        self.message = Message(key, **params)
        super().__init__(str(self.message))


@dataclass
class Picked:
    """What is graded of one student's files.

    chosen: ``NAME.py`` -> the path (relative to the work folder) of the file its tests run on; notes: per
    exercise file, what the feedback says about how it was found (a notebook, a near name); ignored: the paths of
    other copies, each with why it was not graded; problems: per exercise file with nothing graded, the notebook
    that could not be read; files: per exercise, ``{"graded": path or None, "how": one of HOW, "ignored": [...]}``.
    """

    chosen: dict[str, str] = field(default_factory=dict)
    notes: dict[str, Message] = field(default_factory=dict)
    ignored: list[Message] = field(default_factory=list)
    problems: dict[str, Message] = field(default_factory=dict)
    files: dict[str, dict] = field(default_factory=dict)


def near_stem(stem: str) -> str:
    """A file's stem as a near name is compared: lower case, without a copy's mark, without ``_``, ``-`` or spaces.

    >>> [near_stem(s) for s in ("alpha_beta", "AlphaBeta", "alphabeta (1)", "alphabeta-2", "alphabeta_cutoff")]
    ['alphabeta', 'alphabeta', 'alphabeta', 'alphabeta', 'alphabetacutoff']
    >>> near_stem("Minimax - Copy"), near_stem("bounds")
    ('minimax', 'bounds')
    """
    return re.sub(r"[\s_-]+", "", COPY_MARK.sub("", stem.lower()))


def pick(root: Path, files: list[str], notebooks: list[str], names: list[str]) -> Picked:
    """For each exercise file of ``names`` (``alphabeta.py``), the student's file graded as it among ``files``
    (Python files) and ``notebooks`` (``.ipynb``), all relative to ``root``, the work folder; a notebook chosen is
    written there as Python (see the module's doc)."""
    picked = Picked()
    for name in names:
        stem = name[: -len(".py")]
        candidates = _candidates(stem, files, notebooks)
        record = picked.files[stem] = {"graded": None, "how": None, "ignored": []}
        broken = set()
        for how, path in candidates:
            graded = path if how in ("name", "near_name") else _from_notebook(root, path, name, files, picked)
            if graded is None:
                broken.add(path)
                continue
            picked.chosen[name], record["graded"], record["how"] = graded, path, how
            if how.startswith("near"):
                picked.notes[name] = Message(f"grade.note.{how}", found=shown(path), file=name, file_stem=stem,
                                             note=picked.notes.get(name, ""))
            break
        for how, path in candidates:
            if path != record["graded"]:
                record["ignored"].append(path)
            if path != record["graded"] and path not in broken and record["graded"] is not None:
                key = "grade.note.ignored" if how == record["how"] == "name" else "grade.note.other_copy"
                picked.ignored.append(Message(key, path=shown(path), graded=shown(record["graded"]), file=name))
        if name in picked.chosen:  # a notebook that could not be read, then another file: that one is graded
            picked.problems.pop(name, None)
        elif name in picked.problems:  # nothing graded: the notebook's problem is the exercise's note, said once
            picked.ignored.remove(picked.problems[name])
    picked.ignored = listed(picked.ignored)
    return picked


def listed(messages: list[Message], most: int = NOTES_LISTED) -> list[Message]:
    """The first ``most`` of ``messages`` and, when there are more, one saying how many more (``… and 29,980 more``).

    >>> [m.render("en") for m in listed([Message("grade.feedback.title", student=s) for s in "abc"], 1)][1]
    '… and 2 more, not listed one by one.'
    """
    if len(messages) <= most:
        return list(messages)
    return [*messages[:most], Message("gradebook.cut.more", count=len(messages) - most)]


def _from_notebook(root: Path, notebook: str, name: str, files: list[str], picked: Picked) -> str | None:
    """The notebook's code written as Python (its path), its note in ``picked``; or None when it cannot be read,
    the reason in ``picked`` (a note of the student's, and the exercise's problem until another file is found)."""
    try:
        code, cells, magics = notebook_code((root / notebook).read_bytes())
        written = _write_code(root, notebook, code, files)
    except (OSError, NotebookError) as error:
        reason = error.message if isinstance(error, NotebookError) else Message("notebook.unreadable")
        problem = Message("grade.note.notebook_bad", notebook=shown(notebook), reason=reason, file=name)
        picked.ignored.append(problem)
        picked.problems.setdefault(name, problem)
        return None
    picked.notes[name] = Message("grade.note.notebook_magics" if magics else "grade.note.notebook",
                                 notebook=shown(notebook), file=name, cells=cells, magics=magics)
    return written


def _candidates(stem: str, files: list[str], notebooks: list[str]) -> list[tuple[str, str]]:
    """(how, path) of every file that could be exercise ``stem``'s, best first (the module's tiers)."""
    def depth_first(paths: list[str]) -> list[str]:
        return sorted(paths, key=lambda f: (f.count("/"), f))

    def named(paths: list[str], suffix: str) -> list[str]:
        return depth_first([f for f in paths if PurePosixPath(f).name == stem + suffix])

    def near(paths: list[str], suffix: str) -> list[str]:
        return depth_first([f for f in paths if PurePosixPath(f).name != stem + suffix
                            and PurePosixPath(f).name.endswith(suffix)
                            and near_stem(PurePosixPath(f).name[: -len(suffix)]) == near_stem(stem)])

    return [("name", f) for f in named(files, ".py")] + [("notebook", f) for f in named(notebooks, NOTEBOOK)] \
        + [("near_name", f) for f in near(files, ".py")] + [("near_notebook", f) for f in near(notebooks, NOTEBOOK)]


def _write_code(root: Path, notebook: str, code: str, files: list[str]) -> str:
    """Write a notebook's code beside it as ``STEM.py`` (``STEM_ipynb.py`` if the student has a file of that
    name); the path written, relative to ``root``."""
    path = PurePosixPath(notebook)
    target = str(path.with_suffix(".py"))
    if target in files or (root / target).exists():
        target = str(path.with_name(f"{path.stem}_ipynb.py"))
    (root / target).write_text(code, encoding="utf-8")
    return target


def notebook_code(data: bytes) -> tuple[str, int, int]:
    """The Python of a Jupyter notebook (nbformat 4): its code cells in order, each under a ``# In[k]:`` line, and
    how many code cells and IPython lines (magics, shell escapes) it had; those lines are commented out, and a
    cell under a cell magic that does not run Python (``%%bash``, ``%%writefile``) is commented out whole.
    :class:`NotebookError` when the bytes are not such a notebook or its code is larger than a Python file may be.

    >>> text, cells, magics = notebook_code(b'{"nbformat": 4, "cells": [{"cell_type": "code", '
    ...     b'"source": ["%matplotlib inline\\\\n", "x = 1"]}, {"cell_type": "markdown", "source": "# T"}]}')
    >>> print(text, end=""); (cells, magics)
    # The code cells of a Jupyter notebook, as abkit grades them.
    <BLANKLINE>
    # In[1]:
    # %matplotlib inline
    x = 1
    (1, 1)
    """
    try:
        notebook = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise NotebookError("notebook.not_utf8") from None
    except (ValueError, RecursionError) as error:  # (lists nested thousands deep exhaust json's recursion)
        raise NotebookError("notebook.not_json", line=getattr(error, "lineno", 1)) from None
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        version = notebook.get("nbformat") if isinstance(notebook, dict) else None
        if isinstance(version, int) and version != 4:
            raise NotebookError("notebook.version", version=version)
        raise NotebookError("notebook.no_cells")
    parts, cells, magics = ["# The code cells of a Jupyter notebook, as abkit grades them."], 0, 0
    for number, cell in enumerate(notebook["cells"], 1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        if isinstance(source, list) and all(isinstance(line, str) for line in source):
            source = "".join(source)
        if not isinstance(source, str):
            raise NotebookError("notebook.cell", cell=number)
        cells += 1
        lines, commented = _python_lines(source)
        magics += commented
        parts.append(f"# In[{cells}]:\n" + "\n".join(lines))
    code = "\n\n".join(parts) + "\n"
    if len(code.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        raise NotebookError("notebook.large", limit=MAX_FILE_BYTES // 1_000_000)
    return code, cells, magics


def _python_lines(source: str) -> tuple[list[str], int]:
    """A code cell's lines with the IPython ones commented out, and how many were."""
    lines = source.splitlines()
    first = lines[0].strip() if lines else ""
    if first.startswith("%%") and first[2:].split(" ", 1)[0] not in PYTHON_CELL_MAGICS:
        return [f"# {line}" for line in lines], len(lines)  # %%bash, %%writefile...: not Python at all
    out, commented = [], 0
    for line in lines:
        if is_magic(line):
            out.append(f"# {line}")
            commented += 1
        else:
            out.append(line)
    return out, commented


def is_magic(line: str) -> bool:
    """Whether IPython reads ``line`` and Python does not: it starts with a magic or a shell escape, or assigns
    one (``files = !ls``, ``t = %timeit -o f()``). Linear in the line's length (a student's line may be long).

    >>> [is_magic(x) for x in ("%matplotlib inline", "  !ls", "files = !ls", "x = 7 % 3", "x != 3", "x == 1")]
    [True, True, True, False, False, False]
    """
    stripped = line.lstrip()
    if MAGIC.match(stripped):
        return True
    targets, equals, value = line.partition("=")
    value = value.lstrip()
    return bool(equals) and TARGETS.fullmatch(targets) is not None and targets.strip() != "" \
        and MAGIC.match(value) is not None


def near_names(files: list[str], names: list[str]) -> dict[str, str]:
    """For each of ``names`` (``alphabeta.py``) not among ``files``, a Python file that looks like it: the same name
    in other letter case, with a copy's mark (``alphabeta (1).py``, ``alphabeta-2.py``, ``alphabeta copy.py``) or
    after an LMS's prefix (``kim_123_alphabeta.py``): what the feedback of an exercise left ungraded suggests
    renaming (a prefixed name is not graded: :func:`pick` grades only the near names of :func:`near_stem`).

    >>> near_names(["Minimax.py", "x/alphabeta (1).py", "kim_12_alphabeta_cutoff-1.py", "alphabeta_ordering.py"],
    ...            ["minimax.py", "alphabeta.py", "alphabeta_cutoff.py", "ordering.py"])
    {'minimax.py': 'Minimax.py', 'alphabeta.py': 'x/alphabeta (1).py', 'alphabeta_cutoff.py': 'kim_12_alphabeta_cutoff-1.py'}
    """
    present = {PurePosixPath(f).name for f in files}
    stems = {}
    for f in sorted(files, key=lambda f: (f.count("/"), f)):
        if f.lower().endswith(".py"):
            stem = COPY_MARK.sub("", PurePosixPath(f).stem.lower())
            stems.setdefault(re.sub(r"[\s-]+", "_", stem), f)
    near = {}
    exercises = {n[:-3].lower() for n in names}
    for name in names:
        want = name[:-3].lower()
        if name not in present:  # (a prefix naming another exercise is that exercise's file: alphabeta_ordering.py)
            found = [f for stem, f in stems.items() if stem == want or stem.endswith("_" + want)
                     and not exercises & set(stem[: -len(want)].strip("_").split("_"))]
            if found:
                near[name] = found[0]
    return near
