"""``python -m <package> mcp``: the tools as an MCP server, over stdio or (``--http``)
streamable HTTP on 127.0.0.1, built on the official ``mcp`` SDK (an optional dependency:
``pip install mcp``; without it the command says so and exits 2).

Tools are listed exactly as ``providers/mcp.json`` (or ``providers/<profile>/mcp.json``)
lists them: input and output schemas, ``title`` and the read-only, destructive and
open-world hints. Every call goes through ``dispatch("mcp", ...)``, which validates the
arguments; a tool marked dangerous runs only when ``confirm`` approves it (``--allow-
dangerous`` approves every call). Skills and subagents are offered as prompts too.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeAlias

from ._runtime import PACKAGE
from ._tools import ConfirmPolicy

# Whether a tool marked dangerous may run: True approves every call, a policy sees each
# call's ConfirmRequest, None asks the package's set_confirm_policy (else refuses).
Confirm: TypeAlias = bool | ConfirmPolicy | None
MISSING_SDK = (
    f"python -m {PACKAGE} mcp needs the MCP SDK: pip install 'mcp>=2.3' "
    "(or pip install 'skillc[mcp]')"
)


def structured_content(output_schema: Mapping[str, Any] | None, data: Any) -> Any:
    """A result's ``structuredContent`` as the listed ``outputSchema`` describes it: MCP
    wants an object, so a tool whose output schema is not an object root is listed
    with the output wrapped as ``result`` (see the mcp.json emitter), and sent so."""
    if output_schema is None or output_schema.get("type") == "object":
        return data
    return {"result": data}


def tool_entries(profile: str | None = None) -> list[dict[str, Any]]:
    """The ``tools/list`` entries skillc wrote for this package, or for one profile."""
    folder = Path(__file__).parent / "providers"
    path = folder / profile / "mcp.json" if profile else folder / "mcp.json"
    if not path.is_file():
        choices = sorted(p.parent.name for p in folder.glob("*/mcp.json"))
        raise LookupError(
            f"no MCP tool list for profile {profile!r}; "
            f"profiles with one: {', '.join(choices) or '(none)'}"
        )
    entries: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return entries


def prompt_entries(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Skills and subagents as MCP prompts: their tool entries' string parameters become
    the prompt's arguments."""
    from ._dispatch import find

    prompts = []
    for entry in tools:
        tool = find("mcp", entry["name"])
        if tool is None or getattr(tool.spec, "kind", "tool") not in ("skill", "agent"):
            continue
        schema = entry["inputSchema"]
        required = set(schema.get("required", ()))
        arguments = [
            {
                "name": name,
                "description": prop.get("description", ""),
                "required": name in required,
            }
            for name, prop in schema.get("properties", {}).items()
        ]
        prompt = {"name": entry["name"], "title": entry.get("title", entry["name"])}
        if entry.get("description"):
            prompt["description"] = entry["description"]
        prompts.append({**prompt, "arguments": arguments})
    return prompts


def version() -> str:
    """The server's version (its ``serverInfo``): that of the skillc which wrote the
    package, as its lock records it."""
    lock = Path(__file__).parent / "skillc.lock.json"
    try:
        generator = json.loads(lock.read_text(encoding="utf-8")).get("generator")
    except (OSError, ValueError, AttributeError):
        return "unknown"
    return str(generator).rpartition(" ")[2] or "unknown"


def call(params: Mapping[str, Any], confirm: Confirm) -> dict[str, Any]:
    """The one place a ``tools/call`` reaches the package: ``dispatch`` with the policy
    that approves a tool marked dangerous."""
    from ._dispatch import dispatch

    return dispatch("mcp", params, confirm=confirm)


def server(profile: str | None = None, confirm: Confirm = None) -> Any:
    """The MCP SDK's low-level ``Server`` for this package (raises ImportError without
    the SDK). The SDK checks every answer against the negotiated protocol version."""
    types = importlib.import_module("mcp.types")
    errors = importlib.import_module("mcp.shared.exceptions")
    lowlevel = importlib.import_module("mcp.server.lowlevel")
    threads = importlib.import_module("anyio.to_thread")
    tools = tool_entries(profile)
    names = {entry["name"] for entry in tools}
    prompts = prompt_entries(tools)

    async def list_tools(ctx: Any, params: Any) -> Any:
        return types.ListToolsResult.model_validate({"tools": tools})

    async def call_tool(ctx: Any, params: Any) -> Any:
        if params.name not in names:  # a protocol error, as the specification says
            raise errors.MCPError(types.INVALID_PARAMS, f"unknown tool {params.name!r}")
        params = {"name": params.name, "arguments": params.arguments or {}}
        # A worker thread: a slow tool (or a confirm that asks someone) must not hold
        # up the other requests.
        answer = await threads.run_sync(call, params, confirm)
        return types.CallToolResult.model_validate(answer)

    async def list_prompts(ctx: Any, params: Any) -> Any:
        return types.ListPromptsResult.model_validate({"prompts": prompts})

    async def get_prompt(ctx: Any, params: Any) -> Any:
        if not any(prompt["name"] == params.name for prompt in prompts):
            raise errors.MCPError(
                types.INVALID_PARAMS, f"unknown prompt {params.name!r}"
            )
        answer = call({"name": params.name, "arguments": params.arguments}, None)
        text = answer["content"][0]["text"]
        if answer["isError"]:
            raise errors.MCPError(types.INVALID_PARAMS, text)
        message = {"role": "user", "content": {"type": "text", "text": text}}
        return types.GetPromptResult.model_validate({"messages": [message]})

    return lowlevel.Server(
        PACKAGE,
        version=version(),
        instructions=f"Tools generated by skillc from the skills and manifests of "
        f"{PACKAGE}; skills and subagents are prompts too.",
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
    )


def serve(
    profile: str | None = None,
    confirm: Confirm = None,
    http_port: int | None = None,
) -> None:
    """Serve over stdio, or over streamable HTTP on 127.0.0.1 at ``http_port``."""
    mcp_server = server(profile, confirm)
    if http_port is not None:  # only ever the loopback address
        uvicorn = importlib.import_module("uvicorn")
        app = mcp_server.streamable_http_app(host="127.0.0.1")
        uvicorn.run(app, host="127.0.0.1", port=http_port, log_level="warning")
        return
    anyio = importlib.import_module("anyio")
    stdio = importlib.import_module("mcp.server.stdio")

    async def run() -> None:
        async with stdio.stdio_server() as (read, write):
            options = mcp_server.create_initialization_options()
            await mcp_server.run(read, write, options)

    anyio.run(run)


def main(profile: str | None, allow_dangerous: bool, http_port: int | None) -> int:
    """``python -m <package> mcp [--profile NAME] [--allow-dangerous] [--http [--port N]]``."""
    import sys

    try:
        importlib.import_module("mcp")
    except ImportError:
        print(MISSING_SDK, file=sys.stderr)
        return 2
    try:
        serve(profile, True if allow_dangerous else None, http_port)
    except LookupError as exc:
        print(exc, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    return 0
