"""Records: the core's data classes, declared as dataclasses but without the code dataclasses compiles at import.

``@dataclass`` writes a class's ``__init__``, ``__repr__`` and ``__eq__`` (and ``__setattr__``, ``__delattr__``
and ``__hash__`` when frozen) as source text and compiles each when the module is imported: about half a
millisecond a class, 10 ms of every ``abkit check`` for the 17 classes it imports (a check's whole budget is
60 ms). :func:`record` declares the same class with ``dataclass(init=False, repr=False, eq=False)``, so
``dataclasses.fields``, ``replace`` and ``asdict`` see it as before, and gives it methods that read its fields
instead: ``__eq__``, ``__repr__``, ``__hash__`` and the frozen ``__setattr__`` are shared functions, and
``__init__`` is the one piece compiled (once, with the same signature dataclasses would write).

What a record does is what the dataclass with the same options does (``tests/test_records.py`` compares the two
on every record class): the same ``__init__`` parameters and defaults (``field(default_factory=...)`` called
once per instance), equality on the fields with ``compare=True`` between instances of exactly one class, a repr of
the fields with ``repr=True``, and when frozen a :class:`dataclasses.FrozenInstanceError` on assignment and a hash
of the compared fields. Not supported (no record uses them): ``order``, ``kw_only``, ``InitVar``,
``__post_init__``; a method the class defines itself is kept. The core (``abkit/``) and the student's commands
(``studentloop/``) declare records; the grader, authoring and handouts, which import once per batch or build, use
dataclasses.
"""

from __future__ import annotations

from dataclasses import MISSING, FrozenInstanceError, dataclass, fields
from operator import attrgetter


def record(cls: type | None = None, /, *, frozen: bool = False, slots: bool = False):
    """``@record``, ``@record(frozen=True)``, ``@record(slots=True)``: ``cls`` as the dataclass with those options
    would be (see the module's docstring), made without compiling more than its ``__init__``."""
    def wrap(cls: type) -> type:
        return _made(cls, frozen, slots)

    return wrap if cls is None else wrap(cls)


def _made(cls: type, frozen: bool, slots: bool) -> type:
    if "__post_init__" in vars(cls):
        raise TypeError(f"{cls.__qualname__}: a record has no __post_init__ (use a dataclass)")
    cls = dataclass(cls, init=False, repr=False, eq=False, slots=slots)
    every = fields(cls)
    for f in every:
        if not f.init or f.kw_only is True:
            raise TypeError(f"{cls.__qualname__}.{f.name}: a record's fields are all init, none kw_only")
    compared = tuple(f.name for f in every if f.compare)
    methods = {"__init__": _init(cls, every, frozen), "__eq__": _eq(compared),
               "__repr__": _repr(tuple(f.name for f in every if f.repr)),
               "__hash__": _hash(compared) if frozen else None}  # eq and not frozen: unhashable, as a dataclass
    if frozen:
        methods.update(__setattr__=_frozen_setattr, __delattr__=_frozen_delattr)
    own = vars(cls)
    for name, method in methods.items():
        if name not in own or (name == "__hash__" and own[name] is None):  # a method the class defines is kept
            setattr(cls, name, method)
    return cls


def _init(cls: type, every: tuple, frozen: bool):
    """The class's ``__init__``, compiled from its fields as dataclasses writes it (defaults bound, not copied)."""
    names: dict[str, object] = {"_MISSING": MISSING, "_set": object.__setattr__}
    params, body = ["self"], []
    for f in every:
        value = f.name
        if f.default is not MISSING:
            names[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        elif f.default_factory is not MISSING:
            names[f"_factory_{f.name}"] = f.default_factory
            params.append(f"{f.name}=_MISSING")
            value = f"_factory_{f.name}() if {f.name} is _MISSING else {f.name}"
        else:
            params.append(f.name)
        body.append(f"_set(self, {f.name!r}, {value})" if frozen else f"self.{f.name} = {value}")
    source = f"def __init__({', '.join(params)}):\n    " + "\n    ".join(body or ["pass"]) + "\n"
    exec(source, names)  # noqa: S102 - our own text. (compile() would also build the ast module's types: 1 ms.)
    return names["__init__"]


def _key(names: tuple[str, ...]):
    """A function of an instance: the tuple of its fields ``names``."""
    if not names:
        return lambda self: ()
    get = attrgetter(*names)
    return get if len(names) > 1 else lambda self: (get(self),)


def _eq(compared: tuple[str, ...]):
    key = _key(compared)

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented

    return __eq__


def _repr(shown: tuple[str, ...]):
    def __repr__(self):
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in shown)
        return f"{self.__class__.__qualname__}({inner})"

    return __repr__


def _hash(compared: tuple[str, ...]):
    key = _key(compared)

    def __hash__(self):
        return hash(key(self))

    return __hash__


def _frozen_setattr(self, name, value):
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _frozen_delattr(self, name):
    raise FrozenInstanceError(f"cannot delete field {name!r}")
