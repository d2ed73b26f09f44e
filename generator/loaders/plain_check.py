"""A quick verdict on a value against a plain JSON Schema, before jsonschema: a
manifest against its format's schema (``generator/schemas``), a default against the
schema of its property, an example's input against its tool's input schema.

jsonschema's import (about a tenth of a second) and its validation of a manifest of 200
tools (a few hundredths) are a large share of a one-tool rebuild. Those schemas mostly
use a handful of plain keywords; ``verdict`` checks those directly, in the order
jsonschema does, stopping at the first that fails as jsonschema's ``is_valid`` does. It
answers None where it cannot be sure (a keyword it does not know, a value that is not
plain JSON, a schema it cannot read): jsonschema decides those. A manifest it does not
find valid still goes to jsonschema for the messages. So it only skips work, never
changes a verdict; a differential test against jsonschema checks it.
Patterns run in bounded time (``bounded_regex``), as they do in jsonschema here.

Kept after measuring (issue 25): ``nox -s bench``, 5,000 real function definitions in
manifests of 200, a cold build took 9.6 times the floor with the quick verdicts and
15.1 times without them (target: 12).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..loaders import bounded_regex, schema_quick_check

# Keywords that say nothing of the instance ("format" asserts nothing without a format
# checker, and skillc's validators have none).
_ANNOTATIONS = frozenset(
    {
        "$id",
        "$schema",
        "$comment",
        "title",
        "description",
        "default",
        "examples",
        "format",
    }
)
_TYPES: dict[str, Callable[[Any], bool]] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "integer": lambda v: type(v) is int or (type(v) is float and v.is_integer()),
    "number": lambda v: type(v) in (int, float),
}
_PLAIN = (dict, list, str, bool, int, float, type(None))


class _Unsure(Exception):
    """Something only jsonschema can judge."""


Check = Callable[[Any, Any, dict[str, Any], dict[str, Any]], bool]


def verdict(instance: Any, schema: dict[str, Any]) -> bool | None:
    """Whether ``schema`` accepts ``instance``; None when only jsonschema can tell."""
    try:
        return _valid(instance, schema, schema)
    except Exception:  # noqa: BLE001 - _Unsure, or a schema it cannot read
        return None


def _valid(instance: Any, schema: Any, root: dict[str, Any]) -> bool:
    """Whether ``schema`` (a part of ``root``) accepts ``instance``."""
    if isinstance(schema, bool):
        return schema
    if not isinstance(schema, dict):
        raise _Unsure
    for keyword, value in schema.items():
        if keyword in _ANNOTATIONS or keyword == "$defs":
            continue
        check = _KEYWORDS.get(keyword)
        if check is None and keyword not in schema_quick_check.VOCABULARY:
            continue  # jsonschema ignores it too
        if check is None:
            raise _Unsure
        if not check(instance, value, schema, root):
            return False
    return True


def _type(
    instance: Any, value: Any, schema: dict[str, Any], root: dict[str, Any]
) -> bool:
    if type(instance) not in _PLAIN:
        raise _Unsure
    for name in value if isinstance(value, list) else [value]:
        if name not in _TYPES:
            raise _Unsure  # jsonschema raises on it, when it gets there
        if _TYPES[name](instance):
            return True
    return False


def _properties(
    instance: Any, value: Any, schema: dict[str, Any], root: dict[str, Any]
) -> bool:
    if not isinstance(instance, dict):
        return True
    return all(
        _valid(instance[name], inner, root)
        for name, inner in value.items()
        if name in instance
    )


def _additional(
    instance: Any, value: Any, schema: dict[str, Any], root: dict[str, Any]
) -> bool:
    """``additionalProperties``: of the keys ``properties`` does not name."""
    if not isinstance(instance, dict):
        return True
    if not all(isinstance(key, str) for key in instance):
        raise _Unsure
    named = schema.get("properties") or {}
    return all(
        _valid(item, value, root) for key, item in instance.items() if key not in named
    )


def _required(
    instance: Any, value: Any, schema: dict[str, Any], root: dict[str, Any]
) -> bool:
    return not isinstance(instance, dict) or all(name in instance for name in value)


def _items(
    instance: Any, value: Any, schema: dict[str, Any], root: dict[str, Any]
) -> bool:
    if not isinstance(instance, list):
        return True
    return all(_valid(item, value, root) for item in instance)


def _ref(
    instance: Any, value: Any, schema: dict[str, Any], root: dict[str, Any]
) -> bool:
    prefix = "#/$defs/"
    if not isinstance(value, str) or not value.startswith(prefix):
        raise _Unsure
    target = root.get("$defs", {}).get(value[len(prefix) :])
    if target is None:
        raise _Unsure
    return _valid(instance, target, root)


def _all_of(
    instance: Any, value: Any, schema: dict[str, Any], root: dict[str, Any]
) -> bool:
    if not isinstance(value, list) or not value:
        raise _Unsure
    return all(_valid(instance, inner, root) for inner in value)


def _any_of(
    instance: Any, value: Any, schema: dict[str, Any], root: dict[str, Any]
) -> bool:
    """Valid under one of them: a sure yes wins over another's doubt."""
    if not isinstance(value, list) or not value:
        raise _Unsure
    unsure = False
    for inner in value:
        try:
            if _valid(instance, inner, root):
                return True
        except _Unsure:
            unsure = True
    if unsure:
        raise _Unsure
    return False


def _if(
    instance: Any, value: Any, schema: dict[str, Any], root: dict[str, Any]
) -> bool:
    """``if``, with the ``then`` or ``else`` it picks (neither counts on its own)."""
    branch = "then" if _valid(instance, value, root) else "else"
    return _valid(instance, schema.get(branch, True), root)


def _enum(
    instance: Any, value: Any, schema: dict[str, Any], root: dict[str, Any]
) -> bool:
    """A string, or an integer, against a list (jsonschema's equality is subtler for
    other values: 1 == 1.0, True != 1...)."""
    if not isinstance(value, list):
        raise _Unsure
    if isinstance(instance, str):
        return instance in [v for v in value if isinstance(v, str)]
    if type(instance) is int and all(type(v) in (int, str) for v in value):
        return instance in [v for v in value if type(v) is int]
    raise _Unsure


def _const(
    instance: Any, value: Any, schema: dict[str, Any], root: dict[str, Any]
) -> bool:
    return _enum(instance, [value], schema, root)


def _of(
    kind: type[Any] | tuple[type[Any], ...], test: Callable[[Any, Any], bool]
) -> Check:
    """A keyword that applies to instances of ``kind`` only (a bool is no number)."""
    return lambda instance, value, schema, root: (
        isinstance(instance, bool)
        or not isinstance(instance, kind)
        or test(instance, value)
    )


_KEYWORDS: dict[str, Check] = {
    "type": _type,
    "properties": _properties,
    "additionalProperties": _additional,
    "required": _required,
    "items": _items,
    "$ref": _ref,
    "allOf": _all_of,
    "anyOf": _any_of,
    "if": _if,
    "then": lambda *_: True,
    "else": lambda *_: True,
    "enum": _enum,
    "const": _const,
    "pattern": _of(str, lambda s, p: bounded_regex.search(p, s)),
    "minLength": _of(str, lambda s, n: len(s) >= n),
    "minItems": _of(list, lambda items, n: len(items) >= n),
    "minimum": _of((int, float), lambda x, n: x >= n),
    "maximum": _of((int, float), lambda x, n: x <= n),
    "exclusiveMinimum": _of((int, float), lambda x, n: x > n),
}
