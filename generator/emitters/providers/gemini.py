"""Gemini function declarations (providers.md §4), with ``parametersJsonSchema``: real
JSON Schema, converted to the subset Gemini documents. Type lists become ``anyOf``,
``const`` a one-value ``enum``, enums of other than strings and numbers are dropped, and
keywords outside the subset are removed (and reported)."""

from __future__ import annotations

from typing import Any

from ...emitters.providers import RUNTIME, Dispatch, File, Shown
from ...emitters.providers.schemas import (
    Notes,
    description,
    gemini_mcp_name,
    input_schema,
)
from ...views import ToolView

# The documented subset (google-genai's response_json_schema docstring, §4.3).
SUBSET = frozenset(
    {
        "$id",
        "$defs",
        "$ref",
        "$anchor",
        "type",
        "format",
        "title",
        "description",
        "enum",
        "items",
        "prefixItems",
        "minItems",
        "maxItems",
        "minimum",
        "maximum",
        "anyOf",
        "oneOf",
        "properties",
        "additionalProperties",
        "required",
        "propertyOrdering",
    }
)


def declaration(
    tool: ToolView, notes: Notes, file: str, always: bool
) -> dict[str, Any] | None:
    """One function declaration; the file holds them all in one ``tools`` entry."""
    item: dict[str, Any] = {"name": gemini_mcp_name(tool)}
    text = description(tool)
    if text:
        item["description"] = text
    item["parametersJsonSchema"] = _convert(
        input_schema(tool), "", notes.remover(file, tool)
    )
    return item


def _convert(schema: Any, path: str, removed: Any) -> Any:
    if not isinstance(schema, dict):
        return schema
    result: dict[str, Any] = {}
    if "const" in schema:
        result["enum"] = [schema["const"]]
    for key, value in schema.items():
        if key == "const":
            continue
        if key not in SUBSET:
            removed(path, key)
            continue
        result[key] = value
    enum = result.get("enum")
    if enum is not None and not all(
        isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in enum
    ):
        removed(path, "enum")
        del result["enum"]
    kinds = result.get("type")
    if isinstance(kinds, list):
        del result["type"]
        variants = [{"type": kind} for kind in kinds]
        result = (
            {"anyOf": variants, **result}
            if len(variants) > 1
            else {**variants[0], **result}
        )
    for key in ("items", "additionalProperties"):
        if isinstance(result.get(key), dict):
            result[key] = _convert(result[key], f"{path}/{key}", removed)
    if isinstance(result.get("properties"), dict):
        result["properties"] = {
            name: _convert(value, f"{path}/properties/{name}", removed)
            for name, value in result["properties"].items()
        }
    for key in ("anyOf", "oneOf", "prefixItems"):
        if isinstance(result.get(key), list):
            result[key] = [
                _convert(item, f"{path}/{key}/{i}", removed)
                for i, item in enumerate(result[key])
            ]
    return result


def _file(shown: list[Shown]) -> str:
    """Gemini's declarations, inside its one ``tools`` entry."""
    if not shown:
        return "[]\n"
    inner = ",\n    ".join(s.line for s in shown)
    return f'[\n  {{"functionDeclarations": [\n    {inner}\n  ]}}\n]\n'


FILES = (File("gemini.json", declaration, _file),)
NAMES = "dotted"
DISPATCH = (Dispatch("gemini", RUNTIME / "gemini.py"),)
