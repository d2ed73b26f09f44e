"""The package's tools in the OpenAI Agents SDK (``pip install openai-agents``).

``tools()``: a ``FunctionTool`` per tool and skill, under its provider name, with the
strict schema of ``providers/openai-responses.strict.json`` where the tool is eligible
(the plain one, not strict, where it is not). A skill's tool answers with its
instructions. ``handoffs()``: each subagent as an ``Agent`` (its system prompt as
instructions) to pass as ``handoffs=`` (or to make a tool with ``.as_tool()``).

Every call goes through ``dispatch()``; a failed one answers ``error: <code>: <why>``,
the string the SDK sends the model as the tool's output, and the run goes on.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from . import Confirm, call, offered, prepared, provider_file, require

if TYPE_CHECKING:
    from .._runtime import Filter

INSTALL = "openai-agents"


def tools(
    tag: Filter = None,
    capability: Filter = None,
    namespace: str | None = None,
    confirm: Confirm = None,
) -> list[Any]:
    """``FunctionTool``s of the tools and skills the filters select (subagents are
    ``handoffs()``); ``confirm`` approves a tool marked dangerous."""
    agents = require("agents", INSTALL)
    strict = {
        item["name"]: item["parameters"]
        for item in provider_file("openai-responses.strict.json")
    }
    return [
        agents.FunctionTool(
            name=tool.name,
            description=tool.description,
            params_json_schema=strict.get(tool.name, tool.schema),
            on_invoke_tool=_invoker(tool.name, confirm),
            strict_json_schema=tool.name in strict,
        )
        for tool in offered(tag, capability, namespace, "openai-responses.json")
        if tool.kind != "agent"
    ]


def handoffs(
    tag: Filter = None,
    capability: Filter = None,
    namespace: str | None = None,
    confirm: Confirm = None,
    model: Any = None,
    agent_tools: list[Any] | None = None,
) -> list[Any]:
    """The subagents the filters select, each an ``Agent`` whose instructions are its
    system prompt, with ``agent_tools`` (by default the package's tools, skills and
    subagents left out) and ``model`` (by default the run's)."""
    agents = require("agents", INSTALL)
    selected = [t for t in offered(tag, capability, namespace) if t.kind == "agent"]
    if agent_tools is None and selected:
        every = {tool.name for tool in offered() if tool.kind == "tool"}
        agent_tools = [tool for tool in tools(confirm=confirm) if tool.name in every]
    return [
        agents.Agent(
            name=tool.name,
            handoff_description=tool.description,
            instructions=prepared(tool).instructions,
            tools=list(agent_tools or ()),
            model=model,
        )
        for tool in selected
    ]


def _invoker(name: str, confirm: Confirm) -> Any:
    """The SDK's ``on_invoke_tool(context, arguments as JSON text)``: dispatch, off the
    event loop (a tool may block)."""

    async def invoke(context: Any, arguments: str) -> str:
        answer = await asyncio.to_thread(call, name, arguments, confirm)
        return answer.text if answer.ok else f"error: {answer.text}"

    return invoke
