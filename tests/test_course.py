"""Course folders: found from the current folder upwards or named with --course; abkit init; --lang vs handouts."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from abkit import coursefolder
from abkit.coursefolder import MARKER, CourseFolder, NoCourse, current_course, find_course, use_course
from abkit.loading import KIT_ROOT
from abkit.cli.main import _lang_from
from abkit.authoring.course import init_course

#: commands that need a course, each with arguments that would otherwise be valid
HANGUL = re.compile(r"[가-힣]")
NEEDING = [("check",), ("fixtures", "verify"), ("stubs", "--check"), ("grade", "x", "--out", "y"),
           ("trace", "f.yaml"), ("handouts", "review"), ("release", "student", "--out", "e")]


@pytest.fixture
def outside(tmp_path, monkeypatch):
    """The current folder is one no course holds."""
    monkeypatch.delenv("ABKIT_COURSE", raising=False)
    monkeypatch.chdir(tmp_path)
    assert find_course(tmp_path) is None
    return tmp_path


@pytest.mark.parametrize("args", NEEDING)
@pytest.mark.parametrize("lang, words", [("en", "there is no course folder here"),
                                         ("ko", "과목 폴더가 없습니다")])
def test_outside_any_course_one_sentence_and_status_2(abkit, outside, args, lang, words):
    run = abkit(*args, "--lang", lang)
    assert run.status == 2 and run.out == ""
    lines = run.err.strip().splitlines()
    assert len(lines) == 1 and words in lines[0] and "abkit init DIR" in lines[0] and "--course DIR" in lines[0]
    assert str(outside) in lines[0] and "Traceback" not in run.err


def test_outside_any_course_in_a_real_process_in_korean(outside):
    """The installed command's way: a new process, the language from ABKIT_LANG, no traceback."""
    env = {**os.environ, "ABKIT_LANG": "ko", "PYTHONPATH": str(KIT_ROOT)}
    run = subprocess.run([sys.executable, "-m", "abkit.cli", "check"], cwd=outside, env=env, capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 2 and run.stderr.count("\n") == 1 and "과목 폴더가 없습니다" in run.stderr


def test_a_named_folder_that_is_no_course(abkit, outside):
    run = abkit("--course", outside, "check", "--lang", "en")
    assert run.status == 2 and "is not a course folder" in run.err and MARKER in run.err
    run = abkit("check", "--course", outside, "--lang", "ko")
    assert run.status == 2 and "과목 폴더가 아닙니다" in run.err


def test_the_course_is_found_upwards_and_by_name(outside, monkeypatch):
    (outside / MARKER).write_text("kit_version = \"0\"\n", encoding="utf-8")
    below = outside / "exercises" / "deep"
    below.mkdir(parents=True)
    monkeypatch.chdir(below)
    assert current_course() == CourseFolder(outside.resolve())
    monkeypatch.chdir(KIT_ROOT)
    try:
        assert use_course(outside).root == outside.resolve() and current_course().root == outside.resolve()
        assert os.environ["ABKIT_COURSE"] == str(outside.resolve())
    finally:
        coursefolder.forget_course()
    assert current_course().root == KIT_ROOT
    monkeypatch.setenv("ABKIT_COURSE", str(outside / "exercises"))
    with pytest.raises(NoCourse) as raised:
        current_course()
    assert raised.value.named


def test_the_rubric_is_at_the_root_or_in_the_older_place(tmp_path):
    course = CourseFolder(tmp_path)
    assert course.rubric == tmp_path / "rubric.yaml"  # neither: the new place, whose absence is reported
    (tmp_path / "grader").mkdir()
    (tmp_path / "grader" / "rubric.yaml").write_text("{}", encoding="utf-8")
    assert course.rubric == tmp_path / "grader" / "rubric.yaml"
    (tmp_path / "rubric.yaml").write_text("{}", encoding="utf-8")
    assert course.rubric == tmp_path / "rubric.yaml"


@pytest.mark.slow
def test_init_writes_a_course_the_commands_work_in(abkit, outside):
    run = abkit("init", outside / "course", "--lang", "en")
    assert run.status == 0 and "README.md" in run.out
    course = outside / "course"
    for part in (MARKER, "rubric.yaml", "README.md", "exercises/minimax.py", "solutions/alphabeta.py",
                 "fixtures/public/aima-fig-5-2.yaml", "handouts/outline.yaml", "handouts/messages/ko.yaml",
                 "examples/submissions"):
        assert (course / part).exists(), part
    readme = (course / "README.md").read_text(encoding="utf-8")
    assert "abkit fixtures verify" in readme and "abkit stubs --check" in readme and "새 학기" in readme
    assert readme.startswith("# An abkit course folder\n") and not HANGUL.search(readme.split("\n---\n")[0])
    assert not list(course.rglob("__pycache__"))
    # the kit's handouts/ folder is the handout builder's package too: a course gets its data, never its code
    assert (KIT_ROOT / "handouts" / "__init__.py").is_file() and not list((course / "handouts").rglob("*.py"))
    run = abkit("--course", course, "fixtures", "verify", "--lang", "en")
    count = len(list((course / "fixtures").rglob("*.yaml")))
    assert run.status == 0 and f"{count} fixtures verified: 0 disagreements" in run.out and count > 30
    changed = course / "fixtures" / "public" / "aima-fig-5-2.yaml"
    changed.write_text(changed.read_text(encoding="utf-8").replace("{value: 3,", "{value: 4,"), encoding="utf-8")
    run = abkit("--course", course, "fixtures", "verify", "--lang", "en")  # this course's fixtures, not the kit's
    assert run.status == 1 and f"{changed.resolve()}:22: expected.minimax.value: expected 4, got 3" in run.out
    run = abkit("--course", course, "stubs", "--check", "--lang", "en")
    assert run.status == 0 and "0 out of date" in run.out
    assert "ABKIT_COURSE" not in os.environ  # the choice lasted one command


def test_init_refuses_a_folder_that_holds_something(abkit, outside):
    (outside / "taken").mkdir()
    (outside / "taken" / "notes.txt").write_text("mine", encoding="utf-8")
    run = abkit("init", outside / "taken", "--lang", "en")
    assert run.status == 2 and "not an empty folder" in run.err
    assert (outside / "taken" / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_init_says_when_it_cannot_write(outside, monkeypatch):
    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("abkit.authoring.course.copy_course", refuse)
    from abkit.errors import UsageError

    with pytest.raises(UsageError) as raised:
        init_course(outside / "new")
    assert raised.value.message.params["reason"].render("en") == "permission denied"
    assert raised.value.message.render("ko").endswith("(원인: 권한이 없습니다)")


def test_the_student_edition_is_a_course_folder(abkit, tmp_path, monkeypatch):
    edition = tmp_path / "edition"
    assert abkit("release", "student", "--out", edition, "--lang", "en").status == 0
    assert (edition / MARKER).is_file() and not (edition / "solutions").exists()
    assert not (edition / "fixtures" / "hidden").exists()
    assert not [p for p in edition.rglob("*") if "default_course" in p.parts]
    monkeypatch.chdir(edition / "exercises")
    assert current_course().root == edition.resolve()


@pytest.mark.parametrize("argv, lang", [(["handouts", "build", "--lang", "ko,en"], "en"),
                                        (["handouts", "build", "--lang=en,ko"], "en"),
                                        (["handouts", "build", "--lang", "ko"], "ko"),
                                        (["--lang", "ko", "handouts", "build", "--lang", "en,ko"], "ko")])
def test_a_comma_list_names_no_message_language(argv, lang, monkeypatch):
    monkeypatch.setenv("ABKIT_LANG", "en")
    assert _lang_from(argv) == lang


def test_handouts_build_languages_and_message_language(abkit, tmp_path, monkeypatch):
    """--lang ko,en: the handouts' languages, messages in the locale's; --languages with --lang: one each."""
    built = []
    monkeypatch.setattr("abkit.handouts.build", lambda langs, out, students, formats: built.append(langs) or [])
    monkeypatch.setenv("ABKIT_LANG", "en")
    run = abkit("handouts", "build", "--lang", "ko,en", "--out", tmp_path, "--format", "html")
    assert run.status == 0 and built[-1] == ["ko", "en"] and f"0 files written under {tmp_path}" in run.out
    assert not any("\uac00" <= ch <= "\ud7a3" for ch in run.out)  # no Korean message
    run = abkit("handouts", "build", "--languages", "en", "--lang", "ko", "--out", tmp_path, "--format", "html")
    assert run.status == 0 and built[-1] == ["en"] and any("\uac00" <= ch <= "\ud7a3" for ch in run.out)
    run = abkit("handouts", "build", "--lang", "en", "--out", tmp_path, "--format", "html")
    assert run.status == 0 and built[-1] == ["en"]
    run = abkit("handouts", "build", "--out", tmp_path, "--format", "html")
    assert built[-1] == ["ko", "en"]


def test_the_confined_child_is_told_the_course_secrets(monkeypatch):
    from abkit.grader.sandbox import secret_paths

    kit = [str(KIT_ROOT / "fixtures" / "hidden"), str(KIT_ROOT / "solutions")]
    assert secret_paths() == kit
    monkeypatch.chdir(Path("/"))
    monkeypatch.delenv("ABKIT_COURSE", raising=False)
    assert secret_paths() == kit  # outside a course: the kit's own secrets still
    monkeypatch.setattr("abkit.coursefolder.PACKAGED_COURSE", KIT_ROOT / "examples")
    assert secret_paths() == [str(KIT_ROOT / "examples"), *kit]


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Landlock is Linux's")
def test_a_course_anywhere_keeps_its_hidden_fixtures_and_solutions_from_students(abkit, tmp_path):
    """A course made by init outside the kit: the snooping student reads none of its secrets, and says so."""
    import shutil

    from abkit.grader.confine import landlock_abi

    if not landlock_abi():
        pytest.skip("this kernel offers no Landlock")
    course = tmp_path / "course"
    assert abkit("init", course, "--lang", "en").status == 0
    shutil.copytree(KIT_ROOT / "tests" / "adversarial" / "snoops", tmp_path / "class" / "snoops")
    run = abkit("--course", course, "grade", tmp_path / "class", "--out", tmp_path / "out", "--lang", "en")
    assert run.status == 0, run.err
    feedback = (tmp_path / "out" / "students" / "snoops" / "feedback.md").read_text(encoding="utf-8")
    assert "snoop found 0: []" in feedback
    secret = (course / "solutions" / "alphabeta.py").read_text(encoding="utf-8").splitlines()
    assert not [line for line in secret if len(line.strip()) > 25 and line.strip() in feedback]


def test_a_secret_inside_the_kit_code_leaves_out_only_itself(tmp_path, monkeypatch):
    """An installed kit carries the default course in abkit/default_course: the venv stays readable around it."""
    from abkit.grader.confine import readable_paths

    venv = tmp_path / "venv"
    site = venv / "lib" / "site-packages"
    for name in ("abkit/core.py", "abkit/default_course/solutions/alphabeta.py", "abkit/grader/child.py",
                 "abkit/cli/main.py", "yaml/__init__.py"):
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text("", encoding="utf-8")
    (venv / "bin").mkdir()
    (venv / "lib64").symlink_to("lib")  # as in a venv: read through it, lib would give the secret away
    monkeypatch.setattr(sys, "path", [str(venv), str(site)])
    secret = site / "abkit" / "default_course"
    chosen = readable_paths(site, [secret, tmp_path / "course" / "solutions"])
    assert {site / "abkit" / "core.py", site / "abkit" / "grader", site / "abkit" / "cli", site / "yaml",
            venv / "bin"} <= set(chosen)
    assert not [p for p in chosen if p in (venv, venv / "lib64", venv / "lib", site, site / "abkit")
                or secret in (p, *p.parents)]
    # a secret outside the kit's code (a clone's solutions beside abkit/) still leaves its holder out
    chosen = readable_paths(site, [site / "solutions"])
    assert site not in chosen and {site / "abkit", site / "abkit" / "grader"} <= set(chosen)


@pytest.mark.slow
@pytest.mark.parametrize("part, args", [("solutions", ("fixtures", "verify")),
                                        ("handouts", ("handouts", "build", "--out", "h", "--format", "html"))])
@pytest.mark.parametrize("lang, words", [("en", "is missing"), ("ko", "파일이 없습니다")])
def test_a_course_missing_a_part_says_which_file(abkit, outside, monkeypatch, part, args, lang, words):
    import shutil

    assert abkit("init", "course", "--lang", "en").status == 0
    shutil.rmtree(outside / "course" / part)
    monkeypatch.chdir(outside / "course")
    run = abkit(*args, "--lang", lang)
    assert run.status == 2 and words in run.err and f"{outside.resolve()}/course/{part}/" in run.err
    assert run.err.count("\n") == 1 and "Traceback" not in run.err
    if part == "solutions":  # abkit trace then draws what the fixture records, as in the student edition
        run = abkit("trace", "fixtures/public/aima-fig-5-2.yaml", "--lang", lang)
        assert run.status == 0 and "#7  │  ├─ C1 = 2" in run.out and run.err == ""


@pytest.mark.slow
@pytest.mark.parametrize("args", [("fixtures", "verify"), ("fixtures", "expect"), ("trace",)])
def test_no_command_mixes_two_courses(abkit, outside, args):
    """A fixture of another course is not checked with this course's solutions."""
    assert abkit("init", "course", "--lang", "en").status == 0
    theirs = outside / "course" / "fixtures" / "public" / "aima-fig-5-2.yaml"
    run = abkit("--course", KIT_ROOT, *args, theirs, "--lang", "en")
    assert run.status == 2 and f"{theirs} belongs to the course folder {(outside / 'course').resolve()}" in run.err
    run = abkit("--course", outside / "course", *args, theirs, "--lang", "ko")
    assert run.status == 0 and "과목 폴더" not in run.err


@pytest.mark.slow
def test_plain_pytest_outside_any_course_says_so(outside):
    import shutil

    for name in ("minimax.py", "info.yaml", "conftest.py"):
        shutil.copy(KIT_ROOT / "exercises" / name, outside / name)
    (outside / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    env = {**os.environ, "ABKIT_LANG": "en", "PYTHONPATH": str(KIT_ROOT)}
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly"],
                         cwd=outside, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode != 0 and "there is no course folder here" in run.stdout + run.stderr
    assert "Traceback" not in run.stdout + run.stderr


def test_the_build_step_can_import_the_course_folder_module_without_the_kits_dependencies():
    """setup.py imports abkit.coursefolder in pip's isolated build environment, which has setuptools and nothing
    of the kit's dependencies (PyYAML, Jinja2, typst)."""
    code = ("import sys; sys.modules.update(yaml=None, jinja2=None, typst=None); "
            "from abkit.coursefolder import PACKAGED_COURSE, copy_course; print('ok')")
    proc = subprocess.run([sys.executable, "-c", code], cwd=KIT_ROOT, capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr


@pytest.mark.slow
def test_two_trees_of_one_folder_with_one_id_are_refused_everywhere(abkit, tmp_path):
    """A test is named by its tree's id: two public trees sharing one would be graded as one (a correct student
    judged against the other tree). verify, grade and check refuse the course, naming both files and the line."""
    course = tmp_path / "course"
    assert abkit("init", course, "--seed", "1", "--lang", "en").status == 0
    copy = course / "fixtures" / "public" / "aima-fig-5-2.yaml"
    copy.write_text(copy.read_text(encoding="utf-8").replace("id: aima-fig-5-2", "id: min-root"), encoding="utf-8")
    said = f"the id 'min-root' is also the id of {copy}"
    verify = abkit("--course", course, "fixtures", "verify", "--lang", "en")
    assert verify.status == 2 and f"{course / 'fixtures' / 'public' / 'min-root.yaml'}:" in verify.err
    assert said in verify.err and "Traceback" not in verify.err
    grade = abkit("--course", course, "grade", course / "examples" / "submissions", "--out", tmp_path / "out",
                  "--lang", "en")
    assert grade.status == 2 and said in grade.err and not (tmp_path / "out").exists()
    check = abkit("--course", course, "check", "--lang", "ko")
    assert check.status == 2 and "파일의 id와 같습니다" in check.err
    hidden = course / "fixtures" / "hidden"  # one id in public and in hidden: two tests of their own names
    (hidden / "same-as-public.yaml").write_text(copy.read_text(encoding="utf-8").replace("id: min-root",
                                                                                        "id: aima-fig-5-2"))
    copy.write_text(copy.read_text(encoding="utf-8").replace("id: min-root", "id: aima-fig-5-2"), encoding="utf-8")
    assert abkit("--course", course, "fixtures", "verify", "--lang", "en").status == 0


def test_init_and_release_into_a_place_that_cannot_be_written_say_so(abkit, tmp_path):
    for args in (("init", "/proc/abkit-course"), ("release", "student", "--out", "/proc/abkit-edition")):
        run = abkit(*args, "--lang", "en")
        assert run.status == 2 and "cannot write into /proc/abkit-" in run.err and "Traceback" not in run.err
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "notes.txt").write_text("x", encoding="utf-8")
    run = abkit("init", tmp_path / "taken", "--lang", "en")
    assert run.status == 2 and "choose a new folder for the course" in run.err


def test_init_in_korean_writes_the_readme_korean_first(abkit, outside):
    """``init --lang ko``: a Korean instructor's first screen of the course README is Korean, every line of it; the
    English text follows whole, below a rule."""
    run = abkit("init", outside / "course", "--lang", "ko", "--seed", "3")
    assert run.status == 0, run.err
    readme = (outside / "course" / "README.md").read_text(encoding="utf-8")
    first_screen = [line for line in readme.splitlines()[:24] if line.strip() and not set(line) <= set("|-")]
    assert readme.startswith("# abkit 과목 폴더\n")
    assert len(first_screen) >= 15 and all(HANGUL.search(line) for line in first_screen), first_screen
    korean, english = readme.split("\n---\n", 1)
    assert "## 새 학기 준비" in korean and "## For a new term" not in korean
    assert english.lstrip().startswith("# An abkit course folder\n") and "## For a new term" in english
