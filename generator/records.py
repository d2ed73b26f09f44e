"""``record``: a frozen dataclass that costs less to define.

``@dataclass(frozen=True)`` compiles six small functions per class on Python 3.11
(``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``, ``__delattr__``),
one ``exec`` each, and works out a signature for a class without a docstring: for the
model's and views' classes that was most of their import time, which every rebuild
pays. A record compiles only its ``__init__``, the one function that runs per object;
the other five are shared by all records and behave as the dataclass's do (the fields
that compare are compared and hashed as one tuple, and shown in order). It is still a
dataclass: ``dataclasses.fields``, ``replace`` and ``asdict`` work on it.
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")

_FACTORY = object()  # in a generated __init__: "use the field's default factory"
# What a record provides; a class that writes its own is told, not overridden.
_PROVIDED = frozenset(
    {"__init__", "__eq__", "__hash__", "__repr__", "__setattr__", "__delattr__"}
    | {"__lt__", "__le__", "__gt__", "__ge__", "__reduce__"}
)


@dataclass_transform(
    frozen_default=True, field_specifiers=(dataclasses.field, dataclasses.Field)
)
def record(*, slots: bool = False, order: bool = False) -> Callable[[type[T]], type[T]]:
    """``@dataclass(frozen=True, slots=slots, order=order)``, made as the module's
    docstring says."""

    def make(cls: type[T]) -> type[T]:
        own = _PROVIDED & vars(cls).keys()
        if own:
            raise TypeError(f"{cls.__name__} defines {', '.join(sorted(own))}")
        if cls.__doc__ is None:  # else dataclass computes one from the signature
            cls.__doc__ = cls.__name__
        made: Any = dataclasses.dataclass(
            init=False, repr=False, eq=False, slots=slots
        )(cls)
        fields = dataclasses.fields(made)
        made.__init__ = _init(made, fields)
        compared = [f.name for f in fields if f.compare]
        made._compared = staticmethod(_values(compared))
        made._shown = tuple(f.name for f in fields if f.repr)
        made.__eq__, made.__hash__, made.__repr__ = _eq, _hash, _repr
        made.__setattr__, made.__delattr__ = _setattr, _delattr
        if order:
            made.__lt__, made.__le__, made.__gt__, made.__ge__ = _lt, _le, _gt, _ge
        if slots:  # pickled as its fields, unpickled through __init__
            made._fields = staticmethod(_values([f.name for f in fields]))
            made.__reduce__ = _reduce
        result: type[T] = made
        return result

    return make


def _init(cls: type[Any], fields: tuple[dataclasses.Field[Any], ...]) -> Any:
    """The class's ``__init__``, compiled as dataclass compiles a frozen one's."""
    scope: dict[str, Any] = {"_set": object.__setattr__, "_FACTORY": _FACTORY}
    params, body = ["self"], []
    for f in fields:
        if f.kw_only is True or not f.init:
            raise TypeError(
                f"{cls.__name__}.{f.name}: records take every field in order"
            )
        value = f.name
        if f.default is not dataclasses.MISSING:
            scope[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        elif f.default_factory is not dataclasses.MISSING:
            scope[f"_factory_{f.name}"] = f.default_factory
            params.append(f"{f.name}=_FACTORY")
            value = f"_factory_{f.name}() if {f.name} is _FACTORY else {f.name}"
        else:
            params.append(f.name)
        body.append(f"    _set(self, {f.name!r}, {value})")
    source = f"def __init__({', '.join(params)}):\n" + "\n".join(body or ["    pass"])
    exec(source, scope)  # the names are the class's own field names
    function = scope["__init__"]
    function.__qualname__ = f"{cls.__qualname__}.__init__"
    return function


def _values(names: list[str]) -> Callable[[object], tuple[Any, ...]]:
    """The fields' values, as one tuple."""
    if len(names) > 1:
        return operator.attrgetter(*names)
    return lambda self: tuple(getattr(self, name) for name in names)


def _comparison(compare: Callable[[Any, Any], bool]) -> Callable[[Any, Any], Any]:
    """A comparison of two records of one class, as dataclass compares them (another
    class's object: NotImplemented)."""

    def method(self: Any, other: Any) -> Any:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return compare(self._compared(self), self._compared(other))

    return method


_eq, _lt, _le, _gt, _ge = map(
    _comparison, (operator.eq, operator.lt, operator.le, operator.gt, operator.ge)
)


def _hash(self: Any) -> int:
    return hash(self._compared(self))


def _repr(self: Any) -> str:
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._shown)
    return f"{self.__class__.__qualname__}({shown})"


def _setattr(self: object, name: str, value: object) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")


def _delattr(self: object, name: str) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


def _reduce(self: Any) -> tuple[type[Any], tuple[Any, ...]]:
    """A slotted record has no ``__dict__`` to pickle, and no ``__setattr__`` to set
    its fields again from one: it is made anew from its fields (which is also faster
    than the slotted dataclass's ``__setstate__``)."""
    return self.__class__, self._fields(self)
