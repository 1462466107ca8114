"""Every picture the READMEs and docs show exists and is a PNG (the step-through page's, issue 32)."""

from __future__ import annotations

import re

from abkit.loading import KIT_ROOT

PAGES = [KIT_ROOT / "README.md", KIT_ROOT / "README.ko.md", *sorted((KIT_ROOT / "docs").glob("*.md"))]
PICTURE = re.compile(r"!\[([^\]]*)\]\(([^)\s]+)\)")


def test_every_picture_shown_exists_and_has_words_for_a_reader_who_cannot_see_it():
    shown = 0
    for page in PAGES:
        for words, target in PICTURE.findall(page.read_text(encoding="utf-8")):
            path = (page.parent / target).resolve()
            assert path.is_file() and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", (page.name, target)
            assert len(words) >= 8, (page.name, target)
            shown += 1
    assert shown >= 2  # the student section of each README shows the step-through page


def test_the_korean_readme_shows_the_korean_page():
    text = (KIT_ROOT / "README.ko.md").read_text(encoding="utf-8")
    assert "docs/images/step-through.ko.png" in text
