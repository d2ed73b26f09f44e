"""The annotations of simple input schemas, written directly: most real tools take flat
arguments (scalars, enums, lists of them, free-form objects), and typing those through
datamodel-code-generator costs its import (about half a second) and milliseconds a schema.

``annotate`` answers only for schemas whose every property is in the small grammar
below, with exactly the annotation datamodel-code-generator gives it (a differential test
over the real corpora checks this); for anything else it returns None and ``pytypes``
asks datamodel-code-generator, so there is still one schema-to-type mapping.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator.views import pylit

SCALARS = {"string": "str", "integer": "int", "number": "float", "boolean": "bool"}
# Keywords that do not change a property's annotation (names, docs, value constraints).
_INERT = frozenset(
    {
        "title",
        "description",
        "default",
        "examples",
        "format",
        "$comment",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minLength",
        "maxLength",
        "pattern",
        "minItems",
        "maxItems",
        "uniqueItems",
    }
)
_TYPING = frozenset({"Any", "Literal", "NotRequired", "Required", "TypedDict"})
_ROOT = frozenset(
    {"type", "properties", "required", "title", "description", "$schema", "$id"}
)


def annotate(
    schema: Mapping[str, Any],
) -> tuple[dict[str, str], tuple[str, ...]] | None:
    """Each top-level property's annotation and what they import from typing; None when
    a property is not simple."""
    if not set(schema) <= _ROOT or schema.get("type") != "object":
        return None
    properties = schema.get("properties")
    if not isinstance(properties, Mapping):
        return None
    result = {}
    used: set[str] = set()
    for name, prop in properties.items():
        annotation = _annotation(prop, used) if _kept(name) else None
        if annotation is None:
            return None
        result[name] = annotation
    return result, tuple(sorted(used))


def _kept(name: str) -> bool:
    """Whether datamodel-code-generator keeps the name and the annotation as they are: it
    renames names that start with ``_`` (``_from`` becomes ``field_from``), and a field
    named like a typing name renames that name (``Any_aliased``); those are left to it.
    """
    return name[:1].isascii() and name[:1].isalpha() and name not in _TYPING


def _annotation(node: object, used: set[str]) -> str | None:
    """The annotation of one simple schema; ``used`` collects the typing names."""
    if not isinstance(node, Mapping):
        return None
    keys = set(node) - _INERT
    kind = node.get("type")
    if "enum" in node:
        literal = _literal(kind, node["enum"]) if keys == {"type", "enum"} else None
        if literal is not None:
            used.add("Literal")
        return literal
    if keys == {"type"} and isinstance(kind, list):
        return _nullable(kind)
    if kind == "array" and keys <= {"type", "items"}:
        inner = _annotation(node["items"], used) if "items" in node else _any(used)
        return None if inner is None else f"list[{inner}]"
    if kind == "object" and keys == {"type"}:
        return f"dict[str, {_any(used)}]"
    if keys == {"type"} and isinstance(kind, str):
        return SCALARS.get(kind)
    return _any(used) if not keys else None


def _any(used: set[str]) -> str:
    used.add("Any")
    return "Any"


def _literal(kind: object, values: object) -> str | None:
    """A string enum of type string, or an integer one of type integer."""
    if not isinstance(values, list) or not values:
        return None
    if kind == "string" and all(isinstance(v, str) for v in values):
        return f"Literal[{', '.join(pylit.pystr(v) for v in values)}]"
    if kind == "integer" and all(type(v) is int for v in values):
        return f"Literal[{', '.join(str(v) for v in values)}]"
    return None


def _nullable(kinds: list[object]) -> str | None:
    """``[X, "null"]`` in either order, X a scalar type."""
    if len(kinds) != 2 or "null" not in kinds:
        return None
    other = kinds[0] if kinds[1] == "null" else kinds[1]
    scalar = SCALARS.get(other) if isinstance(other, str) else None
    return None if scalar is None else f"{scalar} | None"
