"""Anthropic Messages API ``tools`` entries (providers.md §2): plain, strict, and deferred
behind the tool search tool."""

from __future__ import annotations

from typing import Any

from generator.emitters.providers.schemas import Notes, description, input_schema
from generator.emitters.providers.strict import NotStrict, make_strict
from generator.ir import Tool

# The BM25 variant takes a query in plain words, which suits find-by-purpose.
TOOL_SEARCH = {
    "type": "tool_search_tool_bm25_20251119",
    "name": "tool_search_tool_bm25",
}


def entry(tool: Tool, schema: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = {"name": tool.provider_name}
    text = description(tool)
    if text:
        result["description"] = text
    result["input_schema"] = schema
    return result


def plain(tools: list[Tool]) -> list[dict[str, Any]]:
    return [entry(tool, input_schema(tool)) for tool in tools]


def strict(tools: list[Tool], notes: Notes, file: str) -> list[dict[str, Any]]:
    entries = []
    for tool in tools:
        try:
            schema = make_strict(
                input_schema(tool),
                "anthropic",
                notes.remover(file, tool),
            )
        except NotStrict as exc:
            notes.leave_out(file, tool, str(exc))
            continue
        entries.append({**entry(tool, schema), "strict": True})
    return entries


def deferred(tools: list[Tool], always_loaded: frozenset[str]) -> list[dict[str, Any]]:
    """Every tool deferred (``defer_loading``) but the always-loaded ones; the search
    tool first and never deferred."""
    entries: list[dict[str, Any]] = [dict(TOOL_SEARCH)]
    for tool in tools:
        item = entry(tool, input_schema(tool))
        if tool.qualname not in always_loaded:
            item["defer_loading"] = True
        entries.append(item)
    return entries
