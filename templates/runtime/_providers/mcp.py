"""MCP (providers.md §5): a ``tools/call`` request (or its ``params``), and its result,
with ``structuredContent`` as the listed ``outputSchema`` says."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._dispatch import Call, Outcome, plain
from .._mcp import structured_content


def read(item: dict[str, Any]) -> Call:
    params = plain(item.get("params") or item)
    return Call.of("", params.get("name"), params.get("arguments"))


def answer(call: Call, outcome: Outcome) -> dict[str, Any]:
    result: dict[str, Any] = {
        "content": [{"type": "text", "text": outcome.text}],
        "isError": not outcome.ok,
    }
    if outcome.ok:
        data = structured_content(outcome.output_schema, outcome.data)
        if isinstance(data, Mapping):
            result["structuredContent"] = dict(data)
    return result
