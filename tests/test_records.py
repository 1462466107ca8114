"""Records (abkit/records.py) behave as the dataclasses they stand for: every record class of the core and the
student's commands is compared with a dataclass made from the same fields and options."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pickle
import pkgutil
import subprocess
import sys

import pytest

import abkit
from abkit import studentloop
from abkit import records
from abkit.records import record


def record_classes() -> list[type]:
    """Every class declared with :func:`record` in ``abkit/`` and ``studentloop/``."""
    found = []
    for package in (abkit, studentloop):
        for info in pkgutil.iter_modules(package.__path__, f"{package.__name__}."):
            module = importlib.import_module(info.name)
            for value in vars(module).values():
                if isinstance(value, type) and value.__module__ == module.__name__ and \
                        "__dataclass_fields__" in vars(value) and not value.__dataclass_params__.init:
                    found.append(value)
    return found


CLASSES = record_classes()


def frozen(cls: type) -> bool:
    return cls.__setattr__ is records._frozen_setattr


def twin(cls: type) -> type:
    """The dataclass with ``cls``'s fields and options, as ``@dataclass`` would make it."""
    specs = [(f.name, f.type, dataclasses.field(default=f.default, default_factory=f.default_factory, repr=f.repr,
                                                compare=f.compare)) for f in dataclasses.fields(cls)]
    return dataclasses.make_dataclass(cls.__name__, specs, frozen=frozen(cls), slots="__slots__" in vars(cls))


def values(cls: type, salt: int = 0) -> list[int]:
    """One distinct (hashable) value per field."""
    return [100 * salt + i for i in range(len(dataclasses.fields(cls)))]


def state(obj: object) -> dict:
    return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}


def test_the_core_and_the_students_commands_declare_records():
    names = {f"{c.__module__}.{c.__qualname__}" for c in CLASSES}
    assert {"abkit.tree.Tree", "abkit.trace.Call", "abkit.trace.Trace", "abkit.fixture.Fixture",
            "abkit.feedback.TestResult", "abkit.studentloop.check.TestCase"} <= names


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__qualname__)
def test_a_record_is_made_and_compared_as_its_dataclass(cls):
    same = twin(cls)
    made = records._init(cls, dataclasses.fields(cls), frozen(cls))
    ours, theirs = inspect.signature(made).parameters, inspect.signature(same.__init__).parameters
    assert list(ours) == list(theirs)
    for name, param in ours.items():
        other = theirs[name]
        assert param.kind == other.kind and (param.default is inspect.Parameter.empty) == \
               (other.default is inspect.Parameter.empty)
        field = cls.__dataclass_fields__.get(name)
        if field is not None and field.default is not dataclasses.MISSING:
            assert param.default is other.default is field.default

    a, b = cls(*values(cls)), same(*values(cls))
    assert state(a) == state(b) and repr(a) == repr(b)
    assert a == cls(*values(cls)) and a != b  # equal to its own kind only, as a dataclass
    for i, f in enumerate(dataclasses.fields(cls)):
        changed = values(cls)
        changed[i] = -1
        assert (a == cls(*changed)) == (b == same(*changed)) == (not f.compare)
    if frozen(cls):
        assert hash(a) == hash(b)
        with pytest.raises(dataclasses.FrozenInstanceError):
            a.__setattr__(dataclasses.fields(cls)[0].name, 0)
        with pytest.raises(dataclasses.FrozenInstanceError):
            a.__delattr__(dataclasses.fields(cls)[0].name)
    else:
        assert cls.__hash__ is same.__hash__ is None
    copy = dataclasses.replace(a, **{dataclasses.fields(cls)[0].name: -5})
    assert state(copy) == {**state(a), dataclasses.fields(cls)[0].name: -5}
    assert pickle.loads(pickle.dumps(a)) == a


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__qualname__)
def test_defaults_and_factories_are_those_of_the_dataclass(cls):
    required = [f for f in dataclasses.fields(cls)
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
    args = list(range(len(required)))
    a, b, other = cls(*args), twin(cls)(*args), cls(*args)
    assert state(a) == state(b)
    for f in dataclasses.fields(cls):
        if f.default_factory is not dataclasses.MISSING:
            assert getattr(a, f.name) is not getattr(other, f.name)  # a new one per instance


def test_options_a_record_does_not_have_are_refused():
    with pytest.raises(TypeError, match="kw_only"):
        @record
        class Keyword:
            """Keyword-only."""

            x: int = dataclasses.field(kw_only=True)

    with pytest.raises(TypeError, match="__post_init__"):
        @record
        class After:
            """With __post_init__."""

            x: int

            def __post_init__(self):
                pass


def test_a_method_the_class_defines_is_kept():
    @record
    class Shown:
        """Its own repr."""

        x: int

        def __repr__(self):
            return "mine"

    assert repr(Shown(1)) == "mine" and Shown(1) == Shown(1)


def test_a_subclass_initialises_through_the_record_before_the_record_is_instantiated():
    code = ("from abkit.trace import CountedTrace, Trace\n"
            "t = CountedTrace('minimax', 'A', nodes=3, value=5)\n"
            "print(t.nodes, t.value, t.visited, Trace('minimax', 'B').root)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["3", "5", "[]", "B"]


def test_no_class_of_the_core_has_dataclass_code_compiled_at_import():
    for package in (abkit, studentloop):
        for info in pkgutil.iter_modules(package.__path__, f"{package.__name__}."):
            for value in vars(importlib.import_module(info.name)).values():
                if isinstance(value, type) and "__dataclass_params__" in vars(value):
                    params = value.__dataclass_params__
                    assert not (params.init or params.repr or params.eq or params.frozen), value  # a record
