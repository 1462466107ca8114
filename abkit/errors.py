"""Errors the CLI turns into a message and exit status 2."""

from __future__ import annotations

from abkit.i18n import Message


class UsageError(ValueError):
    """Bad arguments or input the user can fix; carries a translatable message."""

    def __init__(self, key: str, /, **params: object) -> None:
        self.message = Message(key, **params)
        super().__init__(str(self.message))
