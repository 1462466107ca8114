"""abkit core: the game protocol, game trees from YAML fixtures, search traces, the reference search, and what
every path judges and speaks with (compare, judge, feedback, i18n).

The core imports nothing else of the kit; the student's loop (``studentloop``), the grader (``grader``), the
handout builder (``handouts``), the shared step-through pages (``stepthrough``), course authoring (``authoring``)
and the command line import it. See docs/architecture.md and README.md here.
"""

__version__ = "0.1.0"


def _load_inspect_when_used() -> None:
    """Put a stand-in for ``inspect`` in ``sys.modules`` that imports the real module at its first attribute.

    ``dataclasses``, which every part of the kit imports, imports ``inspect`` (and with it ``ast``, ``dis``,
    ``tokenize``, ...: about 6 ms of a 60 ms ``abkit check``) for one call, made only for a class without a
    docstring. Code that uses ``inspect`` is not changed: the real module is imported, whole, the first time
    the stand-in is asked for anything, and is then what ``import inspect`` gives.
    """
    import _imp
    import sys
    import types

    if "inspect" in sys.modules:
        return

    class StandIn(types.ModuleType):
        def __getattr__(self, name: str):
            _imp.acquire_lock()  # (two threads asking at once import it once)
            try:
                if sys.modules.get("inspect") is self:
                    del sys.modules["inspect"]
                import inspect
            finally:
                _imp.release_lock()
            return getattr(inspect, name)

    sys.modules["inspect"] = StandIn("inspect")


_load_inspect_when_used()
