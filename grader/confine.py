"""Confining a student's process before its code runs: what it may read, write, start and reach.

:func:`confine` runs in the sandboxed child (:mod:`abkit.grader.child`), after the
kit's own modules are loaded and before any student code. Layers, each applied
where the system offers it and reported where it does not:

- **Landlock** (Linux 5.13+, unprivileged): the process may read the Python
  runtime, the kit's code (``abkit/``, ``grader/``) and its working folder, and
  write nothing (``/dev/null`` and, in the kit's tests, coverage's folder aside):
  the hidden fixtures, the solutions, the output folder, ``/tmp``, ``/dev/shm``
  and the instructor's files cannot be opened or listed, ``/proc`` included. So
  the disk a student may fill is its log alone (capped by ``RLIMIT_FSIZE``).
  With ABI 4+ it cannot bind or connect TCP sockets; with ABI 6+ it cannot
  signal processes outside its sandbox.
- **A user of its own** when the grader runs as root: uid and gid
  :data:`CHILD_IDS` + pid, no groups, no capability but reading
  (:func:`_drop_root`), so it cannot touch the grader's, the fork server's or
  another student's process, nor write a file of theirs.
- **seccomp** (a classic BPF filter built here, no library): an allow list
  (:data:`ALLOWED`) of what a Python search and the harness need; everything
  else fails with EPERM (``PermissionError``): no new processes or threads, no
  ``exec``, sockets, pipes, ``memfd``, shared memory, ``io_uring``, namespaces,
  ``ptrace``, signal handlers or timers, no changing a resource limit, a
  priority, a CPU affinity, a user or a file's mode; ``kill``/``tgkill`` only to
  itself, ``prlimit64`` only to read its own limits. With no threads and no
  handlers, no student code can run while the harness checks and sends a report.
- It is made undumpable: no process of its user may read or write its memory.

Both kernel layers need ``no_new_privs``, which is set first; neither needs root. The result
is a :class:`Defences` record that the child sends back with its first reply,
including a probe: whether the hidden fixtures can still be opened.
"""

from __future__ import annotations

import ctypes
import errno
import functools
import os
import signal
import struct
import sys
from pathlib import Path

# -- Landlock (include/uapi/linux/landlock.h) --------------------------------------
SYS_LANDLOCK_CREATE_RULESET, SYS_LANDLOCK_ADD_RULE, SYS_LANDLOCK_RESTRICT_SELF = 444, 445, 446
CREATE_RULESET_VERSION = 1
RULE_PATH_BENEATH = 1
FS_EXECUTE, FS_WRITE_FILE, FS_READ_FILE, FS_READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
FS_REFER, FS_TRUNCATE, FS_IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
FS_READ = FS_EXECUTE | FS_READ_FILE | FS_READ_DIR
NET_ALL = 0b11             # BIND_TCP | CONNECT_TCP (ABI 4)
SCOPE_ALL = 0b11           # ABSTRACT_UNIX_SOCKET | SIGNAL (ABI 6)
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_SET_KEEPCAPS, PR_SET_NO_NEW_PRIVS = 1, 4, 8, 38
PR_SET_SECCOMP, SECCOMP_MODE_FILTER, CAP_DAC_READ_SEARCH = 22, 2, 2

# -- seccomp (linux/filter.h, linux/seccomp.h, linux/audit.h) -----------------------
LD_ABS_W, JEQ, JGE, RET = 0x20, 0x15, 0x35, 0x06
RET_ALLOW = 0x7FFF0000
EPERM, ENOSYS = 1, 38
#: the system calls a confined child may make, most frequent first (measured with strace on the grading tests,
#: under coverage): reading its files and the request pipe, writing replies, memory, time, exceptions and
#: tracebacks, and what coverage needs to save its data. Everything else fails with EPERM (a student's code sees
#: PermissionError): new processes and threads, exec, sockets and pipes, signal handlers and timers, memfd, shared
#: memory, ptrace, priorities, CPU affinity, resource limits, user ids, file modes and owners, mounts, namespaces.
ALLOWED = ("newfstatat", "fcntl", "mmap", "read", "pread64", "munmap", "pwrite64", "openat", "write", "close",
           "getdents64", "getpid", "lseek", "ioctl", "mremap", "getcwd", "exit_group", "futex", "brk", "mprotect",
           "madvise", "rt_sigprocmask", "rt_sigreturn", "clock_gettime", "clock_nanosleep", "nanosleep",
           "getrandom", "unlink", "unlinkat", "rename", "renameat", "renameat2", "mkdir", "mkdirat", "rmdir",
           "fstat", "stat", "lstat", "statx", "open", "access", "faccessat", "faccessat2", "readlink", "readlinkat",
           "readv", "writev", "preadv", "pwritev", "chdir", "fchdir", "dup", "dup2", "dup3", "fsync", "fdatasync",
           "ftruncate", "fadvise64", "flock", "close_range", "getppid", "gettid", "getpgid", "getpgrp", "getsid",
           "getuid", "geteuid", "getgid", "getegid", "getresuid", "getresgid", "getgroups", "uname", "sysinfo",
           "getrusage", "times", "getpriority", "sched_getaffinity", "sched_yield", "sched_getparam",
           "sched_getscheduler", "getrlimit", "getcpu", "umask", "clock_getres", "gettimeofday", "time",
           "sigaltstack", "rt_sigpending", "set_robust_list", "rseq", "set_tid_address", "select", "pselect6",
           "poll", "ppoll", "exit", "restart_syscall")
#: machine -> (audit arch, syscall numbers by name): asm/unistd_64.h on x86_64, asm-generic/unistd.h on aarch64
SYSCALLS = {
    "x86_64": (0xC000003E, {
        "read": 0, "write": 1, "open": 2, "close": 3, "stat": 4, "fstat": 5, "lstat": 6, "poll": 7, "lseek": 8,
        "mmap": 9, "mprotect": 10, "munmap": 11, "brk": 12, "rt_sigprocmask": 14, "rt_sigreturn": 15, "ioctl": 16,
        "pread64": 17, "pwrite64": 18, "readv": 19, "writev": 20, "access": 21, "select": 23, "sched_yield": 24,
        "mremap": 25, "madvise": 28, "dup": 32, "dup2": 33, "nanosleep": 35, "getpid": 39, "clone": 56,
        "exit": 60, "kill": 62, "uname": 63, "fcntl": 72, "flock": 73, "fsync": 74, "fdatasync": 75,
        "ftruncate": 77, "getcwd": 79, "chdir": 80, "fchdir": 81, "rename": 82, "mkdir": 83, "rmdir": 84,
        "unlink": 87, "readlink": 89, "umask": 95, "gettimeofday": 96, "getrlimit": 97, "getrusage": 98,
        "sysinfo": 99, "times": 100, "getuid": 102, "getgid": 104, "geteuid": 107, "getegid": 108,
        "getppid": 110, "getpgrp": 111, "getgroups": 115, "getresuid": 118, "getresgid": 120, "getpgid": 121,
        "getsid": 124, "rt_sigpending": 127, "sigaltstack": 131, "getpriority": 140, "sched_getparam": 143,
        "sched_getscheduler": 145, "gettid": 186, "time": 201, "futex": 202, "sched_getaffinity": 204,
        "getdents64": 217, "set_tid_address": 218, "restart_syscall": 219, "fadvise64": 221,
        "clock_gettime": 228, "clock_getres": 229, "clock_nanosleep": 230, "exit_group": 231, "tgkill": 234,
        "tkill": 200, "openat": 257, "mkdirat": 258, "newfstatat": 262, "unlinkat": 263, "renameat": 264,
        "readlinkat": 267, "faccessat": 269, "pselect6": 270, "ppoll": 271, "set_robust_list": 273, "dup3": 292,
        "preadv": 295, "pwritev": 296, "prlimit64": 302, "getcpu": 309, "renameat2": 316, "getrandom": 318,
        "statx": 332, "rseq": 334, "clone3": 435, "close_range": 436, "faccessat2": 439}),
    "aarch64": (0xC00000B7, {
        "getcwd": 17, "dup": 23, "dup3": 24, "fcntl": 25, "ioctl": 29, "flock": 32, "mkdirat": 34, "unlinkat": 35,
        "renameat": 38, "ftruncate": 46, "faccessat": 48, "chdir": 49, "fchdir": 50, "openat": 56, "close": 57,
        "getdents64": 61, "lseek": 62, "read": 63, "write": 64, "readv": 65, "writev": 66, "pread64": 67,
        "pwrite64": 68, "preadv": 69, "pwritev": 70, "pselect6": 72, "ppoll": 73, "readlinkat": 78,
        "newfstatat": 79, "fstat": 80, "fsync": 82, "fdatasync": 83, "exit": 93, "exit_group": 94,
        "set_tid_address": 96, "futex": 98, "set_robust_list": 99, "nanosleep": 101, "clock_gettime": 113,
        "clock_getres": 114, "clock_nanosleep": 115, "sched_getscheduler": 120, "sched_getparam": 121,
        "sched_getaffinity": 123, "sched_yield": 124, "restart_syscall": 128, "kill": 129, "tkill": 130,
        "tgkill": 131, "sigaltstack": 132, "rt_sigprocmask": 135, "rt_sigpending": 136, "rt_sigreturn": 139,
        "getpriority": 141, "getresuid": 148, "getresgid": 150, "times": 153, "getpgid": 155, "getsid": 156,
        "getgroups": 158, "uname": 160, "getrlimit": 163, "getrusage": 165, "umask": 166, "getcpu": 168,
        "gettimeofday": 169, "getpid": 172, "getppid": 173, "getuid": 174, "geteuid": 175, "getgid": 176,
        "getegid": 177, "gettid": 178, "sysinfo": 179, "brk": 214, "munmap": 215, "mremap": 216, "clone": 220,
        "mmap": 222, "fadvise64": 223, "mprotect": 226, "madvise": 233, "prlimit64": 261, "renameat2": 276,
        "getrandom": 278, "statx": 291, "rseq": 293, "clone3": 435, "close_range": 436, "faccessat2": 439}),
}
#: a uid and gid of its own for each child when the grader runs as root: this base plus the child's pid
#: (far above any account's; pids stay below 2**22)
CHILD_IDS = 1_900_000_000
NOBODY = 65534


class Defences:
    """What :func:`confine` achieved in one child (a plain class: a dataclass costs the child milliseconds).

    landlock: the Landlock ABI applied (0: none); seccomp: whether the filter is on;
    hidden: True when the hidden fixtures and the solutions could not be opened after
    confinement, False when they could, None when there was nothing to probe;
    reasons: why a layer is missing (short technical words, for the instructor).
    """

    def __init__(self, landlock: int = 0, seccomp: bool = False, hidden: bool | None = None,
                 reasons: tuple[str, ...] = ()) -> None:
        self.landlock, self.seccomp, self.hidden, self.reasons = landlock, seccomp, hidden, reasons

    def to_dict(self) -> dict:
        return {"landlock": self.landlock, "seccomp": self.seccomp, "hidden": self.hidden,
                "reasons": list(self.reasons)}

    def __repr__(self) -> str:
        return f"Defences({self.to_dict()})"


@functools.cache
def _libc():
    """The C library, its ``syscall`` and ``prctl`` typed (loaded once: the fork server loads it for its children)."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    libc.prctl.restype = ctypes.c_int
    return libc


def landlock_abi() -> int:
    """The Landlock ABI version this kernel offers (0 when it has none or this is not Linux)."""
    if not sys.platform.startswith("linux"):
        return 0
    try:
        abi = _libc().syscall(ctypes.c_long(SYS_LANDLOCK_CREATE_RULESET), ctypes.c_void_p(None), ctypes.c_size_t(0),
                              ctypes.c_uint32(CREATE_RULESET_VERSION))
    except (OSError, AttributeError):  # pragma: no cover - no C library to call
        return 0
    return max(0, int(abi))


def _handled_fs(abi: int) -> int:
    rights = (1 << 13) - 1                       # ABI 1: execute ... make_sym
    if abi >= 2:
        rights |= FS_REFER
    if abi >= 3:
        rights |= FS_TRUNCATE
    if abi >= 5:
        rights |= FS_IOCTL_DEV
    return rights


def readable_paths(kit_root: Path, secrets: list[Path]) -> list[Path]:
    """The folders and files the child may read: the runtime and the kit's code, never a secret.

    A candidate that holds a secret (the kit's root, a parent of it) is left out;
    the kit's core and ``grader/`` (:func:`kit_folders`) are added one by one instead. A secret
    inside the kit's code (the default course an installed kit carries in
    ``abkit/default_course``) leaves out only itself: a candidate holding it
    (site-packages) is allowed entry by entry around it.
    """
    candidates = [Path(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, *sys.path) if p]
    candidates += [Path(p) for p in ("/usr", "/lib", "/lib64", "/lib32", "/etc/ld.so.cache", "/etc/localtime")]
    kit = [folder.resolve() for folder in kit_folders(kit_root)]
    candidates += kit
    secrets = [Path(s).resolve() for s in secrets]
    chosen: list[Path] = []
    for path in candidates:
        try:
            path = path.resolve()
        except OSError:  # pragma: no cover - a broken path entry
            continue
        held = [s for s in secrets if _within(s, path)]
        if not path.exists() or path in chosen or any(_within(path, s) for s in secrets):
            continue
        if not held:
            chosen.append(path)
        elif all(any(_within(s, k) for k in kit) for s in held):
            chosen += [p for p in _around(path, held) if p not in chosen]
    return chosen


def kit_folders(kit_root: Path) -> list[Path]:
    """The folders of the kit's code a child runs, under ``kit_root`` (the folder that holds the core, ``abkit/``):
    the core and the grading pipeline, which is ``grader/`` beside the core in a clone and ``abkit/grader/`` inside
    it where the kit is installed (setup.py maps the folders into the one package)."""
    core = kit_root / "abkit"
    beside = kit_root / "grader"
    return [core, beside if beside.is_dir() else core / "grader"]


def _around(folder: Path, secrets: list[Path]) -> list[Path]:
    """The fewest entries of ``folder`` that cover all of it but ``secrets`` (which lie inside it); links resolved
    (a venv's ``lib64`` is a link to its ``lib``)."""
    entries: list[Path] = []
    for entry in sorted(folder.iterdir()):
        try:
            entry = entry.resolve()
        except OSError:  # pragma: no cover - a link loop
            continue
        if any(_within(entry, s) for s in secrets):
            continue
        entries += _around(entry, secrets) if any(_within(s, entry) for s in secrets) else [entry]
    return entries


def _readable(kit_root: Path, secrets: list[Path]) -> list[Path]:
    """:func:`readable_paths`, remembered for the same arguments, interpreter paths and ``sys.path`` (the fork
    server works it out once for all its children, which would each resolve the same paths again)."""
    key = (kit_root, tuple(secrets), sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,
           tuple(sys.path))
    if key not in _READABLE:
        _READABLE.clear()
        _READABLE[key] = tuple(readable_paths(kit_root, secrets))
    return list(_READABLE[key])


_READABLE: dict[tuple, tuple[Path, ...]] = {}


def prepare(kit_root: Path, secrets: list[Path]) -> None:
    """Work out ahead what :func:`confine` needs and is the same in every child (the C library, the readable
    paths, the fixed part of the seccomp filter): the fork server calls this once, before it forks any child."""
    _libc()
    _readable(kit_root, secrets)
    if os.uname().machine in SYSCALLS:
        _fixed_filter(os.uname().machine)


def _within(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _landlock(abi: int, read: list[Path], write: list[Path]) -> None:
    """Apply a Landlock ruleset: ``read`` readable, ``write`` fully usable, the rest denied; OSError on failure."""
    libc = _libc()
    handled = _handled_fs(abi)
    attr = struct.pack("=QQQ", handled, NET_ALL if abi >= 4 else 0, SCOPE_ALL if abi >= 6 else 0)
    size = 8 if abi < 4 else 16 if abi < 6 else 24
    ruleset = libc.syscall(ctypes.c_long(SYS_LANDLOCK_CREATE_RULESET), ctypes.c_char_p(attr), ctypes.c_size_t(size),
                           ctypes.c_uint32(0))
    if ruleset < 0:
        raise OSError(ctypes.get_errno(), "landlock_create_ruleset")
    try:
        file_rights = FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | FS_IOCTL_DEV
        for paths, rights in ((read, FS_READ), (write, handled)):
            for path in paths:
                fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
                try:
                    allowed = rights & handled & (file_rights if not path.is_dir() else ~0)
                    rule = struct.pack("=Qi", allowed, fd)
                    if libc.syscall(ctypes.c_long(SYS_LANDLOCK_ADD_RULE), ctypes.c_int(ruleset),
                                    ctypes.c_int(RULE_PATH_BENEATH), ctypes.c_char_p(rule), ctypes.c_uint32(0)) < 0:
                        raise OSError(ctypes.get_errno(), f"landlock_add_rule {path}")
                finally:
                    os.close(fd)
        if libc.syscall(ctypes.c_long(SYS_LANDLOCK_RESTRICT_SELF), ctypes.c_int(ruleset), ctypes.c_uint32(0)) < 0:
            raise OSError(ctypes.get_errno(), "landlock_restrict_self")
    finally:
        os.close(ruleset)


def seccomp_program(machine: str, pid: int) -> list[tuple[int, int, int, int]]:
    """The BPF filter as ``(code, jt, jf, k)`` instructions for ``machine``; KeyError for an unknown machine.

    An allow list: :data:`ALLOWED` passes; ``kill``/``tkill``/``tgkill`` only to this process (``pid``, or 0: its
    own process group, which holds nothing else); ``prlimit64`` only to read this process's limits; ``clone3``
    answers ``ENOSYS`` (as on old kernels, so that a thread falls back to ``clone``, refused); everything else,
    and every syscall of another ABI (32-bit, x32), fails with EPERM.
    """
    return [*_fixed_program(machine), *_own_process_program(machine, pid)]


@functools.cache
def _fixed_program(machine: str) -> tuple[tuple[int, int, int, int], ...]:
    """The part of :func:`seccomp_program` that is the same in every process: the architecture, the allow list,
    ``clone3``."""
    arch, nr = SYSCALLS[machine]
    refuse = RET_ERRNO(EPERM)
    prog = [(LD_ABS_W, 0, 0, 4), (JEQ, 1, 0, arch), (RET, 0, 0, refuse), (LD_ABS_W, 0, 0, 0)]
    if machine == "x86_64":  # x32 syscall numbers
        prog += [(JGE, 0, 1, 0x40000000), (RET, 0, 0, refuse)]
    for name in ALLOWED:
        if name in nr:
            prog += [(JEQ, 0, 1, nr[name]), (RET, 0, 0, RET_ALLOW)]
    prog += [(JEQ, 0, 1, nr["clone3"]), (RET, 0, 0, RET_ERRNO(ENOSYS))]
    return tuple(prog)


@functools.cache
def _fixed_filter(machine: str) -> bytes:
    """:func:`_fixed_program` as the kernel reads it."""
    return _packed(_fixed_program(machine))


def _packed(program) -> bytes:
    return b"".join(struct.pack("=HBBI", *i) for i in program)


def _own_process_program(machine: str, pid: int) -> list[tuple[int, int, int, int]]:
    """The rest of :func:`seccomp_program`, which names this process: signals and resource limits, then refuse."""
    nr = SYSCALLS[machine][1]
    refuse = RET_ERRNO(EPERM)
    prog = []
    # signals: only to this process (0, its own group, holds nothing else: it cannot start a process)
    for name in ("kill", "tkill", "tgkill"):
        prog += [(JEQ, 0, 5, nr[name]), (LD_ABS_W, 0, 0, 16), (JEQ, 2, 0, pid), (JEQ, 1, 0, 0),
                 (RET, 0, 0, refuse), (RET, 0, 0, RET_ALLOW)]
    # resource limits: read this process's own (pid 0 or its own, no new limit: a NULL pointer in both halves)
    prog += [(JEQ, 0, 9, nr["prlimit64"]), (LD_ABS_W, 0, 0, 16), (JEQ, 1, 0, pid), (JEQ, 0, 4, 0),
             (LD_ABS_W, 0, 0, 32), (JEQ, 0, 2, 0), (LD_ABS_W, 0, 0, 36), (JEQ, 1, 0, 0),
             (RET, 0, 0, refuse), (RET, 0, 0, RET_ALLOW)]
    return prog + [(RET, 0, 0, refuse)]


def RET_ERRNO(errno: int) -> int:  # noqa: N802 - the kernel's macro
    """The filter's answer "fail with ``errno``"."""
    return 0x00050000 | errno


class _FProg(ctypes.Structure):
    """``struct sock_fprog``: the filter's length in instructions and where it is."""
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def _seccomp(machine: str) -> None:
    """Install the filter of :func:`seccomp_program`; OSError on failure."""
    program = _fixed_filter(machine) + _packed(_own_process_program(machine, os.getpid()))
    filters = (ctypes.c_ubyte * len(program)).from_buffer_copy(program)
    fprog = _FProg(len(program) // 8, ctypes.addressof(filters))
    libc = _libc()
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_SECCOMP)")


def available() -> dict:
    """Which layers :func:`confine` can apply on this machine, without applying any:
    ``{"landlock": abi, "seccomp": bool}``."""
    linux = sys.platform.startswith("linux")
    return {"landlock": landlock_abi(), "seccomp": linux and os.uname().machine in SYSCALLS}


#: the layers ``abkit grade`` needs to run student code without ``--unconfined``: Landlock keeps the hidden
#: fixtures and the solutions out of its reach, seccomp keeps it from starting processes and reaching the grader's
REQUIRED = ("landlock", "seccomp")


def missing_layers() -> tuple[str, ...]:
    """Which of :data:`REQUIRED` this machine cannot apply (by :func:`available`, nothing applied); empty when
    the kit can confine student code here."""
    layers = available()
    return tuple(name for name in REQUIRED if not layers.get(name))


def _die_with_parent() -> None:
    """Be killed when the grader dies (even by SIGKILL): no student process outlives its batch."""
    parent = os.getppid()
    if _libc().prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:  # pragma: no cover
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG)")
    if os.getppid() != parent:  # pragma: no cover - it died before the request was made
        os._exit(1)


def _undumpable() -> None:
    """No other process of this user may open this one's memory (``/proc/PID/mem``) or ptrace it."""
    if _libc().prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0:  # pragma: no cover
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_DUMPABLE)")


def _no_new_privs() -> None:
    if _libc().prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")


def _capset(capabilities: int) -> None:
    """Make ``capabilities`` (a bit mask) this process's effective and permitted set, and nothing else."""
    header = struct.pack("=Ii", 0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
    data = struct.pack("=6I", capabilities, capabilities, 0, 0, 0, 0)
    if _libc().capset(ctypes.c_char_p(header), ctypes.c_char_p(data)) != 0:
        raise OSError(ctypes.get_errno(), "capset")


def _drop_root(writable: list[Path]) -> int:
    """Become a user and group of this process's own (:data:`CHILD_IDS` + pid, no supplementary groups; ``nobody``
    where a container maps no such id) that owns only ``writable``; the uid. Of root's powers it keeps one, reading
    (``CAP_DAC_READ_SEARCH``: a runtime under ``/root`` and the student's folder stay readable; Landlock decides what
    is read): it cannot write root's files, signal, limit, renice or trace another user's process, or take root back."""
    libc = _libc()
    if libc.prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) != 0:  # pragma: no cover
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_KEEPCAPS)")
    os.setgroups([])
    for uid in (CHILD_IDS + os.getpid(), NOBODY):
        try:
            os.setresgid(uid, uid, uid)
            break
        except OSError as error:  # EINVAL: an id this user namespace does not map
            if uid == NOBODY or error.errno != errno.EINVAL:
                raise
    for folder in writable:
        for path in (folder, *folder.rglob("*")):
            os.chown(path, uid, uid, follow_symlinks=False)
    os.setresuid(uid, uid, uid)
    _capset(1 << CAP_DAC_READ_SEARCH)
    return uid


def confine(workspace: Path, kit_root: Path, secrets: list[Path], writable: list[Path] = (),
            drop_root: bool = False) -> Defences:
    """Confine this process (see the module's docstring); returns what was achieved, never raises.

    workspace: the student's folder (read only); secrets: what must stay
    unreadable (probed afterwards); writable: folders to write (coverage data in the kit's tests);
    drop_root: when running as root, become an unprivileged user of this process's own (:func:`_drop_root`).
    """
    defences = Defences()
    reasons = []
    if not sys.platform.startswith("linux"):
        defences.reasons = (f"not Linux ({sys.platform})",)
        return defences
    try:
        _die_with_parent()
        _no_new_privs()
        _undumpable()
    except OSError as error:
        defences.reasons = (f"no_new_privs: {error}",)
        return defences
    workspace, writable = Path(workspace), [Path(w) for w in writable]
    abi = landlock_abi()
    if abi:
        try:
            _landlock(abi, [*_readable(kit_root, secrets), workspace], [*writable, Path(os.devnull)])
            defences.landlock = abi
        except OSError as error:
            reasons.append(f"landlock: {error}")
    else:
        reasons.append("landlock: not offered by this kernel")
    if drop_root and os.geteuid() == 0:
        try:
            _drop_root(writable)
            _die_with_parent()  # a change of user clears the parent-death signal
        except OSError as error:
            reasons.append(f"user: {error}")
    try:
        _seccomp(os.uname().machine)
        defences.seccomp = True
    except KeyError:
        reasons.append(f"seccomp: no syscall table for {os.uname().machine}")
    except OSError as error:
        reasons.append(f"seccomp: {error}")
    defences.hidden = probe(secrets)
    defences.reasons = tuple(reasons)
    return defences


def probe(secrets: list[Path]) -> bool | None:
    """True when none of ``secrets`` that exist can be opened (read, or listed); None when none exists."""
    present = [s for s in secrets if os.path.lexists(s)]
    if not present:
        return None
    for secret in present:
        try:
            if secret.is_dir():
                os.listdir(secret)
            else:
                with open(secret, "rb") as handle:
                    handle.read(1)
        except OSError:
            continue
        return False
    return True
