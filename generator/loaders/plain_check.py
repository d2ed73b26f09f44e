"""A quick "valid" verdict of a value against a plain JSON Schema, before jsonschema: a
manifest against its format's schema (``generator/schemas``), a default against the
schema of its property.

jsonschema's import (about a tenth of a second) and its validation of a manifest of 200
tools (a few hundredths) are a large share of a one-tool rebuild. Those schemas mostly
use a handful of plain keywords; ``plainly_valid`` checks those directly and answers True
only when every keyword it meets is one of them and holds. Anything else (a keyword it
does not know, a value a keyword rejects, a value that is not plain JSON, a schema it
cannot read) goes to jsonschema, which gives the verdict and the messages. So it can only
skip work, never change a verdict; a differential test against jsonschema checks it.
Patterns run in bounded time (``bounded_regex``), as they do in jsonschema here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from generator.loaders import bounded_regex

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
    "integer": lambda v: type(v) is int,
    "number": lambda v: type(v) in (int, float),
}


Check = Callable[[Any, Any, dict[str, Any], dict[str, Any]], bool]


def plainly_valid(instance: Any, schema: dict[str, Any]) -> bool:
    """True when ``schema`` surely accepts ``instance`` (False: ask jsonschema)."""
    try:
        return _valid(instance, schema, schema)
    except Exception:  # noqa: BLE001 - a schema it cannot read: jsonschema's to judge
        return False


def _valid(instance: Any, schema: Any, root: dict[str, Any]) -> bool:
    """Whether ``schema`` (a part of ``root``) surely accepts ``instance``."""
    if schema is True or schema == {}:
        return True
    if not isinstance(schema, dict):
        return False
    for keyword, value in schema.items():
        if keyword in _ANNOTATIONS or keyword == "$defs":
            continue
        check = _KEYWORDS.get(keyword)
        if check is None or not check(instance, value, schema, root):
            return False
    return True


def _type(
    instance: Any, value: Any, schema: dict[str, Any], root: dict[str, Any]
) -> bool:
    names = value if isinstance(value, list) else [value]
    return any(name in _TYPES and _TYPES[name](instance) for name in names)


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
        return False
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
        return False
    target = root.get("$defs", {}).get(value[len(prefix) :])
    return target is not None and _valid(instance, target, root)


def _enum(
    instance: Any, value: Any, schema: dict[str, Any], root: dict[str, Any]
) -> bool:
    """Only a string against string values (jsonschema's equality is subtler)."""
    return (
        isinstance(instance, str)
        and all(isinstance(v, str) for v in value)
        and instance in value
    )


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
    "enum": _enum,
    "const": _const,
    "pattern": _of(str, lambda s, p: bounded_regex.search(p, s)),
    "minLength": _of(str, lambda s, n: len(s) >= n),
    "minItems": _of(list, lambda items, n: len(items) >= n),
    "minimum": _of((int, float), lambda x, n: x >= n),
    "maximum": _of((int, float), lambda x, n: x <= n),
    "exclusiveMinimum": _of((int, float), lambda x, n: x > n),
}
