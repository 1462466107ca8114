"""Which fonts the PDF is set in, chosen explicitly so output does not vary between machines.

Latin text comes first in every font list: Libertinus Serif (text) and
DejaVu Sans Mono (code) are built into typst, so α, β and code look the same
everywhere. Korean needs a font with Hangul that is installed on the machine;
the candidates are tried in order (``ABKIT_HANGUL_FONT`` = a font file first,
then Debian/Ubuntu's fonts-nanum, macOS's Apple SD Gothic Neo, Windows' Malgun
Gothic). Only the chosen files are handed to typst (system fonts are ignored),
and when none is found the build stops with :class:`UsageError` saying how to
install one, rather than print empty boxes.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from abkit.errors import UsageError

LATIN_TEXT = "Libertinus Serif"
LATIN_CODE = "DejaVu Sans Mono"
ENV_FONT = "ABKIT_HANGUL_FONT"


@dataclass(frozen=True)
class HangulFont:
    """A font with Hangul: the family typst knows it by, and its files (regular first)."""

    family: str
    files: tuple[Path, ...]
    code_family: str = ""


#: (family, code family, candidate file groups: the first file of a group must exist)
CANDIDATES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("NanumMyeongjo", "NanumGothicCoding", (
        "/usr/share/fonts/truetype/nanum/NanumMyeongjo.ttf",
        "/usr/share/fonts/truetype/nanum/NanumMyeongjoBold.ttf",
        "/usr/share/fonts/truetype/nanum/NanumGothicCoding.ttf",
        "/usr/share/fonts/truetype/nanum/NanumGothic.ttf",
        "/usr/share/fonts/truetype/nanum/NanumGothicBold.ttf")),
    ("NanumGothic", "NanumGothic", (
        "/usr/share/fonts/truetype/nanum/NanumGothic.ttf",
        "/usr/share/fonts/truetype/nanum/NanumGothicBold.ttf")),
    ("Apple SD Gothic Neo", "Apple SD Gothic Neo", ("/System/Library/Fonts/AppleSDGothicNeo.ttc",)),
    ("Malgun Gothic", "Malgun Gothic", ("C:/Windows/Fonts/malgun.ttf", "C:/Windows/Fonts/malgunbd.ttf")),
)


def find_hangul_font(candidates=CANDIDATES, environ=None) -> HangulFont:
    """The first Hangul font found; :class:`UsageError` (``abkit.handouts.no_hangul_font``) if none is."""
    environ = os.environ if environ is None else environ
    chosen = environ.get(ENV_FONT)
    if chosen:
        path = Path(chosen)
        if not path.is_file():
            raise UsageError("handouts.bad_font_env", var=ENV_FONT, path=chosen)
        family = environ.get(ENV_FONT + "_FAMILY") or path.stem
        return HangulFont(family, (path,), family)
    for family, code, files in candidates:
        paths = tuple(Path(f) for f in files)
        if paths[0].is_file():
            return HangulFont(family, tuple(p for p in paths if p.is_file()), code)
    raise UsageError("handouts.no_hangul_font")


def font_folder(font: HangulFont | None, folder: Path) -> Path:
    """A folder holding only ``font``'s files (links, or copies where links are not allowed)."""
    folder.mkdir(parents=True, exist_ok=True)
    for path in font.files if font else ():
        target = folder / path.name
        if not target.exists():
            try:
                target.symlink_to(path)
            except OSError:  # pragma: no cover - Windows without the symlink privilege
                shutil.copyfile(path, target)
    return folder
