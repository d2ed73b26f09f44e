"""What a schema's wrong-typed parts are read as: type names JSON Schema does not have
(``dict``, ``float``, ``str``...), and a default written as the wrong type, each when it
has one clear reading (``schema_normalise`` rewrites the schema and warns)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

TYPE_ALIASES = {
    "dict": "object",
    "map": "object",
    "object": "object",
    "float": "number",
    "double": "number",
    "number": "number",
    "int": "integer",
    "integer": "integer",
    "long": "integer",
    "str": "string",
    "string": "string",
    "bool": "boolean",
    "boolean": "boolean",
    "list": "array",
    "array": "array",
    "tuple": "array",
    "null": "null",
    "none": "null",
    # Java-ish and other language names seen in real catalogues
    "arraylist": "array",
    "set": "array",
    "char": "string",
    "character": "string",
    "short": "integer",
    "byte": "integer",
    "biginteger": "integer",
    "bigdecimal": "number",
    "hashmap": "object",
    "dictionary": "object",
}
ANY_TYPES = frozenset({"any"})
# What ``coerce`` returns when a value has no clear reading (None is a reading).
NOTHING = object()


def coerce(value: Any, kind: Any) -> Any:
    """The one clear reading of a default written as the wrong type, if there is one
    (else NOTHING)."""
    kind = _one_type(kind)
    if isinstance(value, str):
        return _from_text(value.strip(), kind)
    return _from_number(value, kind)


def _one_type(kind: Any) -> Any:
    """A list of types with one besides null read as that one (None when several)."""
    if isinstance(kind, list):
        kinds = [k for k in kind if k != "null"]
        return kinds[0] if len(kinds) == 1 else None
    return kind


def _from_text(text: str, kind: Any) -> Any:
    """A number, boolean or null written as text."""
    if kind == "integer":
        return _parsed(int, text)
    if kind == "number":
        return _parsed(float if not text.lstrip("-").isdigit() else int, text)
    if kind == "boolean" and text.lower() in ("true", "false"):
        return text.lower() == "true"
    if text.lower() in ("none", "null") or text == "":
        return None
    return NOTHING


def _parsed(parse: Callable[[str], Any], text: str) -> Any:
    try:
        return parse(text)
    except ValueError:
        return NOTHING


def _from_number(value: Any, kind: Any) -> Any:
    """A number where a string is expected, or a whole float where an integer is."""
    is_number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == "string" and is_number:
        return str(value)
    if kind == "number" and isinstance(value, int) and not isinstance(value, bool):
        return value
    if kind == "integer" and isinstance(value, float) and value.is_integer():
        return int(value)
    return NOTHING
