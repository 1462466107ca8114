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
from abkit.grader import confine
from abkit.cli.instructor.grade import report_defences
from abkit.grader.running import weaker

LAYERS = confine.available()


def run_confined(body: str, tmp_path, setup: str = "") -> dict:
    """Run ``body`` in a fresh interpreter after ``setup`` and :func:`confine.confine`; returns its JSON line."""
    script = textwrap.dedent(f"""\
        import json, os, sys
        sys.path.insert(0, {str(KIT_ROOT)!r})
        from pathlib import Path
        from abkit.grader import confine
        {textwrap.indent(textwrap.dedent(setup), '        ').strip()}
        os.chdir({str(tmp_path)!r})
        result = {{"defences": confine.confine(Path.cwd(), Path({str(KIT_ROOT)!r}),
                                             [Path({str(HIDDEN_FIXTURES)!r}), Path({str(SOLUTIONS)!r})]).to_dict()}}
        def attempt(name, action):
            try:
                action()
                result[name] = "allowed"
            except (OSError, RuntimeError, ValueError) as error:
                result[name] = type(error).__name__
        {textwrap.indent(textwrap.dedent(body), '        ').strip()}
        print(json.dumps(result))
        """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.skipif(not (LAYERS["landlock"] and LAYERS["seccomp"]), reason="needs Landlock and a seccomp table")
def test_on_this_machine_the_child_reads_only_its_runtime_and_its_folder_and_writes_nothing(tmp_path):
    (tmp_path / "given.txt").write_text("the student's file")
    result = run_confined("""
        import mmap, resource, socket, subprocess, threading, signal
        attempt("read own folder", lambda: Path("given.txt").read_text())
        attempt("write own folder", lambda: Path("mine.txt").write_text("x"))
        attempt("append own file", lambda: open("given.txt", "a").write("x"))
        attempt("hidden", lambda: os.listdir(Path(sys.path[0]) / "fixtures" / "hidden"))
        attempt("solution", lambda: (Path(sys.path[0]) / "solutions" / "alphabeta.py").read_text())
        attempt("kit code", lambda: (Path(sys.path[0]) / "abkit" / "tree.py").read_text())
        attempt("write tmp", lambda: Path("/tmp/abkit-confine-test.txt").write_text("x"))
        attempt("write shm", lambda: Path("/dev/shm/abkit-confine-test").write_bytes(b"x"))
        attempt("parent's /proc", lambda: open(f"/proc/{os.getppid()}/environ").read())
        attempt("fork", os.fork)
        attempt("exec", lambda: subprocess.run(["true"]))
        attempt("socket", socket.socket)
        attempt("pipe", os.pipe)
        attempt("thread", lambda: threading.Thread(target=print).start())
        attempt("handler", lambda: signal.signal(signal.SIGALRM, print))
        attempt("kill parent", lambda: os.kill(os.getppid(), 0))
        attempt("kill self", lambda: os.kill(os.getpid(), 0))
        attempt("memfd", lambda: os.memfd_create("x"))
        attempt("nice", lambda: os.setpriority(os.PRIO_PROCESS, 0, 19))
        attempt("nice parent", lambda: os.setpriority(os.PRIO_PROCESS, os.getppid(), 19))
        attempt("affinity", lambda: os.sched_setaffinity(0, {0}))
        attempt("limit parent", lambda: resource.prlimit(os.getppid(), resource.RLIMIT_NOFILE, (3, 3)))
        attempt("limit self", lambda: resource.setrlimit(resource.RLIMIT_STACK, (1 << 20, 1 << 20)))
        attempt("read limits", lambda: (resource.getrlimit(resource.RLIMIT_AS),
                                        resource.prlimit(0, resource.RLIMIT_NOFILE)))
        attempt("chmod", lambda: os.chmod("given.txt", 0o777))
        attempt("anonymous memory", lambda: mmap.mmap(-1, 1 << 20).close())
        attempt("sleep", lambda: __import__("time").sleep(0.01))
        """, tmp_path)
    assert result["defences"] == {"landlock": LAYERS["landlock"], "seccomp": True, "hidden": True, "reasons": []}
    allowed = ("read own folder", "kit code", "kill self", "read limits", "anonymous memory", "sleep")
    assert all(result[name] == "allowed" for name in allowed), result
    denied = [name for name in result if name not in (*allowed, "defences")]
    assert all(result[name] in ("PermissionError", "RuntimeError", "ValueError") for name in denied), result
    assert not os.path.exists("/tmp/abkit-confine-test.txt") and not os.path.exists("/dev/shm/abkit-confine-test")
    assert (tmp_path / "given.txt").read_text() == "the student's file" and not (tmp_path / "mine.txt").exists()


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


def test_what_the_fork_server_prepares_is_what_each_child_would_work_out(tmp_path, monkeypatch):
    """The fork server works out the readable paths and the fixed part of the filter once (confine.prepare); a
    child gets exactly what it would have computed, and a different sys.path is worked out again."""
    secrets = [HIDDEN_FIXTURES, SOLUTIONS]
    confine.prepare(KIT_ROOT, secrets)
    assert confine._readable(KIT_ROOT, secrets) == confine.readable_paths(KIT_ROOT, secrets)
    assert tmp_path.resolve() not in confine._readable(KIT_ROOT, secrets)
    monkeypatch.setattr(sys, "path", [*sys.path, str(tmp_path)])
    assert confine._readable(KIT_ROOT, secrets) == confine.readable_paths(KIT_ROOT, secrets)
    assert tmp_path.resolve() in confine._readable(KIT_ROOT, secrets) and len(confine._READABLE) == 1
    for machine in confine.SYSCALLS:
        program = confine.seccomp_program(machine, pid=4242)
        assert confine._fixed_filter(machine) + confine._packed(confine._own_process_program(machine, 4242)) \
            == b"".join(confine.struct.pack("=HBBI", *i) for i in program)


def run_filter(program: list, arch: int, nr: int, args: tuple = ()) -> int:
    """What the BPF ``program`` answers for one syscall (a small interpreter of the instructions it uses)."""
    words = [nr, arch, 0, 0] + [w for a in (*args, *[0] * (6 - len(args))) for w in (a & 0xFFFFFFFF, a >> 32)]
    accumulator, pc = 0, 0
    while True:
        code, jt, jf, k = program[pc]
        if code == confine.RET:
            return k
        if code == confine.LD_ABS_W:
            accumulator = words[k // 4]
            pc += 1
            continue
        taken = accumulator == k if code == confine.JEQ else accumulator >= k
        pc += 1 + (jt if taken else jf)


@pytest.mark.parametrize("machine", sorted(confine.SYSCALLS))
def test_the_seccomp_program_allows_only_its_list_and_refuses_the_rest_with_eperm(machine):
    program = confine.seccomp_program(machine, pid=4242)
    arch, nr = confine.SYSCALLS[machine]
    allow, refuse = confine.RET_ALLOW, confine.RET_ERRNO(confine.EPERM)
    assert all(0 <= jt < 256 and 0 <= jf < 256 for _, jt, jf, _ in program) and len(program) < 4096
    assert all(run_filter(program, arch, nr[name]) == allow for name in confine.ALLOWED if name in nr)
    assert run_filter(program, arch, nr["read"] + 1000) == refuse  # unknown to the list: refused
    assert run_filter(program, arch ^ 1, nr["read"]) == refuse  # another ABI
    assert run_filter(program, arch, nr["clone"]) == refuse
    assert run_filter(program, arch, nr["clone3"]) == confine.RET_ERRNO(confine.ENOSYS)
    for name in ("kill", "tkill", "tgkill"):
        verdicts = [run_filter(program, arch, nr[name], (pid, 9)) for pid in (4242, 0, 4241, 1, 4242 + (1 << 32))]
        assert verdicts == [allow, allow, refuse, refuse, allow]  # (the kernel reads a pid's low 32 bits)
    reads = [run_filter(program, arch, nr["prlimit64"], (pid, 7, new, 0x7FFF0000)) for pid, new in
             ((0, 0), (4242, 0), (4241, 0), (0, 0x1000), (4242, 1 << 32))]
    assert reads == [allow, allow, refuse, refuse, refuse]
    with pytest.raises(KeyError):
        confine.seccomp_program("sparc", pid=1)


def test_the_allow_list_holds_nothing_that_reaches_another_process_or_escapes_the_limits():
    dangerous = {"fork", "vfork", "clone", "execve", "socket", "pipe", "pipe2", "ptrace", "process_vm_writev",
                 "prlimit64", "setrlimit", "setpriority", "sched_setaffinity", "memfd_create", "shmget", "kill",
                 "rt_sigqueueinfo", "rt_sigaction", "prctl", "setuid", "chmod", "chown", "mknod", "mount"}
    assert not dangerous & set(confine.ALLOWED)
    for machine, (_, nr) in confine.SYSCALLS.items():
        assert len(set(nr.values())) == len(nr), machine  # no number given twice


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

    import abkit.grader.sandbox as sandbox
    result = doctest.testmod(sandbox)
    assert result.failed == 0 and result.attempted > 0


ROOT_DROP = """
    _confine = confine.confine
    confine.confine = lambda *args, **kwargs: _confine(*args, drop_root=True, **kwargs)
    """


@pytest.mark.skipif(os.geteuid() != 0 or not LAYERS["seccomp"], reason="only a grader running as root changes user")
def test_under_root_the_child_becomes_a_user_of_its_own_that_can_only_read(tmp_path):
    result = run_confined("""
        import decimal, resource
        result["ids"] = [os.getresuid(), os.getresgid(), os.getgroups()]
        attempt("runtime", lambda: __import__("fractions"))
        attempt("write kit", lambda: open(Path(sys.path[0]) / "abkit" / "pwned.txt", "w"))
        attempt("signal init", lambda: os.kill(1, 0))
        attempt("limit init", lambda: resource.prlimit(1, resource.RLIMIT_NOFILE))
        """, tmp_path, setup=ROOT_DROP)
    uid = result["ids"][0][0]
    assert uid >= confine.CHILD_IDS and result["ids"] == [[uid] * 3, [uid] * 3, []]
    assert result["defences"]["reasons"] == [] and result["runtime"] == "allowed"
    assert result["write kit"] == result["signal init"] == result["limit init"] == "PermissionError"
    assert not (KIT_ROOT / "abkit" / "pwned.txt").exists()


@pytest.mark.skipif(os.geteuid() != 0, reason="a user is changed only when the grader runs as root")
def test_under_root_a_user_that_cannot_be_taken_is_reported(tmp_path):
    result = run_confined("", tmp_path, setup=ROOT_DROP + """
    def fail(*args):
        raise OSError(13, "refused")
    confine._drop_root = fail
    """)
    assert "user: [Errno 13] refused" in result["defences"]["reasons"]


@pytest.mark.skipif(os.geteuid() != 0 or not LAYERS["seccomp"], reason="only a grader running as root changes user")
def test_where_a_container_maps_no_high_id_the_child_becomes_nobody(tmp_path):
    result = run_confined("""
        result["ids"] = [os.getresuid(), os.getgroups()]
        """, tmp_path, setup=ROOT_DROP + f"""
    import errno
    _setresgid = os.setresgid
    def setresgid(*ids):
        if ids[0] >= confine.CHILD_IDS:
            raise OSError(errno.EINVAL, "not mapped")
        _setresgid(*ids)
    os.setresgid = setresgid
    """)
    assert result["ids"] == [[confine.NOBODY] * 3, []] and result["defences"]["reasons"] == []
