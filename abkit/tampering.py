"""Whether a search changed the game it was given: one rule, for ``abkit check`` and ``abkit grade`` alike.

Tampering is what changes the game's answers (ACTIONS, RESULT, UTILITY, TERMINAL-TEST, TO-MOVE, EVAL,
PROBABILITY) or the record: a game of another class, an attribute the game had rebound (even to an equal object)
or removed, a new attribute that shadows a name of the game's class (``game.utility = ...``) or a special name, or
any change to the tree's fields, children, utilities, heuristic values, probabilities or players. A new attribute of
any other name (a debug counter, a cache: ``game.expanded = getattr(game, "expanded", 0) + 1``) changes no answer:
a harmless habit, allowed.

:func:`fingerprint` is taken before the search, :func:`changed` asked after it. The grader's process calls
:func:`changed` with builtins captured before any student code ran (:mod:`abkit.grader.tamper`), so its defaults
hold them; it never calls a method of the student's objects (a mapping's, a key's).
"""

from __future__ import annotations

import operator
from typing import Iterator

from .tree import TreeGame

#: what :func:`changed` returns a missing attribute as: nothing the student can hold
_MISSING = object()


def fingerprint(game) -> tuple:
    """What ``game`` holds: its class, the names its class answers to, and a copy of each of its mappings
    (:func:`held`)."""
    kind = type(game)
    return kind, frozenset(dir(kind)), tuple(map(dict.copy, held(game)))


def held(game) -> Iterator[dict]:
    """The game's mappings, one after the other: its attributes and, on a tree, the tree's fields, its children,
    utilities, heuristic values and probabilities, and the players (each reached only when the ones before it are
    as they were: the tree is still the harness's own)."""
    yield vars(game)
    if isinstance(game, TreeGame):
        tree = game.tree
        yield from (vars(tree), tree.children, tree.utilities, tree.heuristics, tree.probabilities, game._players)


def changed(game, before: tuple, any_=any, map_=map, is_not=operator.is_not, len_=len, type_=type,
            str_=str, zip_=zip) -> bool:
    """True when the search changed ``game`` since :func:`fingerprint` gave ``before`` (the module's rule). The
    game's own attributes are held by :func:`_attributes_changed`; the tree's fields by identity (an equal
    replacement shows too); its mappings with the dict's own equality (their entries are plain names and
    numbers)."""
    kind, names, copies = before
    try:
        if type_(game) is not kind:
            return True
        spaces = held(game)
        if _attributes_changed(next(spaces), copies[0], names, any_, map_, is_not, len_, type_, str_):
            return True
        count = 1
        for space, copy in zip_(spaces, copies[1:]):
            if dict.__len__(space) != len_(copy):
                return True
            if count == 1:  # the tree's fields: the very objects
                if any_(map_(is_not, dict.keys(space), copy)) or any_(map_(is_not, dict.values(space), copy.values())):
                    return True
            elif dict.__eq__(space, copy) is not True:
                return True
            count += 1
        return count != len_(copies)
    except Exception:  # noqa: BLE001 - the student replaced an attribute with something unreadable
        return True


def _attributes_changed(space: dict, copy: dict, names: frozenset, any_, map_, is_not, len_, type_, str_) -> bool:
    """Whether the game's attributes ``space`` differ from ``copy`` other than by new harmless ones: each attribute
    it had still bound to the very object, and each new one a plain ``str`` name that is neither one of its class's
    ``names`` nor a special (``__...``) name."""
    if dict.__len__(space) == len_(copy):
        return any_(map_(is_not, dict.keys(space), copy)) or any_(map_(is_not, dict.values(space), copy.values()))
    for key in dict.keys(space):
        if type_(key) is not str_:
            return True
    for key, value in copy.items():
        if dict.get(space, key, _MISSING) is not value:
            return True
    return any_(key not in copy and (key in names or key.startswith("__")) for key in dict.keys(space))


def classes(*kinds: type) -> tuple:
    """What each class of ``kinds`` holds: the class with a copy of its namespace (:func:`classes_changed`)."""
    return tuple((kind, dict(vars(kind))) for kind in kinds)


def classes_changed(before: tuple) -> bool:
    """True when a name was added to, removed from or rebound in a class since :func:`classes` gave ``before``:
    ``TreeGame.utility = ...`` changes every game's answers."""
    for kind, copy in before:
        space = vars(kind)
        if len(space) != len(copy) or any(space.get(name, _MISSING) is not value for name, value in copy.items()):
            return True
    return False
