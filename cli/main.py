"""The ``abkit`` command: a thin layer that turns arguments into calls and errors into messages.

Each subject has its own module in a group of :mod:`abkit.cli` with ``register``
(its arguments, on the parser of :mod:`abkit.cli.arguments`) and ``run`` (one library call, an exit status). Only the
module of the subject the command line names is imported, and only its parser built: a command pays for nothing it
does not use; ``abkit check [EXERCISE]`` builds none (:func:`plain_check`).
Only this module maps exceptions to messages and exit statuses: 0 success, 1 the checked
thing fails, 2 usage or input error.
"""

from __future__ import annotations

import os
import sys
from types import SimpleNamespace

from abkit.coursefolder import NoCourse, chosen_course
from abkit.errors import UsageError
from abkit.fixture import FixtureError
from abkit.i18n import LANGS, default_lang, normalize_lang, t

from abkit.cli.groups import commands

#: the options ``abkit`` itself takes (before the subject); those that take a value
TOP_OPTIONS, TAKE_VALUE = ("-h", "--help", "--version", "--lang", "--course"), ("--lang", "--course")


def _lang_from(argv: list[str]) -> str:
    """The language asked for with ``--lang`` anywhere in ``argv``, else the locale's (also when ``--lang`` names
    one the kit does not speak: argparse then says so, in the locale's language).

    A comma list (``handouts build --lang ko,en``: the handouts' languages) names no message language.
    """
    for i, arg in enumerate(argv):
        value = argv[i + 1] if arg == "--lang" and i + 1 < len(argv) else arg.split("=", 1)[1] \
            if arg.startswith("--lang=") else None
        if value is not None and "," not in value and value.lower().replace("_", "-").split("-")[0] in LANGS:
            return normalize_lang(value)
    return default_lang()


def subject(argv: list[str]) -> str | None:
    """The word ``argv`` names as the subject, read as argparse reads it: the first word that is neither one of
    ``abkit``'s own options, abbreviated or not, nor its value; None when there is none (``abkit --help``)."""
    words = iter(argv)
    for arg in words:
        if arg == "--":
            return next(words, None)
        if arg.startswith("-"):
            option = [o for o in TOP_OPTIONS if o.startswith(arg)] if "=" not in arg else []
            if len(option) == 1 and option[0] in TAKE_VALUE:
                next(words, None)
            continue
        return arg
    return None


def named_command(argv: list[str]) -> str:
    """The command ``argv`` names when it is one this installation has (:func:`abkit.cli.groups.commands`); else
    ``""``."""
    word = subject(argv)
    return word if word in commands() else ""


def plain_check(argv: list[str], lang: str) -> SimpleNamespace | None:
    """``abkit check`` or ``abkit check EXERCISE`` (no option: the command students type most) read without
    argparse (:func:`abkit.cli.student.check.plain`), or None for any other command line, which
    :func:`abkit.cli.arguments.build_parser` reads."""
    if not argv or argv[0] != "check" or len(argv) > 2 or any(word.startswith("-") for word in argv[1:]):
        return None
    from abkit.cli.student.check import plain

    return plain(argv[1] if argv[1:] else None, lang)


def parse(parser, argv: list[str], command: str):
    """``argv`` parsed; words no parser takes are reported by the named command's own parser, so that the message
    points at that command's help."""
    import argparse

    args, extra = parser.parse_known_args(argv)
    if extra:
        teller = parser.subcommands.choices.get(command, parser)
        teller.error(argparse._("unrecognized arguments: %s") % " ".join(extra))
    return args


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
    """The ``abkit`` console script (and ``python -m abkit.cli``): :func:`main`, then the process ends with its status.

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
    _utf8_streams()
    args = plain_check(argv, lang)
    word = subject(argv) if args is None else None
    if word is not None and word not in commands():  # one sentence, not argparse's usage and "invalid choice"
        from abkit.safetext import terminal

        text = t("cli.no_such_command", lang, command=word, commands=", ".join(commands()))
        print(terminal(t("cli.error", lang, message=text)), file=sys.stderr)
        return 2
    if args is None:
        from abkit.cli.arguments import build_parser, localize

        localize(lang)
        parser = build_parser(lang, named_command(argv))
        args = parse(parser, argv, named_command(argv))
        if not getattr(args, "run", None):
            parser.print_help()
            return 2
    try:
        with chosen_course(args.course, getattr(args, "needs_course", True)):
            return args.run(args)
    except NoCourse as error:
        key = edition_words("cli.not_a_course" if error.named else "cli.no_course")
        print(t("cli.error", args.lang, message=t(key, args.lang, path=error.where)), file=sys.stderr)
        return 2
    except FixtureError as error:
        print(error.render(args.lang), file=sys.stderr)  # path:line: message, as compilers write it
        return 2
    except FileNotFoundError as error:  # a part of the course folder is missing (its solutions/, handouts/, ...)
        print(t("cli.error", args.lang, message=t(edition_words("cli.missing_file"), args.lang, path=error.filename)),
              file=sys.stderr)
        return 2
    except UsageError as error:  # it may name a file of the student's or the class's: shown without escapes
        from abkit.safetext import terminal

        print(terminal(t("cli.error", args.lang, message=error.message.render(args.lang))), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(t("cli.interrupted", args.lang), file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (abkit ... | head): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


def edition_words(key: str) -> str:
    """``key``, or its student edition's variant there: the edition has no ``abkit init`` and its folder no
    solutions, rubric or handouts, so its advice names none of them."""
    from abkit.cli.groups import student_edition

    return f"{key}_edition" if student_edition() else key
