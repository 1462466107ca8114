"""A class's download as an LMS writes it: which layout it is, whose each file is, and the students to grade.

:func:`read_download` recognises

- **Gradescope**'s export: ``assignment_<id>_export/`` (or the folder holding only it) with ``submission_<n>/``
  folders and ``submission_metadata.yml`` (who submitted: ``:sid:``, ``:email:``, ``:name:``, ``:created_at:``);
- **Moodle**'s "Download all submissions": a folder ``<Full Name>_<participant id>_assignsubmission_file_`` per
  student (``_assignsubmission_onlinetext_`` beside it holds online text, not graded), or without folders loose
  files ``<Full Name>_<participant id>_assignsubmission_file_<file>``;
- **Brightspace (D2L)**: folders ``<user>-<submission> - <Name> - <Mon d, yyyy hmm AM>`` beside ``index.html`` (an
  older download: files ``<user>-<submission> - <Name> - <date> - <file>``);
- **Blackboard**: loose files ``<Assignment>_<username>_attempt_<YYYY-MM-DD-HH-MM-SS>_<file>`` and a receipt
  ``<Assignment>_<username>_attempt_<stamp>.txt`` per attempt (the latest attempt is graded; a username may hold
  ``_``: :func:`_blackboard_users`);
- **Canvas**'s "Download Submissions": loose files ``<sortablename>[_LATE]_<userid>_<submissionid>_<file>`` (under
  anonymous grading ``[LATE_]anon_<anonymous id>_<submissionid>_<file>``: the anonymous id is the student's), a
  re-upload's name ending ``-1``, ``-2`` (the copy of the highest submission id and suffix is graded);
- otherwise the **plain** layout: one folder or ``.zip`` per student, named by the student's id
  (:func:`abkit.grader.submissions.find_submissions`).

The student's id is the LMS's identity of the student (Canvas user id, Moodle participant id, Gradescope sid or
e-mail, Blackboard username), or the course's id for it in a roster (:mod:`abkit.grader.roster`). Every file of the
download is accounted for (:class:`Intake`'s ``files``: whose submission it became, or why it was left out), and
a download the kit cannot read as a class is refused (:class:`~abkit.grader.submissions.SubmissionsError`).
"""

from __future__ import annotations

import os
import re
import stat
from collections import defaultdict
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path

from abkit.i18n import Message

from abkit.grader.submissions import (MAX_DEPTH, Submission, SubmissionsError, find_submissions, read_regular, shown,
                                student_id)

#: Canvas's student part of a name: ``<sortablename>[_LATE]_<userid>`` (the name may hold ``_``; older Canvas wrote
#: ``_late``), or under anonymous grading ``[LATE_]anon_<anonymous id>`` (5 base58 characters)
_CANVAS_WHO = (r"(?:(?P<anon_late>LATE_)?(?P<anon>anon_[1-9A-HJ-NP-Za-km-z]{5})"
               r"|(?P<name>.*?)(?P<late>_LATE|_late)?_(?P<user>\d+))")
CANVAS = re.compile(_CANVAS_WHO + r"_(?P<sub>\d+)_(?P<file>.+)", re.S)
CANVAS_TEXT = re.compile(_CANVAS_WHO + r"_(?:text|link)\.html", re.S)  # an online-text (or URL) submission
BLACKBOARD = re.compile(r"(?P<assignment>.+)_(?P<user>[^_]+)_attempt_(?P<stamp>\d{4}(?:-\d\d){5})"
                        r"(?:_(?P<file>.+)|(?P<receipt>\.txt))", re.S)
MOODLE = re.compile(r"(?P<name>.+)_(?P<id>\d+)_assignsubmission_(?P<kind>[a-z]+)_?", re.S)
MOODLE_FILE = re.compile(r"(?P<name>.+)_(?P<id>\d+)_assignsubmission_(?P<kind>[a-z]+)_(?P<file>.+)", re.S)
BRIGHTSPACE = re.compile(r"(?P<user>\d+)-(?P<sub>\d+) - (?P<name>.+) - (?P<date>[A-Z][a-z]{2} \d{1,2}, \d{4} "
                         r"\d{3,4} [AP]M)", re.S)
BRIGHTSPACE_FILE = re.compile(BRIGHTSPACE.pattern + r" - (?P<file>.+)", re.S)  # an older download: files, no folders
GRADESCOPE_EXPORT = re.compile(r"assignment_\d+_export")
GRADESCOPE_METADATA = "submission_metadata.yml"
COPY_SUFFIX = re.compile(r"(?P<stem>.+)-(?P<n>\d+)(?P<ext>\.[A-Za-z0-9]+)")
MAX_METADATA_BYTES = 5_000_000
FILES_LISTED = 500          # files of one student's folder listed one by one in the intake report
LAYOUTS = ("plain", "canvas", "moodle", "blackboard", "gradescope", "brightspace")


@dataclass
class FileLine:
    """One file of the download: ``student`` whose submission it is part of (None: left out), and ``why`` in words
    (which copy, why left out)."""

    path: str
    student: str | None
    why: Message | None = None


@dataclass
class Intake:
    """What :func:`read_download` read: the ``layout`` (one of :data:`LAYOUTS`), the folder read (``root``), the
    students' ``entries``, every file (``files``), and each student's LMS identity and name (``who``: student id ->
    (LMS id, name)). ``notes``: what the report says of the whole download (a roster's students without a
    submission, the export's top folder descended into)."""

    layout: str
    root: Path
    entries: list[Submission] = field(default_factory=list)
    files: list[FileLine] = field(default_factory=list)
    who: dict[str, tuple[str, str]] = field(default_factory=dict)
    notes: list[Message] = field(default_factory=list)

    def add(self, entry: Submission, lms_id: str, name: str = "") -> None:
        self.entries.append(entry)
        self.who[entry.student] = (lms_id, name)

    def left_out(self, path: Path, key: str, **params: object) -> None:
        self.files.append(FileLine(self._relative(path), None, Message(key, **params)))

    def taken(self, path: Path, student: str, why: Message | None = None) -> None:
        self.files.append(FileLine(self._relative(path), student, why))

    def _relative(self, path: Path) -> str:
        try:
            return shown(path.relative_to(self.root).as_posix())
        except ValueError:
            return shown(str(path))


def read_download(folder: str | Path) -> Intake:
    """The class in ``folder`` as its LMS wrote it (see the module's docstring); :class:`SubmissionsError` (the
    instructor's error) for a download that cannot be read as a class."""
    folder = Path(folder)
    if folder.is_file() and folder.name.lower().endswith(".zip"):
        raise SubmissionsError("grade.class_zip", path=folder)
    if not folder.is_dir():
        raise SubmissionsError("grade.no_folder", path=folder)
    notes = []
    top = _listing(folder)
    exports = [p for p in top if GRADESCOPE_EXPORT.fullmatch(p.name) and _is_dir(p)]
    if len(exports) > 1:
        raise SubmissionsError("intake.several_exports", path=folder, names=", ".join(p.name for p in exports))
    others = [p for p in top if p not in exports and (_is_dir(p) or p.name.lower().endswith(".zip"))]
    if exports and others and not (folder / GRADESCOPE_METADATA).exists():  # a class beside it: which to grade?
        raise SubmissionsError("intake.export_beside", path=folder, export=exports[0].name,
                               others=", ".join(shown(p.name) for p in others[:3]) + (", …" if len(others) > 3 else ""))
    if exports and not (folder / GRADESCOPE_METADATA).exists():  # the export's top folder
        notes.append(Message("intake.note.descended", folder=exports[0].name))
        outside = [p for p in top if p != exports[0]]
        folder, top = exports[0], _listing(exports[0])
    else:
        outside = []
    intake = Intake(_layout(folder, top), folder, notes=notes)
    READERS[intake.layout](intake, top)
    for path in outside:
        intake.files.append(FileLine(shown(path.name), None, Message("intake.why.outside_export")))
    if not intake.entries:
        _no_entries(folder, top)
    intake.entries.sort(key=lambda s: (s.student, s.path.name))
    intake.files.sort(key=lambda line: line.path)
    return intake


def _listing(folder: Path) -> list[Path]:
    """The entries of ``folder`` but hidden ones and macOS's ``__MACOSX``, sorted."""
    try:
        return sorted(p for p in folder.iterdir() if not p.name.startswith((".", "__MACOSX")))
    except OSError as error:
        raise SubmissionsError("grade.no_folder", path=folder) from error


def _is_dir(path: Path) -> bool:
    try:
        return stat.S_ISDIR(path.lstat().st_mode)
    except OSError:
        return False


def _is_file(path: Path) -> bool:
    try:
        return stat.S_ISREG(path.lstat().st_mode)
    except OSError:
        return False


def _layout(folder: Path, top: list[Path]) -> str:
    """Which LMS wrote the download whose top entries are ``top``: the first layout one of its names follows."""
    if _is_file(folder / GRADESCOPE_METADATA):
        return "gradescope"
    folders = [p.name for p in top if _is_dir(p)]
    files = [p.name for p in top if _is_file(p)]
    if any(MOODLE.fullmatch(name) for name in folders) or any(MOODLE_FILE.fullmatch(name) for name in files):
        return "moodle"
    if "index.html" in files and (any(BRIGHTSPACE.fullmatch(name) for name in folders)
                                  or any(BRIGHTSPACE_FILE.fullmatch(name) for name in files)):
        return "brightspace"
    if any(BLACKBOARD.fullmatch(name) for name in files):
        return "blackboard"
    if any(CANVAS.fullmatch(name) for name in files):
        return "canvas"
    return "plain"


def _no_entries(folder: Path, top: list[Path]) -> None:
    """No student was found in ``folder``: why, as the instructor's error."""
    loose = [p.name for p in top if _is_file(p) and p.suffix.lower() in (".py", ".ipynb")]
    if loose:  # a flat download: every student's files side by side, named by no LMS the kit knows
        raise SubmissionsError("grade.only_loose", path=folder,
                               files=", ".join(loose[:3]) + (", …" if len(loose) > 3 else ""))
    raise SubmissionsError("grade.empty", path=folder)


def _list_folder(intake: Intake, folder: Path, student: str, why: Message | None = None) -> None:
    """Every file under ``folder`` (a student's) as that student's, at most :data:`FILES_LISTED` one by one; no
    link followed."""
    count = 0
    for top, dirs, files in os.walk(folder):
        depth = Path(top).relative_to(folder).as_posix().count("/")
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and depth < MAX_DEPTH)
        for name in sorted(files):
            count += 1
            if count <= FILES_LISTED:
                intake.taken(Path(top) / name, student, why)
    if count > FILES_LISTED:
        intake.files.append(FileLine(intake._relative(folder) + "/…", student,
                                     Message("intake.why.more_files", count=count - FILES_LISTED)))
    if count == 0:
        intake.taken(folder, student, Message("intake.why.empty_folder"))


def _lone_zip(folder: Path) -> Path:
    """The entry an LMS's folder of one student stands for: the archive it holds if that is all it holds (read as
    a zip entry, so that a hand-in's manifest inside it is checked), else the folder."""
    inside = _listing(folder)
    if len(inside) == 1 and inside[0].name.lower().endswith(".zip") and _is_file(inside[0]):
        return inside[0]
    return folder


# -- the layouts -------------------------------------------------------------------------------------------------

def _plain(intake: Intake, top: list[Path]) -> None:
    """One folder or ``.zip`` per student (:func:`find_submissions`); any other file left out. A single folder that
    holds several folders of Python files (an export's parent, a class zipped once more) is refused."""
    entries = find_submissions(intake.root)
    if len(entries) == 1 and _is_dir(entries[0].path):
        count = _looks_like_a_class(entries[0].path)
        if count:
            raise SubmissionsError("intake.one_student", path=intake.root, entry=shown(entries[0].path.name),
                                   count=count)
    paths = {entry.path for entry in entries}
    for entry in entries:
        intake.add(entry, entry.student)
        if _is_dir(entry.path):
            _list_folder(intake, entry.path, entry.student)
        else:
            intake.taken(entry.path, entry.student)
    for path in top:
        if path not in paths:
            intake.left_out(path, "intake.why.plain_file")


def _looks_like_a_class(folder: Path, deepest: int = 4, most: int = 20_000) -> int:
    """How many sibling folders under ``folder`` hold a file of the same name that ``folder`` itself does not
    (``minimax.py`` in ``submission_1/``, ``submission_2/``, ...) when three or more do, or whether an LMS's export
    (Gradescope's metadata) is inside: a class's submissions, not one student's; 0 otherwise. Looks ``deepest``
    folders down, at ``most`` entries."""
    holders: dict[tuple[str, str], set[str]] = defaultdict(set)  # (parent folder, file name) -> its folders
    seen, own = 0, set()
    for top, dirs, files in os.walk(folder):
        depth = Path(top).relative_to(folder).as_posix().count("/") + (top != str(folder))
        dirs[:] = [d for d in dirs if not d.startswith(".") and depth < deepest]
        seen += len(dirs) + len(files)
        if GRADESCOPE_METADATA in files or any(GRADESCOPE_EXPORT.fullmatch(d) for d in dirs):
            return max(2, len(dirs))
        if top == str(folder):
            own = set(files)  # (a student's own file at the top, and drafts of it in folders: one student)
        for name in files:
            if (name.endswith((".py", ".ipynb")) or name.lower().endswith(".zip")) and name not in own:
                holders[(str(Path(top).parent), name)].add(top)
        if seen > most:
            break
    widest = max((len(places) for places in holders.values()), default=0)
    return widest if widest >= 3 else 0


def _canvas(intake: Intake, top: list[Path]) -> None:
    """Canvas's loose files, grouped by user id; of the copies of one file the highest submission id and re-upload
    suffix is graded, the others left out; a ``_LATE`` mark is said in the feedback."""
    students: dict[str, list[tuple[Path, re.Match]]] = defaultdict(list)
    texts: dict[str, str] = {}  # user id -> name, of those who handed in online text
    for path in top:
        found = CANVAS.fullmatch(path.name) if _is_file(path) else None
        text = CANVAS_TEXT.fullmatch(path.name) if found is None else None
        if text is not None:
            intake.left_out(path, "intake.why.online_text")
            texts[text["anon"] or text["user"]] = text["name"] or ""
        elif found is None:
            intake.left_out(path, "intake.why.not_lms", lms="Canvas")
        else:
            students[found["anon"] or found["user"]].append((path, found))
    for user, files in students.items():
        copies: dict[str, list[tuple[tuple[int, int], Path, re.Match]]] = defaultdict(list)
        for path, found in files:
            name, number = _copy_name(found["file"])
            copies[name].append(((int(found["sub"]), number), path, found))
        student, notes, kept, late = student_id(user), [], [], []
        for name, versions in sorted(copies.items()):
            versions.sort(key=lambda v: v[0])
            _, path, found = versions[-1]
            kept.append((name, path))
            intake.taken(path, student, Message("intake.why.graded_as", name=shown(name)))
            if found["late"] or found["anon_late"]:
                late.append(shown(name))
            for _, older, _ in versions[:-1]:
                intake.left_out(older, "intake.why.older_copy", file=shown(name), kept=shown(path.name))
            if len(versions) > 1:
                notes.append(Message("intake.note.copies", count=len(versions), file=shown(name),
                                     kept=shown(path.name)))
        if late:
            notes.insert(0, Message("intake.note.late", lms="Canvas", files=", ".join(late)))
        name = files[0][1]["name"] or ""
        intake.add(_loose_entry(intake.root, student, kept, notes, (name,) if name else ()), user, name)
    for user, name in sorted(texts.items()):  # online text alone: a row saying so, not a student lost
        if user not in students:
            intake.add(Submission(student_id(user), intake.root, problem=Message("intake.note.text_only", lms="Canvas"),
                                  aliases=(name,), verify=False), user, name)


def _copy_name(name: str) -> tuple[str, int]:
    """A Canvas file name without its re-upload suffix, and the suffix's number (0 for none).

    >>> _copy_name("minimax-2.py"), _copy_name("hw3.zip"), _copy_name("alphabeta_cutoff-1.py")
    (('minimax.py', 2), ('hw3.zip', 0), ('alphabeta_cutoff.py', 1))
    """
    found = COPY_SUFFIX.fullmatch(name)
    if found is None:
        return name, 0
    return found["stem"] + found["ext"], int(found["n"])


def _loose_entry(root: Path, student: str, kept: list[tuple[str, Path]], notes: list[Message],
                 aliases: tuple[str, ...]) -> Submission:
    """A student's entry made of loose files: a lone archive is the entry itself (its hand-in manifest is then
    read as a zip's); otherwise the files, graded under their names without the LMS's prefixes."""
    if len(kept) == 1 and kept[0][0].lower().endswith(".zip"):
        return Submission(student, kept[0][1], notes=tuple(notes), aliases=aliases, verify=False)
    return Submission(student, root, files=tuple((name, str(path)) for name, path in kept), notes=tuple(notes),
                      aliases=aliases, verify=False)


def _blackboard(intake: Intake, top: list[Path]) -> None:
    """Blackboard's loose files, grouped by username; the files of the latest attempt are graded, the receipts and
    the earlier attempts' files left out (said in the feedback)."""
    attempts: dict[str, dict[str, list[tuple[Path, re.Match]]]] = defaultdict(lambda: defaultdict(list))
    named = []
    for path in top:
        found = BLACKBOARD.fullmatch(path.name) if _is_file(path) else None
        if found is None:
            intake.left_out(path, "intake.why.not_lms", lms="Blackboard")
        else:
            named.append((path, found))
    users = _blackboard_users([found["assignment"] + "_" + found["user"] for _, found in named])
    for path, found in named:
        attempts[users[found["assignment"] + "_" + found["user"]]][found["stamp"]].append((path, found))
    for user, stamps in attempts.items():
        student, latest = student_id(user), max(stamps)
        notes = [Message("intake.note.attempt", count=len(stamps), stamp=latest)] if len(stamps) > 1 else []
        kept = []
        for stamp, files in sorted(stamps.items()):
            for path, found in files:
                if found["receipt"]:
                    intake.left_out(path, "intake.why.receipt")
                elif stamp != latest:
                    intake.left_out(path, "intake.why.older_attempt", stamp=stamp, latest=latest)
                else:
                    kept.append((found["file"], path))
                    intake.taken(path, student, Message("intake.why.graded_as", name=shown(found["file"])))
        if not kept:
            notes.append(Message("intake.note.receipt_only", stamp=latest))
        intake.add(_loose_entry(intake.root, student, kept, notes, (user,)), user)


def _blackboard_users(heads: list[str]) -> dict[str, str]:
    """Each ``<Assignment>_<username>`` that starts a Blackboard name -> the username. Every file of one download
    names the same assignment: it is the longest start all of them share up to a ``_`` (so a username may hold a
    ``_``, and two users are never read as one); with a single student (or no shared start), the username is what
    follows the last ``_``.

    >>> _blackboard_users(["HW 3_kim_m", "HW 3_lee_m", "HW 3_kim"])
    {'HW 3_kim': 'kim', 'HW 3_kim_m': 'kim_m', 'HW 3_lee_m': 'lee_m'}
    >>> _blackboard_users(["HW_3_kim_m"])
    {'HW_3_kim_m': 'm'}
    """
    distinct = sorted(set(heads))
    cut = 0
    if len(distinct) > 1:
        first = distinct[0]
        cut = max((i + 1 for i, char in enumerate(first) if char == "_"
                   and all(h.startswith(first[:i + 1]) and len(h) > i + 1 for h in distinct)), default=0)
    return {head: head[cut:] if cut else head.rsplit("_", 1)[1] for head in distinct}


def _moodle(intake: Intake, top: list[Path]) -> None:
    """Moodle's folders, one per participant and kind; the ``file`` folder is graded, online text left out. Without
    "Download submissions in folders" (a teacher's preference; Moodle before 3.1) each file is loose, named
    ``<Full Name>_<participant id>_assignsubmission_file_<file>``: grouped by participant, the prefix stripped."""
    people: dict[str, dict[str, Path]] = defaultdict(dict)
    loose: dict[str, list[tuple[str, Path]]] = defaultdict(list)
    names = {}
    for path in top:
        folder = MOODLE.fullmatch(path.name) if _is_dir(path) else None
        flat = MOODLE_FILE.fullmatch(path.name) if _is_file(path) else None
        found = folder or flat
        if found is None:
            intake.left_out(path, "intake.why.not_lms", lms="Moodle")
            continue
        names[found["id"]] = found["name"]
        if folder is not None:
            people[found["id"]][found["kind"]] = path
        elif flat["kind"] == "file":
            loose[found["id"]].append((flat["file"], path))
        else:
            intake.left_out(path, "intake.why.online_text")
    for participant in sorted(set(people) | set(loose)):
        student, name = student_id(participant), student_id(names[participant])
        kinds = people.get(participant, {})
        graded = kinds.get("file") or (None if participant in loose else next(iter(kinds.values())))
        for kind, path in kinds.items():
            if path != graded:
                for top_, _, files in os.walk(path):
                    for file in sorted(files):
                        intake.left_out(Path(top_) / file, "intake.why.online_text")
        if graded is None:  # loose files only
            kept = loose[participant]
            for file, path in kept:
                intake.taken(path, student, Message("intake.why.graded_as", name=shown(file)))
            intake.add(_loose_entry(intake.root, student, kept, [], (name,)), participant, name)
            continue
        for _, path in loose.get(participant, []):  # beside the participant's folder: no download has both
            intake.left_out(path, "intake.why.plain_file")
        _list_folder(intake, graded, student)
        intake.add(Submission(student, _lone_zip(graded), aliases=(name,), verify=False), participant, name)


def _brightspace(intake: Intake, top: list[Path]) -> None:
    """Brightspace's folders, one per submission: of one user's, the latest (by the date in its name) is graded. An
    older download holds files instead, ``<user>-<submission> - <Name> - <date> - <file>``: the files of one user's
    latest submission are graded, the prefix stripped."""
    users: dict[str, dict[tuple[datetime, str], list[tuple[Path, re.Match]]]] = defaultdict(lambda: defaultdict(list))
    for path in top:
        found = BRIGHTSPACE.fullmatch(path.name) if _is_dir(path) else \
            BRIGHTSPACE_FILE.fullmatch(path.name) if _is_file(path) else None
        when = _d2l_date(found["date"]) if found else None
        if when is None:
            intake.left_out(path, "intake.why.index" if path.name == "index.html" else "intake.why.not_lms",
                            lms="Brightspace")
        else:
            users[found["user"]][(when, path.name if _is_dir(path) else found["sub"])].append((path, found))
    for user, submissions in users.items():
        order = sorted(submissions)
        graded, student = submissions[order[-1]], student_id(user)
        latest = graded[0][1]["date"]
        for key in order[:-1]:
            for older, found in submissions[key]:
                why = Message("intake.why.older_attempt", stamp=found["date"], latest=latest)
                if _is_dir(older):
                    _list_folder(intake, older, None, why)
                else:
                    intake.files.append(FileLine(intake._relative(older), None, why))
        notes = (Message("intake.note.attempt", count=len(order), stamp=latest),) if len(order) > 1 else ()
        name = student_id(graded[0][1]["name"])
        if _is_dir(graded[0][0]):
            _list_folder(intake, graded[0][0], student)
            entry = Submission(student, _lone_zip(graded[0][0]), notes=notes, aliases=(name,), verify=False)
        else:
            kept = [(found["file"], path) for path, found in graded]
            for file, path in kept:
                intake.taken(path, student, Message("intake.why.graded_as", name=shown(file)))
            entry = _loose_entry(intake.root, student, kept, list(notes), (name,))
        intake.add(entry, user, name)


def _d2l_date(text: str) -> datetime | None:
    """The date in a Brightspace folder's name (``Mar 5, 2024 1053 PM``), or None.

    >>> _d2l_date("Mar 5, 2024 1053 PM"), _d2l_date("Feb 30, 2024 100 AM")
    (datetime.datetime(2024, 3, 5, 22, 53), None)
    """
    try:
        return datetime.strptime(text.replace(", ", " ").rjust(1), "%b %d %Y %I%M %p")
    except ValueError:
        return None


def _gradescope(intake: Intake, top: list[Path]) -> None:
    """Gradescope's ``submission_<n>`` folders, each graded for every student its metadata names (sid, else e-mail;
    a group's members each get a row); of two folders naming one student the later ``:created_at:`` is theirs."""
    metadata = _metadata(intake.root / GRADESCOPE_METADATA)
    intake.files.append(FileLine(GRADESCOPE_METADATA, None, Message("intake.why.metadata")))
    chosen: dict[str, tuple[str, Path, dict]] = {}  # student key -> (created, folder, record): their latest
    counts: dict[str, int] = {}
    folders = []
    for path in top:
        if path.name == GRADESCOPE_METADATA:
            continue
        record = metadata.get(path.name)
        if not _is_dir(path) or record is None:
            intake.left_out(path, "intake.why.no_metadata" if _is_dir(path) else "intake.why.not_lms",
                            lms="Gradescope")
            continue
        folders.append(path)
        for submitter in record["submitters"]:
            key = submitter.get("sid") or submitter.get("email") or path.name
            counts[key] = counts.get(key, 0) + 1
            if key not in chosen or chosen[key][0] <= record["when"]:
                chosen[key] = (record["when"], path, record)
    _list_gradescope_folders(intake, folders, chosen, metadata)
    for key, (_, path, record) in chosen.items():
        student = student_id(key)
        aliases = tuple(student_id(str(v)) for s in record["submitters"] for v in s.values() if v)
        mine = next(s for s in record["submitters"] if (s.get("sid") or s.get("email") or path.name) == key)
        name = str(mine.get("name") or "")
        group = ", ".join(str(s.get("name") or "") for s in record["submitters"]).strip(", ")
        notes = (Message("intake.note.group", names=shown(group)),) if len(record["submitters"]) > 1 else ()
        if counts[key] > 1:
            notes += (Message("intake.note.submissions", count=counts[key], kept=path.name,
                              created=shown(record["created"])),)
        intake.add(Submission(student, _lone_zip(path), notes=notes, aliases=aliases, verify=False), key, name)


def _list_gradescope_folders(intake: Intake, folders: list[Path], chosen: dict[str, tuple[str, Path, dict]],
                             metadata: dict[str, dict]) -> None:
    """Every file of the export's submission folders: as the first student whose graded folder it is, or left out
    as an older submission (naming the folder graded instead)."""
    graded: dict[Path, str] = {}
    for key, (_, path, _) in sorted(chosen.items()):
        graded.setdefault(path, student_id(key))
    for path in folders:
        if path in graded:
            _list_folder(intake, path, graded[path])
            continue
        first = metadata[path.name]["submitters"][0]
        kept = chosen[first.get("sid") or first.get("email") or path.name][1]
        _list_folder(intake, path, None, Message("intake.why.older_submission", kept=kept.name))


def _metadata(path: Path) -> dict[str, dict]:
    """``submission_metadata.yml``: folder name -> {"submitters": [{"name", "sid", "email"}], "created": text}.
    Its keys are Ruby symbols (``:submitters:``), read with or without the colon. :class:`SubmissionsError` when
    it cannot be read or is not such a mapping."""
    import yaml

    try:
        data = yaml.safe_load(read_regular(path, MAX_METADATA_BYTES).decode("utf-8", "replace"))
    except (OSError, yaml.YAMLError) as error:
        raise SubmissionsError("intake.bad_metadata", path=path, reason=shown(str(error).splitlines()[0]))
    if not isinstance(data, dict):
        raise SubmissionsError("intake.bad_metadata", path=path, reason="not a mapping")
    found = {}
    for folder, record in data.items():
        record = {str(k).strip(":"): v for k, v in record.items()} if isinstance(record, dict) else {}
        people = [{str(k).strip(":"): ("" if v is None else str(v)) for k, v in s.items()}
                  for s in record.get("submitters") or [] if isinstance(s, dict)]
        if people:
            created = record.get("created_at") or ""
            when = created.astimezone(timezone.utc).isoformat() if isinstance(created, datetime) \
                and created.tzinfo else str(created)  # (YAML reads Gradescope's stamps as dates: compared in UTC)
            found[str(folder)] = {"submitters": people, "created": str(created), "when": when}
    return found


READERS = {"plain": _plain, "canvas": _canvas, "moodle": _moodle, "blackboard": _blackboard,
           "gradescope": _gradescope, "brightspace": _brightspace}


def with_roster(intake: Intake, roster: dict[str, tuple[str, str]] | None) -> None:
    """Give each student the course's id and name the roster has for their LMS identity (or any alias); a student
    the roster does not know keeps the LMS's id (said in the report); the roster's students with no submission
    are named in the report's notes. A mapped hand-in's manifest must name the course's id (or an LMS alias)."""
    if roster is None:
        return
    entries, who, matched = [], {}, set()
    for entry in intake.entries:
        lms_id, name = intake.who.get(entry.student, (entry.student, ""))
        mapped = next((roster[key] for key in (lms_id, entry.student, *entry.aliases) if key in roster), None)
        if mapped is None:
            intake.notes.append(Message("intake.note.not_in_roster", student=entry.student))
            entries.append(entry)
            who[entry.student] = (lms_id, name)
            continue
        student = student_id(mapped[0])
        matched.add(mapped[0])
        aliases = tuple(dict.fromkeys((lms_id, *entry.aliases)))
        entries.append(replace(entry, student=student, aliases=aliases, verify=True))
        who[student] = (lms_id, mapped[1] or name)
        for line in intake.files:
            if line.student == entry.student:
                line.student = student
    missing = sorted({course for course, _ in roster.values()} - matched)
    if missing:
        intake.notes.append(Message("intake.note.no_submission", count=len(missing), students=", ".join(missing)))
    intake.entries, intake.who = sorted(entries, key=lambda s: (s.student, s.path.name)), who
