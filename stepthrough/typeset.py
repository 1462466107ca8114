"""Text as it is printed: real relation signs and minus signs.

Words, fixture notes and generated values are written with ASCII at the
keyboard (``<=``, ``>=``, ``-3``, ``-∞``); a printed page shows ``≤``, ``≥`` and
the minus sign U+2212. A hyphen stays a hyphen where it joins words or numbers
(``depth-2``, ``B1-B3``); inline code (between backticks) is left as typed.

>>> typeset("v <= alpha = -3, e(p) = -∞; `abkit --rule cs188 -b 3`, depth-2")
'v ≤ alpha = −3, e(p) = −∞; `abkit --rule cs188 -b 3`, depth-2'
"""

from __future__ import annotations

import re

#: a hyphen-minus that starts a number: not after a letter, digit, dot or another hyphen
NEGATIVE = re.compile(r"(?<![\w.\-−])-(?=[0-9∞])")
CODE = re.compile(r"(`[^`]*`)")


def typeset(text: str) -> str:
    """``text`` with ``<=``, ``>=`` and negative numbers' hyphens made ``≤``, ``≥`` and ``−`` (code spans kept)."""
    parts = CODE.split(text)
    for i in range(0, len(parts), 2):
        parts[i] = NEGATIVE.sub("−", parts[i].replace("<=", "≤").replace(">=", "≥"))
    return "".join(parts)


def ascii_signs(text: str) -> list[str]:
    """The places outside code where ``text`` still has ``<=``, ``>=`` or a hyphen for a minus sign.

    >>> ascii_signs("v = -2 <= α; `-b 3`"), ascii_signs("v = −2 ≤ α")
    (['v = -2 <=', ' -2 <= α; '], [])
    """
    found = []
    for i, part in enumerate(CODE.split(text)):
        if i % 2 == 0:
            for match in re.finditer(r"<=|>=|" + NEGATIVE.pattern, part):
                found.append(part[max(0, match.start() - 4):match.end() + 4])
    return found
