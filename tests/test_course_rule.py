"""The course's cut-off rule in one place: ``rule = "aima" | "cs188"`` in abkit-course.toml, read by grading, check,
the stubs, the messages and the student edition."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from abkit.coursefolder import MARKER, chosen_course, copy_course, course_rule
from abkit.errors import UsageError
from abkit.info import load_info
from abkit.loading import KIT_ROOT
from helpers import course_under

EXERCISES = ("minimax", "alphabeta", "alphabeta_cutoff", "expectimax", "ordering")
#: the solutions' cut-off tests, and what a student writes for each rule (hand-written: the strict comparisons are
#: CS188's, the non-strict AIMA's)
MAX_CUT = "if v > beta or (v == beta and PRUNE_ON_EQUALITY):"
MIN_CUT = "if v < alpha or (v == alpha and PRUNE_ON_EQUALITY):"
STUDENT_CUTS = {"aima": ("if v >= beta:", "if v <= alpha:"), "cs188": ("if v > beta:", "if v < alpha:")}
#: what no output may say under the CS188 rule (and the reverse)
SAYS_AIMA = ("v >= beta", "v ≥ β", "v <= alpha", "v ≤ α", "AIMA rule", "AIMA 규칙")
SAYS_CS188 = ("v > beta", "v > β", "v < alpha", "v < α", "v &gt; β", "v &lt; α", "CS188 rule", "CS188 규칙")


def student_code(rule: str) -> dict[str, str]:
    """Correct code for every exercise under ``rule``: the solutions with the rule written into the comparisons
    (no PRUNE_ON_EQUALITY left to read)."""
    files = {}
    for name in EXERCISES:
        text = (KIT_ROOT / "solutions" / f"{name}.py").read_text(encoding="utf-8")
        if MAX_CUT in text:
            text = text.replace(MAX_CUT, STUDENT_CUTS[rule][0]).replace(MIN_CUT, STUDENT_CUTS[rule][1])
            text = re.sub(r"^PRUNE_ON_EQUALITY = True$", "", text, flags=re.M)
            assert "PRUNE_ON_EQUALITY" not in text.split('"""', 2)[2].split("# END SOLUTION", 1)[1]
        files[name] = text
    return files


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """A copy of the kit's course (AIMA, as the kit ships it)."""
    folder = tmp_path_factory.mktemp("course") / "course"
    copy_course(KIT_ROOT, folder)
    return folder


def switched(folder: Path, rule: str) -> None:
    """Switch the course at ``folder`` to ``rule``: one line of its marker."""
    marker = folder / MARKER
    before = marker.read_text(encoding="utf-8").splitlines()
    after = [re.sub(r'^rule = "\w+"$', f'rule = "{rule}"', line) for line in before]
    marker.write_text("\n".join(after) + "\n", encoding="utf-8")
    assert sum(a != b for a, b in zip(before, after)) <= 1 and len(before) == len(after)


# -- reading the rule -----------------------------------------------------------

@pytest.mark.parametrize("line, rule", [('rule = "cs188"', "cs188"), ("rule = 'aima'", "aima"),
                                        ('rule = "cs188"   # the strict rule', "cs188"), ("", "aima"),
                                        ('[tools]\nrule = "cs188"', "aima")])
def test_the_rule_is_the_markers_top_level_key(tmp_path, line, rule):
    (tmp_path / MARKER).write_text(f'kit_version = "0.1.0"\n{line}\n', encoding="utf-8")
    assert course_rule(tmp_path) == rule


@pytest.mark.parametrize("text, line", [('kit_version = "0.1.0"\nrule = "fide"\n', 2),
                                        ('rule = cs188\n', 1), ('rule = "aima"\n\nrule = "aima"\n', 3)])
def test_a_wrong_rule_names_the_file_and_line(tmp_path, text, line):
    (tmp_path / MARKER).write_text(text, encoding="utf-8")
    with pytest.raises(UsageError) as raised:
        course_rule(tmp_path)
    assert raised.value.message.render("en").startswith(f"{tmp_path / MARKER}:{line}: rule")
    assert raised.value.message.render("ko").startswith(f"{tmp_path / MARKER}:{line}: rule")


def test_a_wrong_rule_is_exit_2_for_every_command(abkit, tmp_path):
    folder = tmp_path / "course"
    copy_course(KIT_ROOT, folder)
    marker = folder / MARKER
    marker.write_text(marker.read_text(encoding="utf-8").replace('rule = "aima"', 'rule = "CS188"'), encoding="utf-8")
    line = marker.read_text(encoding="utf-8").splitlines().index('rule = "CS188"') + 1
    for args in (("check",), ("grade", KIT_ROOT / "examples" / "submissions", "--out", tmp_path / "out"),
                 ("stubs", "--check")):
        run = abkit("--course", folder, *args, "--lang", "en")
        assert run.status == 2 and f"{marker}:{line}: rule cannot be \"CS188\"" in run.err, args
        assert "Traceback" not in run.err


def test_the_kits_files_hold_the_rule_in_one_place():
    assert course_rule(KIT_ROOT) == "aima" and 'rule = "aima"' in (KIT_ROOT / MARKER).read_text(encoding="utf-8")
    for path in (KIT_ROOT / "grader" / "rubric.yaml", KIT_ROOT / "exercises" / "info.yaml"):
        assert not re.search(r"^rule\s*:", path.read_text(encoding="utf-8"), re.M), path


@pytest.mark.slow
def test_init_and_the_edition_write_the_rule(abkit, tmp_path, course):
    assert abkit("init", tmp_path / "new", "--lang", "en").status == 0
    assert course_rule(tmp_path / "new") == "aima"
    switched(course, "cs188")
    try:
        assert abkit("--course", course, "release", "student", "--out", tmp_path / "ed", "--lang", "en").status == 0
    finally:
        switched(course, "aima")
    assert course_rule(tmp_path / "ed") == "cs188"
    stub = (tmp_path / "ed" / "exercises" / "alphabeta.py").read_text(encoding="utf-8")
    assert "if v > beta then return v" in stub and "if v < alpha then return v" in stub and ">= beta" not in stub
    for path in (tmp_path / "ed" / "fixtures" / "public").glob("*.yaml"):  # every one written for CS188
        assert "prune_on_equality: false" in path.read_text(encoding="utf-8"), path.name


def test_generated_trees_follow_the_courses_rule_unless_told(abkit, tmp_path, course):
    """``fixtures generate`` without ``--rule`` writes expectations under the course's rule; ``--rule`` overrides."""
    switched(course, "cs188")
    try:
        for name, extra in (("course", ()), ("told", ("--rule", "aima"))):
            assert abkit("--course", course, "fixtures", "generate", "-b", "2", "-d", "2", "--seed", "3",
                         "--out", tmp_path / name, *extra).status == 0
    finally:
        switched(course, "aima")
    (written,), (told,) = (tmp_path / "course").glob("*.yaml"), (tmp_path / "told").glob("*.yaml")
    assert "prune_on_equality: false" in written.read_text(encoding="utf-8")
    assert "prune_on_equality: true" in told.read_text(encoding="utf-8")


# -- a rubric or info.yaml naming a rule ----------------------------------------

def test_a_rubric_naming_another_rule_is_refused_at_its_line(abkit, tmp_path, course):
    rubric = tmp_path / "rubric.yaml"
    text = (course / "rubric.yaml").read_text(encoding="utf-8")
    rubric.write_text("rule: cs188\n" + text, encoding="utf-8")
    out = tmp_path / "out"
    run = abkit("--course", course, "grade", KIT_ROOT / "examples" / "submissions", "--out", out, "--rubric", rubric,
                "--lang", "en")
    assert run.status == 2 and f"{rubric}:1: this rubric says rule: 'cs188', but the course's rule is aima" in run.err
    assert not (out / "grades.csv").exists()
    from abkit.grader.rubric import load_rubric

    rubric.write_text("rule: aima\n" + text, encoding="utf-8")  # the course's own rule: accepted
    with chosen_course(course):
        assert load_rubric(rubric).rule == "aima"


def test_info_naming_another_rule_is_refused_at_its_line(abkit, tmp_path):
    folder = tmp_path / "course"
    copy_course(KIT_ROOT, folder)
    info = folder / "exercises" / "info.yaml"
    text = info.read_text(encoding="utf-8").replace("time_limit: 2\n", "rule: cs188\ntime_limit: 2\n")
    info.write_text(text, encoding="utf-8")
    line = text.splitlines().index("rule: cs188") + 1
    run = abkit("--course", folder, "check", "--lang", "en")
    assert run.status == 2 and f"{info}:{line}: this file says rule: cs188, but the course's rule is aima" in run.err
    switched(folder, "cs188")  # the course says the same: accepted
    assert load_info(info).rule == "cs188"


# -- public tests under either rule ----------------------------------------------

@pytest.mark.slow
def test_the_editions_public_tests_are_as_many_under_cs188_as_under_aima(abkit, tmp_path):
    """Counted in the student edition (no solutions: what the students' check runs) of the course under each rule,
    and in the course folder itself (its solutions recompute what the files do not hold)."""
    from abkit.studentloop.check import course_fixtures, test_cases

    counts = {}
    for rule in ("aima", "cs188"):
        with course_under(rule, tmp_path / f"course-{rule}") as folder:
            assert abkit("release", "student", "--out", tmp_path / f"ed-{rule}", "--lang", "en").status == 0
        for where in (tmp_path / f"ed-{rule}", folder):
            with chosen_course(where):
                info = load_info(where / "exercises" / "info.yaml")
                fixtures = course_fixtures(info, where / "fixtures" / "public")
                counts[rule, where.name[:2]] = {e.name: len(test_cases(e, fixtures)) for e in info.exercises}
            assert all(f.prune_on_equality == (rule == "aima") for f in fixtures)
    for name in EXERCISES:
        for where in ("ed", "co"):
            assert counts["cs188", where][name] >= counts["aima", where][name] > 0, (name, counts)
    assert counts["cs188", "ed"] == counts["cs188", "co"] and counts["aima", "ed"] == counts["aima", "co"]


# -- switching the course: check, grade, messages --------------------------------

def _class(folder: Path) -> Path:
    """A class of two: ``aima`` and ``cs188``, each with correct code under its rule."""
    for rule in ("aima", "cs188"):
        (folder / rule).mkdir(parents=True)
        for name, text in student_code(rule).items():
            (folder / rule / f"{name}.py").write_text(text, encoding="utf-8")
    return folder


def _check(abkit, course: Path, rule: str, lang: str = "en"):
    for name, text in student_code(rule).items():
        (course / "exercises" / f"{name}.py").write_text(text, encoding="utf-8")
    return abkit("--course", course, "check", "--lang", lang)


def _said(run) -> str:
    return run.out + run.err


@pytest.mark.slow
@pytest.mark.parametrize("rule, other, never", [("cs188", "aima", SAYS_AIMA), ("aima", "cs188", SAYS_CS188)])
def test_the_courses_rule_is_the_one_code_is_held_to(abkit, tmp_path, rule, other, never):
    folder = tmp_path / "course"
    copy_course(KIT_ROOT, folder)
    switched(folder, rule)
    run = _check(abkit, folder, rule)
    assert run.status == 0 and "Progress: 5/5 exercises" in run.out
    for lang in ("en", "ko"):
        run = _check(abkit, folder, other, lang)
        assert run.status == 1 and not any(word in _said(run) for word in never), _said(run)
    run = _check(abkit, folder, other)
    section = run.out.split("== alphabeta ·")[1].split("== alphabeta_cutoff ·")[0]
    assert "✗" in section and "✓ minimax" in run.out  # the rule is what differs
    out = tmp_path / "out"
    run = abkit("--course", folder, "grade", _class(tmp_path / "class"), "--out", out, "--lang", "en")
    assert run.status == 0
    rows = {row["student"]: row for row in csv.DictReader((out / "grades.csv").open(encoding="utf-8"))}
    assert float(rows[rule]["score"]) == float(rows[rule]["max_score"]) > 0
    for name in ("alphabeta", "alphabeta_cutoff", "ordering"):  # what the rule changes
        assert float(rows[other][name]) < float(rows[rule][name]), name
    for name in ("minimax", "expectimax"):  # what it does not
        assert float(rows[other][name]) == float(rows[rule][name]), name
    feedback = (out / "students" / other / "feedback.md").read_text(encoding="utf-8")
    assert "compares the wrong way at equality" in feedback
    written = [feedback, (out / "summary.md").read_text(encoding="utf-8"), run.out, run.err,
               (out / "students" / rule / "feedback.md").read_text(encoding="utf-8")]
    for text in written:
        assert not any(word in text for word in never), [w for w in never if w in text]


@pytest.mark.slow
def test_a_new_course_switched_by_one_line_holds_its_students_edition_and_its_grades_to_cs188(abkit, tmp_path):
    """Issue 29's second done-means end to end: a course from ``abkit init`` (hidden trees of its own), its marker's
    rule line changed, its student edition released (no solutions: check has only the fixtures' expectations);
    CS188-correct code passes the edition's check and gets full marks, AIMA code fails them and loses points on
    what the rule changes, and nothing said names AIMA's comparisons."""
    course, edition = tmp_path / "course", tmp_path / "edition"
    assert abkit("init", course, "--seed", "5", "--lang", "en").status == 0
    switched(course, "cs188")
    assert abkit("--course", course, "release", "student", "--out", edition, "--lang", "en").status == 0
    assert not (edition / "solutions").exists() and course_rule(edition) == "cs188"
    for lang in ("en", "ko"):
        run = _check(abkit, edition, "cs188", lang)
        assert run.status == 0 and "[" + "#" * 20 + "]" in run.out, _said(run)  # 5 of 5 done
        assert not any(word in _said(run) for word in SAYS_AIMA), _said(run)
        counts = [int(n) for n in re.findall(r"(\d+)", "\n".join(
            line for line in run.out.splitlines() if line.startswith("✓ ")))]
        assert len(counts) == 5 and all(n > 0 for n in counts), run.out  # no "passed (0 public tests)"
        run = _check(abkit, edition, "aima", lang)
        assert run.status == 1 and not any(word in _said(run) for word in SAYS_AIMA), _said(run)
        hints = [abkit("--course", edition, "hint", "alphabeta", str(level), "--lang", lang) for level in (1, 2, 3, 4)]
        assert all(h.status == 0 for h in hints) and not any(w in _said(h) for h in hints for w in SAYS_AIMA)
    run = _check(abkit, edition, "aima")
    assert "✓ minimax" in run.out and "✗" in run.out.split("== alphabeta ·")[1]
    out = tmp_path / "out"
    run = abkit("--course", course, "grade", _class(tmp_path / "class"), "--out", out, "-j", "2", "--lang", "en")
    assert run.status == 0
    rows = {row["student"]: row for row in csv.DictReader((out / "grades.csv").open(encoding="utf-8"))}
    assert float(rows["cs188"]["score"]) == float(rows["cs188"]["max_score"]) > 0
    for name in ("alphabeta", "alphabeta_cutoff", "ordering"):
        assert float(rows["aima"][name]) < float(rows["cs188"][name]), name
    for name in ("minimax", "expectimax"):
        assert float(rows["aima"][name]) == float(rows["cs188"][name]), name
    said = [run.out, run.err, (out / "summary.md").read_text(encoding="utf-8")]
    said += [(out / "students" / s / "feedback.md").read_text(encoding="utf-8") for s in ("aima", "cs188")]
    assert not [(w, t[max(0, t.find(w) - 200):t.find(w) + 100]) for t in said for w in SAYS_AIMA if w in t]


# -- handouts ----------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("rule, says, never", [
    ("cs188", {"en": ["This course uses the CS188 rule", "cut when v > β (MAX) and v < α (MIN)"],
               "ko": ["이 과목은 CS188 규칙을 따릅니다", "v > β(MAX)와 v < α(MIN)일 때만 가지치기"]},
     ["The kit follows AIMA", "키트는 AIMA를 따릅니다", "cut when v ≥ β (MAX)", "v ≥ β(MAX)와"]),
    ("aima", {"en": ["The kit follows AIMA", "cut when v ≥ β (MAX) and v ≤ α (MIN)"],
              "ko": ["키트는 AIMA를 따릅니다", "v ≥ β(MAX)와 v ≤ α(MIN)일 때 가지치기"]},
     ["This course uses the CS188 rule", "이 과목은 CS188 규칙을", "v > β (MAX)", "v > β(MAX)"])])
def test_the_handouts_state_the_courses_rule(tmp_path, rule, says, never):
    from abkit.handouts.content import build_document

    with course_under(rule, tmp_path / "course"):
        for lang in ("en", "ko"):
            document = build_document(lang, "handout")
            text = "\n".join(b.get("text", "") for s in document.sections for b in s.blocks)
            assert all(words in text for words in says[lang]), lang
            assert not any(words in text for words in never), lang
            rules = "\n".join(b.get("text", "") + "\n".join(b.get("items", [])) for s in document.sections
                              if s.id in ("alphabeta", "cutoff") for b in s.blocks)  # the pseudocode and its rules
            ge, le = ("≥", "≤") if rule == "aima" else (">", "<")
            assert rules.count(f"if v {ge} β then return v") == 2 and f"if v {le} α then return v" in rules, lang
            other = ("v ≥ β", "v ≤ α") if rule == "cs188" else ("if v > β then", "if v < α then")
            assert not any(words in rules for words in other), lang


def test_the_gradescope_bundle_carries_the_courses_rule(tmp_path):
    import zipfile

    from abkit.grader.gradescope import export_bundle

    with course_under("cs188", tmp_path / "course"):
        export_bundle(tmp_path / "bundle.zip")
    with zipfile.ZipFile(tmp_path / "bundle.zip") as bundle:
        assert 'rule = "cs188"' in bundle.read(MARKER).decode("utf-8").splitlines()


def test_the_stubs_state_the_courses_comparison(abkit, tmp_path):
    from abkit.authoring.stubs import make_stub

    source = (KIT_ROOT / "solutions" / "alphabeta.py").read_text(encoding="utf-8")
    strict, plain = make_stub(source, rule="cs188"), make_stub(source, rule="aima")
    assert strict.count("if v > beta then return v") == strict.count("if v < alpha then return v") == 1
    assert ">= beta" not in strict and "<= alpha" not in strict
    assert plain.count("if v >= beta then return v") == plain.count("if v <= alpha then return v") == 1
    with course_under("cs188", tmp_path / "course") as folder:  # switched by one line: the AIMA stubs are stale
        run = abkit("stubs", "--check", "--lang", "en")
        assert run.status == 1 and "5 stubs checked, 3 out of date." in run.out
        assert abkit("stubs", "--lang", "en").status == 0
        assert abkit("stubs", "--check", "--lang", "en").status == 0
        text = (folder / "exercises" / "ordering.py").read_text(encoding="utf-8")
        assert "if v > beta then return v" in text and "if v < alpha then return v" in text
