"""OpenAI ``tools`` entries (providers.md §3): Chat Completions (nested under
``function``) and the Responses API (flat). ``strict`` is said in every entry: the
Responses API makes a schema strict when it is left out."""

from __future__ import annotations

from typing import Any

from generator.emitters.providers import Dispatch, File
from generator.emitters.providers.schemas import (
    Notes,
    capped,
    description,
    input_schema,
)
from generator.emitters.providers.strict import NotStrict, make_strict
from generator.views import ToolView


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


def responses(
    tool: ToolView, notes: Notes, file: str, always: bool
) -> dict[str, Any] | None:
    function = _function(tool, False, notes, file)
    return None if function is None else {"type": "function", **function}


def responses_strict(
    tool: ToolView, notes: Notes, file: str, always: bool
) -> dict[str, Any] | None:
    function = _function(tool, True, notes, file)
    return None if function is None else {"type": "function", **function}


FILES = (
    File("openai-chat.json", chat),
    File("openai-chat.strict.json", chat_strict),
    File("openai-responses.json", responses),
    File("openai-responses.strict.json", responses_strict),
)
NAMES = "flat"
DISPATCH = (
    Dispatch(
        "openai-chat",
        dotted=False,
        read="""\
function = _plain(item.get("function") or {})
return _call(item.get("id"), function.get("name"), function.get("arguments"))""",
        answer="""\
content = text if ok else f"error: {text}"
return {"role": "tool", "tool_call_id": call.id, "content": content}""",
    ),
    Dispatch(
        "openai-responses",
        dotted=False,
        read='return _call(item.get("call_id"), item.get("name"), item.get("arguments"))',
        answer="""\
output = text if ok else f"error: {text}"
return {"type": "function_call_output", "call_id": call.id, "output": output}""",
    ),
)
