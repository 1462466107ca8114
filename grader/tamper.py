"""Whether a student's code changed what the student's process reports with: the game it was given, the recorder's
classes, or the harness itself (every name of its modules and classes, the functions its replies go through).

:func:`abkit.grader.serve.serve` takes :func:`_snapshot` and :func:`_guards` before any student code exists (the
fork server takes them once for all its children: :data:`_PREPARED`), and after each request asks
:func:`_tampered` and :func:`_intact`; a reply made after a change says ``tampered``.
"""

from __future__ import annotations

import builtins
import hmac
import operator
import sys
from types import FunctionType

from abkit.tampering import changed, fingerprint
from abkit.trace import Trace, TracingGame
from abkit.tree import Tree, TreeGame
from abkit.wire import Channel

from abkit.grader.capture import CappedText

#: the harness's modules, whose every name the guards hold still: the recorder, the game's rule, the wire, the
#: student's process's parts, and ``__main__`` (in a student's process, the child itself: ``python -m
#: abkit.grader.child``)
HARNESS = ("abkit.trace", "abkit.tampering", "abkit.wire", "abkit.grader.runtest", "abkit.grader.capture",
           "abkit.grader.tamper", "abkit.grader.serve", "abkit.grader.childlimits", "abkit.grader.childstart",
           "abkit.grader.forkserver", "__main__")
#: the fork server's :func:`_snapshot` and :func:`_guards`, taken once before it forks any child (each child is a
#: copy of the server, whose harness no student code has ever touched); empty in a child started afresh. (A list
#: filled in place: the module's own names are among what the guards hold still.)
_PREPARED: list = []


def _snapshot() -> tuple:
    """The names the recording classes define, with a live view of each class's namespace: a student's code may
    not add one (what each name is bound to, and the recorder's module, are :func:`_intact`'s to check)."""
    return tuple((vars(cls), frozenset(vars(cls))) for cls in (TracingGame, TreeGame))


def _fingerprint(game: TreeGame) -> tuple:
    """What the game object holds (:func:`abkit.tampering.fingerprint`)."""
    return fingerprint(game)


def _tampered(before: tuple, game: TreeGame, fingerprint: tuple, any_=any, changed_=changed) -> bool:
    """True when a name was added to (or removed from) the game's class or the recorder's, or the game it was given
    was changed by the one rule :func:`abkit.tampering.changed` states (an attribute that changes none of the game's
    answers, a debug counter, is allowed)."""
    if any_(space.keys() != names for space, names in before):
        return True
    return changed_(game, fingerprint)


def _guards() -> tuple:
    """What the harness itself relies on, as ``(names, attributes)``: ``names`` a tuple of ``(getter, mapping,
    values)``, one per namespace (``getter(mapping)`` looks up all its recorded keys at once, ``values`` what they
    were bound to), ``attributes`` a tuple of ``(getter, functions, values)``, one per function attribute.

    Every name of the harness's modules (:data:`HARNESS`, those imported) and of its and the recorder's classes,
    the JSON and HMAC functions the replies go through, the builtins their code uses, and the
    code and defaults of every function among them (``__globals__`` cannot be rebound): a student who
    rebinds any of these (to hide work from the recorder or to forge a reply)
    is caught by :func:`_intact`. Tuples, so that the record cannot be edited.
    """
    import json.encoder
    harness = [sys.modules[name] for name in HARNESS if name in sys.modules]
    spaces = [vars(m) for m in (*harness, json, json.encoder, hmac)]
    spaces += [vars(c) for c in (TracingGame, TreeGame, Trace, Tree, Channel, CappedText, json.JSONEncoder)]
    groups = [(space, list(space.items())) for space in spaces]
    functions = tuple({id(v): v for _, items in groups for _, v in items if isinstance(v, FunctionType)}.values())
    used = set().union(*(_names(f.__code__) for f in functions))  # the builtins this code can reach
    groups.append((vars(builtins), [(key, value) for key, value in vars(builtins).items() if key in used]))
    names = tuple((operator.itemgetter(*keys, keys[0]), space, (*values, values[0]))  # (always a tuple, even of one)
                  for space, items in groups if items for keys, values in [tuple(zip(*items))])
    attributes = tuple((operator.attrgetter(name), functions, tuple(getattr(f, name) for f in functions))
                       for name in ("__code__", "__defaults__", "__kwdefaults__"))
    return names, attributes


def _names(code) -> set[str]:
    """The global and attribute names ``code`` (and the functions defined in it) refers to."""
    names = set(code.co_names)
    for constant in code.co_consts:
        if hasattr(constant, "co_names"):
            names |= _names(constant)
    return names


def _intact(guards: tuple, any_=any, map_=map, is_not=operator.is_not) -> bool:
    """True when nothing :func:`_guards` recorded was rebound or removed (fast: a lookup of all of a namespace's
    names at once, the comparisons in C)."""
    names, attributes = guards
    try:
        for getter, mapping, values in names:
            if any_(map_(is_not, getter(mapping), values)):
                return False
        for getter, objects, values in attributes:
            if any_(map_(is_not, map_(getter, objects), values)):
                return False
        return True
    except Exception:  # noqa: BLE001 - a recorded name was deleted
        return False
