"""Confining a student's process before its code runs: what it may read, write, start and reach.

:func:`confine` runs in the sandboxed child (:mod:`grader.child`), after the
kit's own modules are loaded and before any student code. Two Linux layers,
each applied where the kernel offers it and reported where it does not:

- **Landlock** (Linux 5.13+, unprivileged): the process may read the Python
  runtime and the kit's code (``abkit/``, ``grader/``), read and write its
  working folder, and nothing else: the hidden fixtures, the solutions, the
  output folder and the instructor's files cannot be opened or listed, ``/proc``
  included. With ABI 4+ it cannot bind or connect TCP sockets; with ABI 6+ it
  cannot signal processes outside its sandbox (the grader, other students).
- **seccomp** (a classic BPF filter built here, no library): no new processes
  and no threads (``fork``, ``vfork``, ``clone``; ``clone3`` answers ``ENOSYS``
  as on old kernels), no ``exec``, no sockets, no ``io_uring``, no namespaces,
  no ``ptrace``/``process_vm_*``/``pidfd_*``, no signal handlers or timers
  (``rt_sigaction``, ``setitimer``, ``alarm``, ``timer_create``), and
  ``kill``/``tgkill`` only to itself. A fork bomb gets ``PermissionError``; with
  no threads and no handlers, no student code can run while the harness checks
  and sends a report.

Both need ``no_new_privs``, which is set first; neither needs root. The result
is a :class:`Defences` record that the child sends back with its first reply,
including a probe: whether the hidden fixtures can still be opened.
"""

from __future__ import annotations

import ctypes
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
PR_SET_PDEATHSIG, PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 1, 38, 22, 2

# -- seccomp (linux/filter.h, linux/seccomp.h, linux/audit.h) -----------------------
LD_ABS_W, JEQ, JGE, RET = 0x20, 0x15, 0x35, 0x06
RET_ALLOW = 0x7FFF0000
EPERM, ENOSYS = 1, 38
#: machine -> (audit arch, syscall numbers by name)
SYSCALLS = {
    "x86_64": (0xC000003E, {"fork": 57, "vfork": 58, "execve": 59, "execveat": 322, "clone": 56, "clone3": 435,
                            "socket": 41, "ptrace": 101, "process_vm_readv": 310, "process_vm_writev": 311,
                            "kill": 62, "tkill": 200, "tgkill": 234, "pidfd_open": 434, "pidfd_send_signal": 424,
                            "pidfd_getfd": 438, "io_uring_setup": 425, "unshare": 272, "setns": 308,
                            "rt_sigaction": 13, "setitimer": 38, "alarm": 37, "timer_create": 222}),
    "aarch64": (0xC00000B7, {"execve": 221, "execveat": 281, "clone": 220, "clone3": 435, "socket": 198,
                             "ptrace": 117, "process_vm_readv": 270, "process_vm_writev": 271, "kill": 129,
                             "tkill": 130, "tgkill": 131, "pidfd_open": 434, "pidfd_send_signal": 424,
                             "pidfd_getfd": 438, "io_uring_setup": 425, "unshare": 97, "setns": 268,
                             "rt_sigaction": 134, "setitimer": 103, "timer_create": 107}),
}
DENIED = ("fork", "vfork", "clone", "execve", "execveat", "socket", "ptrace", "process_vm_readv", "process_vm_writev",
          "pidfd_open", "pidfd_send_signal", "pidfd_getfd", "io_uring_setup", "unshare", "setns", "rt_sigaction",
          "setitimer", "alarm", "timer_create")


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


def _libc():
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
    the kit's ``abkit/`` and ``grader/`` are added one by one instead.
    """
    candidates = [Path(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, *sys.path) if p]
    candidates += [Path(p) for p in ("/usr", "/lib", "/lib64", "/lib32", "/etc/ld.so.cache", "/etc/localtime")]
    candidates += [kit_root / "abkit", kit_root / "grader"]
    chosen: list[Path] = []
    for path in candidates:
        try:
            path = path.resolve()
        except OSError:  # pragma: no cover - a broken path entry
            continue
        if path.exists() and path not in chosen and not any(_within(s, path) for s in secrets):
            chosen.append(path)
    return chosen


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

    Syscalls from another ABI (32-bit, x32) are refused outright.
    """
    arch, nr = SYSCALLS[machine]
    refuse = RET_ERRNO(EPERM)
    prog = [(LD_ABS_W, 0, 0, 4), (JEQ, 1, 0, arch), (RET, 0, 0, refuse), (LD_ABS_W, 0, 0, 0)]
    if machine == "x86_64":  # x32 syscall numbers
        prog += [(JGE, 0, 1, 0x40000000), (RET, 0, 0, refuse)]
    prog += [(JEQ, 0, 1, nr["clone3"]), (RET, 0, 0, RET_ERRNO(ENOSYS))]
    for name in DENIED:
        if name in nr:
            prog += [(JEQ, 0, 1, nr[name]), (RET, 0, 0, refuse)]
    # signals: only to this process (0, its own group, holds nothing else: it cannot start a process)
    for name in ("kill", "tkill", "tgkill"):
        prog += [(JEQ, 0, 5, nr[name]), (LD_ABS_W, 0, 0, 16), (JEQ, 2, 0, pid), (JEQ, 1, 0, 0),
                 (RET, 0, 0, refuse), (RET, 0, 0, RET_ALLOW)]
    return prog + [(RET, 0, 0, RET_ALLOW)]


def RET_ERRNO(errno: int) -> int:  # noqa: N802 - the kernel's macro
    """The filter's answer "fail with ``errno``"."""
    return 0x00050000 | errno


def _seccomp(machine: str) -> None:
    """Install the filter of :func:`seccomp_program`; OSError on failure."""
    prog = seccomp_program(machine, os.getpid())
    filters = (ctypes.c_ubyte * (8 * len(prog))).from_buffer_copy(b"".join(struct.pack("=HBBI", *i) for i in prog))

    class FProg(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    fprog = FProg(len(prog), ctypes.addressof(filters))
    libc = _libc()
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_SECCOMP)")


def available() -> dict:
    """Which layers :func:`confine` can apply on this machine, without applying any: ``{"landlock": abi, "seccomp": bool}``."""
    linux = sys.platform.startswith("linux")
    return {"landlock": landlock_abi(), "seccomp": linux and os.uname().machine in SYSCALLS}


def _die_with_parent() -> None:
    """Be killed when the grader dies (even by SIGKILL): no student process outlives its batch."""
    parent = os.getppid()
    if _libc().prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:  # pragma: no cover
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG)")
    if os.getppid() != parent:  # pragma: no cover - it died before the request was made
        os._exit(1)


def _no_new_privs() -> None:
    if _libc().prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")


def confine(workspace: Path, kit_root: Path, secrets: list[Path], writable: list[Path] = ()) -> Defences:
    """Confine this process (see the module's docstring); returns what was achieved, never raises.

    workspace: the student's folder (read and write); secrets: what must stay
    unreadable (probed afterwards); writable: more folders to write (coverage data in the kit's tests).
    """
    defences = Defences()
    reasons = []
    if not sys.platform.startswith("linux"):
        defences.reasons = (f"not Linux ({sys.platform})",)
        return defences
    try:
        _die_with_parent()
        _no_new_privs()
    except OSError as error:
        defences.reasons = (f"no_new_privs: {error}",)
        return defences
    abi = landlock_abi()
    if abi:
        try:
            _landlock(abi, readable_paths(kit_root, secrets), [Path(workspace), *map(Path, writable),
                                                                 Path(os.devnull)])
            defences.landlock = abi
        except OSError as error:
            reasons.append(f"landlock: {error}")
    else:
        reasons.append("landlock: not offered by this kernel")
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
