"""The student's process's resource limits and signals, set before any student code runs."""

from __future__ import annotations


def _limit(limits: dict) -> list[str]:  # pragma: no cover - runs only in the child, before any student code
    """The child's signals and resource limits (:func:`set_limits`); the limits the system refused."""
    try:
        import resource
        import signal
    except ImportError:
        return ["resource: no such module"]
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # an over-long write fails instead of killing the child
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a student's os.kill(SIGINT) cannot interrupt the harness
    return set_limits(limits, resource)


def set_limits(limits: dict, resource) -> list[str]:
    """Set CPU time, address space (memory), file size and core-dump limits from ``limits``; each one the system
    refuses (macOS refuses ``RLIMIT_AS``) as ``"RLIMIT_AS: ValueError: ..."``, for ``abkit grade`` to say."""
    refused = []
    for name, value in (("RLIMIT_CPU", limits.get("cpu")), ("RLIMIT_AS", limits.get("memory")),
                        ("RLIMIT_FSIZE", limits.get("fsize")), ("RLIMIT_CORE", 0)):
        if value is None:
            continue
        if not hasattr(resource, name):
            refused.append(f"{name}: not on this system")
            continue
        try:
            resource.setrlimit(getattr(resource, name), (value, value))
        except (ValueError, OSError) as error:
            refused.append(f"{name}: {type(error).__name__}: {error}")
    return refused
