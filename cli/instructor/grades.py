"""``abkit grades``: what is done with a class's grades once graded: ``export`` (:mod:`abkit.cli.instructor.gradebook`)."""

from __future__ import annotations

from abkit.i18n import t

from abkit.cli.instructor import gradebook


def register(sub, lang: str, add_lang) -> None:
    """Add the ``grades`` group and its subcommands to ``sub``, the subcommands of ``abkit``."""
    p = sub.add_parser("grades", help=t("gradebook.group.help", lang), description=t("gradebook.group.help", lang))
    add_lang(p, lang)
    actions = p.add_subparsers(dest="action", metavar="ACTION", title=t("cli.commands", lang),
                               help=t("cli.help.action", lang))
    gradebook.register(actions, lang, add_lang)
