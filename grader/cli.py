"""The ``abkit`` command: a thin layer that turns arguments into calls and errors into messages.

Each subject has its own module under ``grader/commands/`` with ``register``
(its arguments) and ``run`` (one library call, an exit status). Only the module of
the subject the command line names is imported, and only its parser built: a command
pays for nothing it does not use (``abkit check`` starts in a few tens of milliseconds).
Only this module maps exceptions to messages and exit statuses: 0 success, 1 the checked
thing fails, 2 usage or input error.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from importlib import import_module

from abkit import __version__
from abkit.coursefolder import NoCourse, chosen_course
from abkit.errors import UsageError
from abkit.fixture import FixtureError
from abkit.i18n import LANGS, catalogue, default_lang, normalize_lang, t

#: the subjects, in the order ``abkit --help`` lists them: each a module of ``grader/commands/``
COMMANDS = tuple("check hint watch pack trace practice fixtures handouts grade export stubs release lab init".split())
#: the options ``abkit`` itself takes (before the subject); those that take a value
TOP_OPTIONS, TAKE_VALUE = ("-h", "--help", "--version", "--lang", "--course"), ("--lang", "--course")


def _lang_from(argv: list[str]) -> str:
    """The language asked for with ``--lang`` anywhere in ``argv``, else the locale's.

    A comma list (``handouts build --lang ko,en``: the handouts' languages) names no message language.
    """
    for i, arg in enumerate(argv):
        value = argv[i + 1] if arg == "--lang" and i + 1 < len(argv) else arg.split("=", 1)[1] \
            if arg.startswith("--lang=") else None
        if value is not None and "," not in value:
            return normalize_lang(value)
    return default_lang()


def _localize_argparse(lang: str) -> None:
    """argparse's own words (usage:, error:, ...) in ``lang``, from the catalogue."""
    prefix = "argparse|"
    table = {k[len(prefix):]: v for k, v in catalogue(lang).items() if k.startswith(prefix)}
    argparse._ = lambda text: table.get(text, text)  # argparse looks up its gettext alias at call time


def display_width(text: str) -> int:
    """Columns ``text`` takes on a terminal: Hangul and other wide characters two, combining marks none.

    >>> display_width("abc"), display_width("한국어"), display_width("α=3")
    (3, 6, 3)
    """
    import unicodedata  # here: only help and usage text are measured

    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` columns, broken between words (Korean too: never inside a
    word); a word wider than a line alone is cut where it must be.

    >>> wrap("알파베타 가지치기를 한 단계씩 설명합니다", 12)
    ['알파베타', '가지치기를', '한 단계씩', '설명합니다']
    """
    lines: list[str] = []
    line = ""
    for word in text.split():
        while display_width(word) > width:  # a path or a command longer than a line
            cut = max(1, next(i for i in range(len(word), 0, -1) if display_width(word[:i]) <= width))
            if line:
                lines.append(line)
                line = ""
            lines.append(word[:cut])
            word = word[cut:]
        if line and display_width(line) + 1 + display_width(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return lines + [line] if line else lines


def terminal_columns() -> int:
    """The terminal's width as ``shutil.get_terminal_size()`` finds it (``COLUMNS``, else the terminal, else 80),
    without importing ``shutil`` (and the compression modules it imports) on every start."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help wrapped by display width, so Korean help (Hangul two columns wide) fits the terminal."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position, terminal_columns() - 2 if width is None else width)

    def _split_lines(self, text: str, width: int) -> list[str]:
        return wrap(text, width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n".join(indent + line for line in wrap(text, width - len(indent)))

    def _format_usage(self, usage, actions, groups, prefix) -> str:
        """The usage, laid out as argparse does but with the prefix ("사용법: ") measured by display width: argparse
        lays it out with a stand-in of the prefix's columns, then puts the prefix back."""
        prefix = argparse._("usage: ") if prefix is None else prefix
        columns = display_width(prefix)
        if columns == len(prefix):
            return super()._format_usage(usage, actions, groups, prefix)
        stand_in = "U" * columns
        return super()._format_usage(usage, actions, groups, stand_in).replace(stand_in, prefix, 1)

    def format_help(self) -> str:
        """The help; a line argparse measured by characters (the usage, a long option) is wrapped again."""
        lines = []
        for line in super().format_help().split("\n"):
            if display_width(line) <= self._width:
                lines.append(line)
                continue
            indent = re.match(r" *", line).group()
            first, *rest = wrap(line, self._width - len(indent))
            hang = " " * min(len(indent) + 4, self._width // 2)
            lines += [indent + first] + [hang + part for part in wrap(" ".join(rest), self._width - len(hang))]
        return "\n".join(lines)


class ArgumentParser(argparse.ArgumentParser):
    """An argument parser (and its subcommands' parsers) whose help is wrapped by display width."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)


def add_lang(parser: argparse.ArgumentParser, lang: str) -> None:
    """The ``--lang`` and ``--course`` options every command takes."""
    parser.add_argument("--lang", choices=LANGS, default=lang, help=t("cli.help.lang", lang))
    add_course(parser, lang, argparse.SUPPRESS)


def add_course(parser: argparse.ArgumentParser, lang: str, default: object = None) -> None:
    """``--course DIR``: the course folder to work on (default: the one holding the current folder)."""
    parser.add_argument("--course", metavar="DIR", default=default, help=t("cli.help.course", lang))


def build_parser(lang: str, named: str | None = None) -> argparse.ArgumentParser:
    """``abkit``'s argument parser, every subject in full; or, ``named`` (:func:`named_command`), only that subject's
    (its module the only one imported), or for ``""`` (none named) each subject by its name and help: all that
    ``abkit --help`` and argparse's "invalid choice" show."""
    parser = ArgumentParser(prog="abkit", description=t("cli.description", lang))
    parser.add_argument("--version", action="version", version=f"abkit {__version__}", help=t("cli.help.version", lang))
    parser.add_argument("--lang", choices=LANGS, default=lang, help=t("cli.help.lang", lang))
    add_course(parser, lang)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title=t("cli.commands", lang),
                                help=t("cli.help.command", lang), prog=parser.prog)  # what argparse would lay out
    for name in COMMANDS:
        if named is None or name == named:
            import_module(f"grader.commands.{name}").register(sub, lang, add_lang)
        elif named == "":
            sub.add_parser(name, help=t(f"{name}.help", lang))
    return parser


def named_command(argv: list[str]) -> str:
    """The subject ``argv`` names, read as argparse reads it (the first word that is neither one of ``abkit``'s own
    options, abbreviated or not, nor its value), when it is one of :data:`COMMANDS`; else ``""``."""
    words = iter(argv)
    for arg in words:
        if arg == "--":
            arg = next(words, "")
        elif arg.startswith("-"):
            option = [o for o in TOP_OPTIONS if o.startswith(arg)] if "=" not in arg else []
            if len(option) == 1 and option[0] in TAKE_VALUE:
                next(words, None)
            continue
        return arg if arg in COMMANDS else ""
    return ""


#: text the kit writes that a console's encoding must take: Hangul, α/β, ≤, ∞, the tree's lines and marks
SAMPLE = "한글 α β ≤ ≥ ∞ − · ├─ └─ │ ✓ ✗ ⚠ ✂ ○ Σ"


def _utf8_streams() -> None:
    """UTF-8 output on every system: stdout and stderr switch to UTF-8 when their encoding cannot write the kit's
    text (a cp949 or cp1252 Windows console or pipe), and replace what they still cannot encode instead of
    crashing. An encoding the user chose with ``PYTHONIOENCODING`` is kept (then ASCII glyphs stand in)."""
    chosen = bool(os.environ.get("PYTHONIOENCODING"))
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is None:
            continue
        try:
            if not chosen and not _can_encode(getattr(stream, "encoding", None)):
                stream.flush()
                reconfigure(encoding="utf-8", errors="replace")
            else:
                reconfigure(errors="replace")
        except (ValueError, OSError):  # pragma: no cover - a closed or odd stream
            pass


def _can_encode(encoding: str | None) -> bool:
    try:
        SAMPLE.encode(encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def script() -> None:
    """The ``abkit`` console script (and ``python -m grader``): :func:`main`, then the process ends with its status.

    Its output is flushed and it leaves without the interpreter's teardown (every module and object freed one by
    one, about a tenth of a short command's time), unless something saves its data at exit: coverage (the kit's
    tests) or a profiler.
    """
    status = main()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BrokenPipeError:  # the reader went away (abkit ... | head): what was left unread is dropped
            os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
        except (OSError, ValueError):  # pragma: no cover - a closed or odd stream
            pass
    if sys.gettrace() is not None or sys.getprofile() is not None or "coverage" in sys.modules:
        sys.exit(status)
    os._exit(status)


def main(argv: list[str] | None = None) -> int:
    """Run ``abkit`` with ``argv`` (default: the command line); returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    lang = _lang_from(argv)
    _localize_argparse(lang)
    _utf8_streams()
    parser = build_parser(lang, named_command(argv))
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    try:
        with chosen_course(args.course, getattr(args, "needs_course", True)):
            return args.run(args)
    except NoCourse as error:
        key = "cli.not_a_course" if error.named else "cli.no_course"
        print(t("cli.error", args.lang, message=t(key, args.lang, path=error.where)), file=sys.stderr)
        return 2
    except FixtureError as error:
        print(error.render(args.lang), file=sys.stderr)
        return 2
    except FileNotFoundError as error:  # a part of the course folder is missing (its solutions/, handouts/, ...)
        print(t("cli.error", args.lang, message=t("cli.missing_file", args.lang, path=error.filename)), file=sys.stderr)
        return 2
    except UsageError as error:
        print(t("cli.error", args.lang, message=error.message.render(args.lang)), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(t("cli.interrupted", args.lang), file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (abkit ... | head): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
