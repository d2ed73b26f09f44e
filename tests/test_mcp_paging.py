"""The MCP server at 5,000 tools, driven by the official SDK client with its default
settings: lists come a page at a time (each page well under the client's 1 MiB limit
on one server-sent event), over stdio and streamable HTTP, in both protocol eras; HTTP
runs on several stateless worker processes without losing a call, binds beyond the
loopback address only when told to and with a bearer token."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from skillc import cli
from test_mcp_server import _await_port, _free_port

if not os.environ.get("CI"):  # CI installs it (noxfile.PROVIDER_SDKS): never skip there
    pytest.importorskip("mcp")
import anyio  # noqa: E402
from mcp import Client  # noqa: E402
from mcp.client.stdio import StdioServerParameters  # noqa: E402
from mcp.shared.exceptions import MCPError  # noqa: E402

GROUPS, PER_GROUP = 50, 100  # 5,000 tools
LAST = f"g{GROUPS - 1:02d}.op{PER_GROUP - 1:03d}"
MiB = 1 << 20


def write_project(root: Path, groups: int, per_group: int) -> Path:
    """Synthetic manifests of ``groups * per_group`` python tools that echo their
    arguments, and one skill (an MCP prompt)."""
    for group in range(groups):
        tools = [
            {
                "name": f"op{number:03d}",
                "description": f"Operation {number} of group {group}: echoes the "
                "text and count it is given.",
                "input_schema": {
                    "type": "object",
                    "properties": {
                        "text": {"type": "string", "description": "Some text."},
                        "count": {"type": "integer", "minimum": 0},
                    },
                    "required": ["text"],
                },
                "executor": {"type": "python", "function": "echo_impl:echo"},
            }
            for number in range(per_group)
        ]
        manifest = {
            "namespace": f"g{group:02d}",
            "description": "A group.",
            "tools": tools,
        }
        path = root / "src" / f"g{group:02d}.tools.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(yaml.safe_dump(manifest))
    skill = root / "src" / "notes" / "SKILL.md"
    skill.parent.mkdir()
    skill.write_text("---\nname: notes\ndescription: Take notes.\n---\nWrite notes.\n")
    (root / "echo_impl.py").write_text("def echo(**arguments):\n    return arguments\n")
    (root / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["src"]\nout = "kit"\nbuiltins = []\n'
    )
    with contextlib.redirect_stderr(io.StringIO()) as err:
        assert cli.main(["-C", str(root), "build"]) == 0, err.getvalue()
    return root


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("paging"), GROUPS, PER_GROUP)


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("paging-small"), 2, 5)


def _env(project: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(project), **extra}


def _drive(server: Any, mode: str, session: Any) -> Any:
    async def run() -> Any:
        with anyio.fail_after(120):
            async with Client(server, mode=mode) as client:
                return await session(client)

    return anyio.run(run)


async def _every_tool(client: Any) -> list[Any]:
    """Every page of tools/list, each checked to be well under the 1 MiB limit."""
    tools, cursor, pages = [], None, 0
    while True:
        page = await client.list_tools(cursor=cursor)
        size = len(page.model_dump_json(by_alias=True, exclude_none=True))
        assert size < MiB // 2, size
        tools += page.tools
        pages += 1
        cursor = page.next_cursor
        if cursor is None:
            assert pages > 1  # 5,000 tools do not fit one page
            return tools


async def _lists_and_calls(client: Any) -> str:
    tools = await _every_tool(client)
    assert len(tools) == GROUPS * PER_GROUP + 2  # the skill, and find_tool
    assert len({tool.name for tool in tools}) == len(tools)
    prompts = (await client.list_prompts()).prompts
    assert [prompt.name for prompt in prompts] == ["task.notes"]
    result = await client.call_tool(LAST, {"text": "last", "count": 2})
    assert result.is_error is False, result.content
    assert result.structured_content == {"text": "last", "count": 2}
    with pytest.raises(MCPError, match="invalid cursor"):
        await client.list_tools(cursor="not-a-cursor", cache_mode="refresh")
    return str(client.protocol_version)


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_stdio_lists_5000_tools_a_page_at_a_time(big: Path, mode: str) -> None:
    server = StdioServerParameters(
        command=sys.executable, args=["-m", "kit", "mcp"], cwd=big, env=_env(big)
    )
    version = _drive(server, mode, _lists_and_calls)
    assert version == ("2025-11-25" if mode == "legacy" else "2026-07-28")


@contextlib.contextmanager
def _http(project: Path, *flags: str, **env: str) -> Iterator[str]:
    """``python -m kit mcp --http`` with ``flags``, on a free loopback port; its URL."""
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "kit", "mcp", "--http", "--port", str(port), *flags],
        cwd=project,
        env=_env(project, **env),
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its workers stop with it
    )
    try:
        _await_port(process, port, 600)  # up to a minute
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(timeout=60)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_http_lists_5000_tools_in_both_eras(big: Path, workers: str) -> None:
    with _http(big, "--workers", workers) as url:
        for mode in ("legacy", "auto"):
            version = _drive(url, mode, _lists_and_calls)
            assert version == ("2025-11-25" if mode == "legacy" else "2026-07-28")


def test_pages_are_cut_by_size_and_cursors_are_opaque(small: Path) -> None:
    sys.path.insert(0, str(small))
    try:
        from kit import _mcp, _mcp_http

        entries = _mcp.tool_entries()
        sizes = [len(json.dumps(entry, ensure_ascii=False)) + 2 for entry in entries]
        cut = _mcp.pages(entries, budget=3 * max(sizes))
        assert [i for page in cut for i in page] == list(range(len(entries)))
        assert all(sum(sizes[i] for i in page) <= 3 * max(sizes) for page in cut)
        assert _mcp.pages(entries, budget=1) == [
            range(i, i + 1) for i in range(len(entries))
        ]
        handler = _mcp.Paged("tools", entries)
        first = handler({})
        assert len(first["tools"]) == len(entries) and "nextCursor" not in first
        assert handler({}) is first  # made once
        # Over HTTP the SDK checks a call's headers against the tool's schema: looked
        # up by name, not by walking tools/list for every call.
        lookup = _mcp_http.server(_mcp.Handlers()).get_tool_input_schema
        assert lookup(entries[-1]["name"]) == entries[-1]["inputSchema"]
        assert lookup("no.such") is None
    finally:
        sys.path.remove(str(small))
        for name in [m for m in sys.modules if m.partition(".")[0] == "kit"]:
            del sys.modules[name]


def test_a_public_bind_needs_the_flag_and_a_token(small: Path) -> None:
    for flags, env in [
        (["--host", "0.0.0.0"], {"SKILLC_MCP_TOKEN": "t"}),
        (["--host", "0.0.0.0", "--public"], {"SKILLC_MCP_TOKEN": ""}),
    ]:
        done = subprocess.run(
            [sys.executable, "-m", "kit", "mcp", "--http", *flags],
            cwd=small,
            env=_env(small, **env),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 2, done.stderr
        assert "refusing to serve on 0.0.0.0" in done.stderr
        assert "Traceback" not in done.stderr


def test_a_token_guards_every_request(small: Path) -> None:
    with _http(small, SKILLC_MCP_TOKEN="s3cret") as url:
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(urllib.request.Request(url, data=b"{}"), timeout=30)
        assert refused.value.code == 401

        async def listed(client: Any) -> int:
            return len((await client.list_tools()).tools)

        from mcp.client.streamable_http import streamable_http_client
        from mcp.shared._httpx_utils import create_mcp_http_client

        async def run() -> int:
            headers = {"Authorization": "Bearer s3cret"}
            async with create_mcp_http_client(headers=headers) as http:
                transport = streamable_http_client(url, http_client=http)
                async with Client(transport) as client:
                    return await listed(client)

        assert anyio.run(run) == 12  # 10 tools, the skill and find_tool


def test_several_workers_lose_no_call_under_load(small: Path) -> None:
    """Bounded: 8 concurrent sessions of 25 calls each against 3 workers; every call
    answered, with its own arguments."""
    sessions, calls = 8, 25

    async def one(url: str, session: int, answers: list[str]) -> None:
        async with Client(url, mode="auto") as client:
            for number in range(calls):
                text = f"{session}-{number}"
                result = await client.call_tool("g01.op004", {"text": text})
                assert result.is_error is False, result.content
                answers.append(result.structured_content["text"])

    async def load(url: str) -> list[str]:
        answers: list[str] = []
        with anyio.fail_after(300):
            async with anyio.create_task_group() as group:
                for session in range(sessions):
                    group.start_soon(one, url, session, answers)
        return answers

    with _http(small, "--workers", "3") as url:
        answers = anyio.run(load, url)
    expected = {f"{s}-{n}" for s in range(sessions) for n in range(calls)}
    assert sorted(answers) == sorted(expected)


def _post(url: str, message: dict[str, object]) -> tuple[int, str | None, str]:
    """One JSON-RPC POST: (status, its Mcp-Session-Id header, body), the body one
    JSON answer (the server answers with JSON, not an event stream)."""
    request = urllib.request.Request(
        url,
        json.dumps(message).encode(),
        {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": "2025-11-25",
        },
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        assert response.headers.get("content-type") == "application/json"
        return (
            response.status,
            response.headers.get("mcp-session-id"),
            response.read().decode(),
        )


@pytest.mark.parametrize("stateless", [False, True])
def test_one_worker_serves_without_sessions_when_asked(
    small: Path, stateless: bool
) -> None:
    """``--stateless``: one process answers a call with no session, as several
    workers do; without it, the single worker keeps sessions (Mcp-Session-Id)."""
    hello = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"},
        },
    }
    flags = ["--stateless"] if stateless else []
    with _http(small, *flags) as url:
        status, session, _ = _post(url, hello)
        assert status == 200
        assert (session is None) is stateless
        if stateless:  # a call straight away, in no session
            call = {
                "jsonrpc": "2.0",
                "id": 2,
                "method": "tools/call",
                "params": {"name": "g01.op004", "arguments": {"text": "hi"}},
            }
            status, _, body = _post(url, call)
            assert status == 200, body
            assert json.loads(body)["result"]["structuredContent"] == {"text": "hi"}


def test_several_workers_answer_with_nagle_off(
    small: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker of several serves on the listener uvicorn's supervisor binds for them,
    which says ``proto`` 0, so asyncio leaves Nagle's algorithm on and each answer's
    body waits for the client's delayed ACK (40 ms a call on a kept-alive connection,
    uvicorn issue 3149): every connection the worker accepts has TCP_NODELAY. Run here
    as the worker runs it, with the options ``serve`` gives uvicorn."""
    import asyncio
    import socket

    import uvicorn

    given: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: given.update(kw, app=app))
    monkeypatch.setenv("SKILLC_MCP_WORKER", "")  # serve sets it; put back after
    sys.path.insert(0, str(small))
    try:
        from kit import _mcp, _mcp_http

        _mcp_http.serve(_mcp.Http(port=_free_port(), workers=2), None, None)
        assert given.pop("workers") == 2
        config = uvicorn.Config(**given)
        listener = config.bind_socket()  # as the supervisor binds it
        server = uvicorn.Server(config)

        async def accepted() -> int:
            serving = asyncio.create_task(server.serve(sockets=[listener]))
            while not server.started:
                await asyncio.sleep(0.01)
            _, writer = await asyncio.open_connection("127.0.0.1", config.port)
            while not server.server_state.connections:
                await asyncio.sleep(0.01)
            (connection,) = server.server_state.connections
            accepted = connection.transport.get_extra_info("socket")
            option = accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
            writer.close()
            server.should_exit = True
            await serving
            return int(option)

        assert asyncio.run(asyncio.wait_for(accepted(), 120)) != 0
    finally:
        sys.path.remove(str(small))
        for name in [m for m in sys.modules if m.partition(".")[0] == "kit"]:
            del sys.modules[name]


def test_an_http_server_imports_its_call_path_before_the_first_call(
    small: Path,
) -> None:
    """Each HTTP worker imports dispatch and the executors when its app is made, not
    at its first call (62 ms of CPU, per worker); the stdio server's handlers leave
    them for the first call, as its start is measured."""
    probe = (
        "import sys\n"
        "from kit import _mcp, _mcp_http\n"
        "_mcp.Handlers()\n"
        "print(sorted(set(sys.modules) & {'kit._dispatch', 'kit._executors'}))\n"
        "_mcp_http.http_app(None, None, True, '127.0.0.1')\n"
        "print(sorted(set(sys.modules) & {'kit._dispatch', 'kit._executors'}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=small,
        env=_env(small),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    stdio, http = done.stdout.splitlines()
    assert stdio == "[]"
    assert http == "['kit._dispatch', 'kit._executors']"
