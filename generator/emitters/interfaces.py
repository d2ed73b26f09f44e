"""Each tool's interface, as the lock records it: its name, kind, version, aliases,
the names it had before, its description, and its input and output schemas without
what only explains them (descriptions, titles, examples, defaults), so that the lock
changes when a call could break and ``skillc check`` can tell which change it was, and
which removed tool an added one renames (generator/checks/breaking.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..views import ToolView

# Keywords that explain a schema without changing what it accepts.
ANNOTATIONS = frozenset(
    {
        "description",
        "title",
        "examples",
        "default",
        "deprecated",
        "readOnly",
        "writeOnly",
        "$comment",
        "markdownDescription",
    }
)
# Keywords whose value is a schema, a list of schemas or a mapping of them.
ONE = frozenset(
    {
        "items",
        "additionalProperties",
        "not",
        "if",
        "then",
        "else",
        "contains",
        "propertyNames",
        "unevaluatedItems",
        "unevaluatedProperties",
        "additionalItems",
    }
)
MANY = frozenset({"anyOf", "oneOf", "allOf", "prefixItems"})
NAMED = frozenset(
    {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
)


def entry(tool: ToolView) -> dict[str, Any]:
    """The tool's interface (keys without a value left out)."""
    result: dict[str, Any] = {"tool": tool.qualname, "kind": tool.kind}
    version = tool.metadata.get("version")
    if version:
        result["version"] = version
    if tool.aliases:
        result["aliases"] = list(tool.aliases)
    if tool.previous:
        result["previous"] = list(tool.previous)
    # What a model reads to choose it: a removed tool and an added one that are alike
    # in name and description were one tool renamed.
    result["description"] = tool.description
    result["input"] = shape(tool.input_schema)
    if tool.output_schema is not None:
        result["output"] = shape(tool.output_schema)
    result["source"] = tool.source.path
    return result


def shape(schema: Any) -> Any:
    """``schema`` without its annotations, at every level."""
    if isinstance(schema, list):
        return [shape(item) for item in schema]
    if not isinstance(schema, Mapping):
        return schema
    result: dict[str, Any] = {}
    for key, value in schema.items():
        if key in ANNOTATIONS:
            continue
        if key in NAMED and isinstance(value, Mapping):
            result[key] = {name: shape(sub) for name, sub in value.items()}
        elif key in ONE or key in MANY:
            result[key] = shape(value)
        else:
            result[key] = value
    return result
