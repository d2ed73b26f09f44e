"""``python -m <package> mcp``: the tools as an MCP server, over stdio or (``--http``)
streamable HTTP (on 127.0.0.1 unless asked otherwise, with a bearer token), built on the
official ``mcp`` SDK (an optional dependency:
``pip install mcp``; without it the command says so and exits 2).

Tools are listed exactly as ``providers/mcp.json`` (or ``providers/<profile>/mcp.json``)
lists them: input and output schemas, ``title`` and the read-only, destructive and
open-world hints. Every call goes through ``dispatch("mcp", ...)``, which validates the
arguments; a tool marked dangerous runs only when ``confirm`` approves it (``--allow-
dangerous`` approves every call). Skills and subagents are offered as prompts too, for
clients without the MCP Skills extension; the skills' files are served as that
extension says (``_mcp_skills``).

No handler blocks the event loop: calls and prompts run in worker threads. Over stdio
(``_mcp_stdio``) a request nested deeper than the SDK's JSON parser reads is answered
as too deep, under its own id.
"""

from __future__ import annotations

import base64
import hmac
import importlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple, TypeAlias

from ._mcp_stdio import MAX_LINE_DEPTH, TOO_DEEP
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
# The largest page of a list answer, in bytes of JSON: well under the 1 MiB the official
# client takes in one server-sent event (``tools/list`` of 2,000 tools is 1.65 MB).
PAGE_BYTES = 256 * 1024
_ENCODER = json.JSONEncoder(ensure_ascii=False, check_circular=False)


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
    schemas = {entry["name"]: entry["inputSchema"] for entry in tools}
    names = schemas.keys()
    prompts = prompt_entries(tools)
    prompt_names = {prompt["name"] for prompt in prompts}
    list_tools = paged_list(types.ListToolsResult, "tools", tools)

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

    list_prompts = paged_list(types.ListPromptsResult, "prompts", prompts)

    async def get_prompt(ctx: Any, params: Any) -> Any:
        if params.name not in prompt_names:
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

    mcp_server = lowlevel.Server(
        PACKAGE,
        version=version(),
        instructions=f"Tools generated by skillc from the skills and manifests of "
        f"{PACKAGE}; skills and subagents are prompts too, and skills are served as "
        "the MCP Skills extension says (skills/list).",
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
        # Over HTTP the SDK checks a call's Mcp-Param headers against the tool's
        # schema: found here, not by walking tools/list page by page for every call
        # (40 ms of CPU per call at 5,000 tools).
        get_tool_input_schema=schemas.get,
    )
    from . import _mcp_skills  # only a server loads the skills' entries

    _mcp_skills.register(mcp_server, names)  # the skills' files, as SEP-2640 says
    return mcp_server


def pages(entries: list[dict[str, Any]], budget: int = PAGE_BYTES) -> list[range]:
    """``entries`` cut into pages of at most ``budget`` bytes of JSON each (an entry
    larger than that alone on its page)."""
    result, start, size = [], 0, 0
    for index, entry in enumerate(entries):
        length = len(_ENCODER.encode(entry)) + 2
        if size + length > budget and index > start:
            result.append(range(start, index))
            start, size = index, 0
        size += length
    return [*result, range(start, len(entries))]


def paged_list(result_type: Any, field: str, entries: list[dict[str, Any]]) -> Any:
    """A ``*/list`` handler that answers ``entries`` a page at a time, with the MCP
    specification's opaque ``cursor`` / ``nextCursor``. Each page is checked by the
    SDK's ``result_type`` once per process, the first time it is asked for."""
    types = importlib.import_module("mcp.types")
    errors = importlib.import_module("mcp.shared.exceptions")
    cut = pages(entries)
    cursors = {_cursor(field, number): number for number in range(1, len(cut))}
    made: dict[int, Any] = {}

    async def handler(ctx: Any, params: Any) -> Any:
        number = 0 if params.cursor is None else cursors.get(params.cursor)
        if number is None:  # a cursor this server never gave
            raise errors.MCPError(
                types.INVALID_PARAMS, f"invalid cursor for {field}/list"
            )
        page = made.get(number)
        if page is None:
            answer: dict[str, Any] = {
                field: entries[cut[number].start : cut[number].stop]
            }
            if number + 1 < len(cut):
                answer["nextCursor"] = _cursor(field, number + 1)
            page = made[number] = result_type.model_validate(answer)
        return page

    return handler


def _cursor(field: str, number: int) -> str:
    """Page ``number``'s cursor: opaque to clients, as the specification asks."""
    return base64.urlsafe_b64encode(f"{field}:{number}".encode()).decode()


def serve(
    profile: str | None = None,
    confirm: Confirm = None,
    http: Http | None = None,
) -> None:
    """Serve over stdio, or over streamable HTTP as ``http`` says."""
    if http is not None:
        serve_http(http, profile, confirm)
        return
    from . import _mcp_stdio

    _mcp_stdio.serve(server(profile, confirm))


class Http(NamedTuple):
    """Where and how ``--http`` serves: ``workers`` processes (more than one serve
    statelessly: any of them answers any request; ``stateless`` makes one do so too);
    a ``host`` other than the loopback address only with ``public`` and a bearer
    token in ``TOKEN_VARIABLE``."""

    port: int = 8000
    host: str = "127.0.0.1"
    workers: int = 1
    public: bool = False
    stateless: bool = False


# The bearer token every HTTP request must carry when set (always, on a public bind).
# From the environment, never the command line, which other users can read.
TOKEN_VARIABLE = "SKILLC_MCP_TOKEN"
# How a worker process (started by uvicorn, which imports ``http_app``) learns what the
# command line said.
_WORKER_VARIABLE = "SKILLC_MCP_WORKER"
_LOOPBACK = ("127.0.0.1", "localhost", "::1")


def serve_http(http: Http, profile: str | None, confirm: Confirm) -> None:
    """Streamable HTTP on the SDK's Starlette app under uvicorn; raises ``LookupError``
    (said, exit 2) for a public bind without ``--public`` and a token."""
    token = os.environ.get(TOKEN_VARIABLE, "")
    if http.host not in _LOOPBACK and not (http.public and token):
        raise LookupError(
            f"refusing to serve on {http.host}: a bind beyond the loopback address "
            f"needs --public and a bearer token in {TOKEN_VARIABLE} (or serve on "
            "127.0.0.1 behind a reverse proxy; see the README)"
        )
    if http.workers < 1:
        raise LookupError("--workers must be at least 1")
    uvicorn = importlib.import_module("uvicorn")
    options = {"host": http.host, "port": http.port, "log_level": "warning"}
    if http.workers == 1:
        app = http_app(profile, confirm, stateless=http.stateless, host=http.host)
        uvicorn.run(app, **options)
        return
    tool_entries(profile)  # an unknown profile is said once, here
    os.environ[_WORKER_VARIABLE] = json.dumps([profile, confirm is True, http.host])
    uvicorn.run(
        f"{PACKAGE}._mcp:worker_app", factory=True, workers=http.workers, **options
    )


def worker_app() -> Any:
    """The app of one of several worker processes, as the command line asked."""
    profile, allow_dangerous, host = json.loads(os.environ[_WORKER_VARIABLE])
    return http_app(profile, True if allow_dangerous else None, True, host)


def http_app(profile: str | None, confirm: Confirm, stateless: bool, host: str) -> Any:
    """The SDK's streamable-HTTP app (which checks the Host and Origin of a loopback
    server), behind a bearer token when ``TOKEN_VARIABLE`` is set.

    Each answer is one JSON body (``json_response``), which the specification lets a
    server send instead of a server-sent event stream: no handler here sends anything
    before its result, and the SDK's stream machinery per request cost 1.1 to 1.4 times
    the CPU per call of the same server with JSON bodies (0.58 to 0.73 times a lean
    peer on the SDK serving events; ``python tests/bench.py --only runtime``)."""
    mcp_server = server(profile, confirm)
    app = mcp_server.streamable_http_app(
        host=host, stateless_http=stateless, json_response=True
    )
    token = os.environ.get(TOKEN_VARIABLE, "")
    return _bearer(app, token) if token else app


def _bearer(app: Any, token: str) -> Any:
    """``app`` answering 401 to any HTTP request without ``Authorization: Bearer``
    and the token (compared in constant time)."""
    expected = f"Bearer {token}".encode()

    async def guarded(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            given = b""
            for name, value in scope["headers"]:
                if name == b"authorization":
                    given = value
            if not hmac.compare_digest(given, expected):
                headers = [(b"www-authenticate", b"Bearer"), (b"content-length", b"0")]
                await send(
                    {"type": "http.response.start", "status": 401, "headers": headers}
                )
                await send({"type": "http.response.body", "body": b""})
                return
        await app(scope, receive, send)

    return guarded


def main(profile: str | None, allow_dangerous: bool, http: Http | None) -> int:
    """``python -m <package> mcp [--profile NAME] [--allow-dangerous] [--http [--port N]
    [--host H --public] [--workers N] [--stateless]]``."""
    import sys

    try:
        importlib.import_module("mcp")
    except ImportError:
        print(MISSING_SDK, file=sys.stderr)
        return 2
    try:
        serve(profile, True if allow_dangerous else None, http)
    except LookupError as exc:
        print(exc, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    return 0
