"""Anthropic Messages API ``tools`` entries (providers.md §2): plain, strict, and deferred
behind a client-side search tool (find_tool, answered by ``dispatch()``). One function per file, one tool at a time. The plain and
deferred entries carry ``input_examples`` (§2.5) where a manifest's examples call the
tool. No ``cache_control``: where a breakpoint belongs (one of a request's four) depends
on what the caller sends after these tools."""

from __future__ import annotations

import json
from typing import Any

from ...emitters.providers import (
    RUNTIME,
    Dispatch,
    File,
    Shown,
    discover,
    json_lines,
)
from ...emitters.providers.schemas import Notes, description, input_schema
from ...emitters.providers.strict import NotStrict, make_strict
from ...views import ToolView


def search_tool() -> dict[str, Any]:
    """The custom client-side search tool (Anthropic's tool search tool page, "Custom
    tool search implementation"): a plain tool, never deferred, whose ``tool_use``
    ``dispatch()`` answers with ``tool_reference`` blocks of find_tool's tools."""
    found = discover()
    return {
        "name": found.SEARCH,
        "description": found.DESCRIPTION,
        "input_schema": found.SCHEMA,
    }


def _entry(tool: ToolView, schema: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = {"name": tool.provider_name}
    text = description(tool)
    if text:
        result["description"] = text
    result["input_schema"] = schema
    return result


def _with_examples(tool: ToolView) -> dict[str, Any]:
    """The plain entry, with ``input_examples``: the inputs of the manifest's examples,
    each checked against this same schema when it was loaded (the strict schema, which
    makes optional properties required, would reject some)."""
    result = _entry(tool, input_schema(tool))
    if tool.input_examples:
        result["input_examples"] = [dict(example) for example in tool.input_examples]
    return result


def plain(
    tool: ToolView, notes: Notes, file: str, always: bool
) -> dict[str, Any] | None:
    return _with_examples(tool)


def strict(
    tool: ToolView, notes: Notes, file: str, always: bool
) -> dict[str, Any] | None:
    try:
        schema = make_strict(input_schema(tool), "anthropic", notes.remover(file, tool))
    except NotStrict as exc:
        notes.leave_out(file, tool, str(exc))
        return None
    return {**_entry(tool, schema), "strict": True}


def deferred(
    tool: ToolView, notes: Notes, file: str, always: bool
) -> dict[str, Any] | None:
    """Deferred (``defer_loading``) unless always loaded; the search tool, first in the
    file, never is."""
    item = _with_examples(tool)
    if not always:
        item["defer_loading"] = True
    return item


def _deferred_file(shown: list[Shown]) -> str:
    """The search tool first: it finds the deferred tools."""
    return json_lines([_ENCODER.encode(search_tool()), *(s.line for s in shown)])


_ENCODER = json.JSONEncoder(
    ensure_ascii=False, separators=(", ", ": "), check_circular=False
)
FILES = (
    File("anthropic.json", plain),
    File("anthropic.strict.json", strict),
    File("anthropic.deferred.json", deferred, _deferred_file, deferrable=True),
)
NAMES = "flat"
DISPATCH = (Dispatch("anthropic", RUNTIME / "anthropic.py"),)
