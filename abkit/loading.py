"""Loading a search module from a file by path; and where this repository's own course folder keeps its parts.

The kit's commands find their course with :func:`abkit.coursefolder.current_course` (any course folder, the
``--course`` option); the constants below name the parts of the course this repository is, for the kit's own
tests and benchmarks only.
"""

from __future__ import annotations

import importlib.util
import itertools
import sys
from pathlib import Path
from types import ModuleType

KIT_ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS = KIT_ROOT / "solutions"
EXERCISES = KIT_ROOT / "exercises"
FIXTURES = KIT_ROOT / "fixtures"
PUBLIC_FIXTURES = FIXTURES / "public"
HIDDEN_FIXTURES = FIXTURES / "hidden"

_counter = itertools.count()


def load_module(path: str | Path, name: str | None = None) -> ModuleType:
    """Execute the Python file at ``path`` as a fresh module and return it.

    Every call gives a new module object (so two loads never share globals),
    registered in ``sys.modules`` under a unique name so that tracebacks,
    pickling and dataclasses work. Helper modules beside the file can be
    imported by it (its folder is put on ``sys.path`` while it loads). No
    bytecode is written beside it or its helpers: a student's or a course's
    folder gets no ``__pycache__`` from the kit.
    """
    path = Path(path).resolve()
    name = name or f"_abkit_{path.stem}_{next(_counter)}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    folder, writes = str(path.parent), sys.dont_write_bytecode
    sys.path.insert(0, folder)
    sys.dont_write_bytecode = True
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    finally:
        sys.dont_write_bytecode = writes
        if folder in sys.path:
            sys.path.remove(folder)
    return module
