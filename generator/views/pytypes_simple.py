"""The annotations of simple input schemas, written directly: most real tools take flat
arguments (scalars, enums, lists of them, free-form objects), and typing those through
datamodel-code-generator costs its import (about half a second) and milliseconds a schema.

``annotate`` answers only for schemas whose every property is in the small grammar
below, with exactly the annotation datamodel-code-generator gives it (a differential test
over the real corpora checks this); for anything else it returns None and ``pytypes``
asks datamodel-code-generator, so there is still one schema-to-type mapping.
"""

from __future__ import annotations

import builtins
import keyword
import re
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
_BUILTINS = frozenset(dir(builtins))
# Property names whose model's name is plain CamelCase: parts of letters and digits.
_CAMEL = re.compile(r"^[a-z][a-zA-Z0-9]*(_[a-z][a-zA-Z0-9]*)*$")
_ROOT = frozenset(
    {"type", "properties", "required", "title", "description", "$schema", "$id"}
)


def annotate(
    schema: Mapping[str, Any],
) -> tuple[dict[str, str], tuple[str, ...], str] | None:
    """Each top-level property's annotation, what they import from typing and the code
    of the models they use; None when a property is not simple."""
    if not set(schema) <= _ROOT or schema.get("type") != "object":
        return None
    properties = schema.get("properties")
    if not isinstance(properties, Mapping):
        return None
    result = {}
    used: set[str] = set()
    models: dict[str, str] = (
        {}
    )  # by the property's name: datamodel-code-generator's order
    for name, prop in properties.items():
        annotation = _annotation(prop, used) if _kept(name) else None
        if annotation is None and _kept(name):
            annotation = _model(name, prop, used, models)
        if annotation is None:
            return None
        result[name] = annotation
    if models:
        classes = [_class_name(name) for name in models]
        names = {*properties, *(n for p in properties.values() for n in _fields(p))}
        if len(set(classes)) < len(classes) or names & set(classes):
            return None  # datamodel-code-generator renames or merges them
        used.add("TypedDict")
    code = "\n\n\n".join(models[name] for name in sorted(models))
    return result, tuple(sorted(used)), code


def _model(
    name: str, node: object, used: set[str], models: dict[str, str]
) -> str | None:
    """The class of a nested object whose properties are simple (one level deep), as
    datamodel-code-generator writes it; its name is the property's, in CamelCase."""
    if not isinstance(node, Mapping) or node.get("type") != "object":
        return None
    if not set(node) - _INERT <= {"type", "properties", "required"}:
        return None
    properties = node.get("properties")
    required = node.get("required", [])
    if not isinstance(properties, Mapping) or not isinstance(required, list):
        return None
    if not properties:
        return None if required else f"dict[str, {_any(used)}]"
    if not all(isinstance(r, str) for r in required) or not set(required) <= set(
        properties
    ):
        return None
    model = _class_name(name)
    if not _CAMEL.match(name) or not _plain(model) or model == "Arguments":
        return None  # a name it would rename, or one that shadows another (the root's)
    lines = []
    for field in sorted(properties):
        inner = _annotation(properties[field], used) if _plain(field) else None
        if inner is None:
            return None
        if field not in required:
            used.add("NotRequired")
            inner = f"NotRequired[{inner}]"
        lines.append(f"    {field}: {inner}")
    models[name] = f"class {model}(TypedDict):\n" + "\n".join(lines)
    return model


def _class_name(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


def _fields(node: object) -> list[str]:
    properties = node.get("properties") if isinstance(node, Mapping) else None
    return list(properties) if isinstance(properties, Mapping) else []


def _plain(name: str) -> bool:
    """A name a model's class statement or body holds as it is (else
    datamodel-code-generator writes the functional form, or renames it)."""
    return (
        _kept(name)
        and name.isidentifier()
        and name.isascii()
        and not keyword.iskeyword(name)
        and name not in _BUILTINS
    )


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
