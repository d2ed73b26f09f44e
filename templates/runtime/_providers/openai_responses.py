"""OpenAI Responses (providers.md §3): a ``function_call`` item, and its
``function_call_output``. A function listed in a namespace comes back with the
namespace's name too (the openai provider's ``namespace_of``); a deferred one listed
alone with its own name as both.

A ``tool_search_call`` of the client-executed ``tool_search`` (first in
``openai-responses.deferred.json``) is answered with a ``tool_search_output`` that
loads the definitions of the tools found, as that file gives them: each function in
its namespace (OpenAI's tool search guide, client-executed search; the SDK's
``ResponseToolSearchCall`` and ``ResponseToolSearchOutputItemParamParam``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .._discover import SEARCH
from .._dispatch import Call, Outcome


def read(item: dict[str, Any]) -> Call:
    if item.get("type") == "tool_search_call":
        call = Call.of(item.get("call_id"), SEARCH, item.get("arguments"))
        return call._replace(search=True)
    name, namespace = item.get("name"), item.get("namespace")
    if isinstance(name, str) and isinstance(namespace, str) and namespace != name:
        name = f"{namespace}__{name}" if namespace else name
    return Call.of(item.get("call_id"), name, item.get("arguments"))


def answer(call: Call, outcome: Outcome) -> dict[str, Any]:
    output = outcome.text if outcome.ok else f"error: {outcome.text}"
    return {"type": "function_call_output", "call_id": call.id, "output": output}


def found(call: Call, matches: list[Any], problem: str) -> dict[str, Any]:
    """The definitions of the tools found (none when the search failed: the output
    item has no field for an error)."""
    definitions = _definitions()
    tools: list[dict[str, Any]] = []
    namespaces: dict[str, list[Any]] = {}
    for match in matches:
        head, function = definitions.get(match.providers["openai"], (None, None))
        if function is None:  # not in the file (left out of it)
            continue
        if head is None:
            tools.append(function)
        elif head["name"] in namespaces:
            namespaces[head["name"]].append(function)
        else:
            namespaces[head["name"]] = [function]
            tools.append({**head, "tools": namespaces[head["name"]]})
    return {
        "type": "tool_search_output",
        "call_id": call.id,
        "execution": "client",
        "status": "completed",
        "tools": tools,
    }


_loaded: dict[str, tuple[dict[str, Any] | None, dict[str, Any]]] = {}


def _definitions() -> dict[str, tuple[dict[str, Any] | None, dict[str, Any]]]:
    """Each function of ``openai-responses.deferred.json`` by its provider name, with
    the head of its namespace (None for a function listed alone); read once."""
    if not _loaded:
        path = (
            Path(__file__).parent.parent
            / "providers"
            / "openai-responses.deferred.json"
        )
        for item in json.loads(path.read_text(encoding="utf-8")):
            if item.get("type") == "namespace":
                head = {k: v for k, v in item.items() if k != "tools"}
                for function in item["tools"]:
                    _loaded[f"{item['name']}__{function['name']}"] = (head, function)
            elif item.get("type") == "function":
                _loaded[item["name"]] = (None, item)
    return _loaded
