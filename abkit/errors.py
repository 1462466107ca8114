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


def writable_folder(path: str | Path) -> Path:
    """``path`` made (with its parents) if missing, as a folder this process may write into; :class:`UsageError`
    naming it and why when it cannot be (a file is there, no permission, a read-only or pseudo file system)."""
    import os

    from abkit.i18n import os_problem

    path = Path(path)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError("out.cannot_write", path=str(path), reason=os_problem(error)) from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise UsageError("out.cannot_write", path=str(path), reason=Message("os.denied"))
    return path

