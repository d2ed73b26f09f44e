"""Gemini (providers.md §4): a ``functionCall`` part, and its ``functionResponse``
(the result as JSON where it is JSON, else its text)."""

from __future__ import annotations

import json
from typing import Any

from .._dispatch import Call, Outcome, plain


def read(item: dict[str, Any]) -> Call:
    inner = plain(item.get("functionCall") or item.get("function_call") or item)
    return Call.of(inner.get("id"), inner.get("name"), inner.get("args"))


def answer(call: Call, outcome: Outcome) -> dict[str, Any]:
    if outcome.ok:
        response = {"result": _json_value(outcome.data, outcome.text)}
    else:
        response = {"error": outcome.text}
    answer: dict[str, Any] = {"name": call.name, "response": response}
    if call.id:
        answer = {"id": call.id, **answer}
    return {"functionResponse": answer}


def _json_value(data: Any, text: str) -> Any:
    try:
        json.dumps(data)
    except (TypeError, ValueError):
        return text
    return text if data is None else data
