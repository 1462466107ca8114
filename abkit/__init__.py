"""abkit core: the game protocol, game trees from YAML fixtures, search traces, the reference search, and what
every path judges and speaks with (compare, judge, feedback, i18n).

The core imports nothing else of the kit; the student's loop (``studentloop``), the grader (``grader``), the
handout builder (``handouts``), the shared step-through pages (``stepthrough``), course authoring (``authoring``)
and the command line import it. See docs/architecture.md and README.md here.
"""

import sys as _sys
from types import ModuleType as _ModuleType

__version__ = "0.1.0"


def _load_inspect_when_used() -> None:
    """Put a stand-in for ``inspect`` in ``sys.modules`` that imports the real module at its first attribute.

    ``dataclasses``, which every part of the kit imports, imports ``inspect`` (and with it ``ast``, ``dis``,
    ``tokenize``, ...: about 6 ms of a 60 ms ``abkit check``) for one call, made only for a class without a
    docstring. Code that uses ``inspect`` is not changed: the real module is imported, whole, the first time
    the stand-in is asked for anything, and is then what ``import inspect`` gives. One call is answered without it:
    ``get_annotations`` of a class, as Python 3.12 and 3.13's ``dataclasses`` asks it for every class
    (:func:`_class_annotations`: the same answer; any other call goes to the real function).
    """
    if "inspect" not in _sys.modules:
        _sys.modules["inspect"] = StandIn("inspect")


class StandIn(_ModuleType):
    """The stand-in :func:`_load_inspect_when_used` puts in ``sys.modules``."""

    def __getattr__(self, name: str):
        if name == "get_annotations":
            return _class_annotations
        return getattr(_real_inspect(), name)


def _real_inspect():
    """The real ``inspect`` module, imported now if the stand-in is still in its place."""
    import _imp

    _imp.acquire_lock()  # (two threads asking at once import it once)
    try:
        if isinstance(_sys.modules.get("inspect"), StandIn):
            del _sys.modules["inspect"]
        import inspect
    finally:
        _imp.release_lock()
    return inspect


def _class_annotations(obj, *, globals=None, locals=None, eval_str=False):  # noqa: A002 - inspect's own names
    """``inspect.get_annotations`` (Python 3.10-3.13) for a class, without ``eval_str``: its own ``__annotations__``,
    copied, or ``{}``; every other call is the real function's."""
    import types

    if isinstance(obj, type) and not eval_str:
        annotations = obj.__dict__.get("__annotations__")
        if annotations is None or isinstance(annotations, types.GetSetDescriptorType):
            return {}
        if isinstance(annotations, dict):
            return dict(annotations)
    return _real_inspect().get_annotations(obj, globals=globals, locals=locals, eval_str=eval_str)


_load_inspect_when_used()
