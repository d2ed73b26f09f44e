"""Anthropic Messages (providers.md §2): a ``tool_use`` block, and its ``tool_result``.
A call of the custom client-side search tool (``_discover.SEARCH``, first in
``anthropic.deferred.json``) is answered with a ``tool_reference`` block per tool found,
which loads those deferred tools (Anthropic's tool search tool page, "Custom tool search
implementation"; the SDK's ``ToolReferenceBlockParam``)."""

from __future__ import annotations

from typing import Any

from .._discover import NONE_FIT, SEARCH
from .._dispatch import Call, Outcome
from .._names import FLAT


def read(item: dict[str, Any]) -> Call:
    call = Call.of(item.get("id"), item.get("name"), item.get("input"))
    if call.name == SEARCH and SEARCH not in FLAT:  # a tool of that name wins
        return call._replace(search=True)
    return call


def answer(call: Call, outcome: Outcome) -> dict[str, Any]:
    return {
        "type": "tool_result",
        "tool_use_id": call.id,
        "content": outcome.text,
        "is_error": not outcome.ok,
    }


def found(call: Call, matches: list[Any], problem: str) -> dict[str, Any]:
    if problem or not matches:
        return answer(call, Outcome(not problem, problem or NONE_FIT))
    references = [
        {"type": "tool_reference", "tool_name": match.providers["anthropic"]}
        for match in matches
    ]
    return {"type": "tool_result", "tool_use_id": call.id, "content": references}
