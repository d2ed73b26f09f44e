"""generator.records against the dataclasses it stands for: the same class made both
ways must compare, hash, order, print, pickle, copy, replace and refuse changes alike.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
from collections.abc import Callable
from types import MappingProxyType
from typing import Any

import pytest

from generator import ir
from generator.diagnostics import Severity, make
from generator.records import record


def _body() -> dict[str, Any]:
    """One class body: plain fields, defaults, a default factory, a field that does
    not compare, and a method."""
    return {
        "__annotations__": {
            "name": "str",
            "count": "int",
            "tags": "tuple[str, ...]",
            "extra": "dict[str, int]",
            "note": "str",
        },
        "tags": (),
        "extra": dataclasses.field(default_factory=dict),
        "note": dataclasses.field(default="", compare=False),
        "total": lambda self: self.count + len(self.tags),
    }


def _made(decorate: Callable[[type], type]) -> type:
    # Both classes are named and placed alike, so that their reprs can be compared.
    cls = type("Item", (), {**_body(), "__module__": __name__, "__qualname__": "Item"})
    return decorate(cls)


def _answer(question: Callable[[], object]) -> object:
    """What ``question()`` returns, or the error it raises (dicts neither order nor
    hash)."""
    try:
        return question()
    except TypeError as exc:
        return str(exc)


def _compared(i: Any, j: Any) -> list[object]:
    return [
        _answer(lambda: i == j),
        _answer(lambda: i != j),
        _answer(lambda: i < j),
        _answer(lambda: i <= j),
        _answer(lambda: i > j),
        _answer(lambda: i >= j),
        _answer(lambda: hash(i) == hash(j)),
    ]


KINDS = {
    "dataclass": lambda slots: _made(
        dataclasses.dataclass(frozen=True, slots=slots, order=True)
    ),
    "record": lambda slots: _made(record(slots=slots, order=True)),
}
VALUES = [
    ("a", 1),
    ("a", 1, ("x",)),
    ("a", 1, ("x",), {"k": 1}),
    ("a", 1, ("x",), {"k": 1}, "other note"),
    ("b", 0),
    ("a", 2, ("x", "y")),
]


@pytest.mark.parametrize("slots", [False, True])
def test_a_record_behaves_as_a_frozen_dataclass(
    slots: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: dict[str, list[Any]] = {}
    for kind, make_class in KINDS.items():
        cls = make_class(slots)
        monkeypatch.setitem(globals(), "Item", cls)  # where pickle looks it up
        items = [cls(*args) for args in VALUES]
        keyword = cls(name="a", count=1, tags=("x",))
        facts: list[Any] = [
            [repr(i) for i in items],
            [_compared(i, j) for i in items for j in items],
            [i == ("a", 1) for i in items],
            keyword == items[1],
            [i.total() for i in items],
            [f.name for f in dataclasses.fields(cls)],
            cls.__match_args__,
            repr(dataclasses.replace(items[0], count=5)),
            dataclasses.asdict(items[3]),
            [pickle.loads(pickle.dumps(i, p)) == i for i in items for p in (2, 5)],
            [copy.deepcopy(i) == i and copy.copy(i) == i for i in items],
            items[0].extra is not cls("a", 1).extra,  # a new dict each time
            hasattr(items[0], "__dict__"),
        ]
        for change in (
            lambda: setattr(items[0], "name", "b"),
            lambda: delattr(items[0], "name"),
        ):
            with pytest.raises(dataclasses.FrozenInstanceError):
                change()
        # A slotted frozen dataclass raises TypeError here on Python 3.11 (its
        # __setattr__ names the class from before slots were added); a record, the
        # FrozenInstanceError it means.
        with pytest.raises((dataclasses.FrozenInstanceError, TypeError)):
            items[0].unknown = 1
        with pytest.raises(TypeError):
            cls("a")  # a field without a default is missing
        with pytest.raises(TypeError):
            items[0] < ("a", 1)  # noqa: B015 - orders only its own class
        seen[kind] = facts
    assert seen["record"] == seen["dataclass"]


def test_a_record_keeps_no_method_it_would_replace() -> None:
    """dataclass keeps a class's own __repr__ or __eq__; a record, which would
    replace it, refuses the class instead."""
    with pytest.raises(TypeError, match="__repr__"):
        record()(type("Shown", (), {"__annotations__": {"a": "int"}, "__repr__": repr}))


def test_the_model_classes_are_records() -> None:
    position = ir.Position("skills/a/SKILL.md", 3)
    assert str(position) == "skills/a/SKILL.md:3:1"
    assert repr(position) == "Position(path='skills/a/SKILL.md', line=3, col=1)"
    assert {position, ir.Position("skills/a/SKILL.md", 3)} == {position}
    definition = ir.Definition(
        ir.Kind.SKILL,
        "a",
        "a",
        None,
        "Does a.",
        "",
        position,
        0,
        (),
        None,
        MappingProxyType({}),
    )
    assert definition.metadata == {} and definition.path == ("task", "a")
    again = pickle.loads(pickle.dumps(definition))
    assert again == definition
    assert dataclasses.replace(definition, body="x") != definition
    with pytest.raises(dataclasses.FrozenInstanceError):
        definition.body = "x"  # type: ignore[misc]


def test_diagnostics_sort_by_place_and_ignore_severity_in_comparisons() -> None:
    error = make(Severity.ERROR, "b.md", 1, 1, "yaml-syntax", "bad")
    warning = make(Severity.WARNING, "a.md", 2, 1, "yaml-syntax", "bad")
    same_place = dataclasses.replace(error, severity=Severity.WARNING)
    assert sorted([error, warning]) == [warning, error]
    assert same_place == error and hash(same_place) == hash(error)
    assert pickle.loads(pickle.dumps(error)) == error
