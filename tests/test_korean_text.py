"""Every Korean text of the kit is written as one Korean writing layer would: particles that agree
with the value before them as it is read aloud, one glossary term per concept, no English sentence.

The tests scan whole catalogues (messages, handout words, exercise hints, fixtures' texts, the course
README, the Korean pages of the documentation), so a message added later is held to the same rules. The
reading of a value is worked out by ``tests/korean_text.py``, independently of :mod:`abkit.korean`.
"""

from __future__ import annotations

import re
import string

import pytest
import yaml

from abkit.fixture import load_fixture
from abkit.i18n import catalogue, fill
from abkit.loading import EXERCISES, FIXTURES, KIT_ROOT
from abkit.handouts.words import english, words
from korean_text import (VALUES, bare_particles, english_sentences, glossary, glossary_violations, particle_fields,
                         value_joins, wrong_joins)
from test_korean import node_names

OUTLINE = KIT_ROOT / "handouts" / "outline.yaml"
#: the Korean pages of the documentation (the front page and the users' pages), each beside its English page
KOREAN_DOCUMENTS = sorted([KIT_ROOT / "README.ko.md", *(KIT_ROOT / "docs").glob("*.ko.md")])


def code_keys() -> set[str]:
    """The handout words printed as code blocks (pseudocode, commands): English keywords are code there."""
    found: set[str] = set()

    def walk(item) -> None:
        if isinstance(item, dict):
            if isinstance(item.get("code"), str):
                found.add(item["code"])
            for value in item.values():
                walk(value)
        elif isinstance(item, list):
            for value in item:
                walk(value)

    walk(yaml.safe_load(OUTLINE.read_text(encoding="utf-8")))
    return found | {f"{key}_cs188" for key in found}  # a code block's twin under the CS188 rule (handouts/content.py)


def _prose(markdown: str) -> str:
    """Markdown without its fenced code blocks (tracebacks, printed output, trees drawn as text)."""
    return re.sub(r"```.*?```", " ", markdown, flags=re.S)


def korean_templates() -> dict[str, tuple[str, str]]:
    """Every Korean template of the kit with its English source: id -> (Korean, English)."""
    en = catalogue("en")
    texts = {f"messages:{key}": (text, en.get(key, "")) for key, text in catalogue("ko").items()}
    english_words = english()
    texts.update({f"handouts:{key}": (text, english_words.get(key, "")) for key, text in words("ko").items()})
    info = yaml.safe_load((EXERCISES / "info.yaml").read_text(encoding="utf-8"))
    for exercise in info["exercises"]:
        texts[f"info:{exercise['name']}.title"] = (exercise["title"]["ko"], exercise["title"]["en"])
        for n, (ko, en_hint) in enumerate(zip(exercise["hints"]["ko"], exercise["hints"]["en"]), 1):
            if isinstance(ko, dict):  # a hint that states the cut-off rule: one text per rule
                texts.update({f"info:{exercise['name']}.hint{n}.{rule}": (ko[rule], en_hint[rule]) for rule in ko})
            else:
                texts[f"info:{exercise['name']}.hint{n}"] = (ko, en_hint)
    for path in sorted(FIXTURES.glob("*/*.yaml")):
        fixture = load_fixture(path)
        for field, text in [("title", fixture.title), ("description", getattr(fixture, "description", {}))]:
            if isinstance(text, dict) and text.get("ko"):
                texts[f"fixture:{path.stem}.{field}"] = (text["ko"], text.get("en", ""))
        for node, note in fixture.notes.items():
            if note.get("ko"):
                texts[f"fixture:{path.stem}.notes.{node}"] = (note["ko"], note.get("en", ""))
    authoring = KIT_ROOT / "authoring"
    texts["course_readme"] = ((authoring / "course_readme.ko.md").read_text(encoding="utf-8"),
                              (authoring / "course_readme.md").read_text(encoding="utf-8"))
    for korean in KOREAN_DOCUMENTS:
        source = korean.with_name(korean.name.replace(".ko.md", ".md"))
        texts[f"docs:{korean.relative_to(KIT_ROOT).as_posix()}"] = (
            _prose(korean.read_text(encoding="utf-8")), _prose(source.read_text(encoding="utf-8")))
    return texts


TEMPLATES = korean_templates()
CODE = {f"handouts:{key}" for key in code_keys()}


def test_the_scan_covers_every_catalogue():
    kinds = {key.split(":")[0] for key in TEMPLATES}
    assert kinds == {"messages", "handouts", "info", "fixture", "course_readme", "docs"}, kinds
    documents = {key.split(":", 1)[1] for key in TEMPLATES if key.startswith("docs:")}
    assert {"README.ko.md", "docs/students.ko.md", "docs/instructors.ko.md"} <= documents, documents
    assert len(TEMPLATES) > 700 and CODE


def test_no_particle_follows_a_value_without_a_spec_and_none_is_written_both_ways():
    bad = {key: found for key, (text, _) in TEMPLATES.items() if (found := bare_particles(text))}
    assert not bad, bad


def test_no_hand_written_join_of_a_value_and_a_particle_disagrees():
    """Texts without placeholders name values too ("C3이 가지치기됩니다"): each join agrees."""
    joins = sum(len(value_joins(text)) for text, _ in TEMPLATES.values())
    bad = {key: found for key, (text, _) in TEMPLATES.items() if (found := wrong_joins(text))}
    assert joins > 100 and not bad, bad


def _names(text: str) -> set[str]:
    return {re.split(r"[.\[]", name)[0] for _, name, _, _ in string.Formatter().parse(text) if name}


def _unbraced(text: str) -> str:
    """Inline markup's braces (``b^{d}``, ``f_{1}``) written as parentheses: not placeholders (the handouts'
    builder keeps them out of the filling the same way)."""
    return re.sub(r"([\^_])\{([^{}]*)\}", r"\1(\2)", text)


class _Every(dict):
    """A citation's numbers ({fig[ID]}, {sec[ID]}): every label gives the same value."""

    def __init__(self, value: str) -> None:
        super().__init__()
        self.value = value

    def __missing__(self, key: str) -> str:
        return self.value


def _params(text: str, value: str) -> dict:
    """Each placeholder of ``text`` filled with ``value`` (a citation's label too)."""
    cited = {re.split(r"\[", name)[0] for _, name, _, _ in string.Formatter().parse(text) if name and "[" in name}
    return {name: _Every(value) if name in cited else value for name in _names(text)}


@pytest.mark.slow
def test_every_particle_spec_agrees_with_every_value_and_node_name():
    """Each template with a particle spec rendered with −99…999, decimals, ∞, α, β and every fixture
    node name: each particle after a value agrees with the value as read aloud."""
    specs = {key: text for key, (text, _) in TEMPLATES.items() if particle_fields(text)}
    assert len(specs) >= 5, sorted(specs)  # the steps and the feedback's windows at least
    values = VALUES + node_names()
    checked, bad = 0, []
    for key, text in specs.items():
        for value in values:
            rendered = fill(_unbraced(text), "ko", _params(_unbraced(text), value))
            joins = value_joins(rendered)
            assert len(joins) >= len(particle_fields(text)), (key, value, rendered)
            checked += 1
            bad += [(key, found) for found in wrong_joins(rendered)]
    assert checked >= len(specs) * len(values) >= 5 * len(values) and not bad, bad[:20]


def test_every_korean_text_uses_the_glossary_terms():
    bad = {key: found for key, (text, _) in TEMPLATES.items() if (found := glossary_violations(text))}
    assert not bad, bad


def test_gidaetgap_means_the_expectation_only():
    """기댓값 is expectimax's Σ P(r)·value: its English source speaks of an expectation, never an expected answer."""
    bad = [key for key, (ko, en) in TEMPLATES.items()
           if "기댓값" in ko and not re.search(r"expectation|expected value|expecti(mini)?max|Σ", en, re.I)]
    assert not bad, bad


def test_no_english_sentence_in_a_korean_text():
    bad = {key: found for key, (text, _) in TEMPLATES.items()
           if key not in CODE and (found := english_sentences(text))}
    assert not bad, bad


def test_the_glossary_is_well_formed():
    entries = glossary()
    assert len(entries) >= 20
    for entry in entries:
        assert set(entry) - {"means"} == {"en", "ko", "seed", "avoid"}, entry
        assert "(" not in entry["en"], entry  # what a term means goes in means:, in both languages
        assert set(entry.get("means", {"en": 1, "ko": 1})) == {"en", "ko"}, entry
        assert entry["en"] and entry["ko"] and isinstance(entry["avoid"], list), entry
        assert not any(avoid in entry["ko"] for avoid in entry["avoid"]), entry
    kit_terms = [term for entry in entries for term in re.split(r",\s*", entry["ko"])]
    assert len(kit_terms) == len(set(kit_terms)), "a Korean term names two concepts"


@pytest.mark.parametrize("sample, found", [
    ("3를 돌려줌", ["3를"]), ("B1으로 간다", ["B1으로"]), ("C3가 잘림", ["C3가"]), ("10는", ["10는"]),
    ("α을", ["α을"]), ("−∞은", ["−∞은"]), ("1/3으로", ["1/3으로"]),
])
def test_the_join_check_finds_wrong_particles(sample, found):
    assert [w.split(" ")[0] for w in wrong_joins(sample)] == found


def test_the_join_check_accepts_right_ones_and_the_copula():
    assert wrong_joins("3을 돌려줌, 2를, B1로, C3으로, 10은, α는, v ≤ α이면, 확률 1/3로, 결과(3)가, TD-Gammon(1995)은") == []


def test_english_sentences_are_found_and_code_is_not():
    assert english_sentences("올바른 YAML이 아닙니다: mapping values are not allowed here") == \
        ["mapping values are not allowed here"]
    assert english_sentences("`abkit check --lang ko`로 'abkit hint alphabeta'를, game.result(state, a)를 "
                             "호출하세요. value, action, visited 필드와 Deep Blue, fail-soft") == []


def document_texts(document) -> list[str]:
    """Every text of a handout's document model: titles, paragraphs, list items, table cells, captions,
    notes (figures' SVG, step-throughs, ids and code blocks aside; of the glossary, the kit's own terms)."""
    texts = [document.title, document.subtitle]

    def walk(item) -> None:
        if isinstance(item, str):
            texts.append(item)
        elif isinstance(item, dict) and item.get("glossary"):  # English and the seed's terms are quoted there
            texts.extend([item["caption"], *item["head"], *(row[1] for row in item["rows"])])
        elif isinstance(item, dict):
            if item.get("kind") != "code":
                for key, value in item.items():
                    if key not in ("svg", "id", "kind", "node", "stepper"):  # stepper: markup and script,
                        # its sentences are the catalogue's (abkit/messages/*/steps.yaml), checked as messages
                        walk(value)
        elif isinstance(item, (list, tuple)):
            for value in item:
                walk(value)

    for section in document.sections:
        texts.append(section.title)
        walk(section.blocks)
    return texts


@pytest.fixture(scope="module")
def korean_documents():
    """The Korean handout, answer key, and the sheets and keys of ten students' variants."""
    from abkit.handouts.content import build_document

    documents = [build_document("ko", "handout"), build_document("ko", "answer_key")]
    for n in range(10):
        documents += [build_document("ko", edition, f"s{n:02d}") for edition in ("student_sheet", "variant_key")]
    return documents


@pytest.mark.slow
def test_every_value_particle_join_of_the_korean_handouts_agrees(korean_documents):
    """The documents as printed: step tables, notes, keys and variants; every join of a value and a particle."""
    joins, bad = 0, []
    for document in korean_documents:
        for text in document_texts(document):
            joins += len(value_joins(text))
            bad += [(document.edition, document.student, found) for found in wrong_joins(text)]
    assert joins > 500 and not bad, bad[:20]


@pytest.mark.slow
def test_the_korean_handouts_use_the_glossary_and_no_english_sentence(korean_documents):
    for document in korean_documents:
        for text in document_texts(document):
            assert not glossary_violations(text), (document.edition, text)
            assert not english_sentences(text), (document.edition, text)


def _run_cli(*args) -> str:
    """What ``abkit ARGS`` prints (stdout and stderr), run in-process."""
    import contextlib
    import io

    from abkit.cli.main import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            main([str(a) for a in args])
        except SystemExit:
            pass
    return out.getvalue()


@pytest.fixture(scope="module")
def korean_feedback(tmp_path_factory) -> dict[str, str]:
    """What Korean students and instructors read: ``abkit check`` on every named mistake of the catalogue
    (a mutant of the reference in the student's file) and a graded class's terminal, summary and feedback."""
    import shutil

    from abkit.loading import SOLUTIONS
    from abkit.grader.mistakes import CATALOGUE, mutant_source

    outputs = {}
    for mistake in CATALOGUE:
        folder = tmp_path_factory.mktemp(mistake.id)
        for path in SOLUTIONS.glob("*.py"):
            shutil.copy(path, folder / path.name)
        shutil.copy(EXERCISES / "info.yaml", folder / "info.yaml")
        source = mutant_source(mistake)
        if mistake.flip_rule:
            source = source.replace("PRUNE_ON_EQUALITY = True", "PRUNE_ON_EQUALITY = False")
        (folder / f"{mistake.exercise}.py").write_text(source, encoding="utf-8")
        outputs[f"check {mistake.id}"] = _run_cli("check", mistake.exercise, "--exercises", folder, "--lang", "ko")
    out = tmp_path_factory.mktemp("grades")
    outputs["grade"] = _run_cli("grade", KIT_ROOT / "examples" / "submissions", "--out", out, "-j", "1", "--lang", "ko")
    for path in sorted(out.rglob("*.md")):
        outputs[str(path.relative_to(out))] = _prose(path.read_text(encoding="utf-8"))
    return outputs


@pytest.mark.slow
def test_check_and_grade_feedback_in_korean_agree_and_speak_korean(korean_feedback):
    first = catalogue("ko")["feedback.first"].split("{")[0]  # each mistake is named at its first difference
    assert sum(first in text for key, text in korean_feedback.items() if key.startswith("check")) >= 25
    joins, bad = 0, []
    for key, text in korean_feedback.items():
        joins += len(value_joins(text))
        bad += [(key, found) for found in wrong_joins(text) + glossary_violations(text) + english_sentences(text)]
    assert joins > 100 and not bad, bad[:20]


# --- Korean lines break between words only -----------------------------------------------------

HANGUL = re.compile(r"[가-힣]")


def mid_word_breaks(pdf_text: str, source: str) -> tuple[list[str], int]:
    """Line breaks of a PDF's text (``pdftotext``) that fall inside a word of ``source``, with the number of
    line breaks next to Hangul that were checked. A break between ``a`` and ``b`` is inside a word when the
    source holds ``ab`` but never ``a b``."""
    flat = " " + re.sub(r"\s+", " ", re.sub(r"\*\*|`", "", source)) + " "
    lines = [line.strip() for line in pdf_text.splitlines()]
    bad, checked = [], 0
    for a, b in zip(lines, lines[1:]):
        if not a or not b:
            continue
        last, first = a.split()[-1], b.split()[0]
        if HANGUL.match(last[-1]) or HANGUL.match(first[0]):
            checked += 1
            if last + first in flat and f"{last} {first}" not in flat:
                bad.append(f"{last}/{first}")
    return bad, checked


def test_the_break_check_finds_a_word_broken_across_lines():
    source = "알파베타는 남은 자식을 건너뜁니다. 그리고"
    assert mid_word_breaks("알파베타는 남은 자식을 건너뜁\n니다. 그리고", source) == (["건너뜁/니다."], 1)
    assert mid_word_breaks("알파베타는 남은 자식을\n건너뜁니다. 그리고", source) == ([], 1)


@pytest.mark.slow
def test_the_korean_pdfs_break_lines_between_words_only(tmp_path_factory):
    """The handout, the key, a student's sheet and its key as printed: no line ends inside a word."""
    import shutil
    import subprocess

    from abkit.handouts import build, jobs
    from abkit.handouts.content import build_document

    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext is not installed (poppler-utils); cannot read the PDF")
    out = tmp_path_factory.mktemp("ko-pdf")
    build(["ko"], out, ["s01"], formats=("pdf",))
    total = 0
    for job in jobs(["ko"], ["s01"]):
        text = subprocess.run(["pdftotext", str(job.path(out, "pdf")), "-"], capture_output=True, text=True,
                              check=True).stdout
        document = build_document("ko", job.edition, job.student)
        source = " ".join(document_texts(document) + [b["text"] for s in document.sections for b in s.blocks
                                                       if b.get("kind") == "code"])
        bad, checked = mid_word_breaks(text, source)
        assert not bad, (job.edition, bad)
        total += checked
    assert total > 100


def test_the_korean_html_breaks_lines_between_words_only():
    from abkit.handouts.content import build_document
    from abkit.handouts.render import render_html

    html = render_html(build_document("ko", "handout"))
    assert '<html lang="ko">' in html
    assert re.search(r":lang\(ko\)\s*\{[^}]*word-break:\s*keep-all", html)
    assert not re.search(r"(body|p|li|td)\s*\{[^}]*overflow-wrap:\s*anywhere", html)  # anywhere: code only


# --- every message in the reader's language, including what libraries say -----------------------

#: YAML that each parser (libyaml's and PyYAML's) refuses, each for another reason
BROKEN_YAML = ["a: b: c", "a:\n\tb: 1", "[1, 2", "{a: 1", "a: 'x", 'a: "\\q"', "a:\n  - 1\n - 2", "a:\n  b: 1\n c: 2",
               "a: @x", "a: \x07", "--- a\n--- b\n...\n%YAML 1.1\n", "a: [1, }", "- a\nb: 1", "a: *x", "a: [1, 2]]",
               "{a: 1}}", "a: `x`", "a: %x"]


@pytest.mark.parametrize("loader", ["CSafeLoader", "SafeLoader"])
def test_the_yaml_parsers_complaints_are_the_kits_words(loader, monkeypatch):
    from abkit import yamlsafe

    if not hasattr(yaml, loader):
        pytest.skip(f"PyYAML was built without {loader}")
    monkeypatch.setattr(yamlsafe, "LOADER", getattr(yaml, loader))
    keys = []
    for text in BROKEN_YAML:
        with pytest.raises(yamlsafe.YamlError) as raised:
            yamlsafe.compose(text)
        if raised.value.message.key == "yaml.syntax":  # else the kit's own words (an alias, two documents)
            keys.append(raised.value.message.params["problem"].key)
        korean = raised.value.message.render("ko")
        assert not english_sentences(korean) and not wrong_joins(korean), (text, korean)
    assert "yaml.problem.other" not in keys and len(set(keys)) >= 10, keys


def test_fixtures_verify_in_korean_says_every_problem_in_korean(tmp_path):
    """The malformed corpus and a few broken files through ``abkit fixtures verify --lang ko``: each problem is
    named in Korean (no English sentence of the parser's), with particles that agree."""
    import shutil

    malformed = KIT_ROOT / "tests" / "malformed"
    for path in malformed.glob("*.yaml"):
        shutil.copy(path, tmp_path / path.name)
    for n, text in enumerate(BROKEN_YAML):
        (tmp_path / f"broken-{n}.yaml").write_text(text, encoding="utf-8")
    out = _run_cli("fixtures", "verify", tmp_path, "--lang", "ko")
    lines = [line for line in out.splitlines() if ".yaml:" in line]
    assert len(lines) >= len(BROKEN_YAML) + 20, out
    bad = [(line, found) for line in lines for found in english_sentences(line) + wrong_joins(line)]
    assert not bad, bad


def _parsers(parser, path=()):
    """Every parser of the command line: ``abkit`` and each command and action below it, with its path."""
    import argparse

    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, path + (name,))


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_help_fits_80_columns_by_display_width(lang, monkeypatch):
    """Every ``--help`` at 80 columns: no line wider than the terminal (Hangul counts two columns), Korean
    broken between words only, and no English sentence in the Korean help."""
    from abkit.cli.arguments import build_parser, display_width, localize

    monkeypatch.setenv("COLUMNS", "80")
    localize(lang)
    try:
        parsers = list(_parsers(build_parser(lang)))
        assert len(parsers) >= 15
        for path, parser in parsers:
            text = parser.format_help()
            wide = [line for line in text.splitlines() if display_width(line) > 80]
            assert not wide, (path, wide)
            usage = text.split("\n\n")[0].splitlines()  # argparse's layout: options lined up after the prog
            first = usage[0].split(" [")[0] + " "
            assert all(line.startswith(" " * display_width(first) + "[") or line.strip()[0] not in "[-"
                       for line in usage[1:]), (path, usage)
            if lang == "ko":
                words = set(re.sub(r"\s+", " ", " ".join(a.help or "" for a in parser._actions)
                                   + " " + (parser.description or "")).split())
                lines = [line.strip() for line in text.splitlines()]
                broken = [f"{a.split()[-1]}/{b.split()[0]}" for a, b in zip(lines, lines[1:]) if a and b
                          and f"{a.split()[-1]}{b.split()[0]}" in words and HANGUL.search(a.split()[-1])]
                assert not broken, (path, broken)
                prose = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith(("사용법", "[")))
                assert not english_sentences(prose), (path, english_sentences(prose))
    finally:
        localize("en")


def test_the_handout_ends_with_the_glossary_in_both_languages():
    """The last section prints glossary.yaml: every entry's English term, the kit's Korean term and the seed's."""
    from abkit.i18n import glossary as kit_glossary
    from abkit.handouts.content import build_document

    entries = kit_glossary()
    for lang in ("en", "ko"):
        last = build_document(lang, "handout").sections[-1]
        tables = [b for b in last.blocks if b.get("glossary")]
        assert last.id == "glossary" and len(tables) == 1
        assert tables[0]["rows"] == [[e["en"], e["ko"], e["seed"] or "—", e.get("means", {}).get(lang, "")]
                                     for e in entries]
    assert {"수평선 효과", "시계 효과", "정답", "확률 노드", "깊이 제한", "α–β 구간"} <= \
        {term for e in entries for term in (e["ko"], e["seed"])}
