"""The printed handouts: words in both languages, figures that match the fixtures, PDFs a reader can read."""

from __future__ import annotations

import doctest
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from abkit.fixture import fixture_paths, load_fixture
from abkit.loading import PUBLIC_FIXTURES
from grader.errors import UsageError
from grader.handouts import build, jobs, parse_langs, read_students
from grader.handouts import content, fonts, render, words
from grader.handouts.content import build_document, exercise_tree, outline, seed_for, step_events, trace_of
from grader.reference import reference_trace
from grader.svgtree import ANSWER, BLANK, MINIMAX, best_path, render_svg

SEED_KIM_EX1 = 235349598443848
CUT = re.compile(r'<g class="cut" data-node="([^"]+)"')
EDITIONS = ("handout", "answer_key")
KEY_TERMS = {
    "en": ["minimax", "alpha-beta", "MAX-VALUE", "MIN-VALUE", "Knuth", "Pearl", "expectimax", "TD-Gammon",
           "horizon effect", "quiescent", "Shannon", "iterative deepening"],
    "ko": ["미니맥스", "알파베타", "가지치기", "MAX-VALUE", "Knuth", "Pearl", "기댓값 최대화", "TD-Gammon",
           "수평선 효과", "고요", "섀넌", "반복적 깊이 증가"],
}


def cut_marks(svg: str) -> list[str]:
    return CUT.findall(svg)


# --- words -------------------------------------------------------------------------------------

def test_every_key_exists_in_both_languages_and_no_korean_text_is_stale():
    state = words.review()
    assert state.only_en == [], f"add these keys to handouts/messages/ko.yaml: {state.only_en}"
    assert state.only_ko == [], f"these keys are only in ko.yaml: {state.only_ko}"
    assert state.stale == [], ("the English of these keys changed since their Korean was reviewed; review the "
                               f"Korean, then run `abkit handouts review --stamp KEY`: {state.stale}")


def test_placeholders_match_between_languages():
    names = lambda text: set(re.findall(r"(?<!\{)\{(\w+)\}", text))
    ko = words.words("ko")
    assert [k for k, text in words.words("en").items() if names(text) != names(ko[k])] == []


def test_every_outline_key_has_words():
    en = words.words("en")
    plan = outline()
    keys = {s["section"] + ".title" for s in plan["handout"] + plan["answer_key"]}
    for section in plan["handout"] + plan["answer_key"]:
        for block in section.get("blocks", ()):
            (kind, value), = block.items()
            if kind in ("p", "code", "formula"):
                keys.add(value)
            elif kind == "list":
                keys.update(value)
            elif kind == "figure":
                keys.add(value["caption"])
    assert sorted(keys - set(en)) == []


@pytest.fixture
def messages(tmp_path):
    """A copy of the handout message files to change."""
    folder = tmp_path / "messages"
    shutil.copytree(words.MESSAGES, folder)
    yield folder
    words.english.cache_clear()
    words.korean_entries.cache_clear()


def test_a_changed_english_text_makes_its_korean_stale_until_stamped(messages):
    en = messages / "en.yaml"
    en.write_text(en.read_text(encoding="utf-8").replace('games.title: "Two-player', 'games.title: "Two-person'),
                  encoding="utf-8")
    words.english.cache_clear()
    assert words.review(messages).stale == ["games.title"]
    before = (messages / "ko.yaml").read_text(encoding="utf-8")
    assert words.stamp(["games.title"], messages) == ["games.title"]
    after = (messages / "ko.yaml").read_text(encoding="utf-8")
    assert words.review(messages).clean
    changed = [(a, b) for a, b in zip(before.splitlines(), after.splitlines()) if a != b]
    assert len(changed) == 1 and changed[0][1].strip().startswith("en: ")  # only the hash line moved


def test_keys_in_one_language_only_are_reported(messages):
    with (messages / "en.yaml").open("a", encoding="utf-8") as f:
        f.write('new.key: "new"\n')
    with (messages / "ko.yaml").open("a", encoding="utf-8") as f:
        f.write('old.key:\n  en: 0\n  text: "옛"\n')
    words.english.cache_clear()
    words.korean_entries.cache_clear()
    state = words.review(messages)
    assert state.only_en == ["new.key"] and state.only_ko == ["old.key"] and not state.clean
    with pytest.raises(UsageError):
        words.stamp(["new.key"], messages)


def test_a_missing_hash_line_is_added_when_stamped(messages):
    ko = messages / "ko.yaml"
    ko.write_text(re.sub(r"(ex\.q\.count:\n)  en: \w+\n", r"\1", ko.read_text(encoding="utf-8")), encoding="utf-8")
    words.korean_entries.cache_clear()
    assert words.review(messages).stale == ["ex.q.count"]
    words.stamp(["ex.q.count"], messages)
    assert words.review(messages).clean


@pytest.mark.parametrize("name,text,key", [
    ("en.yaml", "a: [1\n", "handouts.words.bad_yaml"),
    ("en.yaml", "- just a list\n", "handouts.words.bad_yaml"),
    ("en.yaml", "a: {b: 1}\n", "handouts.words.bad_entry"),
    ("ko.yaml", "a: plain text\n", "handouts.words.bad_entry"),
])
def test_malformed_message_files_are_usage_errors(messages, name, text, key):
    (messages / name).write_text(text, encoding="utf-8")
    with pytest.raises(UsageError) as error:
        words.review(messages)
    assert error.value.message.key == key


def test_a_missing_message_file_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError) as error:
        words.english(tmp_path)
    assert error.value.message.key == "handouts.words.missing"


# --- figures and documents --------------------------------------------------------------------

@pytest.mark.parametrize("path", fixture_paths([PUBLIC_FIXTURES]), ids=lambda p: p.stem)
def test_each_figures_pruned_marks_are_the_fixtures_expected_pruned_set(path):
    fixture = load_fixture(path)
    expected = fixture.expected.get("alphabeta", {}).get("pruned")
    if expected is None:
        pytest.skip("no expected alpha-beta pruned set")
    trace = reference_trace(fixture.game(), fixture.tree.root, "alphabeta", fixture.prune_on_equality)
    svg = render_svg(fixture.tree, trace, ANSWER)
    assert cut_marks(svg) == expected
    assert cut_marks(render_svg(fixture.tree, trace, BLANK)) == []
    assert svg.count('class="node"') == len(fixture.tree)


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_handout_figures_of_fixtures_show_exactly_the_expected_cuts(lang):
    document = build_document(lang, "handout")
    checked = 0
    for figure in document.figures():
        match = re.match(r"fig-(.+)-(alphabeta|minimax)$", figure["id"])
        if match:
            expected = load_fixture(PUBLIC_FIXTURES / f"{match[1]}.yaml").expected
            want = expected["alphabeta"]["pruned"] if match[2] == "alphabeta" else []
            assert cut_marks(figure["svg"]) == want == figure["pruned"], figure["id"]
            checked += 1
    assert checked == 4  # Figure 5.2 by minimax and by alpha-beta, the GfG tree, the reordered tree


def test_answer_figures_match_their_own_trace():
    for exercise in outline()["exercises"]:
        tree = exercise_tree(exercise)
        assert cut_marks(render_svg(tree, trace_of(tree, "alphabeta"), ANSWER)) == trace_of(tree, "alphabeta").pruned(tree)


def test_shapes_follow_the_textbook_and_the_best_path_is_the_principal_variation():
    fixture = load_fixture(PUBLIC_FIXTURES / "aima-fig-5-2.yaml")
    trace = trace_of(fixture.tree, "alphabeta")
    svg = render_svg(fixture.tree, trace, ANSWER)
    assert svg.count('class="max"') == 1 and svg.count('class="min"') == 3  # A; B, C, D
    assert best_path(fixture.tree, trace) == ["A", "B", "B1"]
    assert "α=3" in svg and "β=+∞" in svg and svg.count('class="order"') == 11
    plain = render_svg(fixture.tree, trace_of(fixture.tree, "minimax"), MINIMAX)
    assert "α=" not in plain and cut_marks(plain) == []
    assert best_path(fixture.tree, None) == []


@pytest.mark.parametrize("edition", ["handout", "answer_key", "student_sheet", "variant_key"])
def test_korean_and_english_have_the_same_sections_exercises_and_figures(edition):
    student = "s1" if edition in ("student_sheet", "variant_key") else ""
    shape = {}
    for lang in ("en", "ko"):
        document = build_document(lang, edition, student)
        shape[lang] = [(s.id, [(b["kind"], b.get("id"), b.get("svg"), len(b.get("rows", b.get("items", []))))
                               for b in s.blocks]) for s in document.sections]
    assert shape["en"] == shape["ko"]
    assert shape["en"]


def test_the_aima_steps_show_the_cut_at_c():
    fixture = load_fixture(PUBLIC_FIXTURES / "aima-fig-5-2.yaml")
    events = step_events(trace_of(fixture.tree, "alphabeta"), fixture.tree)
    cut = [params for key, params in events if key == "steps.cut_min"]
    assert cut == [{"node": "C", "child": "C1", "value": "2", "v": "2", "rel": "≤", "alpha": "3", "beta": "+∞",
                    "pruned": "C2, C3"}]
    assert events[0] == ("steps.enter", {"node": "A", "player": "MAX", "alpha": "-∞", "beta": "+∞", "v": "-∞"})
    assert events[-1] == ("steps.done", {"value": "3", "action": "B"})
    gfg = load_fixture(PUBLIC_FIXTURES / "gfg-alpha-beta.yaml")
    keys = [k for k, _ in step_events(trace_of(gfg.tree, "alphabeta"), gfg.tree)]
    assert keys.count("steps.cut_max") == 1 and keys.count("steps.cut_min") == 1


def test_the_knuth_moore_table_is_measured_and_matches_the_oracles():
    table = content.Builder("en").knuth_moore([[2, 3], [3, 4], [4, 6]])
    assert [row[3] for row in table["rows"]] == ["5", "17", "127"]
    assert all(row[3] == row[4] for row in table["rows"])


# --- variants ---------------------------------------------------------------------------------

def test_variants_are_deterministic_per_student_and_equally_hard():
    first = {ex: exercise_tree(ex, "kim-01") for ex in outline()["exercises"]}
    exercise_tree.cache_clear()
    again = {ex: exercise_tree(ex, "kim-01") for ex in outline()["exercises"]}
    assert first == again
    for ex, spec in outline()["exercises"].items():
        trees = [exercise_tree(ex, s) for s in ("", "kim-01", "lee-02", "park-03")]
        assert len({str(t.utilities) for t in trees}) == len(trees), ex  # different values
        assert {len(t.leaves()) for t in trees} == {spec["branching"] ** spec["depth"]}
        assert {len(trace_of(t, "alphabeta").evaluated) for t in trees} == {spec["evaluated"]}


def test_the_seed_is_the_same_on_every_machine():
    # sha256 of "student\0exercise", not Python's hash() (which changes from one process to the next)
    assert seed_for("kim-01", "ex1") == SEED_KIM_EX1


def test_reading_student_lists(write):
    assert read_students(write("student,name\nkim-01,Kim\n\nlee.02,Lee\n", "s.csv")) == ["kim-01", "lee.02"]
    assert read_students(write("\ufeffa1\nb2\n", "s.csv")) == ["a1", "b2"]
    assert read_students(write("name,id\nKim,학생1\n", "s.csv")) == ["학생1"]
    for text, key in [("student\n../x\n", "bad_id"), ("a1\na1\n", "duplicate"), ("student\n", "empty"),
                      ("name,id\nKim\n", "bad_id")]:
        with pytest.raises(UsageError) as error:
            read_students(write(text, "s.csv"))
        assert error.value.message.key == f"handouts.variants.{key}"
    with pytest.raises(UsageError):
        read_students(Path("/no/such/students.csv"))


def test_languages_and_jobs():
    assert parse_langs("ko") == ["ko"]
    for bad in ("", "fr", "ko,fr"):
        with pytest.raises(UsageError):
            parse_langs(bad)
    paths = [j.path(Path("out"), "pdf").as_posix() for j in jobs(["en"], ["s1"])]
    assert paths == ["out/en/handout.pdf", "out/en/answer-key.pdf", "out/en/students/s1.pdf",
                     "out/en/answer-keys/s1.pdf"]


# --- fonts --------------------------------------------------------------------------------------

def test_hangul_font_from_the_environment_and_the_candidates(tmp_path):
    font = tmp_path / "MyHangul.ttf"
    font.write_bytes(b"not really a font")
    chosen = fonts.find_hangul_font(environ={fonts.ENV_FONT: str(font)})
    assert chosen.family == "MyHangul" and chosen.files == (font,)
    with pytest.raises(UsageError) as error:
        fonts.find_hangul_font(environ={fonts.ENV_FONT: str(tmp_path / "none.ttf")})
    assert error.value.message.key == "handouts.bad_font_env"
    with pytest.raises(UsageError) as error:
        fonts.find_hangul_font(candidates=(("X", "X", (str(tmp_path / "x.ttf"),)),), environ={})
    assert error.value.message.key == "handouts.no_hangul_font"
    listed = fonts.find_hangul_font(candidates=(("F", "", (str(font), str(tmp_path / "gone.ttf"))),), environ={})
    assert listed.files == (font,)
    folder = fonts.font_folder(listed, tmp_path / "fonts")
    assert [p.name for p in folder.iterdir()] == ["MyHangul.ttf"]


def test_no_hangul_font_stops_korean_with_a_bilingual_message_and_exit_2(abkit, monkeypatch, tmp_path):
    monkeypatch.setattr(fonts, "CANDIDATES", ())
    monkeypatch.setattr(fonts.find_hangul_font, "__defaults__", ((), None))
    monkeypatch.delenv(fonts.ENV_FONT, raising=False)
    for lang, words_ in (("en", "fonts-nanum"), ("ko", "한글 글꼴")):
        run = abkit("handouts", "build", "--lang", lang if lang == "ko" else "ko,en", "--out", tmp_path,
                    "--format", "pdf")
        assert run.status == 2 and words_ in run.err and "Traceback" not in run.err
    assert not list(tmp_path.rglob("*.pdf"))
    run = abkit("handouts", "build", "--lang", "en", "--out", tmp_path / "en-only", "--format", "pdf")
    assert run.status == 0  # English needs no Hangul font


# --- the build, as a reader sees it -------------------------------------------------------------

@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("handouts")
    return out, build(["ko", "en"], out)


def test_build_writes_a_pdf_and_an_html_per_document_and_language(built):
    out, written = built
    names = sorted(p.relative_to(out).as_posix() for p in written)
    assert names == sorted(f"{lang}/{doc}.{fmt}" for lang in ("ko", "en") for doc in ("handout", "answer-key")
                           for fmt in ("pdf", "html"))
    assert all(p.stat().st_size > 1000 for p in written)
    assert (out / "ko/handout.pdf").read_bytes()[:5] == b"%PDF-"


def test_html_is_self_contained_and_carries_the_figures(built):
    out, _ = built
    for lang in ("en", "ko"):
        html = (out / lang / "handout.html").read_text(encoding="utf-8")
        assert f'<html lang="{lang}">' in html and "@page { size: A4" in html
        assert not re.search(r'(src|href)="(https?:)?//', html)
        assert html.count("<svg") == len(build_document(lang, "handout").figures())
        assert cut_marks(html) == ["C2", "C3", "E2", "G", "C2", "C3", "D1", "D2"]


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed (poppler-utils); cannot inspect the PDF")
    return path


def test_the_korean_pdf_embeds_a_korean_font(built):
    out, _ = built
    listing = subprocess.run([_tool("pdffonts"), str(out / "ko/handout.pdf")], capture_output=True, text=True,
                             check=True).stdout
    family = fonts.find_hangul_font().family.replace(" ", "")
    embedded = [line.split()[0].split("+")[-1] for line in listing.splitlines()[2:]]
    assert any(name.startswith(family) for name in embedded), listing
    assert all(line.split()[-5] == "yes" for line in listing.splitlines()[2:])  # every font embedded


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_both_pdfs_contain_the_key_terms(built, lang):
    out, _ = built
    text = subprocess.run([_tool("pdftotext"), str(out / lang / "handout.pdf"), "-"], capture_output=True,
                          text=True, check=True).stdout
    flat = re.sub(r"\s+", " ", text)
    missing = [term for term in KEY_TERMS[lang] if term not in flat]
    assert missing == []
    assert "\ufffd" not in text  # no replacement characters, i.e. no missing glyphs mapped to boxes


def test_variants_build_a_sheet_and_a_key_per_student(abkit, tmp_path, write):
    students = write("student\nkim-01\nlee-02\n", "students.csv")
    run = abkit("handouts", "build", "--lang", "en", "--out", tmp_path, "--variants", students, "--format", "html")
    assert run.status == 0, run.err
    sheets = sorted(p.name for p in (tmp_path / "en/students").iterdir())
    keys = sorted(p.name for p in (tmp_path / "en/answer-keys").iterdir())
    assert sheets == keys == ["kim-01.html", "lee-02.html"]
    kim = (tmp_path / "en/students/kim-01.html").read_text(encoding="utf-8")
    assert "Student: kim-01" in kim and 'class="cut"' not in kim
    assert "7 files written" not in run.out and "6 files written" in run.out


@pytest.mark.parametrize("args,words_", [
    (("--lang", "fr"), "unknown handout language 'fr'"),
    (("--format", "docx"), "unknown output format 'docx'"),
    (("--variants", "/no/such.csv"), "cannot read the student list"),
])
def test_build_usage_errors_exit_2(abkit, tmp_path, args, words_):
    run = abkit("handouts", "build", "--out", tmp_path, *args, "--lang", "en") if "--lang" not in args else \
        abkit("handouts", "build", "--out", tmp_path, *args)
    assert run.status == 2 and words_ in run.err and "Traceback" not in run.err


def test_an_unwritable_output_folder_is_exit_2(abkit, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    run = abkit("handouts", "build", "--lang", "en", "--out", blocker, "--format", "html")
    assert run.status == 2 and "cannot write" in run.err


def test_review_command(abkit, monkeypatch, messages):
    assert abkit("handouts", "review", "--lang", "en").status == 0
    en = messages / "en.yaml"
    en.write_text(en.read_text(encoding="utf-8").replace('ans.none: "none"', 'ans.none: "none at all"'),
                  encoding="utf-8")
    monkeypatch.setattr(words, "MESSAGES", messages)
    monkeypatch.setattr(words.review, "__defaults__", (messages,))
    monkeypatch.setattr(words.stamp, "__defaults__", (messages,))
    words.english.cache_clear()
    run = abkit("handouts", "review", "--lang", "en")
    assert run.status == 1 and "ans.none: the English text changed" in run.out
    run = abkit("handouts", "review", "--stamp-all", "--lang", "ko")
    assert run.status == 0 and "ans.none 검토 표시" in run.out
    assert abkit("handouts", "review", "--stamp", "no.such", "--lang", "en").status == 2


@pytest.mark.parametrize("module", [content, render, words, __import__("grader.handouts", fromlist=["x"]),
                                    __import__("grader.svgtree", fromlist=["x"])])
def test_doctests(module):
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0
