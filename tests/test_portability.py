"""Any laptop: UTF-8 output on a cp949 or cp1252 console, the screen cleared on Windows, memory limits that fall
back to a watchdog where the system refuses them (macOS) or has none (Windows), said in one sentence.

Linux has every piece, so the tests take pieces away: a console stream of another encoding, ``os.name`` set to
``nt``, no ``resource`` module, a ``setrlimit`` that refuses.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import textwrap
import types

import pytest

from abkit.loading import EXERCISES, KIT_ROOT, SOLUTIONS
from abkit.cli import main as cli
from abkit.studentloop import limits, watch

INFO = (EXERCISES / "info.yaml").read_text(encoding="utf-8")
MINIMAX_ONLY = INFO.split("  - name: alphabeta\n")[0]
#: a search that grows a list of 1 MB strings (touched, so that the resident size grows too) without end
HOG = (SOLUTIONS / "minimax.py").read_text(encoding="utf-8").replace(
    "    v = math.inf\n", "    v = math.inf\n    import time\n    hog = []\n    while True:\n"
                         "        hog.append(b'x' * (1 << 20))\n        time.sleep(0.001)\n", 1)


@pytest.mark.parametrize("encoding", ["cp949", "cp1252"])
def test_a_console_that_cannot_write_the_kits_text_gets_utf8(monkeypatch, encoding):
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding=encoding)
    monkeypatch.setattr(sys, "stdout", stream)
    monkeypatch.delenv("PYTHONIOENCODING", raising=False)
    cli._utf8_streams()
    print("연습 문제 · α ≤ β · ✓ ✗ ⚠ ├─ ∞")
    stream.flush()
    assert sys.stdout.encoding == "utf-8" and raw.getvalue().decode("utf-8") == "연습 문제 · α ≤ β · ✓ ✗ ⚠ ├─ ∞\n"


def test_a_console_that_can_write_it_is_left_as_it_is_and_never_crashes(monkeypatch):
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="utf-16")
    monkeypatch.setattr(sys, "stdout", stream)
    cli._utf8_streams()
    print("α ≤ β \udcff")  # a lone surrogate (a file name from a broken disk) is replaced, not a crash
    stream.flush()
    assert sys.stdout.encoding == "utf-16" and raw.getvalue().decode("utf-16") == "α ≤ β ?\n"


@pytest.mark.parametrize("encoding, words", [("cp949", "진행: 연습 문제 5개 중 0개 완료"), ("cp1252", "Progress: 0/5")])
def test_the_whole_check_runs_on_a_console_of_another_encoding(encoding, words):
    """In a real process whose stdout is cp949 or cp1252 (as a Windows pipe): no crash, UTF-8 out."""
    env = {**os.environ, "PYTHONIOENCODING": "", "PYTHONUTF8": "0", "LC_ALL": "C"}
    code = f"import io, sys; sys.stdout = io.TextIOWrapper(sys.stdout.buffer, encoding={encoding!r}); " \
           "from abkit.cli.main import main; sys.exit(main(['check', '--lang', " + repr("ko" if encoding == "cp949" else "en") + "]))"
    proc = subprocess.run([sys.executable, "-c", code], cwd=KIT_ROOT, capture_output=True, env=env, timeout=120)
    assert proc.returncode == 1 and b"Traceback" not in proc.stderr
    assert words in proc.stdout.decode("utf-8") and "○" in proc.stdout.decode("utf-8")


def test_an_encoding_the_user_chose_is_kept_with_ascii_glyphs():
    env = {**os.environ, "PYTHONIOENCODING": "cp1252"}
    proc = subprocess.run([sys.executable, "-m", "abkit.cli", "check", "--lang", "ko"], cwd=KIT_ROOT, capture_output=True,
                          env=env, timeout=120)
    text = proc.stdout.decode("cp1252")
    assert proc.returncode == 1 and b"Traceback" not in proc.stderr
    assert "-- alphabeta" in text and "XX AIMA" in text and "?" in text  # Hangul replaced; ASCII marks


# -- the screen ------------------------------------------------------------------------------------------


class Console(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_watch_clears_a_terminal_and_leaves_a_pipe_alone(monkeypatch):
    pipe, console = io.StringIO(), Console()
    watch.clear_screen(pipe)
    watch.clear_screen(console)
    assert pipe.getvalue() == "" and console.getvalue() == watch.CLEAR


def test_on_windows_the_console_is_put_in_ansi_mode_or_cleared_with_cls(monkeypatch):
    calls = []
    monkeypatch.setattr(watch.os, "name", "nt")
    monkeypatch.setattr(watch.subprocess, "run", lambda *args, **kwargs: calls.append(args))
    monkeypatch.setattr(watch, "_windows_ansi", lambda: True)
    console = Console()
    watch.clear_screen(console)
    assert console.getvalue() == watch.CLEAR and calls == []
    monkeypatch.setattr(watch, "_windows_ansi", lambda: False)  # an old console: no ANSI
    console = Console()
    watch.clear_screen(console)
    assert console.getvalue() == "" and calls == [("cls",)]


def test_without_a_windows_console_api_ansi_mode_is_simply_not_on():
    assert watch._windows_ansi() is False  # no ctypes.windll here: it says so instead of failing


@pytest.mark.parametrize("console, on", [(True, True), (False, False)])
def test_ansi_mode_is_asked_of_the_windows_console(monkeypatch, console, on):
    import ctypes

    class Kernel32:
        modes: list = []

        def GetStdHandle(self, which):  # noqa: N802 - the Windows API's names
            return 7

        def GetConsoleMode(self, handle, mode):  # noqa: N802
            return 1 if console else 0  # 0: stdout is not a console (a pipe)

        def SetConsoleMode(self, handle, mode):  # noqa: N802
            self.modes.append(mode)
            return 1

    kernel32 = Kernel32()
    monkeypatch.setattr(ctypes, "windll", types.SimpleNamespace(kernel32=kernel32), raising=False)
    assert watch._windows_ansi() is on and kernel32.modes == ([0x0004] if console else [])


# -- memory ------------------------------------------------------------------------------------------------

def check_in_a_process(tmp_path, simulate: str, lang: str = "en") -> subprocess.CompletedProcess:
    """``abkit check minimax`` on the memory hog, in its own process, with ``simulate`` run first."""
    (tmp_path / "minimax.py").write_text(HOG, encoding="utf-8")
    info = MINIMAX_ONLY.replace("time_limit: 2", "time_limit: 20\nmemory_limit: 64")
    (tmp_path / "info.yaml").write_text(info, encoding="utf-8")
    code = textwrap.dedent(simulate) + textwrap.dedent(f"""
        from abkit.cli.main import main
        raise SystemExit(main(["check", "minimax", "--exercises", {str(tmp_path)!r}, "--lang", {lang!r}]))
    """)
    return subprocess.run([sys.executable, "-c", code], cwd=KIT_ROOT, capture_output=True, text=True,
                          encoding="utf-8", timeout=120)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS holds on Linux")
def test_where_the_system_takes_a_memory_limit_a_runaway_search_meets_memory_error(tmp_path):
    proc = check_in_a_process(tmp_path, "")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert ("The search on AIMA Figure 5.2 used more than 64 MB of memory and was stopped, so 36 other tests of "
            "minimax did not run.") in proc.stdout
    assert "MemoryError" in proc.stdout and "Memory:" not in proc.stdout  # the system's limit: nothing to say


REFUSED = """
    import resource
    from abkit.studentloop import limits as loop_limits
    class Refusing:
        def __getattr__(self, name):
            return getattr(resource, name)

        def setrlimit(self, which, limits):
            raise ValueError("current limit exceeds maximum limit")  # as macOS says for RLIMIT_AS

    loop_limits._resource = lambda: Refusing()
"""


@pytest.mark.slow
def test_a_refused_limit_is_named_and_a_watchdog_stops_the_search(tmp_path):
    proc = check_in_a_process(tmp_path, REFUSED)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert ("Memory: this system refused the limit RLIMIT_AS (ValueError: current limit exceeds maximum limit), so "
            "abkit check watches the memory from a thread instead and stops a test that grows by more than 64 MB."
            ) in proc.stdout
    assert "The search on AIMA Figure 5.2 used more than 64 MB of memory and was stopped" in proc.stdout
    proc = check_in_a_process(tmp_path, REFUSED, "ko")
    assert "메모리: 이 시스템이 RLIMIT_AS 제한을 거부해서(ValueError: current limit exceeds maximum limit)" in proc.stdout
    assert "AIMA 그림 5.2 트리에서 탐색이 메모리를 64MB보다 많이 써서 멈췄고" in proc.stdout


def test_without_a_resource_module_tracemalloc_watches_and_says_so(tmp_path):
    proc = check_in_a_process(tmp_path, "from abkit.studentloop import limits\nlimits._resource = lambda: None\n")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert ("Memory: this system sets no resource limits (Python has no resource module here), so abkit check "
            "watches the memory from a thread instead (tracemalloc)") in proc.stdout
    assert "used more than 64 MB of memory and was stopped" in proc.stdout


def test_the_import_of_resource_failing_means_no_resource_module(monkeypatch):
    import builtins

    real = builtins.__import__
    monkeypatch.setattr(builtins, "__import__", lambda name, *a, **k: (_ for _ in ()).throw(ImportError(name))
                        if name == "resource" else real(name, *a, **k))
    assert limits._resource() is None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS holds on Linux")
def test_the_limit_is_lowered_for_the_check_and_given_back_after(abkit):
    import resource

    before = resource.getrlimit(resource.RLIMIT_AS)
    with limits.MemoryGuard(512) as guard:
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        assert guard.limit and guard.notice is None and hard == before[1]
        assert limits._mapped() < soft <= limits._mapped() + 512 * 2**20
    assert resource.getrlimit(resource.RLIMIT_AS) == before
    assert abkit("check", "--lang", "en").status == 1 and resource.getrlimit(resource.RLIMIT_AS) == before


def test_a_lower_limit_of_the_users_own_is_kept(monkeypatch):
    class Low:
        RLIMIT_AS, RLIM_INFINITY = 9, -1
        set = []

        def getrlimit(self, which):
            return (100 << 20, -1)

        def setrlimit(self, which, value):  # pragma: no cover - must not be called
            self.set.append(value)

    low = Low()
    monkeypatch.setattr(limits, "_resource", lambda: low)
    with limits.MemoryGuard(1024) as guard:
        assert guard.limit and guard.notice is None
    assert low.set == []


def test_a_system_without_rlimit_as_says_so(monkeypatch):
    class NoAS:
        pass

    monkeypatch.setattr(limits, "_resource", lambda: NoAS())
    monkeypatch.setattr(limits, "_peak_memory", lambda resource: lambda: 0)
    with limits.MemoryGuard(100) as guard:
        assert not guard.limit and "AttributeError: resource.RLIMIT_AS" in guard.notice.render("en")


def test_a_watchdog_stops_only_the_code_it_watches(monkeypatch):
    """The watchdog thread trips the watchdog of the test running now; between tests it does nothing."""
    readings = iter([0] + [10**12] * 1000)
    monkeypatch.setattr(limits, "_resource", lambda: None)
    monkeypatch.setattr(limits, "_traced_memory", lambda: lambda: next(readings))

    class Dog:
        tripped: list = []

        def trip(self, reason):
            self.tripped.append(reason)

    dog = Dog()
    with limits.MemoryGuard(16) as guard:
        import time

        time.sleep(limits.POLL * 5)
        assert dog.tripped == []  # nothing watched yet
        guard.watch(dog)
        for _ in range(200):
            if dog.tripped:
                break
            time.sleep(limits.POLL)
        guard.unwatch(dog)
    assert dog.tripped[:1] == ["memory"] and limits.active() is None


def test_a_bad_memory_limit_in_info_yaml_is_a_clean_message(abkit, tmp_path):
    (tmp_path / "info.yaml").write_text(INFO.replace("time_limit: 2", "time_limit: 2\nmemory_limit: 2"), encoding="utf-8")
    run = abkit("check", "--exercises", tmp_path, "--lang", "en")
    assert run.status == 2 and "'memory_limit' must be a number of megabytes, at least 16, not 2." in run.err


def test_the_readme_sets_up_in_powershell_too():
    readme = (KIT_ROOT / "README.md").read_text(encoding="utf-8")
    assert "```powershell" in readme and ".venv\\Scripts\\Activate.ps1" in readme


# -- grading: a limit the system refuses is said, not dropped -------------------------------------------------

def test_the_grading_child_names_each_limit_the_system_refuses():
    from abkit.grader.childlimits import set_limits

    class MacLike:
        RLIMIT_CPU, RLIMIT_AS, RLIMIT_CORE = 0, 5, 4  # no RLIMIT_FSIZE here, to name a missing one too
        set: list = []

        def setrlimit(self, which, value):
            if which == self.RLIMIT_AS:
                raise ValueError("current limit exceeds maximum limit")
            self.set.append((which, value))

    mac = MacLike()
    refused = set_limits({"cpu": 10, "memory": 2**30, "fsize": 2**20}, mac)
    assert refused == ["RLIMIT_AS: ValueError: current limit exceeds maximum limit", "RLIMIT_FSIZE: not on this system"]
    assert mac.set == [(0, (10, 10)), (4, (0, 0))]


def test_abkit_grade_warns_about_refused_limits(capsys):
    from abkit.cli.instructor.grade import report_defences

    report_defences({"landlock": 7, "seccomp": True, "hidden": True, "reasons": [],
                     "refused": ["RLIMIT_AS: ValueError: current limit exceeds maximum limit"]}, "en")
    err = capsys.readouterr().err
    assert "warning: this system refused these limits on student code: RLIMIT_AS: ValueError: current limit" in err
    report_defences({"landlock": 7, "seccomp": True, "hidden": True, "reasons": []}, "ko")
    assert "거부" not in capsys.readouterr().err
