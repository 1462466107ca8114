"""The student's prints in the student's process: kept up to a cap, so that they can never look like a reply.

:func:`abkit.grader.childstart.main` makes a :class:`CappedText` the process's stdout and stderr; each reply carries
what was printed while its request ran (``output``).
"""

from __future__ import annotations

import io


class CappedText(io.TextIOBase):
    """A text stream that keeps the first ``limit`` characters written to it and counts the rest."""

    def __init__(self, limit: int) -> None:
        self.limit, self.parts, self.size = limit, [], 0

    def write(self, text: str) -> int:
        text = str(text)
        room = self.limit - self.size
        if room > 0:
            self.parts.append(text[:room])
        self.size += len(text)
        return len(text)

    def writable(self) -> bool:
        return True

    def take(self) -> str:
        """What was kept since the last call (with a note of how much was dropped); empties the buffer."""
        text = "".join(self.parts)
        if self.size > self.limit:
            text += f"\n[... {self.size - self.limit} more characters]"
        self.parts, self.size = [], 0
        return text
