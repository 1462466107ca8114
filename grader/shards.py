"""A class graded in shards (``abkit grade --shard K/N``), one machine each, then merged (``abkit grades merge``).

Every grading folder holds :data:`RECORD` (``grading.json``): what it was graded with (the kit's version, the seed,
the rubric, the language), which class (a digest of every student id in the download), which shard (``null``: the
whole class) and which students. It is written last, with the class files: a folder without it is unfinished (or
graded before records). A folder that holds another shard's results, or a whole class's, is refused instead of
overwritten (:func:`check_out`); an interrupted shard runs again into its own folder. Merging (:func:`merge`)
checks the shards belong together, copies each student's folder and writes the class files and the record exactly
as one unsharded run with the same seed does.
"""

from __future__ import annotations

import hashlib
import json
import re
import shlex
import shutil
from dataclasses import dataclass
from pathlib import Path

from abkit import __version__
from abkit.errors import UsageError

from abkit.grader.reports import STUDENTS_FOLDER, json_text, read_results, write_atomic, write_class
from abkit.grader.rubric import Rubric
from abkit.grader.intake_report import INTAKE_REPORT

#: each grading folder's record of how and what it graded
RECORD = "grading.json"
#: the settings every shard of a class must share, each with the refusal that names it
SHARED = ("kit", "seed", "rubric", "lang", "class")


@dataclass(frozen=True)
class Shard:
    """Shard ``number`` (1-based) of ``count``: ``--shard number/count``."""

    number: int
    count: int

    def __str__(self) -> str:
        return f"{self.number}/{self.count}"


def parse_shard(text: str) -> Shard:
    """``K/N`` as a :class:`Shard`; :class:`UsageError` (one sentence) for anything else, or K not in 1..N.

    >>> parse_shard("2/3"), str(parse_shard("1/1"))
    (Shard(number=2, count=3), '1/1')
    """
    found = re.fullmatch(r"([0-9]{1,6})/([0-9]{1,6})", text.strip())
    if found is None or not 1 <= int(found[1]) <= int(found[2]):
        raise UsageError("shards.bad", value=text)
    return Shard(int(found[1]), int(found[2]))


def members(students: list[str], shard: Shard) -> list[str]:
    """The students of ``shard``: the class's ids sorted (by code point, the same on every machine) and cut into
    ``shard.count`` consecutive parts whose sizes differ by one at most.

    Why this and not a hash of each id modulo N: the download holds the same students wherever it is graded, so
    the sorted roster is as stable as a hash, and it keeps the shards balanced exactly (a hash leaves a class of 30
    in 3 shards at 7, 10 and 13 students as often as not). A student added to the download later moves students
    between shards; the record's class digest then makes the merge refuse shards cut from different downloads.

    >>> [members(["e", "a", "d", "c", "b"], Shard(k, 3)) for k in (1, 2, 3)]
    [['a'], ['b', 'c'], ['d', 'e']]
    """
    ordered = sorted(students)
    start = (shard.number - 1) * len(ordered) // shard.count
    end = shard.number * len(ordered) // shard.count
    return ordered[start:end]


def shard_of(student: str, students: list[str], count: int) -> Shard:
    """The shard of ``count`` that ``student`` (one of ``students``) belongs to."""
    return next(Shard(k, count) for k in range(1, count + 1) if student in members(students, Shard(k, count)))


def class_digest(students: list[str]) -> str:
    """A digest of the class's ids: shards cut from the same download share it."""
    text = "\n".join(sorted(students)).encode("utf-8", "surrogateescape")
    return hashlib.sha256(text).hexdigest()


def make_record(rubric: Rubric, seed: int, lang: str, everyone: list[str], shard: Shard | None,
                students: dict[str, str], duplicates: list[str], submissions: str, options: list[str]) -> dict:
    """The record of a grading folder (:data:`RECORD`): the settings, the class, the shard (None: the whole class),
    its ``students`` (id -> the name of their folder if it is not the id), the entries not graded (``duplicates``),
    and what the command that grades some again needs (``submissions`` as typed, the grading ``options``). Nothing
    in it depends on the folder or the time, and its lists are sorted: a merge writes it as one run does."""
    return {
        "kit": __version__, "seed": seed, "lang": lang,
        "rubric": {"digest": hashlib.sha256(rubric.text.encode("utf-8")).hexdigest(), "rule": rubric.rule,
                   "points": rubric.points},
        "class": class_digest(everyone), "shard": [shard.number, shard.count] if shard else None,
        "students": sorted(students),
        "folders": {name: students[name] for name in sorted(students) if students[name]},
        "duplicates": list(duplicates),
        "submissions": submissions, "options": list(options),
    }


def read_record(out: Path) -> dict | None:
    """The record in ``out``, or None when there is none or it is not one."""
    try:
        data = json.loads((Path(out) / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not all(key in data for key in (*SHARED, "shard", "students")):
        return None
    return data


def write_record(out: Path, record: dict) -> None:
    write_atomic(Path(out) / RECORD, json_text(record))


def shown(shard: list | None) -> str:
    """A record's shard as ``K/N``."""
    return f"{shard[0]}/{shard[1]}" if shard else ""


def check_out(out: Path, shard: Shard | None, ours: list[str]) -> None:
    """Refuse (:class:`UsageError`) to grade ``shard`` (None: the whole class), whose students are ``ours``, into
    ``out`` when it holds another shard's results or, for a shard, a whole class's: recorded, or, in a folder
    without a record, a gradebook (a run from before records) or a student not in ``ours`` (an unfinished run of
    another shard). The same shard, or the whole class again, is graded into it as before (saved grades reused)."""
    record = read_record(out)
    if record is None and shard is not None:
        if (Path(out) / "grades.csv").is_file():
            raise UsageError("shards.out_has_class", out=str(out), shard=str(shard))
        mine = set(ours)
        for saved in sorted(Path(out).glob(f"{STUDENTS_FOLDER}/*/results.json")):
            student = _saved_student(saved)
            if student is not None and student not in mine:
                raise UsageError("shards.out_has_others", out=str(out), shard=str(shard), student=student)
    if record is None or record["shard"] == ([shard.number, shard.count] if shard else None):
        return
    if shard is None:
        raise UsageError("shards.out_has_shard", out=str(out), theirs=shown(record["shard"]))
    if record["shard"] is None:
        raise UsageError("shards.out_has_class", out=str(out), shard=str(shard))
    raise UsageError("shards.out_has_other", out=str(out), theirs=shown(record["shard"]), shard=str(shard))


def command_line(submissions: str, out: Path, options: list[str], lang: str, students: list[str]) -> str:
    """``abkit grade`` of ``students`` alone, again (``--force``), into ``out``, with ``options``: a shell line."""
    words = ["abkit", "grade", submissions, "--out", str(out), *options, "--lang", lang]
    for name in students:
        words += ["--student", name]
    return shlex.join([*words, "--force"])


def _saved_student(results: Path) -> str | None:
    """The student whose ``results.json`` this is, or None when it cannot be read."""
    try:
        data = json.loads(results.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    extra = data.get("extra_data") if isinstance(data, dict) else None
    return extra.get("student") if isinstance(extra, dict) and isinstance(extra.get("student"), str) else None


@dataclass
class Merged:
    """What :func:`merge` did: the folder written, its record, the students on whom the grader failed and the
    command that grades them again."""

    out: Path
    record: dict
    failed: list[str]
    regrade: str


def merge(folders: list[Path], out: Path) -> Merged:
    """Merge the shards graded into ``folders`` into ``out``: each student's folder copied, ``intake.md`` (the
    same in every shard: each reads the whole download) copied, and the record, ``grades.csv``, ``summary.md`` and
    ``histogram.svg`` written as one unsharded run with the same settings writes them. :class:`UsageError` (one
    sentence) when the shards do not make one whole class (:func:`checked_shards`) or ``out`` is one of them."""
    shards = checked_shards(folders)
    check_target(out, folders)
    (Path(out) / RECORD).unlink(missing_ok=True)  # written last: a merge cut short leaves an unfinished folder
    first = shards[0][1]
    students = sorted(s for _, record in shards for s in record["students"])
    folders_of = {name: f for _, r in shards for name, f in r.get("folders", {}).items()}
    record = {**first, "shard": None, "students": students,
              "folders": {name: folders_of[name] for name in sorted(folders_of)}}
    rows = []
    for folder, shard_record in shards:
        for student in shard_record["students"]:
            row = read_results(folder, student, shard_record.get("folders", {}).get(student, ""))
            where = Path(out) / STUDENTS_FOLDER / row["extra_data"]["folder"]
            if where.exists():
                shutil.rmtree(where)
            shutil.copytree(Path(folder) / STUDENTS_FOLDER / row["extra_data"]["folder"], where)
            rows.append({key: value for key, value in row.items() if key != "tests"})
    if (Path(shards[0][0]) / INTAKE_REPORT).is_file():
        shutil.copyfile(Path(shards[0][0]) / INTAKE_REPORT, Path(out) / INTAKE_REPORT)
    merged = _merged_class_files(Path(out), record, rows)
    write_record(out, record)
    return merged


def _merged_class_files(out: Path, record: dict, rows: list[dict]) -> Merged:
    """The merged folder's class files, written as :func:`abkit.grader.batch.grade_batch` writes them."""
    rows.sort(key=lambda r: r["extra_data"]["student"])
    failed = [r["extra_data"]["student"] for r in rows if r["extra_data"].get("grader_error")]
    regrade = command_line(record["submissions"], out, record["options"], record["lang"], failed) if failed else ""
    theirs = {r["extra_data"]["folder"] for r in rows}
    folders = out / STUDENTS_FOLDER
    gone = sorted(p.name for p in folders.iterdir() if p.is_dir() and p.name not in theirs) if folders.is_dir() else []
    rubric = Rubric(points=record["rubric"]["points"], prune_on_equality=record["rubric"]["rule"] == "aima")
    write_class(out, rows, rubric, record["lang"], regrade, record["duplicates"], gone)
    return Merged(out, record, failed, regrade)


def checked_shards(folders: list[Path]) -> list[tuple[Path, dict]]:
    """Each folder with its record, by shard number, when together they are every shard of one class graded
    alike; otherwise :class:`UsageError` naming the first folder that does not fit and what to do."""
    shards = [(Path(folder), _shard_record(Path(folder))) for folder in folders]
    first, record = shards[0]
    for folder, other in shards[1:]:
        for key in SHARED:
            if other[key] != record[key]:
                raise UsageError(f"shards.differ.{key}", path=str(folder), other=str(first))
        if other["shard"][1] != record["shard"][1]:
            raise UsageError("shards.differ.count", path=str(folder), shard=shown(other["shard"]), other=str(first),
                             theirs=shown(record["shard"]))
    seen: dict[int, Path] = {}
    owner: dict[str, Path] = {}
    for folder, other in shards:
        number = other["shard"][0]
        if number in seen:
            raise UsageError("shards.twice", path=str(folder), other=str(seen[number]), shard=shown(other["shard"]))
        seen[number] = folder
        for student in other["students"]:
            if student in owner:
                raise UsageError("shards.overlap", student=student, path=str(folder), other=str(owner[student]))
            owner[student] = folder
    count = record["shard"][1]
    missing = [f"{k}/{count}" for k in range(1, count + 1) if k not in seen]
    if missing:
        raise UsageError("shards.missing", missing=", ".join(missing), count=count)
    return sorted(shards, key=lambda pair: pair[1]["shard"][0])


def _shard_record(folder: Path) -> dict:
    """The record of the shard graded into ``folder``, every student's results there; else :class:`UsageError`."""
    record = read_record(folder) if folder.is_dir() else None
    if record is None:
        raise UsageError("shards.not_grading", path=str(folder))
    if record["shard"] is None:
        raise UsageError("shards.not_shard", path=str(folder))
    for student in record["students"]:
        if read_results(folder, student, record.get("folders", {}).get(student, "")) is None:
            raise UsageError("shards.unfinished", path=str(folder), student=student, shard=shown(record["shard"]))
    return record


def check_target(out: Path, folders: list[Path]) -> None:
    """Refuse (:class:`UsageError`) to merge into a file, or into a folder that holds a shard (one of those merged,
    or another); any other folder is made if need be (a merge again, or a whole-class run, is overwritten)."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise UsageError("grade.out_is_file", out=str(out))
    record = read_record(out)
    if record is not None and record["shard"] is not None or out.resolve() in {Path(f).resolve() for f in folders}:
        raise UsageError("shards.merge_into_shard", out=str(out))
    out.mkdir(parents=True, exist_ok=True)
