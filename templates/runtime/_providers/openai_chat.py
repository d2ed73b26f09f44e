"""OpenAI Chat Completions (providers.md §3): a ``tool_calls`` item, and its ``tool``
message (an error said in its text: the message has no error field)."""

from __future__ import annotations

from typing import Any

from .._dispatch import Call, Outcome, plain


def read(item: dict[str, Any]) -> Call:
    function = plain(item.get("function") or {})
    return Call.of(item.get("id"), function.get("name"), function.get("arguments"))


def answer(call: Call, outcome: Outcome) -> dict[str, Any]:
    content = outcome.text if outcome.ok else f"error: {outcome.text}"
    return {"role": "tool", "tool_call_id": call.id, "content": content}
