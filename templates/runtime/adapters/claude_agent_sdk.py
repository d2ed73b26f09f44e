"""The package's tools in the Claude Agent SDK (``pip install claude-agent-sdk``).

``server()``: an in-process SDK MCP server (``McpSdkServerConfig``, for
``ClaudeAgentOptions(mcp_servers={...})``) with a tool per tool and skill, under its
provider name (Claude Code calls it ``mcp__<server>__<name>``). A skill's tool answers
with its instructions. ``agents()``: each subagent as an ``AgentDefinition`` (its system
prompt, allowed tools and model, as Claude Code reads them) for
``ClaudeAgentOptions(agents=...)``.

Every call goes through ``dispatch()``; a failed one is an MCP result with
``isError`` set, which Claude reads as the tool's error: the run goes on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import Confirm, call, offered, prepared, require

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from .._runtime import Filter

INSTALL = "claude-agent-sdk"


def server(
    tag: Filter = None,
    capability: Filter = None,
    namespace: str | None = None,
    confirm: Confirm = None,
    name: str = "skills",
) -> Any:
    """An SDK MCP server named ``name`` with the tools and skills the filters select
    (subagents are ``agents()``); ``confirm`` approves a tool marked dangerous."""
    sdk = require("claude_agent_sdk", INSTALL)
    tools = [
        sdk.SdkMcpTool(
            name=tool.name,
            description=tool.description,
            input_schema={"properties": {}, **tool.schema},
            handler=_handler(tool.name, confirm),
        )
        for tool in offered(tag, capability, namespace)
        if tool.kind != "agent"
    ]
    return sdk.create_sdk_mcp_server(name, tools=tools)


def agents(
    tag: Filter = None, capability: Filter = None, namespace: str | None = None
) -> dict[str, Any]:
    """The subagents the filters select as ``AgentDefinition``s, by name (the provider
    name without ``task__``)."""
    sdk = require("claude_agent_sdk", INSTALL)
    result = {}
    for tool in offered(tag, capability, namespace):
        if tool.kind != "agent":
            continue
        invocation = prepared(tool)
        result[tool.name.removeprefix("task__")] = sdk.AgentDefinition(
            description=tool.description,
            prompt=invocation.instructions,
            tools=list(invocation.allowed_tools) or None,
            model=invocation.model,
        )
    return result


def _handler(
    name: str, confirm: Confirm
) -> Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]:
    """The SDK tool's handler: dispatch in a worker thread (a tool may block), its
    answer as the SDK's result dict."""
    threads = require("anyio.to_thread", INSTALL)

    async def handle(arguments: dict[str, Any]) -> dict[str, Any]:
        answer = await threads.run_sync(call, name, arguments, confirm)
        content = [{"type": "text", "text": answer.text}]
        return {"content": content, "is_error": not answer.ok}

    return handle
