"""The child's confinement (grader.confine): what it denies on this machine, and how it reports what it cannot do.

Confinement cannot be undone, so every case that applies it runs in a fresh
interpreter; the pure parts (the BPF program, the readable paths, the reports) run here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from abkit.loading import HIDDEN_FIXTURES, KIT_ROOT, SOLUTIONS
from grader import confine
from grader.commands.grade import report_defences
from grader.grading import weaker

LAYERS = confine.available()


def run_confined(body: str, tmp_path, setup: str = "") -> dict:
    """Run ``body`` in a fresh interpreter after ``setup`` and :func:`confine.confine`; returns its JSON line."""
    script = textwrap.dedent(f"""\
        import json, os, sys
        sys.path.insert(0, {str(KIT_ROOT)!r})
        from pathlib import Path
        from grader import confine
        {textwrap.indent(textwrap.dedent(setup), '        ').strip()}
        os.chdir({str(tmp_path)!r})
        result = {{"defences": confine.confine(Path.cwd(), Path({str(KIT_ROOT)!r}),
                                             [Path({str(HIDDEN_FIXTURES)!r}), Path({str(SOLUTIONS)!r})]).to_dict()}}
        def attempt(name, action):
            try:
                action()
                result[name] = "allowed"
            except (OSError, RuntimeError) as error:
                result[name] = type(error).__name__
        {textwrap.indent(textwrap.dedent(body), '        ').strip()}
        print(json.dumps(result))
        """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.skipif(not (LAYERS["landlock"] and LAYERS["seccomp"]), reason="needs Landlock and a seccomp table")
def test_on_this_machine_the_child_reads_only_its_runtime_and_writes_only_its_folder(tmp_path):
    result = run_confined("""
        import socket, subprocess, threading, signal
        attempt("own folder", lambda: Path("mine.txt").write_text("x"))
        attempt("hidden", lambda: os.listdir(Path(sys.path[0]) / "fixtures" / "hidden"))
        attempt("solution", lambda: (Path(sys.path[0]) / "solutions" / "alphabeta.py").read_text())
        attempt("kit code", lambda: (Path(sys.path[0]) / "abkit" / "tree.py").read_text())
        attempt("write tmp", lambda: Path("/tmp/abkit-confine-test.txt").write_text("x"))
        attempt("parent's /proc", lambda: open(f"/proc/{os.getppid()}/environ").read())
        attempt("fork", os.fork)
        attempt("exec", lambda: subprocess.run(["true"]))
        attempt("socket", socket.socket)
        attempt("thread", lambda: threading.Thread(target=print).start())
        attempt("handler", lambda: signal.signal(signal.SIGALRM, print))
        attempt("kill parent", lambda: os.kill(os.getppid(), 0))
        attempt("kill self", lambda: os.kill(os.getpid(), 0))
        """, tmp_path)
    assert result["defences"] == {"landlock": LAYERS["landlock"], "seccomp": True, "hidden": True, "reasons": []}
    assert result["own folder"] == result["kit code"] == result["kill self"] == "allowed"
    denied = ("hidden", "solution", "write tmp", "parent's /proc", "fork", "exec", "socket", "thread", "handler",
              "kill parent")
    assert all(result[name] in ("PermissionError", "RuntimeError") for name in denied), result
    assert not os.path.exists("/tmp/abkit-confine-test.txt")


def test_without_landlock_or_a_seccomp_table_the_child_says_what_is_missing(tmp_path):
    result = run_confined("", tmp_path, setup="""
        confine.landlock_abi = lambda: 0
        os.uname = lambda: type("U", (), {"machine": "sparc"})()
        """)
    defences = result["defences"]
    assert defences["landlock"] == 0 and defences["seccomp"] is False and defences["hidden"] is False
    assert defences["reasons"] == ["landlock: not offered by this kernel", "seccomp: no syscall table for sparc"]


def test_failures_to_apply_a_layer_are_reported_not_raised(tmp_path):
    result = run_confined("", tmp_path, setup="""
        def fail(*args):
            raise OSError(22, "refused")
        confine._landlock = fail
        confine._seccomp = fail
        """)
    assert result["defences"]["reasons"] == ["landlock: [Errno 22] refused", "seccomp: [Errno 22] refused"]


def test_off_linux_nothing_is_applied(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "platform", "darwin")
    defences = confine.confine(tmp_path, KIT_ROOT, [HIDDEN_FIXTURES])
    assert (defences.landlock, defences.seccomp, defences.reasons) == (0, False, ("not Linux (darwin)",))
    assert confine.landlock_abi() == 0 and confine.available() == {"landlock": 0, "seccomp": False}


def test_no_new_privs_refused_is_reported(tmp_path, monkeypatch):
    def refuse():
        raise OSError(1, "prctl")
    monkeypatch.setattr(confine, "_die_with_parent", lambda: None)
    monkeypatch.setattr(confine, "_no_new_privs", refuse)
    assert confine.confine(tmp_path, KIT_ROOT, []).reasons == ("no_new_privs: [Errno 1] prctl",)


def test_readable_paths_never_hold_a_secret(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "path", [str(KIT_ROOT), str(KIT_ROOT.parent), "", *sys.path])
    paths = confine.readable_paths(KIT_ROOT, [HIDDEN_FIXTURES, SOLUTIONS])
    assert KIT_ROOT / "abkit" in paths and KIT_ROOT / "grader" in paths
    assert KIT_ROOT not in paths and KIT_ROOT.parent not in paths and len(set(paths)) == len(paths)
    assert not any(confine._within(s, p) for p in paths for s in (HIDDEN_FIXTURES, SOLUTIONS))


@pytest.mark.parametrize("machine", sorted(confine.SYSCALLS))
def test_the_seccomp_program_checks_the_architecture_first_and_allows_the_rest(machine):
    program = confine.seccomp_program(machine, pid=4242)
    arch, numbers = confine.SYSCALLS[machine]
    assert program[0] == (confine.LD_ABS_W, 0, 0, 4) and program[1][3] == arch
    assert program[-1] == (confine.RET, 0, 0, confine.RET_ALLOW)
    assert (confine.JEQ, 0, 1, numbers["clone"]) in program and (confine.JEQ, 2, 0, 4242) in program
    assert all(0 <= jt < 256 and 0 <= jf < 256 for _, jt, jf, _ in program)
    with pytest.raises(KeyError):
        confine.seccomp_program("sparc", pid=1)


def test_probe_says_none_when_there_is_nothing_to_hide(tmp_path):
    assert confine.probe([tmp_path / "absent"]) is None
    (tmp_path / "secret.yaml").write_text("x")
    assert confine.probe([tmp_path / "secret.yaml"]) is False


@pytest.mark.parametrize("defences, out, err", [
    (None, "", ""),
    ({"landlock": 7, "seccomp": True, "hidden": True, "reasons": []}, "Landlock (ABI 7)", ""),
    ({"landlock": 0, "seccomp": False, "hidden": False, "reasons": ["landlock: not offered by this kernel"]}, "",
     "could read the grader's files"),
])
def test_the_batch_says_how_student_code_was_confined(capsys, defences, out, err):
    report_defences(defences, "en")
    captured = capsys.readouterr()
    assert out in captured.out and err in captured.err
    if defences and not defences["seccomp"]:
        assert "could start processes (landlock: not offered by this kernel)" in captured.err


def test_the_weakest_confinement_of_a_batch_is_the_one_reported():
    strong = {"landlock": 7, "seccomp": True, "hidden": True}
    assert weaker({"landlock": 0, "seccomp": True, "hidden": False}, strong)
    assert not weaker(strong, {"landlock": 0, "seccomp": False, "hidden": False})


def test_sandbox_doctests():
    import doctest

    import grader.sandbox
    result = doctest.testmod(grader.sandbox)
    assert result.failed == 0 and result.attempted > 0
