"""OpenAI ``tools`` entries (providers.md §3): Chat Completions (nested under
``function``) and the Responses API (flat). ``strict`` is said in every entry: the
Responses API makes a schema strict when it is left out."""

from __future__ import annotations

from typing import Any

from generator.emitters.providers.schemas import (
    Notes,
    capped,
    description,
    input_schema,
)
from generator.emitters.providers.strict import NotStrict, make_strict
from generator.ir import Tool


def _function(
    tool: Tool, schema: dict[str, Any], strict: bool, notes: Notes, file: str
) -> dict[str, Any]:
    text = description(tool)
    if len(text) > len(capped(text)):
        notes.remove(
            file, tool, "description", f"cut to {len(capped(text))} characters"
        )
    result: dict[str, Any] = {"name": tool.provider_name}
    if text:
        result["description"] = capped(text)
    result["parameters"] = schema
    result["strict"] = strict
    return result


def _schemas(
    tools: list[Tool], strict: bool, notes: Notes, file: str
) -> list[tuple[Tool, dict[str, Any]]]:
    result = []
    for tool in tools:
        schema = input_schema(tool)
        if strict:
            try:
                schema = make_strict(
                    schema,
                    "openai",
                    notes.remover(file, tool),
                )
            except NotStrict as exc:
                notes.leave_out(file, tool, str(exc))
                continue
        result.append((tool, schema))
    return result


def chat(
    tools: list[Tool], strict: bool, notes: Notes, file: str
) -> list[dict[str, Any]]:
    return [
        {"type": "function", "function": _function(tool, schema, strict, notes, file)}
        for tool, schema in _schemas(tools, strict, notes, file)
    ]


def responses(
    tools: list[Tool], strict: bool, notes: Notes, file: str
) -> list[dict[str, Any]]:
    return [
        {"type": "function", **_function(tool, schema, strict, notes, file)}
        for tool, schema in _schemas(tools, strict, notes, file)
    ]
