"""``python -m <package> mcp --http``: streamable HTTP on the official ``mcp`` SDK's
Starlette app under uvicorn, answering through ``_mcp.Handlers`` (the stdio server's
handlers too): ``server`` registers each on the SDK's low-level ``Server``, which
checks every answer against the negotiated protocol version.
"""

from __future__ import annotations

import hmac
import importlib
import json
import os
import socket
import threading
from collections.abc import Mapping
from typing import Any

from ._mcp import (
    INSTRUCTIONS,
    Confirm,
    Handler,
    Handlers,
    Http,
    RpcError,
    tool_entries,
    version,
)
from ._mcp_skills import EXTENSION
from ._runtime import PACKAGE


def server(handlers: Handlers) -> Any:
    """The SDK's low-level ``Server`` answering through ``handlers`` (raises
    ImportError without the SDK)."""
    types = importlib.import_module("mcp.types")
    errors = importlib.import_module("mcp.shared.exceptions")
    lowlevel = importlib.import_module("mcp.server.lowlevel")
    threads = importlib.import_module("anyio.to_thread")

    # The SDK's result type of each protocol method (the extension's are plain): it
    # fills what the negotiated version requires. A list's pages are checked once.
    results = {
        "tools/list": types.ListToolsResult,
        "tools/call": types.CallToolResult,
        "prompts/list": types.ListPromptsResult,
        "prompts/get": types.GetPromptResult,
        "resources/list": types.ListResourcesResult,
        "resources/read": types.ReadResourceResult,
    }
    pages: dict[tuple[str, Any], Any] = {}

    def adapted(method: str) -> Any:
        handler, result_type = handlers.methods[method], results.get(method)
        limit = handlers.bounded.get(method)
        if limit is not None:  # held for the handler (the SDK sends the answer later)
            handler = _within(handler, limit)

        async def answer(ctx: Any, typed: Any) -> Any:
            params = ctx.params or {}  # as the wire had them: the SDK checked them
            page = (method, params.get("cursor")) if method.endswith("/list") else None
            if page in pages:
                return pages[page]
            try:
                if method in handlers.blocking:  # never holding up other requests
                    result = await threads.run_sync(handler, params)
                else:
                    result = handler(params)
            except RpcError as exc:
                raise errors.MCPError(exc.code, exc.message, exc.data) from None
            if result_type is None:
                return result
            made = result_type.model_validate(result)
            if page is not None:
                pages[page] = made
            return made

        return answer

    mcp_server = lowlevel.Server(
        PACKAGE,
        version=version(),
        instructions=INSTRUCTIONS,
        on_list_tools=adapted("tools/list"),
        on_call_tool=adapted("tools/call"),
        on_list_prompts=adapted("prompts/list"),
        on_get_prompt=adapted("prompts/get"),
        on_list_resources=adapted("resources/list"),
        on_read_resource=adapted("resources/read"),
        get_tool_input_schema=handlers.schemas.get,
    )
    mcp_server.extensions[EXTENSION] = {}
    mcp_server.add_request_handler(
        "skills/list", types.PaginatedRequestParams, adapted("skills/list")
    )
    mcp_server.add_request_handler(  # its params are those of resources/read: a uri
        "skills/get", types.ReadResourceRequestParams, adapted("skills/get")
    )
    return mcp_server


def _within(handler: Handler, limit: threading.Semaphore) -> Handler:
    def held(params: Mapping[str, Any]) -> dict[str, Any]:
        with limit:
            return handler(params)

    return held


# The bearer token every HTTP request must carry when set (always, on a public bind).
# From the environment, never the command line, which other users can read.
TOKEN_VARIABLE = "SKILLC_MCP_TOKEN"
# How a worker process (started by uvicorn, which imports ``http_app``) learns what the
# command line said.
_WORKER_VARIABLE = "SKILLC_MCP_WORKER"
_LOOPBACK = ("127.0.0.1", "localhost", "::1")


def serve(
    http: Http, profile: str | None, confirm: Confirm, progressive: bool = False
) -> None:
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
    options["http"] = no_delay
    if http.workers == 1:
        app = http_app(profile, confirm, http.stateless, http.host, progressive)
        uvicorn.run(app, **options)
        return
    tool_entries(profile)  # an unknown profile is said once, here
    os.environ[_WORKER_VARIABLE] = json.dumps(
        [profile, confirm is True, http.host, progressive]
    )
    uvicorn.run(
        f"{PACKAGE}._mcp_http:worker_app", factory=True, workers=http.workers, **options
    )


def no_delay(**options: Any) -> Any:
    """uvicorn's HTTP protocol (``auto``) for one connection, with Nagle's algorithm off
    (``TCP_NODELAY``). asyncio sets it only on a connection from a listener made for
    TCP (``proto`` 6); the one uvicorn binds for several workers says ``proto`` 0, so
    each answer's body waited for the client's delayed ACK of its headers: 40 ms per
    call on a kept-alive connection (uvicorn issue 3149). With it, 400 calls from one
    client to 4 workers take 1.2 s, not 19 s, and the bench's server CPU per call on 4
    workers / 1 is 1.00 to 1.10, not 1.28 to 1.39 (``python tests/bench.py --only
    runtime --runs 3``, against the same with the runtime before)."""
    protocol = importlib.import_module("uvicorn.protocols.http.auto").AutoHTTPProtocol
    made = protocol(**options)
    opened = made.connection_made

    def connection_made(transport: Any) -> None:
        connection = transport.get_extra_info("socket")
        if connection is not None:  # TCP: this server binds no other kind
            connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        opened(transport)

    made.connection_made = connection_made
    return made


def worker_app() -> Any:
    """The app of one of several worker processes, as the command line asked."""
    profile, allow_dangerous, host, progressive = json.loads(
        os.environ[_WORKER_VARIABLE]
    )
    confirm = True if allow_dangerous else None
    return http_app(profile, confirm, True, host, progressive)


def http_app(
    profile: str | None,
    confirm: Confirm,
    stateless: bool,
    host: str,
    progressive: bool = False,
) -> Any:
    """The SDK's streamable-HTTP app (which checks the Host and Origin of a loopback
    server), behind a bearer token when ``TOKEN_VARIABLE`` is set.

    Each answer is one JSON body (``json_response``), which the specification lets a
    server send instead of a server-sent event stream: no handler here sends anything
    before its result, and the SDK's stream machinery per request cost 1.1 to 1.4 times
    the CPU per call of the same server with JSON bodies (0.58 to 0.73 times a lean
    peer on the SDK serving events; ``python tests/bench.py --only runtime``)."""
    # A server over HTTP is there to answer calls: their path is imported now, not on
    # each worker's first call (62 ms of CPU then, 7 to 28 after: the tool's own module
    # is still imported at its first call). The stdio server, whose start counts, waits.
    for module in ("_dispatch", "_executors"):
        importlib.import_module(f"{PACKAGE}.{module}")
    mcp_server = server(Handlers(profile, confirm, progressive))
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
