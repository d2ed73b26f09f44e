"""Anthropic Messages (providers.md §2): a ``tool_use`` block, and its ``tool_result``."""

from __future__ import annotations

from typing import Any

from .._dispatch import Call, Outcome


def read(item: dict[str, Any]) -> Call:
    return Call.of(item.get("id"), item.get("name"), item.get("input"))


def answer(call: Call, outcome: Outcome) -> dict[str, Any]:
    return {
        "type": "tool_result",
        "tool_use_id": call.id,
        "content": outcome.text,
        "is_error": not outcome.ok,
    }
