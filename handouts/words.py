"""The handouts' words: one message file per language under ``handouts/messages/``.

``en.yaml`` maps each key to its English text. ``ko.yaml`` maps each key to
``{en: HASH, text: KOREAN}``, where HASH is :func:`en_hash` of the English text
the Korean was reviewed against. When an English text changes, its hash no
longer matches and the key is *stale* until a reviewer checks the Korean and
re-stamps it (``abkit handouts review --stamp KEY``). ``tests/test_handouts.py``
fails on a stale key and on a key that exists in one language only.

>>> en_hash("alpha")
'8ed3f6ad685b'
"""

from __future__ import annotations

import functools
import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from abkit.coursefolder import current_course
from abkit.errors import UsageError
from abkit.i18n import Message
from abkit.yamlsafe import parser_problem

HASH_LENGTH = 12


def en_hash(text: str) -> str:
    """The short SHA-256 of an English text, kept beside its Korean twin."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:HASH_LENGTH]


def handouts_folder() -> Path:
    """The course's ``handouts/`` folder (outline, templates, words)."""
    return current_course().handouts


def messages_folder() -> Path:
    """The course's handout words: ``handouts/messages`` (``en.yaml``, ``ko.yaml``)."""
    return handouts_folder() / "messages"


def _read(path: Path) -> dict:
    """A message file as a mapping; :class:`UsageError` if it is missing or not a YAML mapping."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError:
        raise UsageError("handouts.words.missing", path=path) from None
    except yaml.YAMLError as error:
        raise UsageError("handouts.words.bad_yaml", path=path, reason=parser_problem(error)) from None
    if not isinstance(data, dict):
        raise UsageError("handouts.words.bad_yaml", path=path, reason=Message("handouts.words.not_mapping"))
    return data


@functools.lru_cache(maxsize=None)
def english(folder: Path | None = None) -> dict[str, str]:
    """Key -> English text."""
    folder = folder if folder is not None else messages_folder()
    path = folder / "en.yaml"
    data = _read(path)
    bad = [k for k, v in data.items() if not isinstance(v, str)]
    if bad:
        raise UsageError("handouts.words.bad_entry", path=path, key=bad[0])
    return data


@functools.lru_cache(maxsize=None)
def korean_entries(folder: Path | None = None) -> dict[str, tuple[str, str]]:
    """Key -> (Korean text, hash of the English text it was reviewed against)."""
    folder = folder if folder is not None else messages_folder()
    path = folder / "ko.yaml"
    entries = {}
    for key, value in _read(path).items():
        if not (isinstance(value, dict) and isinstance(value.get("text"), str)):
            raise UsageError("handouts.words.bad_entry", path=path, key=key)
        entries[key] = (value["text"], str(value.get("en", "")))
    return entries


def words(lang: str, folder: Path | None = None) -> dict[str, str]:
    """Key -> text in ``lang`` (``en`` or ``ko``)."""
    folder = folder if folder is not None else messages_folder()
    if lang == "ko":
        return {key: text for key, (text, _) in korean_entries(folder).items()}
    return english(folder)


@dataclass
class Review:
    """How the Korean words stand against the English ones.

    only_en, only_ko: keys present in one language only.
    stale: keys whose English text changed since the Korean was last reviewed.
    """

    only_en: list[str] = field(default_factory=list)
    only_ko: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not (self.only_en or self.only_ko or self.stale)


def review(folder: Path | None = None) -> Review:
    """Compare ``ko.yaml`` with ``en.yaml``: keys in one language only, and stale Korean texts."""
    folder = folder if folder is not None else messages_folder()
    en, ko = english(folder), korean_entries(folder)
    return Review(only_en=sorted(set(en) - set(ko)), only_ko=sorted(set(ko) - set(en)),
                  stale=sorted(k for k in en.keys() & ko.keys() if ko[k][1] != en_hash(en[k])))


def stamp(keys: list[str], folder: Path | None = None) -> list[str]:
    """Mark the Korean texts of ``keys`` as reviewed against the current English; returns the keys stamped.

    Only the ``en:`` hash lines of ``ko.yaml`` are rewritten, so comments and
    layout stay as the translator wrote them. A key missing from either file
    is a :class:`UsageError`.
    """
    folder = folder if folder is not None else messages_folder()
    en, ko = english(folder), korean_entries(folder)
    unknown = [k for k in keys if k not in en or k not in ko]
    if unknown:
        raise UsageError("handouts.review.unknown_key", key=unknown[0])
    path = folder / "ko.yaml"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    for key in keys:
        lines = _stamp_lines(lines, key, en_hash(en[key]))
    path.write_text("".join(lines), encoding="utf-8")
    english.cache_clear()
    korean_entries.cache_clear()
    return list(keys)


def _stamp_lines(lines: list[str], key: str, digest: str) -> list[str]:
    """``lines`` of ko.yaml with the ``en:`` line under ``key`` set to ``digest`` (added if absent)."""
    start = next(i for i, line in enumerate(lines) if re.match(rf"{re.escape(key)}\s*:\s*(#.*)?$", line.rstrip("\n")))
    end = next((i for i in range(start + 1, len(lines)) if lines[i][:1] not in (" ", "\t", "\n", "#", "")), len(lines))
    # a digest of digits only would read as a number (even octal), so it is quoted
    value = f'"{digest}"' if digest.isdigit() else digest
    for i in range(start + 1, end):
        match = re.match(r"(\s+)en\s*:", lines[i])
        if match:
            lines[i] = f"{match.group(1)}en: {value}\n"
            return lines
    return lines[:start + 1] + [f"  en: {value}\n"] + lines[start + 1:]
