"""The document model written out: HTML through one Jinja2 template, PDF through typst.

One environment, one template per output format, the same templates for both
languages. Words may carry a little inline markup, translated per format by
:func:`inline`: ``**bold**``, ```code```, ``^{superscript}``, ``_{subscript}``.
"""

from __future__ import annotations

import re
from html import escape
from pathlib import Path

import jinja2

from abkit.coursefolder import per_course
from abkit.errors import UsageError

from abkit.handouts.content import Document
from abkit.handouts.fonts import LATIN_CODE, LATIN_TEXT, HangulFont
from abkit.handouts.words import handouts_folder

INLINE = re.compile(r"\*\*(?P<bold>.+?)\*\*|`(?P<code>[^`]+)`|\^\{(?P<sup>[^}]*)\}|_\{(?P<sub>[^}]*)\}")
#: characters that mean something in typst markup; each is written escaped with a backslash
TYPST_SPECIAL = re.compile(r"([\\#*_`$<>@\[\]~=/+\-'\"])")
#: a name joined by hyphens (TERMINAL-TEST, MAX-VALUE, TD-Gammon) and the rest of its word (TERMINAL-TEST를),
#: escaped: boxed, it stays on one line (a line may break after a hyphen, and before a particle)
CAPS_HYPHEN = re.compile(r"(?<![\w\\])([A-Z][A-Za-z]*(?:\\-[A-Za-z]+)+\S*)")
#: the rest of a word after an inline element (up to a space or the next inline element): a line never breaks
#: inside a word, as CSS's word-break: keep-all keeps Korean words whole
GLUED = re.compile(r"[^\s*`^_]+")


def typst_string(text: str) -> str:
    """``text`` as a typst string literal.

    >>> typst_string('say "hi"\\\\n')
    '"say \\\\"hi\\\\"\\\\\\\\n"'
    """
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{escaped}"'


def typst_text(text: str) -> str:
    """Plain text made safe inside typst markup.

    >>> typst_text("a*b = #c")
    'a\\\\*b \\\\= \\\\#c'
    """
    return CAPS_HYPHEN.sub(r"#box[\1];", TYPST_SPECIAL.sub(r"\\\1", text))


def inline(text: str, target: str) -> str:
    """``text`` with its inline markup written for ``target`` (``html`` or ``typst``).

    >>> inline("**MAX** picks b^{d}", "html")
    '<strong>MAX</strong> picks b<sup>d</sup>'
    >>> inline("`max_value`를 x_{1} y", "typst")
    '#box[#raw("max_value");를]; #box[x#sub[1];]; y'
    """
    plain = (lambda s: escape(s, quote=False)) if target == "html" else typst_text
    out, last = [], 0
    for match in INLINE.finditer(text):
        before = text[last:match.start()]
        if target == "typst" and not before[-1:].isspace():  # the start of the element's word goes into its box
            head = re.search(r"\S*$", before).group()
            before = before[:len(before) - len(head)]
        else:
            head = ""
        out.append(plain(before))
        kind, body = next((k, v) for k, v in match.groupdict().items() if v is not None)
        if target == "html":
            tag = {"bold": "strong", "code": "code", "sup": "sup", "sub": "sub"}[kind]
            out.append(f"<{tag}>{escape(body, quote=False)}</{tag}>")
        else:
            function = {"bold": "strong", "sup": "super", "sub": "sub"}.get(kind)
            element = f"#{function}[{typst_text(body)}];" if function else f"#raw({typst_string(body)});"
            glued = GLUED.match(text, match.end())
            if head or glued:  # b^{d}이고: the superscript and the rest of its word share a box (no break inside)
                element = f"#box[{typst_text(head)}{element}{typst_text(glued.group() if glued else '')}];"
            out.append(element)
            last = glued.end() if glued else match.end()
            continue
        last = match.end()
    out.append(plain(text[last:]))
    return "".join(out)


@per_course
def environment(folder: Path | None = None) -> jinja2.Environment:
    """The one Jinja2 environment of the handouts (HTML autoescaped, typst not); ``folder``: the templates
    (default: the course's ``handouts/templates``)."""
    folder = folder if folder is not None else handouts_folder() / "templates"
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(folder)), undefined=jinja2.StrictUndefined,
                             autoescape=jinja2.select_autoescape(["html.j2"]), trim_blocks=True,
                             lstrip_blocks=True, keep_trailing_newline=True)
    env.filters["html"] = lambda text: jinja2.filters.Markup(inline(text, "html"))
    env.filters["typ"] = lambda text: inline(text, "typst")
    env.filters["typ_str"] = typst_string
    env.filters["typ_text"] = typst_text
    return env


def render_html(document: Document) -> str:
    """The document as one self-contained HTML page (inline SVG and CSS, print rules for A4)."""
    return environment().get_template("handout.html.j2").render(doc=document, w=document.words)


def render_typst(document: Document, font: HangulFont | None) -> str:
    """The document as typst source, fonts named explicitly (Latin first)."""
    fonts = {"text": [LATIN_TEXT] + ([font.family] if font else []),
             "code": [LATIN_CODE] + ([font.code_family or font.family] if font else [])}
    return environment().get_template("handout.typ.j2").render(doc=document, w=document.words, fonts=fonts)


def compile_pdf(source: str, font_folder: Path | None) -> bytes:
    """typst source -> PDF bytes, with system fonts ignored and only ``font_folder`` added."""
    import typst  # imported here: the rest of the kit works without the PDF back end

    try:
        return typst.compile(source.encode("utf-8"), font_paths=[str(font_folder)] if font_folder else [],
                             ignore_system_fonts=True, timestamp=0)
    except typst.TypstError as error:  # pragma: no cover - a template bug, not a user error
        raise UsageError("handouts.typst_failed", reason=str(error).splitlines()[0]) from None
