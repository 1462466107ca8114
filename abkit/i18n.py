"""Every sentence a user reads, in Korean and English.

Messages live in ``abkit/messages/<lang>/*.yaml``, one flat mapping of keys to
``str.format`` templates per file; all files of a language form one catalogue.
A key must exist in every language (``tests/test_i18n.py`` checks it).

>>> t("lang.name", "ko")
'한국어'
>>> t("lang.name", "xx")   # an unknown language falls back to English
'English'
"""

from __future__ import annotations

import errno
import functools
import os
import string
from pathlib import Path

from .cache import cached
from .korean import format_ko

LANGS = ("en", "ko")
DEFAULT_LANG = "en"
_MESSAGES = Path(__file__).with_name("messages")


@functools.lru_cache(maxsize=None)
def catalogue(lang: str) -> dict[str, str]:
    """All messages of ``lang`` merged from its files; a key defined twice is an error. Read through the kit's
    cache (:mod:`abkit.cache`): YAML is parsed only when a file changed."""
    paths = sorted((_MESSAGES / lang).glob("*.yaml"))
    return cached("catalogue", paths, lambda: _merged(paths))


def _merged(paths: list[Path]) -> dict[str, str]:
    import yaml

    merged: dict[str, str] = {}
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    for path in paths:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=loader) or {}
        for key, text in data.items():
            if key in merged:
                raise ValueError(f"{path}: message key {key!r} is defined twice")
            merged[key] = text
    return merged


@functools.lru_cache(maxsize=None)
def glossary() -> tuple[dict, ...]:
    """The kit's terms, one entry per concept (``messages/glossary.yaml``): ``en``, ``ko`` (the only Korean
    term the kit uses for it), ``seed`` (the Korean course text's term, or ``""``) and ``avoid``."""
    import yaml

    return tuple(yaml.safe_load((_MESSAGES / "glossary.yaml").read_text(encoding="utf-8")))


def normalize_lang(lang: str | None) -> str:
    """``ko``, ``ko_KR.UTF-8`` and ``Korean`` mean Korean; anything else English."""
    if lang and lang.lower().startswith(("ko", "korean")):
        return "ko"
    return DEFAULT_LANG


#: where the language comes from, first match wins: the kit's own variable, then gettext's order
LOCALE_VARIABLES = ("ABKIT_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def default_lang() -> str:
    """The language of the user's locale: ``ABKIT_LANG``, then ``LANGUAGE`` > ``LC_ALL`` > ``LC_MESSAGES`` > ``LANG``
    (gettext's order); then the system's locale.

    ``LANGUAGE`` is a colon list of preferences (``fr:ko:en``): its first language the kit speaks wins, and a list
    naming none of them is passed over. Any other value decides (``C`` means English).
    """
    for var in LOCALE_VARIABLES:
        value = os.environ.get(var, "")
        if var == "LANGUAGE":
            spoken = [v for v in value.split(":") if v.lower().startswith(("ko", "korean", "en"))]
            value = spoken[0] if spoken else ""
        if value:
            return normalize_lang(value)
    import locale  # here: most users name a language in the environment

    try:
        return normalize_lang(locale.getlocale()[0])
    except (ValueError, TypeError):  # pragma: no cover - exotic locale settings
        return DEFAULT_LANG


def t(key: str, lang: str | None = None, /, **params: object) -> str:
    """The message ``key`` in ``lang`` with ``params`` filled in.

    Falls back to English, then to the key itself, so a missing message never
    crashes a report (the catalogue test makes sure none is missing). A Korean
    template names the particle after a value in its spec (``{value:을}``), and
    :func:`abkit.korean.format_ko` makes it agree with the value as read.
    """
    lang = normalize_lang(lang) if lang not in LANGS else lang
    text = catalogue(lang).get(key) or catalogue(DEFAULT_LANG).get(key) or key
    return fill(text, lang, params)


def fill(template: str, lang: str, params: dict) -> str:
    """``template`` filled in with ``params``: Korean particles agree with their values, English as ``str.format``.

    >>> fill("{n:이} {v:을} 돌려줌", "ko", {"n": "B", "v": 3})
    'B가 3을 돌려줌'
    """
    if not params:
        return template
    return format_ko(template, **params) if lang == "ko" else _ENGLISH.vformat(template, (), params)


class EnglishFormatter(string.Formatter):
    """``str.format`` whose spec may name a noun's two forms, ``{count:test|tests}``: the count, then the form that
    agrees with it (1 test, 2 tests, 0 tests).

    >>> _ENGLISH.format("... and {n:more test|more tests}.", n=1), _ENGLISH.format("{n:file|files}", n=3)
    ('... and 1 more test.', '3 files')
    """

    def format_field(self, value: object, format_spec: str) -> str:
        if "|" not in format_spec:
            return format(value, format_spec)
        one, other = format_spec.split("|", 1)
        return f"{value} {one if value == 1 else other}"


_ENGLISH = EnglishFormatter()


class Message:
    """A message key with parameters, rendered later in the reader's language.

    Library errors carry one of these so that only the CLI decides the language.
    """

    def __init__(self, key: str, /, **params: object) -> None:
        self.key = key
        self.params = params

    def render(self, lang: str | None = None) -> str:
        params = {k: (v.render(lang) if isinstance(v, Message) else v) for k, v in self.params.items()}
        return t(self.key, lang, **params)

    def __str__(self) -> str:
        return self.render(DEFAULT_LANG)

    def __repr__(self) -> str:
        return f"Message({self.key!r}, **{self.params!r})"


#: what the system says about a file, by its error number: the reader's language, never the system's English
OS_PROBLEMS = {errno.ENOENT: "os.missing", errno.EACCES: "os.denied", errno.EPERM: "os.denied",
               errno.EISDIR: "os.is_folder", errno.ENOTDIR: "os.not_folder", errno.ENOSPC: "os.full",
               errno.EROFS: "os.read_only", errno.EEXIST: "os.exists", errno.ENAMETOOLONG: "os.too_long",
               errno.ELOOP: "os.loop"}


def os_problem(error: BaseException) -> Message:
    """Why a file could not be read or written, as a :class:`Message` (``error``: an ``OSError`` or
    ``UnicodeDecodeError``).

    >>> os_problem(FileNotFoundError(errno.ENOENT, "No such file or directory")).render("ko")
    '파일이나 폴더가 없습니다'
    """
    if isinstance(error, UnicodeDecodeError):
        return Message("os.not_utf8")
    number = getattr(error, "errno", None)
    return Message(OS_PROBLEMS[number]) if number in OS_PROBLEMS else Message("os.other", number=number or "?")
