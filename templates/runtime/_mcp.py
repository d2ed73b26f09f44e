"""``python -m <package> mcp``: the tools as an MCP server, over stdio or (``--http``)
streamable HTTP on 127.0.0.1, built on the official ``mcp`` SDK (an optional dependency:
``pip install mcp``; without it the command says so and exits 2).

Tools are listed exactly as ``providers/mcp.json`` (or ``providers/<profile>/mcp.json``)
lists them: input and output schemas, ``title`` and the read-only, destructive and
open-world hints. Every call goes through ``dispatch("mcp", ...)``, which validates the
arguments; a tool marked dangerous runs only when ``confirm`` approves it (``--allow-
dangerous`` approves every call). Skills and subagents are offered as prompts too.

No handler blocks the event loop: calls and prompts run in worker threads. A request
nested deeper than the SDK's JSON parser reads (about 200 levels) would get no answer
at all, so over stdio such a line is read here first: its parameters are replaced by a
marker and the request answered as too deep, under its own id.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import re
from collections.abc import AsyncIterator, Iterator, Mapping
from pathlib import Path
from typing import IO, Any, TypeAlias

from ._runtime import PACKAGE
from ._secrets import redact
from ._tools import ConfirmPolicy, shortened

# Whether a tool marked dangerous may run: True approves every call, a policy sees each
# call's ConfirmRequest, None asks the package's set_confirm_policy (else refuses).
Confirm: TypeAlias = bool | ConfirmPolicy | None
MISSING_SDK = (
    f"python -m {PACKAGE} mcp needs the MCP SDK: pip install 'mcp>=2.3' "
    "(or pip install 'skillc[mcp]')"
)
# A stdio line nested deeper than this is answered as too deep (the SDK's parser stops
# at about 200 levels; dispatch refuses arguments past 64 with its own answer).
MAX_LINE_DEPTH = 128
TOO_DEEP = "skillc:nested-too-deep"  # the marker that replaces such a line's params
_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[{]|[\]}]', re.S)


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
    the prompt's arguments. Which tools they are, the build's tables say (no tool's
    module is imported: at 2,000 tools that was 99% of the server's start)."""
    from ._names import DOTTED, KINDS

    prompts = []
    for entry in tools:
        if KINDS.get(DOTTED.get(entry["name"], ""), "tool") not in ("skill", "agent"):
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

    def unknown(what: str, name: str) -> Any:
        return errors.MCPError(
            types.INVALID_PARAMS, redact(f"unknown {what} {shortened(name)!r}")
        )

    async def call_tool(ctx: Any, params: Any) -> Any:
        if params.name not in names:  # a protocol error, as the specification says
            raise unknown("tool", params.name)
        arguments = params.arguments or {}
        if TOO_DEEP in arguments:
            text = f"arguments nested deeper than {MAX_LINE_DEPTH} levels"
            return types.CallToolResult.model_validate(
                {"content": [{"type": "text", "text": text}], "isError": True}
            )
        # A worker thread: a slow tool (or a confirm that asks someone) must not hold
        # up the other requests.
        params = {"name": params.name, "arguments": arguments}
        answer = await threads.run_sync(call, params, confirm)
        return types.CallToolResult.model_validate(answer)

    async def list_prompts(ctx: Any, params: Any) -> Any:
        return types.ListPromptsResult.model_validate({"prompts": prompts})

    async def get_prompt(ctx: Any, params: Any) -> Any:
        if not any(prompt["name"] == params.name for prompt in prompts):
            raise unknown("prompt", params.name)
        if TOO_DEEP in (params.arguments or {}):
            raise errors.MCPError(
                types.INVALID_PARAMS,
                f"arguments nested deeper than {MAX_LINE_DEPTH} levels",
            )
        request = {"name": params.name, "arguments": params.arguments}
        answer = await threads.run_sync(call, request, None)  # long arguments too
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
        with _claimed_stdin() as stdin:
            lines = _shallow_lines(anyio.wrap_file(stdin))
            async with stdio.stdio_server(stdin=lines) as (read, write):
                options = mcp_server.create_initialization_options()
                await mcp_server.run(read, write, options)

    anyio.run(run)


@contextlib.contextmanager
def _claimed_stdin() -> Iterator[IO[str]]:
    """The wire's stdin, for the server alone: meanwhile descriptor 0 reads the null
    device, so nothing else (a tool, a child) takes a request off the wire, as the
    SDK's own stdio transport arranges when it opens stdin itself."""
    wire = os.dup(0)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    try:
        with open(wire, encoding="utf-8", errors="replace", closefd=False) as stdin:
            yield stdin
    finally:
        os.dup2(wire, 0)
        os.close(wire)


async def _shallow_lines(lines: Any) -> AsyncIterator[str]:
    """The wire's lines, each nested too deep for the SDK's parser made shallow."""
    async for line in lines:
        yield shallow(line)


def shallow(line: str) -> str:
    """A JSON-RPC request nested deeper than ``MAX_LINE_DEPTH``, with its params
    replaced by the ``TOO_DEEP`` marker (a tool's or prompt's name kept), so that the
    server answers it under its id; any other line as it is."""
    if line.count("[") + line.count("{") <= MAX_LINE_DEPTH:
        return line
    pieces, depth, start, skipped_from, deepest = [], 0, 0, -1, 0
    for token in _JSON_TOKEN.finditer(line):
        char = token.group()[0]
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if depth == 3 and skipped_from < 0:  # below params: cut out
                pieces.append(line[start : token.start()])
                skipped_from = token.start()
        elif char in "]}":
            if depth == 3 and skipped_from >= 0:
                pieces.append("null")
                start, skipped_from = token.end(), -1
            depth -= 1
    if deepest <= MAX_LINE_DEPTH or skipped_from >= 0:
        return line  # shallow enough, or not JSON the SDK could read anyway
    try:
        message = json.loads("".join(pieces) + line[start:])
    except ValueError:
        return line
    if not isinstance(message, dict):
        return line
    old = message.get("params")
    name = old.get("name") if isinstance(old, dict) else None
    params: dict[str, Any] = {"arguments": {TOO_DEEP: str(deepest)}}
    if isinstance(name, str):
        params["name"] = name
    return json.dumps({**message, "params": params}) + "\n"


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
