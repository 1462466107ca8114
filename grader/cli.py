"""The ``abkit`` command: a thin layer that turns arguments into calls and errors into messages.

Each subject has its own module under ``grader/commands/`` with ``register``
(its arguments) and ``run`` (one library call, an exit status). Only this
module maps exceptions to messages and exit statuses: 0 success, 1 the checked
thing fails, 2 usage or input error.
"""

from __future__ import annotations

import argparse
import os
import sys

from abkit.coursefolder import NoCourse, chosen_course
from abkit.fixture import FixtureError
from abkit.i18n import LANGS, catalogue, default_lang, normalize_lang, t

from .commands import check, export, fixtures, grade, handouts, hint, init, lab, pack, release, stubs, trace, watch
from .errors import UsageError

COMMANDS = (check, hint, watch, pack, trace, fixtures, handouts, grade, export, stubs, release, lab, init)


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


def add_lang(parser: argparse.ArgumentParser, lang: str) -> None:
    """The ``--lang`` and ``--course`` options every command takes."""
    parser.add_argument("--lang", choices=LANGS, default=lang, help=t("cli.help.lang", lang))
    add_course(parser, lang, argparse.SUPPRESS)


def add_course(parser: argparse.ArgumentParser, lang: str, default: object = None) -> None:
    """``--course DIR``: the course folder to work on (default: the one holding the current folder)."""
    parser.add_argument("--course", metavar="DIR", default=default, help=t("cli.help.course", lang))


def build_parser(lang: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="abkit", description=t("cli.description", lang))
    parser.add_argument("--lang", choices=LANGS, default=lang, help=t("cli.help.lang", lang))
    add_course(parser, lang)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title=t("cli.commands", lang),
                                help=t("cli.help.command", lang))
    for command in COMMANDS:
        command.register(sub, lang, add_lang)
    return parser


def _utf8_streams() -> None:
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="replace")
            except (ValueError, OSError):  # pragma: no cover - a closed or odd stream
                pass


def main(argv: list[str] | None = None) -> int:
    """Run ``abkit`` with ``argv`` (default: the command line); returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    lang = _lang_from(argv)
    _localize_argparse(lang)
    _utf8_streams()
    parser = build_parser(lang)
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
