"""Fixture files: loading one game tree per YAML file, or every file of a folder, with what the searches should
do on it.

What a fixture holds is :mod:`abkit.fixtureformat` (:class:`Fixture`, :class:`FixtureError`, both importable from
here); reading one file's text is :mod:`abkit.fixtureread`, imported only when a file is parsed (a command that only
uses fixtures already read, ``abkit check`` from the cache, never imports YAML). Every problem is reported as
:class:`FixtureError` with the file, the line and a sentence in the reader's language; nothing here raises
anything else for a bad file.
"""

from __future__ import annotations

from pathlib import Path

from .cache import cached
from .fixtureformat import Fixture, FixtureError
from .i18n import Message, os_problem

__all__ = ["MAX_BYTES", "Fixture", "FixtureError", "fixture_paths", "load_fixture", "load_fixtures",
           "parse_fixture", "unique_ids"]

#: the largest fixture file read
MAX_BYTES = 32 * 1024 * 1024


def load_fixture(path: str | Path) -> Fixture:
    """Read and validate the fixture at ``path``; :class:`FixtureError` if it is unusable."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise FixtureError(path, 1, Message("fixture.too_large", size=size, limit=MAX_BYTES))
        data = path.read_bytes()
    except OSError as error:
        raise FixtureError(path, 0, Message("fixture.unreadable", reason=os_problem(error))) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise FixtureError(path, line, Message("fixture.not_utf8")) from None
    return parse_fixture(text, path)


def parse_fixture(text: str, path: str | Path = "<fixture>") -> Fixture:
    """Validate fixture ``text``; ``path`` only names it in messages."""
    from .fixtureread import read_fixture
    from .yamlsafe import YamlError

    try:
        return read_fixture(text, Path(path) if not isinstance(path, Path) else path)
    except YamlError as error:
        raise FixtureError(path, error.line, error.message) from None


def load_fixtures(paths: list[str | Path], cache: bool = False) -> list[Fixture]:
    """Every fixture under ``paths`` (files, or folders searched for ``*.yaml``), sorted by path; two with one id are
    a :class:`FixtureError` (:func:`unique_ids`).

    ``cache``: through the kit's cache (:mod:`abkit.cache`): the files are parsed again only when one changed, was
    added or went away; what this returns is the same either way (a bad file raises the same error).
    """
    files = fixture_paths(paths)
    if not cache:
        return unique_ids([load_fixture(p) for p in files])
    return cached("fixtures", files, lambda: unique_ids([load_fixture(p) for p in files]))


def unique_ids(fixtures: list[Fixture]) -> list[Fixture]:
    """``fixtures``, when no two of them share an id (a test's name is its fixture's id: two trees of one folder with
    one id would be graded as one); else :class:`FixtureError` at the second one's ``id``."""
    first: dict[str, Fixture] = {}
    for fixture in fixtures:
        if fixture.id in first:
            raise FixtureError(fixture.path or "<fixture>", fixture.lines.get("id", 1),
                               Message("fixture.duplicate_id", id=fixture.id, other=str(first[fixture.id].path)))
        first[fixture.id] = fixture
    return fixtures


def fixture_paths(paths: list[str | Path]) -> list[Path]:
    """The fixture files named by ``paths``: files as given, folders searched recursively."""
    found: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            found.extend(sorted(q for q in p.rglob("*.y*ml") if q.suffix in (".yaml", ".yml")))
        else:
            found.append(p)
    return found
