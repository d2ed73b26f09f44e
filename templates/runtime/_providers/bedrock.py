"""Bedrock Converse (providers.md §6): a ``toolUse`` block, and its ``toolResult`` (a
JSON object as ``json``, anything else as ``text``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._dispatch import Call, Outcome, plain


def read(item: dict[str, Any]) -> Call:
    inner = plain(item.get("toolUse") or item)
    return Call.of(inner.get("toolUseId"), inner.get("name"), inner.get("input"))


def answer(call: Call, outcome: Outcome) -> dict[str, Any]:
    data = outcome.data
    if outcome.ok and isinstance(data, Mapping):
        blocks: list[dict[str, Any]] = [{"json": data}]
    else:
        blocks = [{"text": outcome.text}]
    return {
        "toolResult": {
            "toolUseId": call.id,
            "content": blocks,
            "status": "success" if outcome.ok else "error",
        }
    }
