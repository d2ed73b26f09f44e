"""OpenAI Responses (providers.md §3): a ``function_call`` item, and its
``function_call_output``. A function listed in a namespace comes back with the
namespace's name too (the openai provider's ``namespace_of``); a deferred one listed
alone with its own name as both."""

from __future__ import annotations

from typing import Any

from .._dispatch import Call, Outcome


def read(item: dict[str, Any]) -> Call:
    name, namespace = item.get("name"), item.get("namespace")
    if isinstance(name, str) and isinstance(namespace, str) and namespace != name:
        name = f"{namespace}__{name}" if namespace else name
    return Call.of(item.get("call_id"), name, item.get("arguments"))


def answer(call: Call, outcome: Outcome) -> dict[str, Any]:
    output = outcome.text if outcome.ok else f"error: {outcome.text}"
    return {"type": "function_call_output", "call_id": call.id, "output": output}
