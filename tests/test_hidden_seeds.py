"""Hidden trees name no seed (issue 29): what students see of them (ids, titles, file names, the test names of their
feedback) and their ``source:`` lines carry nothing the public generator replays; the seeds stay in the record,
``fixtures/hidden/README.md``, which keeps every earlier seed and never leaves the instructor."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

from abkit.coursefolder import chosen_course
from abkit.fixture import fixture_paths, load_fixture
from abkit.authoring.course import init_course
from abkit.authoring.record import END, START

SEED = "9001"
#: the course README's recipe for random hidden trees, with a seed an instructor might type
RECIPE = ("fixtures", "generate", "-b", "3", "-d", "4", "--ordering", "best", "--distinct", "--min", "-99", "--max", "99",
          "--seed", SEED, "--count", "2")


@pytest.fixture
def course(tmp_path, monkeypatch):
    """A new course (its hidden trees drawn from seed 808), the current folder."""
    monkeypatch.delenv("ABKIT_COURSE", raising=False)
    init_course(tmp_path / "course", seed=808)
    monkeypatch.chdir(tmp_path / "course")
    return tmp_path / "course"


def names_no_seed(fixture, seed: str) -> None:
    """Neither what students see of ``fixture`` (file name, id, title) nor its source and description name ``seed``;
    the first name no seed at all (a kept tic-tac-toe position's source cites "seed 001", Nilsson's chapter)."""
    shown = [fixture.path.name, fixture.id, *fixture.title.values()]
    assert not any(seed in text for text in [*shown, fixture.source, *fixture.description.values()]), shown
    assert not any(re.search(r"seed|시드|-s\d+$", text) for text in shown), shown
    assert fixture.tree is None or "seed" not in fixture.source, fixture.source


def record(course: Path, lang: str) -> list[str]:
    text = (course / "fixtures" / "hidden" / "README.md").read_text(encoding="utf-8")
    found = re.search(re.escape(START.format(lang=lang)) + r"\n(.*?)" + re.escape(END.format(lang=lang)), text, re.S)
    return found.group(1).splitlines()


def test_the_readme_recipe_into_the_hidden_folder_names_no_seed_and_the_public_generator_cannot_replay_it(
        abkit, course, tmp_path):
    run = abkit(*RECIPE, "--out", "fixtures/hidden", "--lang", "en")
    assert run.status == 0 and f"seed {SEED} and the command are recorded in fixtures/hidden/README.md" in run.out
    written = sorted(set((course / "fixtures" / "hidden").glob("random-b3-d4-best*.yaml")))
    # the course already holds uniform-b3-d4-best (drawn by init), not random-b3-d4-best-N: numbering starts at 1
    assert [p.name for p in written] == ["random-b3-d4-best-1.yaml", "random-b3-d4-best-2.yaml"]
    hidden = [load_fixture(p) for p in written]
    for fixture in hidden:
        names_no_seed(fixture, SEED)
        assert fixture.source.endswith("--distinct --hidden")
    assert hidden[1].title["en"] == "Random tree: branching 3, depth 4, best ordering, no. 2"

    public = tmp_path / "public"
    assert abkit(*RECIPE, "--out", public, "--lang", "en").status == 0
    replayed = [load_fixture(p) for p in sorted(public.glob("*.yaml"))]
    assert [p.path.name for p in replayed] == ["random-b3-d4-best-s9001.yaml", "random-b3-d4-best-s9002.yaml"]
    assert not {p.path.name for p in replayed} & {p.path.name for p in hidden}
    assert all(h.tree.utilities != p.tree.utilities for h in hidden for p in replayed)  # other trees, not renamed
    assert abkit("fixtures", "verify", "fixtures/hidden").status == 0

    for lang, word in (("en", "seed"), ("ko", "시드")):  # the seed is in the instructor's record, in both parts
        lines = record(course, lang)
        assert len(lines) == 2 and f"{word} 808, `abkit init --seed 808`" in lines[0]
        assert f"{word} {SEED}, `abkit fixtures generate --branching 3 --depth 4 --min -99 --max 99 --ordering best " \
               f"--rule aima --root max --distinct --seed {SEED} --count 2 --hidden`" in lines[1]
        assert "`random-b3-d4-best-1.yaml`, `random-b3-d4-best-2.yaml`" in lines[1]


def test_the_test_names_students_see_name_no_seed(abkit, course):
    from abkit.grader.grading import Grader
    from abkit.grader.rubric import load_rubric

    assert abkit(*RECIPE, "--out", "fixtures/hidden").status == 0
    with chosen_course(course):
        grader = Grader(load_rubric(), seed=3)
        tests = [test for exercise in grader.tests_for("zoe").values() for test in exercise if test.source == "hidden"]
    assert any("random-b3-d4-best-2" in test.id for test in tests)
    for test in tests:
        for text in (test.id, *test.title.values()):
            assert SEED not in text and not re.search(r"seed|시드|-s\d+\b", text), text


def test_an_out_folder_resolving_to_the_hidden_one_or_hidden_asked_writes_hidden_trees(abkit, course, tmp_path):
    run = abkit("fixtures", "generate", "-b", "2", "-d", "2", "--seed", "77", "--out", "fixtures/public/../hidden/",
                "--lang", "ko")
    assert run.status == 0 and "시드 77과 명령은" in run.out
    names_no_seed(load_fixture(course / "fixtures" / "hidden" / "random-b2-d2-random-1.yaml"), "77")
    elsewhere = tmp_path / "scratch"
    run = abkit("fixtures", "generate", "-b", "2", "-d", "2", "--hidden", "--id", "mine", "--out", elsewhere,
                "--lang", "en")
    seed = re.search(r"seed (\d+) and the command", run.out).group(1)  # none given: a new one, printed
    assert run.status == 0 and sorted(p.name for p in elsewhere.iterdir()) == ["README.md", "mine-1.yaml"]
    names_no_seed(load_fixture(elsewhere / "mine-1.yaml"), seed)
    readme = (elsewhere / "README.md").read_text(encoding="utf-8")
    assert readme.startswith("# Hidden fixtures of this course") and f"seed {seed}, `abkit" in readme
    assert f"시드 {seed}, `abkit" in readme and "--id mine --hidden`: `mine-1.yaml`" in readme


def test_init_and_redraw_write_no_seed_in_any_hidden_fixture(abkit, course):
    for path in fixture_paths([course / "fixtures" / "hidden"]):
        names_no_seed(load_fixture(path), "808")
    assert abkit("fixtures", "redraw-hidden", "--seed", "4242").status == 0
    for path in fixture_paths([course / "fixtures" / "hidden"]):
        names_no_seed(load_fixture(path), "4242")
    # the kit's published hidden trees: their ids, titles and file names name no seed either
    from abkit.loading import HIDDEN_FIXTURES

    for path in fixture_paths([HIDDEN_FIXTURES]):
        fixture = load_fixture(path)
        assert not re.search(r"-s\d+$", fixture.id) and not re.search(r"seed|시드", " ".join(fixture.title.values()))


@pytest.mark.slow
def test_redrawing_keeps_every_earlier_seed_in_both_languages(abkit, course):
    assert abkit("fixtures", "redraw-hidden", "--seed", "61", "--lang", "en").status == 0
    assert abkit(*RECIPE, "--out", "fixtures/hidden").status == 0
    run = abkit("fixtures", "redraw-hidden", "--lang", "ko")
    new = re.search(r"시드 (\d+)(?:으로|로) 뽑았습니다", run.out).group(1)
    for lang, word in (("en", "seed"), ("ko", "시드")):
        lines = record(course, lang)
        assert [re.search(rf"{word} (\d+)", line).group(1) for line in lines] == ["808", "61", SEED, new]
        assert all(re.match(r"- \d{4}-\d{2}-\d{2}: ", line) for line in lines)
        assert "`abkit fixtures redraw-hidden --seed 61`: `adequacy-alpha-assigned.yaml`," in lines[1]
        assert "`random-b3-d4-best-1.yaml`, `random-b3-d4-best-2.yaml`" in lines[3]  # what this draw wrote
    text = (course / "fixtures" / "hidden" / "README.md").read_text(encoding="utf-8")
    assert f"**seed {new}**" in text and f"**시드 {new}**" in text  # the head tells the latest draw


def test_a_record_written_before_it_was_kept_keeps_its_seed(course):
    from abkit.authoring.redraw import redraw_hidden

    readme = course / "fixtures" / "hidden" / "README.md"
    readme.write_text("# Hidden fixtures of this course\n\ndrawn from **seed 17** by ...\n\n# 이 과목의 숨은 픽스처\n\n"
                      "**시드 17**에서 뽑았습니다.\n", encoding="utf-8")
    with chosen_course(course):
        redraw_hidden(18)
    for lang, word in (("en", "seed"), ("ko", "시드")):
        lines = record(course, lang)
        assert len(lines) == 2 and f"{word} 17" in lines[0] and f"{word} 18, `abkit fixtures redraw-hidden" in lines[1]


@pytest.mark.slow
def test_neither_the_student_edition_nor_the_gradescope_bundle_holds_the_record(abkit, course, tmp_path):
    from abkit.authoring.release import build_student_edition
    from abkit.grader.gradescope import export_bundle

    assert abkit(*RECIPE, "--out", "fixtures/hidden").status == 0
    with chosen_course(course):
        names = export_bundle(tmp_path / "autograder.zip")
        build_student_edition(tmp_path / "edition")
    assert "fixtures/hidden/random-b3-d4-best-1.yaml" in names  # grading on Gradescope needs the trees...
    assert not [n for n in names if n.startswith("fixtures/hidden/") and not n.endswith(".yaml")]  # ...not the record
    with zipfile.ZipFile(tmp_path / "autograder.zip") as bundle:
        assert not [n for n in bundle.namelist() if b"abkit record" in bundle.read(n)]
    shipped = [p for p in (tmp_path / "edition").rglob("*") if p.is_file()]
    assert shipped and not (tmp_path / "edition" / "fixtures" / "hidden").exists()
    assert not [p for p in shipped if b"abkit record" in p.read_bytes() or b"random-b3-d4-best-1" in p.read_bytes()]
