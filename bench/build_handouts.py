"""Benchmark: build the handouts in both languages, PDF and HTML (target: <= 5 s).

Prints the build's time beside a baseline measured in the same run: typst
compiling a trivial one-page document with the same fonts, i.e. the fixed cost
of the PDF back end. Run: python bench/build_handouts.py (named so that it does not shadow the handouts package)
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import typst

from abkit.handouts import build
from abkit.handouts import content
from abkit.handouts.fonts import find_hangul_font, font_folder
from timing import timed  # bench/timing.py: run as python bench/<name>.py

REPEAT = 3
TARGET = 5.0


def cold_build(out: Path) -> list[Path]:
    """A build with every cache emptied, as a fresh ``abkit handouts build`` process starts."""
    content._TRACES.clear()
    content.exercise_tree.cache_clear()
    content.game_trace.cache_clear()
    return build(["ko", "en"], out)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        fonts = font_folder(find_hangul_font(), Path(folder) / "fonts")
        trivial = b'#set text(font: ("Libertinus Serif", "NanumMyeongjo"))\nHello, \xec\x95\x88\xeb\x85\x95.'
        base_min, base_med = timed(lambda: typst.compile(trivial, font_paths=[str(fonts)], ignore_system_fonts=True),
                                   REPEAT)
        ours_min, ours_med = timed(lambda: cold_build(Path(folder) / "out"), REPEAT)
        files = cold_build(Path(folder) / "out")
        size = sum(p.stat().st_size for p in files)
    print(f"baseline typst.compile of a trivial document: best {base_min:.3f} s, median {base_med:.3f} s")
    print(f"abkit handouts build --lang ko,en ({len(files)} files, {size / 1e6:.1f} MB): best {ours_min:.3f} s, "
          f"median {ours_med:.3f} s = {ours_med / base_med:.0f}x baseline")
    print(f"target <= {TARGET:.0f} s: {'met' if ours_med <= TARGET else 'MISSED'}")


if __name__ == "__main__":
    main()
