"""Student text shown safely: on the terminal, in a spreadsheet, in Markdown (ids, file names, exception messages,
printed output and returned values are all the student's to choose).

- :func:`terminal`: no control characters or escape sequences (they could clear the instructor's screen, retitle the
  window, or rewrite what was printed before);
- :func:`csv_cell`: a cell a spreadsheet reads as text, never as a formula (``=HYPERLINK(...)``, ``@SUM(...)``);
- :func:`markdown`: a Markdown document whose text outside code blocks has its HTML escaped (code blocks show text
  as it is and run nothing), with no control characters either.
"""

from __future__ import annotations

import html
import re

#: escape sequences (CSI, OSC/DCS/APC/PM strings, two-character ones), then any other C0/C1 control except tab and
#: newline, and the bidirectional overrides (they make a line read otherwise than it is)
_CONTROLS = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]?|\x1b[\]PX^_][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|\x1b[ -~]?"
                       r"|[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")  # and bidi overrides
_SURROGATES = re.compile(r"[\ud800-\udfff]")
#: a fence line as CommonMark reads one: up to three spaces, then three or more backticks or tildes
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})(.*)")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def terminal(text: str) -> str:
    """``text`` without terminal escape sequences and control characters (tab and newline kept), lone surrogates
    (a file name that is not UTF-8) shown as U+FFFD.

    >>> terminal("bob\\x1b[2J\\x1b]0;pwned\\x07\\rok\\x9b")
    'bobok'
    """
    text = _CONTROLS.sub("", text)
    return _SURROGATES.sub("\ufffd", text) if not text.isascii() else text


def csv_cell(value: object) -> object:
    """``value`` as a gradebook cell: a string a spreadsheet would run as a formula gets a leading ``'``.

    >>> csv_cell("=HYPERLINK(\\"http://x\\")"), csv_cell("-1"), csv_cell(-1), csv_cell("alice")
    ('\\'=HYPERLINK("http://x")', "'-1", -1, 'alice')
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def markdown(document: str) -> str:
    """``document`` with HTML escaped (``&``, ``<``, ``>``) on every line outside fenced code blocks, and
    :func:`terminal`'s control characters removed everywhere. Fences are read as CommonMark reads them (a
    closing fence has the opening's character, at least as many, and nothing after), so a line of student text
    that looks like a fence moves where the escaping stops exactly as it moves where the renderer's code block
    ends: no line the renderer reads as Markdown keeps raw HTML.

    >>> print(markdown("# <b>bob</b>\\n```\\n<i>tree</i>\\n```\\n<script>"))
    # &lt;b&gt;bob&lt;/b&gt;
    ```
    <i>tree</i>
    ```
    &lt;script&gt;
    """
    document = terminal(document.replace("\r\n", "\n"))
    out, fence = [], None
    for line in document.split("\n"):
        match = _FENCE.fullmatch(line)
        if fence is None:
            if match and not (match[1][0] == "`" and "`" in match[2]):
                fence = match[1]
                out.append(html.escape(line, quote=False))
                continue
            out.append(html.escape(line, quote=False))
        else:
            if match and match[1][0] == fence[0] and len(match[1]) >= len(fence) and not match[2].strip():
                fence = None
            out.append(line)
    return "\n".join(out)
