"""OpenAI ``tools`` entries (providers.md §3): Chat Completions (nested under
``function``) and the Responses API. ``strict`` is said in every entry: the Responses
API makes a schema strict when it is left out.

``openai-responses.json`` groups the tools of each namespace as a ``namespace`` tool
(skillc's dotted namespace, each '.' as '__': ``s3.file`` -> ``s3__file``), each under
its own name there (``read``); a call of one comes back with both (``"namespace":
"s3__file", "name": "read"``), which join to its provider name (``s3__file__read``).
``openai-responses.deferred.json`` is the same with ``defer_loading`` on each function
(a namespace itself is never deferred) and ``tool_search`` executed by the client
(``dispatch()`` answers it with find_tool's tools) first.
``openai-responses.strict.json`` stays flat: each function under its provider name.
"""

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
from ...emitters.providers.schemas import (
    Notes,
    capped,
    description,
    input_schema,
)
from ...emitters.providers.strict import NotStrict, make_strict
from ...views import ToolView


def _function(
    tool: ToolView, strict: bool, notes: Notes, file: str
) -> dict[str, Any] | None:
    schema = input_schema(tool)
    if strict:
        try:
            schema = make_strict(schema, "openai", notes.remover(file, tool))
        except NotStrict as exc:
            notes.leave_out(file, tool, str(exc))
            return None
    text = description(tool)
    if len(text) > len(capped(text)):
        notes.remove(
            file, tool, "description", f"cut to {len(capped(text))} characters"
        )
    result: dict[str, Any] = {"name": tool.provider_name}
    if text:
        result["description"] = capped(text)
    result["parameters"] = schema
    result["strict"] = strict
    return result


def chat(
    tool: ToolView, notes: Notes, file: str, always: bool
) -> dict[str, Any] | None:
    function = _function(tool, False, notes, file)
    return None if function is None else {"type": "function", "function": function}


def chat_strict(
    tool: ToolView, notes: Notes, file: str, always: bool
) -> dict[str, Any] | None:
    function = _function(tool, True, notes, file)
    return None if function is None else {"type": "function", "function": function}


def namespace_of(tool: ToolView) -> tuple[str, str] | None:
    """The Responses namespace a tool is listed in, and its name there; None when it is
    listed alone under its provider name: when that name is not its namespace's joined
    to its own (a shortened name, a name without dots), or when the two are the same
    (how a call of a deferred tool listed alone comes back)."""
    namespace, _, own = tool.dotted_name.rpartition(".")
    joined = namespace.replace(".", "__")
    if not namespace or joined == own or tool.provider_name != f"{joined}__{own}":
        return None
    return joined, own


def responses(
    tool: ToolView, notes: Notes, file: str, always: bool
) -> dict[str, Any] | None:
    """A function of ``openai-responses.json``, under its name in its namespace."""
    function = _function(tool, False, notes, file)
    if function is None:
        return None
    place = namespace_of(tool)
    name = tool.provider_name if place is None else place[1]
    return {"type": "function", **function, "name": name}


def deferred(
    tool: ToolView, notes: Notes, file: str, always: bool
) -> dict[str, Any] | None:
    """As in ``openai-responses.json``, deferred unless always loaded."""
    item = responses(tool, notes, file, always)
    if item is not None and not always:
        item["defer_loading"] = True
    return item


def responses_strict(
    tool: ToolView, notes: Notes, file: str, always: bool
) -> dict[str, Any] | None:
    function = _function(tool, True, notes, file)
    return None if function is None else {"type": "function", **function}


def _grouped(shown: list[Shown], first: tuple[str, ...] = ()) -> str:
    """Each namespace's functions inside its ``namespace`` tool, where its first one
    is; a tool listed alone where it is. One function per line."""
    items: list[str | list[str]] = [*first]
    groups: dict[str, list[str]] = {}
    for s in shown:
        place = namespace_of(s.tool)
        if place is None:
            items.append(s.line)
            continue
        if place[0] not in groups:
            summary = s.namespace or f"Tools in {s.tool.qualname.rpartition('.')[0]}."
            head = {
                "type": "namespace",
                "name": place[0],
                "description": capped(summary),
            }
            groups[place[0]] = [_ENCODER.encode(head)[:-1] + ', "tools": [']
            items.append(groups[place[0]])
        groups[place[0]].append(s.line)
    return json_lines(
        [
            item if isinstance(item, str) else _namespace(item[0], item[1:])
            for item in items
        ]
    )


def _namespace(head: str, lines: list[str]) -> str:
    return head + "\n    " + ",\n    ".join(lines) + "\n  ]}"


def _deferred_file(shown: list[Shown]) -> str:
    """The client-executed tool search first: it loads the deferred functions."""
    return _grouped(shown, (_ENCODER.encode(search_tool()),))


def search_tool() -> dict[str, Any]:
    """``tool_search`` executed by the client (OpenAI's tool search guide; the SDK's
    ``ToolSearchToolParam``): the model sends a ``tool_search_call`` with these
    parameters, which ``dispatch()`` answers with a ``tool_search_output`` loading
    find_tool's tools."""
    found = discover()
    return {
        "type": "tool_search",
        "execution": "client",
        "description": found.DESCRIPTION,
        "parameters": found.SCHEMA,
    }


_ENCODER = json.JSONEncoder(
    ensure_ascii=False, separators=(", ", ": "), check_circular=False
)
FILES = (
    File("openai-chat.json", chat),
    File("openai-chat.strict.json", chat_strict),
    File("openai-responses.json", responses, _grouped),
    File("openai-responses.strict.json", responses_strict),
    File("openai-responses.deferred.json", deferred, _deferred_file, deferrable=True),
)
NAMES = "flat"
DISPATCH = (
    Dispatch("openai-chat", RUNTIME / "openai_chat.py"),
    Dispatch("openai-responses", RUNTIME / "openai_responses.py"),
)
