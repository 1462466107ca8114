"""The ``abkit`` command line's argument parser: argparse, in the user's language, its help wrapped by display width.

:func:`build_parser` builds the parser of the subject the command line names (or, for ``abkit --help`` and
argparse's "invalid choice", each subject by its name and help); :func:`localize` puts argparse's own words (usage:,
error:, ...) in the user's language. ``abkit check [EXERCISE]``, the command students type most, is read without it
(:func:`abkit.cli.main.plain_check`): importing argparse and building the parser was 3 ms of a 60 ms check.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from functools import partial
from importlib import import_module

from abkit import __version__
from abkit.i18n import LANGS, catalogue, t
from abkit.safetext import terminal
from abkit.cli.groups import commands, student_edition


def localize(lang: str) -> None:
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
    """An argument parser (and its subcommands' parsers) whose help is wrapped by display width, and which takes no
    abbreviation of an option (``--exercise`` read as ``--exercises`` named a folder the student never meant)."""

    def __init__(self, *args, lang: str = "en", **kwargs) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)
        self.lang = lang

    def add_subparsers(self, **kwargs):
        """Subcommands' parsers of this class, in this parser's language."""
        kwargs.setdefault("parser_class", partial(type(self), lang=self.lang))
        return super().add_subparsers(**kwargs)

    def error(self, message: str):
        """What argparse found wrong, as one line in the user's language with where the usage is told; status 2
        (argparse would print the whole usage first)."""
        text = t("cli.bad_arguments", self.lang, problem=message.rstrip("."), help=f"{self.prog} --help")
        self.exit(2, terminal(t("cli.error", self.lang, message=text)) + "\n")


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
    edition = student_edition()
    parser = ArgumentParser(prog="abkit", description=t("cli.description_student" if edition else "cli.description", lang),
                            lang=lang)
    parser.add_argument("--version", action="version", version=f"abkit {__version__}", help=t("cli.help.version", lang))
    parser.add_argument("--lang", choices=LANGS, default=lang, help=t("cli.help.lang", lang))
    add_course(parser, lang)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title=t("cli.commands", lang),
                                help=t("cli.help.command", lang), prog=parser.prog)  # what argparse would lay out
    parser.subcommands = sub  # for words no parser takes: reported by the named command's parser (cli.main.parse)
    for name, module in commands().items():
        if named is None or name == named:
            import_module(module).register(sub, lang, add_lang)
        elif named == "":
            sub.add_parser(name, help=t(f"{name}.help", lang))
    return parser
