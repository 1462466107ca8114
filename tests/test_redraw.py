"""A course's own hidden trees (issue 17): abkit init and abkit fixtures redraw-hidden draw them from a recorded seed,
of the same kind and difficulty as the kit's published ones, which never reach a new course's grading."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from abkit.coursefolder import chosen_course, course_id
from abkit.fixture import fixture_paths, load_fixture, parse_fixture
from abkit.loading import HIDDEN_FIXTURES, KIT_ROOT
from abkit.randomtree import random_tree
from abkit.authoring import redraw
from abkit.grader.mistakes import same_slip, told_slip
from abkit.authoring.course import init_course
from abkit.authoring.verify import verify_fixture

PUBLISHED = {load_fixture(p).id: load_fixture(p) for p in fixture_paths([HIDDEN_FIXTURES])}


@pytest.fixture
def outside(tmp_path, monkeypatch):
    monkeypatch.delenv("ABKIT_COURSE", raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def hidden_texts(course: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted((course / "fixtures" / "hidden").glob("*.yaml"))}


@pytest.mark.slow
def test_a_new_course_draws_its_own_hidden_trees_and_the_same_seed_the_same_ones(abkit, outside):
    run = abkit("init", "one", "--seed", "42", "--lang", "en")
    assert run.status == 0 and "hidden trees drawn afresh from seed 42" in run.out
    assert abkit("init", "two", "--seed", "42", "--lang", "ko").status == 0
    assert abkit("init", "three", "--seed", "43", "--lang", "en").status == 0
    one, two, three = (hidden_texts(outside / name) for name in ("one", "two", "three"))
    assert one == two and len(one) == len(PUBLISHED)
    published = {p.read_text(encoding="utf-8") for p in HIDDEN_FIXTURES.glob("*.yaml")}
    kept = {name for name, text in one.items() if text in published}
    assert kept == {"ttt-corner-opening.yaml", "ttt-empty-board.yaml", "nilsson-depth-2-unmerged.yaml"}
    # another seed: every drawn tree differs, but for a tree added to tell a slip apart that has two leaves (a tie
    # at the root tells last_best apart: one of 37 values drawn twice, so two seeds may draw the same)
    tiny = {p.name for p in (outside / "one" / "fixtures" / "hidden").glob("adequacy-*.yaml")
            if len(load_fixture(p).tree.utilities) <= 2}
    assert kept <= {n for n in one if one[n] == three.get(n)} <= kept | tiny
    readme = (outside / "one" / "fixtures" / "hidden" / "README.md").read_text(encoding="utf-8")
    assert "**seed 42**" in readme and "**시드 42**" in readme and "abkit fixtures redraw-hidden --seed 42" in readme
    assert course_id(outside / "one") != course_id(outside / "two") and course_id(outside / "one").startswith("one-")


def test_no_drawn_id_or_title_names_a_seed_the_public_generator_could_replay(outside):
    init_course(outside / "c", seed=5)
    for path in fixture_paths([outside / "c" / "fixtures" / "hidden"]):
        fixture = load_fixture(path)
        assert path.stem == fixture.id and not re.search(r"-s\d+$", fixture.id)
        assert not any("seed" in title or "시드" in title for title in fixture.title.values())


@pytest.mark.slow
@pytest.mark.parametrize("rule", [True, False])
def test_a_tree_written_for_both_rules_stays_one_tree_and_the_course_tests_only_its_rules(outside, rule):
    """The published rule-split-max and rule-split-max-cs188 are one tree written for each rule: drawn again, they
    must stay one (else a course keeps the other rule's, recomputed, under a title naming the other rule)."""
    from abkit.courserule import counterpart_key, for_course_rule, keep

    pairs = {}
    for fixture in PUBLISHED.values():
        if told_slip(fixture.source):  # a smallest tree may equal another rule's: each tells its own slip apart
            continue
        pairs.setdefault(counterpart_key(fixture), []).append(fixture.id)
    assert sorted(sorted(ids) for ids in pairs.values() if len(ids) > 1) == [["rule-split-max", "rule-split-max-cs188"]]
    init_course(outside / "c", seed=5)
    drawn = {load_fixture(p).id: load_fixture(p) for p in fixture_paths([outside / "c" / "fixtures" / "hidden"])}
    aima, cs188 = drawn["rule-split-max"], drawn["rule-split-max-cs188"]
    assert counterpart_key(aima) == counterpart_key(cs188) != counterpart_key(PUBLISHED["rule-split-max"])
    assert (aima.prune_on_equality, cs188.prune_on_equality) == (True, False)
    assert aima.expected["alphabeta"] != cs188.expected["alphabeta"]  # the drawn tree still splits the rules
    with chosen_course(outside / "c"):
        kept = for_course_rule(list(drawn.values()), rule, keep)
    other = "(CS188 rule)" if rule else "(AIMA rule)"
    ids = {f.id for f in kept}
    assert ("rule-split-max" in ids, "rule-split-max-cs188" in ids) == (rule, not rule)  # the other replaced
    assert not [f.id for f in kept if other in f.title.get("en", "")]


@pytest.mark.slow
def test_every_drawn_tree_is_as_hard_as_the_one_it_replaces_and_verifies(outside):
    init_course(outside / "c", seed=1234)
    folder = outside / "c" / "fixtures" / "hidden"
    with chosen_course(outside / "c"):
        for path in fixture_paths([folder]):
            fixture = load_fixture(path)
            assert verify_fixture(fixture) == []
            original = PUBLISHED.get(fixture.id)
            if fixture.source.startswith("abkit fixtures generate"):  # a generated tree: the same command, no seed
                command = re.fullmatch(r"abkit fixtures generate (.*) --hidden", fixture.source).group(1)
                old = next(f for f in PUBLISHED.values() if f"generate {command} --seed" in f.source)
                assert len(fixture.tree) == len(old.tree) and fixture.tree.root_player == old.tree.root_player
                assert fixture.prune_on_equality == old.prune_on_equality
                continue
            if original.tree is None:
                assert fixture.position == original.position  # tic-tac-toe: kept
                continue
            assert fixture.tree.children == original.tree.children and fixture.tree.levels == original.tree.levels
            assert fixture.tree.probabilities == original.tree.probabilities and fixture.depth == original.depth
            assert fixture.tree.utilities != original.tree.utilities
            values = [*fixture.tree.utilities.values(), *fixture.tree.heuristics.values()]
            slip = told_slip(original.source)
            if slip:  # a tree added to tell one slip apart: it still does, wherever that slip is made
                only = {m.id for m in same_slip(slip)}
                assert redraw.caught(fixture, fixture.tree, only) >= redraw.caught(original, original.tree, only)
                assert all(-9 <= v <= 9 and 2 * v == int(2 * v) for v in values)
                continue
            assert redraw.difficulty(fixture, fixture.tree) == redraw.difficulty(original, original.tree)
            assert redraw.caught(fixture, fixture.tree) >= redraw.caught(original, original.tree)
            assert all(0 <= v <= 9 for v in values)


@pytest.mark.slow
def test_fixtures_verify_covers_the_drawn_trees(abkit, outside):
    init_course(outside / "c", seed=99)
    run = abkit("--course", outside / "c", "fixtures", "verify", "--lang", "en")
    count = len(fixture_paths([KIT_ROOT / "fixtures"]))
    assert run.status == 0 and f"{count} fixtures verified: 0 disagreements" in run.out
    broken = outside / "c" / "fixtures" / "hidden" / "aima-variant.yaml"
    broken.write_text(broken.read_text(encoding="utf-8").replace("nodes: 10", "nodes: 11"), encoding="utf-8")
    run = abkit("--course", outside / "c", "fixtures", "verify", "--lang", "en")
    assert run.status == 1 and "aima-variant.yaml" in run.out and "expected.alphabeta.nodes" in run.out


@pytest.mark.slow
def test_redrawing_in_a_course_with_the_same_seed_gives_the_same_trees(abkit, outside):
    init_course(outside / "a", seed=7)
    init_course(outside / "b", seed=8)
    run = abkit("--course", outside / "b", "fixtures", "redraw-hidden", "--seed", "7", "--lang", "en")
    count = len(list(HIDDEN_FIXTURES.glob("*.yaml")))  # every one of the kit's published hidden trees
    assert count >= 33 and run.status == 0 and f"{count} hidden fixtures drawn from seed 7" in run.out
    assert "aima-variant.yaml: the shape of aima-variant.yaml, new values from 0..9" in run.out
    assert "ttt-empty-board.yaml: kept (a tic-tac-toe position)" in run.out
    assert hidden_texts(outside / "a") == hidden_texts(outside / "b")  # drawing a drawn set again: the same trees
    run = abkit("--course", outside / "b", "fixtures", "redraw-hidden", "--lang", "ko")  # a new seed, recorded
    seed = re.search(r"시드 (\d+)(?:으로|로) 뽑았습니다", run.out).group(1)
    assert run.status == 0 and f"**seed {seed}**" in (outside / "b" / "fixtures" / "hidden" / "README.md").read_text()


def test_an_instructors_own_hidden_trees_are_drawn_too_and_a_tree_with_no_equal_draw_is_kept(outside, monkeypatch):
    folder = outside / "hidden"
    folder.mkdir()
    (folder / "mine.yaml").write_text("id: mine\nsource: by hand\ntree: [[3, 12.5], [2, 4]]\n"
                                      "expected:\n  minimax: {value: 3, action: B, nodes: 7}\n", encoding="utf-8")
    (folder / "gen-s3.yaml").write_text("id: gen-s3\nsource: abkit fixtures generate --branching 2 --depth 2 "
                                        "--min 0 --max 5 --ordering best --rule aima --root max --distinct --seed 3\n"
                                        "tree: [[1, 2], [3, 4]]\n", encoding="utf-8")
    with chosen_course(KIT_ROOT):
        done = redraw.redraw_hidden(11, folder)
        assert [(d.old, d.new, d.how, d.values) for d in done] == [
            ("gen-s3.yaml", "gen.yaml", "generated", ""), ("mine.yaml", "mine.yaml", "values", "0..99 (halves)")]
        assert sorted(p.name for p in folder.iterdir()) == ["README.md", "gen.yaml", "mine.yaml"]
        mine = load_fixture(folder / "mine.yaml")
        assert verify_fixture(mine) == [] and mine.expected["minimax"].keys() == {"value", "action", "nodes"}
        assert all(0 <= v <= 99 and v * 2 == int(v * 2) for v in mine.tree.utilities.values())
        gen = load_fixture(folder / "gen.yaml")
        want = random_tree(2, 2, 0, 5, "best", "MAX", True, redraw.tree_seed(11, "gen"))
        assert gen.tree.utilities == want.utilities and "seed" not in gen.source and "11" not in gen.source
        assert gen.source == ("abkit fixtures generate --branching 2 --depth 2 --min 0 --max 5 --ordering best"
                              " --rule aima --root max --distinct --hidden")
        assert mine.source == "abkit fixtures redraw-hidden: the shape of mine (by hand), values drawn again from 0..99" \
                              " (halves)"
        assert verify_fixture(gen) == [] and gen.title["en"] == "Random tree: branching 2, depth 2, best ordering"
        monkeypatch.setattr(redraw, "MAX_DRAWS", 0)
        before = (folder / "mine.yaml").read_text(encoding="utf-8")
        done = redraw.redraw_hidden(12, folder)
        assert ("mine.yaml", "kept_hard") in [(d.new, d.how) for d in done]
        assert (folder / "mine.yaml").read_text(encoding="utf-8") == before
        assert "kept as it was" in (folder / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("lang, words", [("en", "no hidden fixtures in"), ("ko", "숨은 픽스처가 없어서")])
def test_redrawing_without_hidden_trees_or_with_a_broken_one_says_so(abkit, outside, lang, words):
    init_course(outside / "c")
    hidden = outside / "c" / "fixtures" / "hidden"
    (hidden / "broken.yaml").write_text("tree: [1, [\n", encoding="utf-8")
    before = hidden_texts(outside / "c")
    run = abkit("--course", outside / "c", "fixtures", "redraw-hidden", "--seed", "1", "--lang", lang)
    assert run.status == 2 and "broken.yaml" in run.err and "Traceback" not in run.err
    assert hidden_texts(outside / "c") == before  # nothing was replaced
    for path in hidden.glob("*.yaml"):
        path.unlink()
    run = abkit("--course", outside / "c", "fixtures", "redraw-hidden", "--lang", lang)
    assert run.status == 2 and words in run.err and run.err.count("\n") == 1


def test_value_range_and_ids(outside):
    assert redraw.value_range([]) == (0, 0, False)
    assert redraw.value_range([1500, -3]) == (-1501, 1501, False)
    generated = "abkit fixtures generate --branching 2 --depth 1 --ordering random --rule aima --root max --seed"
    fixtures = [parse_fixture(f"id: {name}\nsource: {source}\ntree: [1, 2]\n") for name, source in [
        ("random-b3-d3-min-s5", f"{generated} 5"), ("random-b3-d3-min-s6", f"{generated} 6"),
        ("uniform-b3-d4-best-s7", f"{generated} 7"), ("aima-variant-s2", "by hand")]]
    ids = redraw.new_ids(fixtures)  # a course's generated trees named by their seed, as the public generator names them
    assert ids["random-b3-d3-min-s5"] == "random-b3-d3-min-1" and ids["random-b3-d3-min-s6"] == "random-b3-d3-min-2"
    assert ids["uniform-b3-d4-best-s7"] == "uniform-b3-d4-best" and ids["aima-variant-s2"] == "aima-variant-s2"
    assert {p.stem for p in HIDDEN_FIXTURES.glob("*.yaml")} == set(redraw.new_ids(list(PUBLISHED.values())).values())
    assert redraw._options("--branching 2 --distinct --min -9") == {"branching": "2", "distinct": "", "min": "-9"}
