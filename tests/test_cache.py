"""The kit's cache on disk (abkit/cache.py): used only when made from the same files and kit, never a cause of failure.

And what it is for: ``abkit check`` sees an edited fixture at once, reports a bad one every time, answers the same
with a cache that is corrupt, stale, turned off or cannot be written, and never puts a hidden tree in it.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

import pytest

from abkit import cache
from abkit.cache import cached
from abkit.fixture import FixtureError, load_fixtures
from abkit.loading import KIT_ROOT, PUBLIC_FIXTURES


@pytest.fixture
def where(tmp_path, monkeypatch):
    """A cache folder of the test's own (ABKIT_CACHE_DIR)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv(cache.ENV, str(folder))
    return folder


class Counted:
    """A build that reads its files and counts its calls."""

    def __init__(self, *paths: Path) -> None:
        self.paths, self.calls = list(paths), 0

    def __call__(self) -> list[str]:
        self.calls += 1
        return [p.read_text(encoding="utf-8").upper() for p in self.paths]


def entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.pickle")) if folder.is_dir() else []


def test_a_value_is_made_once_and_then_read_from_the_cache(where, tmp_path):
    source = tmp_path / "a.txt"
    source.write_text("alpha", encoding="utf-8")
    build = Counted(source)
    assert cached("words", [source], build) == ["ALPHA"] and build.calls == 1
    assert cached("words", [source], build) == ["ALPHA"] and build.calls == 1
    assert len(entries(where)) == 1
    assert cached("other", [source], build) == ["ALPHA"] and build.calls == 2  # another kind, another entry
    assert cached("words", [source], build, key="k") == ["ALPHA"] and build.calls == 3  # another key too


def test_an_edited_file_is_read_again_even_with_the_same_size_and_time(where, tmp_path):
    source = tmp_path / "a.txt"
    source.write_text("alpha", encoding="utf-8")
    build = Counted(source)
    cached("words", [source], build)
    stat = source.stat()
    source.write_text("gamma", encoding="utf-8")  # same size
    os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # and the same time: only the contents differ
    assert cached("words", [source], build) == ["GAMMA"] and build.calls == 2
    assert cached("words", [source], build) == ["GAMMA"] and build.calls == 2
    assert len(entries(where)) == 1  # the slot was written over


@pytest.mark.parametrize("damage", [b"", b"garbage", "digest+garbage", "digest+truncated", "digest+foreign class"])
def test_a_corrupt_entry_is_ignored_and_made_again(where, tmp_path, damage):
    source = tmp_path / "a.txt"
    source.write_text("alpha", encoding="utf-8")
    build = Counted(source)
    cached("words", [source], build)
    [entry] = entries(where)
    digest = cache._digest("words", [source], "")
    good = entry.read_bytes()
    assert good.startswith(digest)
    data = {"digest+garbage": digest + b"\x80\x05garbage", "digest+truncated": good[:-5],
            "digest+foreign class": digest + b"cnosuch\nThing\n."}.get(damage, damage)
    entry.write_bytes(data)
    assert cached("words", [source], build) == ["ALPHA"] and build.calls == 2
    assert entry.read_bytes() == good  # written again, whole
    assert cached("words", [source], build) == ["ALPHA"] and build.calls == 2


def test_an_entry_of_another_kit_is_not_trusted(where, tmp_path, monkeypatch):
    source = tmp_path / "a.txt"
    source.write_text("alpha", encoding="utf-8")
    build = Counted(source)
    cached("words", [source], build)
    monkeypatch.setattr(cache, "__version__", "9.9.9")
    assert cached("words", [source], build) == ["ALPHA"] and build.calls == 2
    monkeypatch.setattr(cache, "_code", [b"other core source"])  # the same version, other code
    assert cached("words", [source], build) == ["ALPHA"] and build.calls == 3


def test_the_cores_code_counts_as_python_checks_its_bytecode(tmp_path):
    """An edit of a core file changes the code's digest even when the file keeps its size; so does a file added."""
    (tmp_path / "tree.py").write_text("X = 1\n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not code", encoding="utf-8")
    first = cache.sources_digest(str(tmp_path))
    assert cache.sources_digest(str(tmp_path)) == first
    (tmp_path / "notes.txt").write_text("still not code", encoding="utf-8")
    assert cache.sources_digest(str(tmp_path)) == first
    status = os.stat(tmp_path / "tree.py")
    (tmp_path / "tree.py").write_text("X = 2\n", encoding="utf-8")  # the same size
    os.utime(tmp_path / "tree.py", ns=(status.st_atime_ns, status.st_mtime_ns + 1_000_000))
    edited = cache.sources_digest(str(tmp_path))
    assert edited != first
    (tmp_path / "game.py").write_text("", encoding="utf-8")
    assert cache.sources_digest(str(tmp_path)) not in (first, edited)


def test_two_kits_or_two_folders_keep_entries_of_their_own(where, tmp_path, monkeypatch):
    """A relative path read from two course folders, or by two kits sharing one cache: each keeps its entry."""
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "a.txt").write_text(name, encoding="utf-8")
    build = Counted(Path("a.txt"))
    for _ in range(2):
        for name in ("one", "two"):
            monkeypatch.chdir(tmp_path / name)
            assert cached("words", [Path("a.txt")], build) == [name.upper()]
    assert build.calls == 2
    for _ in range(2):
        for code in (b"kit one", b"kit two"):
            monkeypatch.setattr(cache, "_code", [code])
            cached("words", [Path("a.txt")], build)
    assert build.calls == 4 and len(entries(where)) == 4


def test_two_copies_of_the_code_outside_the_core_keep_entries_of_their_own(where, tmp_path):
    """Two installs of one kit (a student edition and the copy beside it) read the same files with code at two
    paths: each keeps its entry instead of writing over the other's on every run."""
    source = tmp_path / "a.txt"
    source.write_text("alpha", encoding="utf-8")
    copies = [tmp_path / name / "builder.py" for name in ("one", "two")]
    for code in copies:
        code.parent.mkdir()
        code.write_text("# the same code\n", encoding="utf-8")
    build = Counted(source)
    for _ in range(2):
        for code in copies:
            cached("words", [source], build, code=[str(code)])
    assert build.calls == 2 and len(entries(where)) == 2


def test_code_outside_the_core_named_by_the_caller_is_part_of_the_key(where, tmp_path):
    source, code = tmp_path / "a.txt", tmp_path / "builder.py"
    source.write_text("alpha", encoding="utf-8")
    code.write_text("# version 1\n", encoding="utf-8")
    build = Counted(source)
    cached("words", [source], build, code=[str(code)])
    code.write_text("# version 2\n", encoding="utf-8")
    cached("words", [source], build, code=[str(code)])
    assert build.calls == 2


def test_errors_are_never_cached(where, tmp_path):
    source = tmp_path / "a.txt"
    source.write_text("alpha", encoding="utf-8")

    def failing():
        raise ValueError("bad file")

    for _ in range(2):
        with pytest.raises(ValueError, match="bad file"):
            cached("words", [source], failing)
    assert entries(where) == []


def test_a_missing_file_is_left_to_the_build_to_report(where, tmp_path):
    missing = tmp_path / "gone.txt"
    with pytest.raises(FileNotFoundError):
        cached("words", [missing], Counted(missing))
    assert entries(where) == []


def test_a_file_changed_while_the_value_is_made_is_not_cached(where, tmp_path):
    source = tmp_path / "a.txt"
    source.write_text("alpha", encoding="utf-8")

    def racing():
        value = source.read_text(encoding="utf-8")
        source.write_text("beta", encoding="utf-8")  # an editor saves while the check reads
        return value

    assert cached("words", [source], racing) == "alpha"
    assert entries(where) == []
    assert cached("words", [source], lambda: source.read_text(encoding="utf-8")) == "beta"


def test_no_cache_folder_or_an_unwritable_one_changes_nothing(tmp_path, monkeypatch):
    source = tmp_path / "a.txt"
    source.write_text("alpha", encoding="utf-8")
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache folder would be", encoding="utf-8")
    for setting in ("off", "", str(blocked), str(blocked / "inside")):
        monkeypatch.setenv(cache.ENV, setting)
        build = Counted(source)
        assert cached("words", [source], build) == ["ALPHA"] and cached("words", [source], build) == ["ALPHA"]
        assert build.calls == 2
    assert blocked.read_text(encoding="utf-8").startswith("a file") and not list(tmp_path.glob("**/.*.tmp"))


def test_a_process_that_may_not_read_the_kit_is_answered_without_the_cache(where, tmp_path, monkeypatch):
    source = tmp_path / "a.txt"
    source.write_text("alpha", encoding="utf-8")

    def refused(*args):
        raise PermissionError(1, "Operation not permitted")  # a sandboxed grading process's seccomp filter

    monkeypatch.setattr(cache, "_code", [])
    monkeypatch.setattr(cache.os, "listdir", refused)
    assert cached("words", [source], Counted(source)) == ["ALPHA"] and entries(where) == []


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions")
def test_a_cache_folder_others_may_write_to_is_not_used(where, tmp_path):
    source = tmp_path / "a.txt"
    source.write_text("alpha", encoding="utf-8")
    build = Counted(source)
    cached("words", [source], build)
    assert entries(where) and (where.stat().st_mode & 0o777) == 0o700  # made for this user alone
    where.chmod(0o777)
    [entry] = entries(where)
    entry.write_bytes(cache._digest("words", [source], "") + b"cbuiltins\nexit\n.")  # another user's planted entry
    assert cached("words", [source], build) == ["ALPHA"] and build.calls == 2


def test_a_value_pickle_refuses_is_simply_not_cached(where, tmp_path):
    source = tmp_path / "a.txt"
    source.write_text("alpha", encoding="utf-8")
    assert cached("words", [source], lambda: (lambda: 1))() == 1  # a lambda cannot be pickled
    assert entries(where) == [] and not list(where.glob(".*.tmp"))


def test_the_cache_folder_keeps_a_bounded_number_of_entries(where, tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "MAX_ENTRIES", 4)
    for k in range(9):
        source = tmp_path / f"s{k}.txt"
        source.write_text(str(k), encoding="utf-8")
        cached("words", [source], Counted(source))
        assert len(entries(where)) <= 4
    assert entries(where)


def test_an_entry_read_at_every_use_outlives_entries_written_after_it(where, tmp_path, monkeypatch):
    """The entries used last are kept: a read marks an entry used (its time moves to now), and pruning drops the
    entries used longest ago, so one written long ago but read at every check (the public fixtures') stays. (Times
    are set explicitly: a file's time moves in clock ticks, and the order of equal times is the folder's.)"""
    import os

    kept = tmp_path / "kept.txt"
    kept.write_text("kept", encoding="utf-8")
    build = Counted(kept)
    cached("words", [kept], build)
    (slot,) = entries(where)
    os.utime(slot, ns=(1, 1))  # written long ago
    assert cached("words", [kept], build) == ["KEPT"] and build.calls == 1
    assert slot.stat().st_mtime_ns > 10 ** 18  # the read marked it used (now, not 1970)
    for k in range(6):  # six entries written after it, each one used later than the last
        source = tmp_path / f"s{k}.txt"
        source.write_text(str(k), encoding="utf-8")
        cached("words", [source], Counted(source))
    others = [e for e in entries(where) if e != slot]
    for k, entry in enumerate(others):  # ... yet all of them before the kept entry's last use
        os.utime(entry, ns=(slot.stat().st_mtime_ns - 10 ** 9 * (k + 1),) * 2)
    monkeypatch.setattr(cache, "MAX_ENTRIES", 4)
    cache._prune(where)
    assert slot in entries(where) and len(entries(where)) == 2  # the half used last: the kept entry among them


@pytest.mark.parametrize("platform, variables, expected", [
    ("linux", {"XDG_CACHE_HOME": "/x/cache"}, "/x/cache/abkit"),
    ("linux", {"XDG_CACHE_HOME": "relative"}, "~/.cache/abkit"),  # the XDG rule: a relative path is ignored
    ("linux", {}, "~/.cache/abkit"),
    ("darwin", {}, "~/Library/Caches/abkit"),
    ("win32", {"LOCALAPPDATA": "/x/Local"}, "/x/Local/abkit/cache"),
    ("win32", {}, None),
])
def test_where_the_cache_lives(monkeypatch, platform, variables, expected):
    for name in (cache.ENV, "XDG_CACHE_HOME", "LOCALAPPDATA"):
        monkeypatch.delenv(name, raising=False)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(cache.sys, "platform", platform)
    found = cache.cache_dir()
    assert (found is None if expected is None else found == Path(expected).expanduser())


def test_no_home_folder_means_no_cache(tmp_path, monkeypatch):
    source = tmp_path / "a.txt"
    source.write_text("alpha", encoding="utf-8")
    monkeypatch.delenv(cache.ENV)

    def homeless():
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.setattr(cache.Path, "home", homeless)
    assert cached("words", [source], Counted(source)) == ["ALPHA"]


# -- what the kit caches ------------------------------------------------------------------------------------------

def test_fixtures_from_the_cache_are_the_fixtures_read_from_the_files(where):
    fresh = load_fixtures([PUBLIC_FIXTURES])
    assert load_fixtures([PUBLIC_FIXTURES], cache=True) == fresh  # made and cached
    assert load_fixtures([PUBLIC_FIXTURES], cache=True) == fresh  # read from the cache
    assert [f.path for f in load_fixtures([PUBLIC_FIXTURES], cache=True)] == [f.path for f in fresh]


def test_a_bad_fixture_is_reported_every_time(where, tmp_path):
    shutil.copytree(PUBLIC_FIXTURES, tmp_path / "public")
    (tmp_path / "public" / "zz-broken.yaml").write_text("id: broken\ntree: [1, [2\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(FixtureError, match=r"zz-broken.yaml:\d+: "):
            load_fixtures([tmp_path / "public"], cache=True)


@pytest.fixture
def course(tmp_path, where):
    """A copy of the kit's course folder (exercises, fixtures, marker) to edit."""
    root = tmp_path / "course"
    for part in ("exercises", "fixtures"):
        shutil.copytree(KIT_ROOT / part, root / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(KIT_ROOT / "abkit-course.toml", root)
    shutil.copy(KIT_ROOT / "solutions" / "minimax.py", root / "exercises" / "minimax.py")
    return root


def test_check_sees_an_edited_fixture_at_once(abkit, course, where):
    first = abkit("check", "--verbose", "minimax", "--course", course, "--lang", "en")
    assert first.status == 0 and "✓ AIMA Figure 5.2 (minimax/aima-fig-5-2)" in first.out
    fixture = course / "fixtures" / "public" / "aima-fig-5-2.yaml"
    text = fixture.read_text(encoding="utf-8")
    fixture.write_text(text.replace('en: "AIMA Figure 5.2"', 'en: "AIMA Figure 5.2 edited"').replace(
        "minimax: {value: 3,", "minimax: {value: 4,"), encoding="utf-8")
    second = abkit("check", "--verbose", "minimax", "--course", course, "--lang", "en")
    assert second.status == 1 and "AIMA Figure 5.2 edited (minimax/aima-fig-5-2)" in second.out
    fixture.write_text(text, encoding="utf-8")
    assert abkit("check", "--verbose", "minimax", "--course", course, "--lang", "en").out == first.out


@pytest.mark.slow
def test_check_says_the_same_with_a_corrupt_a_missing_or_no_cache(abkit, course, where, monkeypatch):
    said = abkit("check", "--course", course, "--lang", "ko").out
    assert entries(where)
    for entry in entries(where):
        entry.write_bytes(entry.read_bytes()[:30])
    assert abkit("check", "--course", course, "--lang", "ko").out == said
    shutil.rmtree(where)
    assert abkit("check", "--course", course, "--lang", "ko").out == said
    monkeypatch.setenv(cache.ENV, "off")
    assert abkit("check", "--course", course, "--lang", "ko").out == said


def test_the_cache_holds_no_hidden_tree_only_their_count(abkit, course, where):
    hidden = course / "fixtures" / "hidden"
    first = abkit("check", "minimax", "--course", course, "--lang", "en")
    assert first.status == 0 and entries(where)
    traced = abkit("trace", sorted(hidden.glob("*.yaml"))[0], "--course", course, "--lang", "en")
    assert traced.status == 0 and "#1" in traced.out  # the instructor's trace of a hidden tree is not cached either
    public = len(entries(where))
    assert abkit("trace", course / "fixtures" / "public" / "aima-fig-5-2.yaml", "--course", course).status == 0
    assert len(entries(where)) == public + 1  # a public one is
    secrets = {p.stem.encode() for p in hidden.glob("*.yaml")}
    secrets |= {line.split(b":", 1)[1].strip() for p in hidden.glob("*.yaml")
                for line in p.read_bytes().splitlines() if line.startswith(b"id:")}
    for entry in entries(where):
        data = entry.read_bytes()
        assert not [s for s in secrets if s in data], entry.name
    count = int(re.search(r"minimax \+(\d+) hidden", first.out).group(1))
    tree = next(p for p in sorted(hidden.glob("*.yaml")) if "minimax:" in p.read_text(encoding="utf-8"))
    (hidden / "zz-extra.yaml").write_bytes(tree.read_bytes())
    again = abkit("check", "minimax", "--course", course, "--lang", "en").out
    assert f"minimax +{count + 1} hidden" in again  # the count follows the hidden trees


# -- the statuses of the exercises not shown in full ----------------------------------------------------------------

#: appended to a solved minimax.py: it fails once ABKIT_TEST_BREAK is set, which no file the cache reads shows
BREAKABLE = '\nimport os\nif os.environ.get("ABKIT_TEST_BREAK"):\n    def minimax_decision(game, state):\n' \
            '        raise RuntimeError("broken")\n'


@pytest.fixture
def breakable(course):
    """The course with a solved minimax that breaks when ABKIT_TEST_BREAK is set (a change no file shows)."""
    minimax = course / "exercises" / "minimax.py"
    minimax.write_text(minimax.read_text(encoding="utf-8") + BREAKABLE, encoding="utf-8")
    return course


def statuses(folder: Path) -> list[Path]:
    return sorted(folder.glob("statuses-*.pickle")) if folder.is_dir() else []


def test_the_progress_line_reuses_the_status_of_unchanged_files(abkit, breakable, where, monkeypatch):
    first = abkit("check", "alphabeta", "--course", breakable, "--lang", "en")
    assert first.status == 1 and "Progress: 1/5" in first.out and len(statuses(where)) == 1
    monkeypatch.setenv("ABKIT_TEST_BREAK", "1")  # minimax would fail now, but none of its files changed
    assert abkit("check", "alphabeta", "--course", breakable, "--lang", "en").out == first.out
    said = abkit("check", "--course", breakable, "--lang", "en").out
    assert "✓ minimax" in said and "Progress: 1/5" in said
    monkeypatch.setenv(cache.ENV, "off")  # without the cache every exercise runs
    assert "Progress: 0/5" in abkit("check", "alphabeta", "--course", breakable, "--lang", "en").out


def test_a_named_exercise_always_runs(abkit, breakable, where, monkeypatch):
    assert abkit("check", "alphabeta", "--course", breakable).status == 1 and statuses(where)
    monkeypatch.setenv("ABKIT_TEST_BREAK", "1")
    run = abkit("check", "minimax", "--course", breakable, "--lang", "en")
    assert run.status == 1 and "RuntimeError: broken" in run.out and "Progress: 0/5" in run.out


@pytest.mark.parametrize("edit", ["the exercise's file", "a file it imports", "a new file", "info.yaml",
                                  "a public fixture"])
def test_a_changed_file_runs_the_exercises_again_at_once(abkit, breakable, where, monkeypatch, edit):
    exercises = breakable / "exercises"
    if edit == "a file it imports":  # minimax.py takes its entry function from a helper module beside it
        (exercises / "helper.py").write_text("BROKEN = False\n", encoding="utf-8")
        minimax = exercises / "minimax.py"
        minimax.write_text(minimax.read_text(encoding="utf-8").replace(
            'if os.environ.get("ABKIT_TEST_BREAK")', "import helper\nif helper.BROKEN"), encoding="utf-8")
    assert "Progress: 1/5" in abkit("check", "alphabeta", "--course", breakable, "--lang", "en").out
    monkeypatch.setenv("ABKIT_TEST_BREAK", "1")
    if edit == "the exercise's file":
        with open(exercises / "minimax.py", "a", encoding="utf-8") as file:
            file.write("# edited\n")
    elif edit == "a file it imports":
        (exercises / "helper.py").write_text("BROKEN = True\n", encoding="utf-8")
    elif edit == "a new file":
        (exercises / "notes.py").write_text("# a file of the student's own\n", encoding="utf-8")
    elif edit == "info.yaml":
        info = exercises / "info.yaml"
        info.write_text(info.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    else:
        fixture = breakable / "fixtures" / "public" / "aima-fig-5-2.yaml"
        fixture.write_text(fixture.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    sys.modules.pop("helper", None)  # as in a new process: the first check imported the old one
    said = abkit("check", "alphabeta", "--course", breakable, "--lang", "en").out
    assert "Progress: 0/5" in said  # minimax ran again (and fails, as ABKIT_TEST_BREAK makes it)


@pytest.mark.slow
def test_a_status_that_depended_on_time_is_not_kept(abkit, course, where):
    info = course / "exercises" / "info.yaml"
    info.write_text(re.sub(r"(?m)^time_limit: .*$", "time_limit: 0.3", info.read_text(encoding="utf-8")),
                    encoding="utf-8")
    minimax = course / "exercises" / "minimax.py"
    minimax.write_text(minimax.read_text(encoding="utf-8") + "\n\ndef minimax_decision(game, state):\n"
                       "    while True:\n        pass\n", encoding="utf-8")
    run = abkit("check", "alphabeta", "--course", course, "--lang", "en")
    assert "✗ minimax" not in run.out and "Progress: 0/5" in run.out
    assert statuses(where) == []


def test_a_stale_or_foreign_status_entry_is_not_used(abkit, breakable, where, monkeypatch):
    from abkit.coursefolder import forget_course, use_course
    from abkit.studentloop.report import info_path, remembered

    first = abkit("check", "alphabeta", "--course", breakable, "--lang", "en").out
    [entry] = statuses(where)
    exercises = breakable / "exercises"
    for value in ({"minimax": ("failing", 99)}, {"minimax": ("passed", 3), "alphabeta": ("passed", None)},
                  ["not", "a", "dict"], {name: ("lost", None) for name in ("minimax", "alphabeta", "alphabeta_cutoff",
                                                                           "expectimax", "ordering")}):
        entry.unlink()
        use_course(breakable)
        try:
            remembered(exercises, info_path(exercises)).store(value)
        finally:
            forget_course()
        assert [entry] == statuses(where)
        assert abkit("check", "alphabeta", "--course", breakable, "--lang", "en").out == first


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_remembered_failing_status_names_the_same_first_failing_test(abkit, course, where, lang):
    alphabeta = course / "exercises" / "alphabeta.py"
    solved = (KIT_ROOT / "solutions" / "alphabeta.py").read_text(encoding="utf-8")
    wrong = solved.replace("        if v < alpha or (v == alpha and PRUNE_ON_EQUALITY):\n", "        if v < alpha:\n")
    assert wrong != solved
    alphabeta.write_text(wrong, encoding="utf-8")
    shutil.copy(KIT_ROOT / "exercises" / "minimax.py", course / "exercises" / "minimax.py")  # the current exercise
    first = abkit("check", "--course", course, "--lang", lang)  # runs alphabeta up to its first failure
    again = abkit("check", "--course", course, "--lang", lang)  # takes its status from the cache
    assert statuses(where) and again.out == first.out and again.status == first.status == 1
    line = next(line for line in first.out.splitlines() if "alphabeta · " in line)
    assert line.startswith("✗") and ("the first test that fails: " if lang == "en" else "처음") in line, line
