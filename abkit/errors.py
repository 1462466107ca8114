"""Errors the CLI turns into a message and exit status 2."""

from __future__ import annotations

from pathlib import Path

from abkit.i18n import Message


class UsageError(ValueError):
    """Bad arguments or input the user can fix; carries a translatable message."""

    def __init__(self, key: str, /, **params: object) -> None:
        self.message = Message(key, **params)
        super().__init__(str(self.message))


class LocatedError(ValueError):
    """A file that cannot be used, at a line: ``path:line: message``; ``line`` 0 is the file as a whole (it cannot
    be read), shown as ``path: message``."""

    def __init__(self, path: str | Path, line: int, message: Message) -> None:
        self.path, self.line, self.message = str(path), line, message
        super().__init__(self.render())

    def render(self, lang: str | None = None) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.message.render(lang)}"
