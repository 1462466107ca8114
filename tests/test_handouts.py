"""The printed handouts: words in both languages, figures that match the fixtures, PDFs a reader can read."""

from __future__ import annotations

import doctest
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from abkit.fixture import fixture_paths, load_fixture
from abkit.loading import PUBLIC_FIXTURES
from abkit.trace import pruned_subtrees
from abkit.tree import Tree
from abkit.errors import UsageError
from abkit.handouts import build, jobs, parse_langs, read_students
from abkit.handouts import content, fonts, render, words
from abkit.handouts.exercises import tree_exercises
from abkit.handouts.content import (build_document, exercise_tree, final_iteration, outline, seed_for,
                                     step_events, trace_of)
from abkit.reference import reference_trace
from abkit.stepthrough.svgtree import ANSWER, BLANK, MAX_FIGURE_PT, MINIMAX, VALUES, best_path, render_svg

SEED_KIM_EX1 = 235349598443848
CUT = re.compile(r'<g class="cut" data-node="([^"]+)"')
FIGURE_ID = re.compile(r"fig-(.+)-(alphabeta|minimax|cutoff|ordering|expectimax)$")
EDITIONS = ("handout", "answer_key")
KEY_TERMS = {
    "en": ["minimax", "alpha-beta", "MAX-VALUE", "MIN-VALUE", "Knuth", "Pearl", "expectimax", "TD-Gammon",
           "horizon effect", "quiescent", "Shannon", "iterative deepening", "expectiminimax", "EVAL(C1) = 1",
           "H-MINIMAX", "Nilsson's tic-tac-toe game", "GeeksforGeeks", "CHINOOK", "Deep Blue", "Samuel",
           "weighted", "The final search"],
    "ko": ["미니맥스", "알파베타", "가지치기", "MAX-VALUE", "Knuth", "Pearl", "기댓값 최대화", "TD-Gammon",
           "수평선 효과", "고요", "섀넌", "반복 심화", "기댓값 미니맥스", "EVAL(C1) = 1",
           "H-MINIMAX", "Nilsson의 틱택토", "GeeksforGeeks", "CHINOOK", "Deep Blue", "Samuel", "가중치",
           "마지막 탐색"],
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
    names = lambda text: set(re.findall(r"(?<!\{)\{(\w+)(?::[^{}]*)?\}", text))  # Korean: {v:을}
    ko = words.words("ko")
    assert [k for k, text in words.words("en").items() if names(text) != names(ko[k])] == []


def test_every_outline_key_has_words():
    en = words.words("en")
    plan = outline()
    keys = {s["section"] + ".title" for s in plan["handout"] + plan["answer_key"]}
    for section in plan["handout"] + plan["answer_key"]:
        for block in section.get("blocks", ()):
            kind, value = next(iter(block.items()))
            if kind in ("p", "code", "formula", "subhead"):
                keys.add(value)
            elif kind == "list":
                keys.update(value)
            elif kind in ("figure", "ordering_plot"):
                keys.add(value["caption"])
            elif kind == "code_pair":
                keys.update([*value["titles"], *value["code"], value["caption"]])
            elif kind in ("exercise", "answer"):
                keys.update(f"{value}.{part}" for part in ("title", "task"))
                keys.update(plan["exercises"][value]["questions"])
    assert sorted(keys - set(en)) == []


def test_a_digest_of_digits_only_is_stamped_as_text():
    lines = words._stamp_lines(["k:\n", "  en: abc\n", "  text: t\n"], "k", "012345670123")
    assert yaml.safe_load("".join(lines))["k"]["en"] == "012345670123"


@pytest.fixture
def messages(tmp_path):
    """A copy of the handout message files to change."""
    folder = tmp_path / "messages"
    shutil.copytree(words.messages_folder(), folder)
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

def pruned_sets() -> list[tuple[Path, str]]:
    """(fixture, algorithm) for every drawn tree whose fixture states a pruned set for that algorithm."""
    pairs = []
    for path in fixture_paths([PUBLIC_FIXTURES]):
        fixture = load_fixture(path)
        if fixture.tree is not None:
            pairs += [(path, algorithm) for algorithm, fields in fixture.expected.items() if "pruned" in fields]
    return pairs


@pytest.mark.parametrize("path,algorithm", pruned_sets(), ids=lambda x: getattr(x, "stem", x))
def test_each_figures_pruned_marks_are_the_fixtures_expected_pruned_set(path, algorithm):
    fixture = load_fixture(path)
    game = fixture.game()
    trace = reference_trace(game, fixture.tree.root, algorithm, fixture.prune_on_equality,
                            **fixture.search_params(algorithm, game))
    svg = render_svg(fixture.tree, trace, ANSWER)
    assert cut_marks(svg) == fixture.expected[algorithm]["pruned"]
    assert cut_marks(render_svg(fixture.tree, trace, BLANK)) == []
    assert svg.count('class="node"') == len(fixture.tree)


def test_the_pruned_sets_cover_every_searched_kind_of_tree():
    assert {"alphabeta", "cutoff"} <= {algorithm for _, algorithm in pruned_sets()}
    assert len(pruned_sets()) >= 15


def expected_marks(fixture_id: str, algorithm: str) -> list[str]:
    """The X marks a handout figure must carry, from the fixture's expected block alone.

    minimax and expectimax prune nothing. Iterative deepening (``ordering``) is
    drawn as its last iteration: what no iteration generated below the nodes
    it expanded, the states valued by EVAL at the full depth being its frontier.
    """
    fixture = load_fixture(PUBLIC_FIXTURES / f"{fixture_id}.yaml")
    expected = fixture.expected[algorithm]
    if algorithm in ("minimax", "expectimax"):
        return []
    if algorithm == "ordering":
        depth = fixture.tree.depths()
        frontier = [n for n in expected["evaluated"] if depth[n] == fixture.depth]
        return pruned_subtrees(fixture.tree, expected["visited"], frontier)
    return expected["pruned"]


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_handout_figures_of_fixtures_show_exactly_the_expected_cuts(lang):
    document = build_document(lang, "handout")
    checked = []
    for figure in document.figures():
        match = FIGURE_ID.match(figure["id"])
        if match:
            assert cut_marks(figure["svg"]) == expected_marks(match[1], match[2]) == figure["pruned"], figure["id"]
            checked.append(match[2])
    # Figure 5.2 by minimax and alpha-beta, the GfG and reordered trees; the ordering lab's two searches;
    # the horizon tree to depth 2 and to the end; the dice tree
    assert sorted(checked) == sorted(["minimax", "alphabeta", "alphabeta", "alphabeta", "cutoff", "ordering",
                                      "cutoff", "minimax", "expectimax"])


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_notes_cite_the_documents_own_figures_tables_and_sections(lang):
    """Citations are labels ({fig[ID]}, {table[ID]}, {sec[ID]}) that the builder numbers: every one resolves
    (a second pass would raise on an unknown label), and "Figure 5.2" is only ever AIMA's."""
    document = build_document(lang, "handout")
    figure_word, table_word = ("Figure", "Table") if lang == "en" else ("그림", "표")
    numbers = {f["id"]: int(re.match(rf"{figure_word} (\d+)\.", f["caption"])[1]) for f in document.figures()}
    assert sorted(numbers.values()) == list(range(1, len(numbers) + 1))
    text = " ".join(b.get("text", "") + " ".join(b.get("items", [])) for b in document.blocks())
    minimax = numbers["fig-aima-fig-5-2-minimax"]
    assert f"{figure_word} {minimax}" in text and re.findall(rf"(?<!AIMA ){figure_word} 5\.2", text) == []
    assert f"{figure_word} {numbers['fig-cutoff-horizon-cutoff']}" in text
    tables = {b["id"]: int(re.match(rf"{table_word} (\d+)\.", b["caption"])[1]) for b in document.blocks("table")}
    assert f"{table_word} {tables['nilsson-nilsson-stage-3']}" in text
    sections = [s.id for s in document.sections]
    cited = {int(n) for n in re.findall(r"Section (\d+)" if lang == "en" else r"(\d+)절", text)}
    assert cited and cited <= set(range(1, len(sections) + 1))
    assert f"{sections.index('horizon') + 1}" in re.findall(r"Section (\d+)" if lang == "en" else r"(\d+)절", text)


def test_an_unknown_citation_is_a_usage_error(monkeypatch):
    builder = content.Builder("en", numbers={"fig": {}, "table": {}})
    monkeypatch.setitem(builder.words, "intro.p1", "see Figure {fig[nowhere]}")
    with pytest.raises(UsageError) as error:
        builder.w("intro.p1")
    assert "nowhere" in str(error.value.message.render("en"))
    assert content.Builder("en").w("intro.l3").startswith("Section ")  # sections are known from the outline


def test_answer_figures_match_their_own_trace():
    for exercise in tree_exercises():
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


def shapes_of(svg: str | None) -> str | None:
    """An SVG without its words (a plot's labels are translated; its lines and points are not)."""
    return None if svg is None else re.sub(r">[^<]*</text>", "></text>", svg)


def test_chance_nodes_are_circles_with_probabilities_on_their_edges_and_expected_values():
    fixture = load_fixture(PUBLIC_FIXTURES / "expectimax-dice.yaml")
    trace = trace_of(fixture.tree, "expectimax")
    svg = render_svg(fixture.tree, trace, VALUES)
    assert svg.count('class="chance"') == 2 and svg.count('class="max"') == 1 and svg.count('class="min"') == 8
    labels = re.findall(r'<g class="probability" data-node="(\w+)">.*?>([^<>]+)</text></g>', svg)
    assert labels == [(f"B{i}", "1/6") for i in range(1, 7)] + [("C1", "1/3"), ("C2", "2/3")]
    values = re.findall(r'font-weight="bold">([^<]+)<', svg)
    assert values[:2] == ["3.67", "3.67"] and "3.33" in values  # A and B = 22/6, C = 10/3, rounded
    assert cut_marks(svg) == [] and 'class="order"' not in svg and 'class="horizon"' not in svg
    assert best_path(fixture.tree, trace) == ["A", "B"]
    blank = render_svg(fixture.tree, None, BLANK)
    assert blank.count('class="probability"') == 8 and "3.67" not in blank  # probabilities belong to the tree
    bare = Tree("A", {"A": ("B",), "B": ("B1", "B2")}, {"B1": 1, "B2": 2}, levels=("MAX", "CHANCE"))
    assert 'class="probability"' not in render_svg(bare) and render_svg(bare).count('class="chance"') == 1


def test_nodes_valued_by_eval_are_dashed_and_nothing_below_them_is_pruned():
    fixture = load_fixture(PUBLIC_FIXTURES / "cutoff-horizon.yaml")
    trace = trace_of(fixture.tree, "cutoff", depth=fixture.depth)
    svg = render_svg(fixture.tree, trace, ANSWER)
    assert re.findall(r'<g class="eval">.*?>(EVAL = [^<]+)</text></g>', svg) == ["EVAL = 5", "EVAL = 2", "EVAL = 1"]
    assert svg.count('stroke-dasharray="3 2"') == 3 and svg.count('class="horizon"') == 1
    assert cut_marks(svg) == ["C2"]  # B1a ... C1b lie beyond the depth limit: drawn, never crossed out
    assert svg.count('class="node"') == len(fixture.tree) and svg.count('stroke-dasharray="1.5 2.5"') == 6
    full = render_svg(fixture.tree, trace_of(fixture.tree, "minimax"), MINIMAX)
    assert 'class="eval"' not in full and 'class="horizon"' not in full
    assert best_path(fixture.tree, trace_of(fixture.tree, "minimax")) == ["A", "C", "C2", "C2a"]


def test_iterative_deepening_is_drawn_as_its_last_iteration():
    fixture = load_fixture(PUBLIC_FIXTURES / "ordering-deepening.yaml")
    whole = trace_of(fixture.tree, "ordering", depth=2)
    last = final_iteration(whole)
    assert last.visited == ["A", "D", "D1", "D2", "D3", "B", "B1", "C", "C1"]
    assert last.evaluated == ["D1", "D2", "D3", "B1", "C1"]  # 5 leaves; the plain depth-2 search takes 8
    assert len(trace_of(fixture.tree, "cutoff", depth=2).evaluated) == 8
    assert last.pruned(fixture.tree) == ["B2", "B3", "C2", "C3"]
    assert [(c.node, c.visited_at, c.parent) for c in last.calls[:3]] == [("A", 1, None), ("D", 2, 0), ("D1", 3, 1)]
    assert last.value == whole.value == 6 and last.action == "D"
    once = trace_of(fixture.tree, "cutoff", depth=2)
    same = final_iteration(once)
    assert (same.visited, same.evaluated, same.calls) == (once.visited, once.evaluated, once.calls)


def test_nilssons_table_backs_up_minus_one_minus_two_and_one_and_alpha_beta_cuts_the_edge():
    table = content.Builder("en").nilsson("nilsson-depth-2")
    rows = table["rows"]
    assert len(rows) == 12 and [r[0] for r in rows if r[0]] == ["corner", "edge", "centre"]
    assert [r[3] for r in rows if r[3]] == ["-1", "-2", "1"]
    assert rows[0][1:3] == ["`XO./.../...`", "6 − 5 = 1"] and rows[7][2] == "4 − 6 = -2"
    assert [r[4] for r in rows].count("evaluated") == 8 and [r[4] for r in rows[6:10]] == ["cut off"] * 4
    assert content.Builder("ko").nilsson("nilsson-depth-2")["rows"][10][0] == "가운데"


def test_the_ordering_plot_is_measured_when_the_handout_is_built():
    builder = content.Builder("ko")
    plot = builder.ordering_plot({"b": 2, "max_depth": 3, "seeds": 3, "caption": "efficiency.plot"})
    assert plot["kind"] == "figure" and plot["pruned"] == [] and plot["caption"].startswith("그림 1. ")
    assert plot["svg"].startswith("<svg") and "최선 순서" in plot["svg"] and 0 < plot["width_pt"] <= MAX_FIGURE_PT
    assert [plot["svg"].count(f"<{shape}") for shape in ("circle", "polygon")] == [3 + 1, 3 + 1]  # d = 1..3, label


def test_wide_trees_are_drawn_compact_and_the_others_as_before():
    assert content.style_for(load_fixture(PUBLIC_FIXTURES / "expectimax-dice.yaml").tree).leaf_gap == 34
    assert content.style_for(load_fixture(PUBLIC_FIXTURES / "aima-fig-5-2.yaml").tree).leaf_gap == 46


@pytest.mark.parametrize("edition", ["handout", "answer_key", "student_sheet", "variant_key"])
def test_korean_and_english_have_the_same_sections_exercises_and_figures(edition):
    student = "s1" if edition in ("student_sheet", "variant_key") else ""
    shape = {}
    for lang in ("en", "ko"):
        document = build_document(lang, edition, student)
        shape[lang] = [(s.id, [(b["kind"], b.get("id"), shapes_of(b.get("svg")),
                                len(b.get("rows", b.get("items", [])))) for b in s.blocks])
                       for s in document.sections]
    assert shape["en"] == shape["ko"]
    assert shape["en"]


def test_the_aima_steps_show_the_cut_at_c():
    fixture = load_fixture(PUBLIC_FIXTURES / "aima-fig-5-2.yaml")
    events = step_events(trace_of(fixture.tree, "alphabeta"), fixture.tree)
    cut = [params for key, params in events if key == "steps.cut_min"]
    assert cut == [{"node": "C", "child": "C1", "value": "2", "v": "2", "rel": "<", "alpha": "3", "pruned": "C2, C3"}]
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

def test_variants_are_deterministic_per_student():
    first = {ex: exercise_tree(ex, "kim-01") for ex in tree_exercises()}
    exercise_tree.cache_clear()
    again = {ex: exercise_tree(ex, "kim-01") for ex in tree_exercises()}
    assert first == again
    for ex, spec in outline()["exercises"].items():
        if ex not in first:
            continue  # a table exercise: its numbers are the outline's
        trees = [exercise_tree(ex, s) for s in ("", "kim-01", "lee-02", "park-03")]
        if "fixture" in spec:
            assert len({str(t) for t in trees}) == 1, ex  # a fixture exercise is the same for everyone
        else:
            assert len({str(t.utilities) for t in trees}) == len(trees), ex  # different values


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


@pytest.mark.slow
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


@pytest.mark.slow
def test_build_writes_a_pdf_and_an_html_per_document_and_language(built):
    out, written = built
    names = sorted(p.relative_to(out).as_posix() for p in written)
    assert names == sorted(f"{lang}/{doc}.{fmt}" for lang in ("ko", "en") for doc in ("handout", "answer-key")
                           for fmt in ("pdf", "html"))
    assert all(p.stat().st_size > 1000 for p in written)
    assert (out / "ko/handout.pdf").read_bytes()[:5] == b"%PDF-"


@pytest.mark.slow
def test_html_is_self_contained_and_carries_the_figures(built):
    out, _ = built
    for lang in ("en", "ko"):
        html = (out / lang / "handout.html").read_text(encoding="utf-8")
        assert f'<html lang="{lang}">' in html and "@page { size: A4" in html
        assert not re.search(r'(src|href)="(https?:)?//', html)
        figures = build_document(lang, "handout").figures()  # a worked example also has its step-through's tree
        assert html.count("<svg") == len(figures) + sum("stepper" in f for f in figures)
        assert cut_marks(html) == [node for figure in figures for node in figure["pruned"]]
        assert len(cut_marks(html)) == 14  # the lecture's figures (C3; B2, B3, C2, C3; C2; C2, C3; E2, G; C2, C3, D1, D2)
        assert html.count('class="chance"') == sum(f["svg"].count('class="chance"') for f in figures) == 4
        assert html.count('class="eval"') == 3


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed (poppler-utils); cannot inspect the PDF")
    return path


@pytest.mark.slow
def test_the_korean_pdf_embeds_a_korean_font(built):
    out, _ = built
    listing = subprocess.run([_tool("pdffonts"), str(out / "ko/handout.pdf")], capture_output=True, text=True,
                             check=True).stdout
    family = fonts.find_hangul_font().family.replace(" ", "")
    embedded = [line.split()[0].split("+")[-1] for line in listing.splitlines()[2:]]
    assert any(name.startswith(family) for name in embedded), listing
    assert all(line.split()[-5] == "yes" for line in listing.splitlines()[2:])  # every font embedded


@pytest.mark.slow
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
    monkeypatch.setattr(words.review, "__defaults__", (messages,))
    monkeypatch.setattr(words.stamp, "__defaults__", (messages,))
    words.english.cache_clear()
    run = abkit("handouts", "review", "--lang", "en")
    assert run.status == 1 and "ans.none: the English text changed" in run.out
    run = abkit("handouts", "review", "--stamp-all", "--lang", "ko")
    assert run.status == 0 and "ans.none 검토 표시" in run.out
    assert abkit("handouts", "review", "--stamp", "no.such", "--lang", "en").status == 2


@pytest.mark.parametrize("module", [content, render, words, __import__("handouts", fromlist=["x"]),
                                    __import__("abkit.stepthrough.svgtree", fromlist=["x"]),
                                    __import__("abkit.handouts.papertree", fromlist=["x"]),
                                    __import__("abkit.stepthrough.typeset", fromlist=["x"]),
                                    __import__("abkit.handouts.exercises", fromlist=["x"]),
                                    __import__("abkit.handouts.trees", fromlist=["x"])])
def test_doctests(module):
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0
