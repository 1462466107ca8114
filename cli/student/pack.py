"""``abkit pack [--id ID]``: the hand-in zip (the exercise files, a manifest, the public tests' results)."""

from __future__ import annotations

import sys
from pathlib import Path

from abkit.i18n import t

#: how many times a wrong id typed at the prompt is asked again
ASKS = 3


def register(sub, lang: str, add_lang) -> None:
    p = sub.add_parser("pack", help=t("pack.help", lang), description=t("pack.description", lang))
    p.add_argument("--id", dest="student", metavar="ID", help=t("pack.help.id", lang))
    p.add_argument("--out", type=Path, metavar="FILE", help=t("pack.help.out", lang))
    p.add_argument("--exercises", type=Path, metavar="DIR", help=t("check.help.exercises", lang))
    add_lang(p, lang)
    p.set_defaults(run=run)


def run(args) -> int:
    from abkit.coursefolder import current_course

    from abkit.errors import UsageError
    from abkit.studentloop.pack import STUDENT_FILE, pack, store_id, stored_id, valid_id

    root = current_course().root
    student = valid_id(args.student) if args.student is not None else stored_id(root)
    if student is None:
        if not sys.stdin.isatty():
            raise UsageError("pack.no_id", path=str(root / STUDENT_FILE))
        student = _ask(args.lang)
    if student != stored_id(root):
        store_id(root, student)
        print(t("pack.id_saved", args.lang, id=student, path=root / STUDENT_FILE))
    packed = pack(student, args.exercises, args.out)
    print(t("pack.wrote", args.lang, path=packed.path, id=student, count=len(packed.files)))
    for name in packed.files:
        print(f"  {name}")
    passed = " · ".join(f"{name} {p}/{n}" for name, (p, n) in packed.results.items())
    print(t("pack.results", args.lang, results=passed))
    print(t("pack.next", args.lang, name=packed.path.name))
    return 0


def _ask(lang: str) -> str:
    """The student id, typed at the prompt (asked again when it cannot name a student)."""
    from abkit.errors import UsageError
    from abkit.studentloop.pack import valid_id

    for attempt in range(ASKS):
        try:
            typed = input(t("pack.ask", lang))
        except EOFError:
            break
        try:
            return valid_id(typed)
        except UsageError as error:
            if attempt == ASKS - 1:
                raise
            print(error.message.render(lang), file=sys.stderr)
    raise UsageError("pack.no_id_typed")
