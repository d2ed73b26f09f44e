"""A quick "valid" verdict for the common input schemas, before the meta-schema.

Checking a schema against the Draft 2020-12 meta-schema with jsonschema costs about a
millisecond (the meta-schema's dynamic references are resolved at every level), which is a
large share of a manifest build. Most real schemas use a handful of keywords whose rules
in the meta-schema are plain (a type name, a string, a non-negative integer...).
``plainly_valid`` checks those rules directly and answers True only when every keyword of
every subschema is one of them and obeys it; anything else (an unknown keyword, a value it
does not accept) goes to jsonschema, which gives the verdict and the messages. So it can
only skip work, never change a verdict; a differential test against jsonschema checks it.

Kept after measuring (issue 25): ``nox -s bench``, 5,000 real function definitions in
manifests of 200, a cold build took 9.6 times the floor with the quick verdicts and
15.1 times without them (target: 12).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

SIMPLE_TYPES = frozenset(
    {"array", "boolean", "integer", "null", "number", "object", "string"}
)


# Every keyword Draft 2020-12 gives a meaning to (its meta-schemas' and its validator's,
# a test checks): both ignore any other, such as the "optional: true" some tools write.
VOCABULARY = frozenset(
    {
        *("$anchor", "$comment", "$defs", "$dynamicAnchor", "$dynamicRef", "$id"),
        *("$recursiveAnchor", "$recursiveRef", "$ref", "$schema", "$vocabulary"),
        *("additionalProperties", "allOf", "anyOf", "const", "contains"),
        *("contentEncoding", "contentMediaType", "contentSchema", "default"),
        *("definitions", "dependencies", "dependentRequired", "dependentSchemas"),
        *("deprecated", "description", "else", "enum", "examples", "exclusiveMaximum"),
        *("exclusiveMinimum", "format", "if", "items", "maxContains", "maxItems"),
        *("maxLength", "maxProperties", "maximum", "minContains", "minItems"),
        *("minLength", "minProperties", "minimum", "multipleOf", "not", "oneOf"),
        *("pattern", "patternProperties", "prefixItems", "properties"),
        *("propertyNames", "readOnly", "required", "then", "title", "type"),
        *("unevaluatedItems", "unevaluatedProperties", "uniqueItems", "writeOnly"),
    }
)


def plainly_valid(schema: Any) -> bool:
    """True when the 2020-12 meta-schema surely accepts ``schema`` (False: ask it)."""
    if isinstance(schema, bool):
        return True
    if not isinstance(schema, dict):
        return False
    return all(
        _RULES[key](value) if key in _RULES else key not in VOCABULARY
        for key, value in schema.items()
    )


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _count(value: Any) -> bool:
    return type(value) is int and value >= 0


def _type(value: Any) -> bool:
    if isinstance(value, str):
        return value in SIMPLE_TYPES
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(v, str) and v in SIMPLE_TYPES for v in value)
        and len(set(value)) == len(value)
    )


def _names(value: Any) -> bool:
    return (
        isinstance(value, list)
        and all(isinstance(v, str) for v in value)
        and len(set(value)) == len(value)
    )


def _schemas(value: Any) -> bool:
    return isinstance(value, dict) and all(plainly_valid(v) for v in value.values())


def _schema_list(value: Any) -> bool:
    """The meta-schema's schemaArray: a non-empty list of schemas."""
    return isinstance(value, list) and bool(value) and all(map(plainly_valid, value))


def _string(value: Any) -> bool:
    return isinstance(value, str)


def _anything(value: Any) -> bool:
    return True


_RULES: dict[str, Callable[[Any], bool]] = {
    "type": _type,
    "enum": lambda value: isinstance(value, list),
    "const": _anything,
    "default": _anything,
    "examples": lambda value: isinstance(value, list),
    "title": _string,
    "description": _string,
    "$comment": _string,
    "format": _string,  # an annotation: the meta-schema's formats are not asserted
    "pattern": _string,
    "minimum": _number,
    "maximum": _number,
    "exclusiveMinimum": _number,
    "exclusiveMaximum": _number,
    "multipleOf": lambda value: _number(value) and value > 0,
    "minLength": _count,
    "maxLength": _count,
    "minItems": _count,
    "maxItems": _count,
    "minProperties": _count,
    "maxProperties": _count,
    "uniqueItems": lambda value: isinstance(value, bool),
    "deprecated": lambda value: isinstance(value, bool),
    "readOnly": lambda value: isinstance(value, bool),
    "writeOnly": lambda value: isinstance(value, bool),
    "required": _names,
    "properties": _schemas,
    "items": plainly_valid,
    "additionalProperties": plainly_valid,
    "anyOf": _schema_list,
    "oneOf": _schema_list,
    "allOf": _schema_list,
    "not": plainly_valid,
}
