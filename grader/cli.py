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

from abkit.fixture import FixtureError
from abkit.i18n import LANGS, catalogue, default_lang, normalize_lang, t

from .commands import check, export, fixtures, grade, handouts, hint, lab, release, stubs, trace, watch
from .errors import UsageError

COMMANDS = (check, hint, watch, trace, fixtures, handouts, grade, export, stubs, release, lab)


def _lang_from(argv: list[str]) -> str:
    """The language asked for with ``--lang`` anywhere in ``argv``, else the locale's."""
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            return normalize_lang(argv[i + 1])
        if arg.startswith("--lang="):
            return normalize_lang(arg.split("=", 1)[1])
    return default_lang()


def _localize_argparse(lang: str) -> None:
    """argparse's own words (usage:, error:, ...) in ``lang``, from the catalogue."""
    prefix = "argparse|"
    table = {k[len(prefix):]: v for k, v in catalogue(lang).items() if k.startswith(prefix)}
    argparse._ = lambda text: table.get(text, text)  # argparse looks up its gettext alias at call time


def add_lang(parser: argparse.ArgumentParser, lang: str) -> None:
    """The ``--lang`` option every command takes."""
    parser.add_argument("--lang", choices=LANGS, default=lang, help=t("cli.help.lang", lang))


def build_parser(lang: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="abkit", description=t("cli.description", lang))
    add_lang(parser, lang)
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
        return args.run(args)
    except FixtureError as error:
        print(error.render(args.lang), file=sys.stderr)
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
