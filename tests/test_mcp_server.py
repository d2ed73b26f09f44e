"""``python -m <package> mcp`` started as a subprocess and driven by the real MCP SDK
client, over stdio at both protocol eras (the 2025-11-25 handshake and 2026-07-28) and
over streamable HTTP on 127.0.0.1; and every providers/mcp.json checked with the SDK's
own per-version wire types."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import FIXTURES, run_python
from corpus_functions import FUNCTIONS, write_manifests
from skillc import cli

if not os.environ.get("CI"):  # CI installs it (noxfile.PROVIDER_SDKS): never skip there
    pytest.importorskip("mcp")
import anyio  # noqa: E402
from mcp import Client  # noqa: E402
from mcp.client.stdio import StdioServerParameters  # noqa: E402
from mcp.shared.exceptions import MCPError  # noqa: E402
from mcp_types.methods import validate_server_result  # noqa: E402
from mcp_types.version import (  # noqa: E402
    KNOWN_PROTOCOL_VERSIONS,
    MODERN_PROTOCOL_VERSIONS,
)


def _build(project: Path, package: str = "kit") -> Path:
    with contextlib.redirect_stderr(io.StringIO()) as err:
        assert cli.main(["-C", str(project), "build"]) == 0, err.getvalue()
    out = project / "out"
    if out.is_dir():
        out.rename(project / package)
    return project


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = tmp_path_factory.mktemp("mcp") / "tools"
    shutil.copytree(FIXTURES / "tools", project)
    return _build(project)


# What a 2026-07-28 result carries beside the tools (the server's SDK adds it).
ENVELOPE = {"resultType": "complete", "ttlMs": 0, "cacheScope": "private"}


def _valid_at_every_version(entries: list[dict[str, Any]]) -> None:
    assert entries
    for version in KNOWN_PROTOCOL_VERSIONS:
        envelope = ENVELOPE if version in MODERN_PROTOCOL_VERSIONS else {}
        validate_server_result("tools/list", version, {"tools": entries, **envelope})


def test_mcp_json_fits_the_sdk_at_every_protocol_version(
    kit: Path, tmp_path: Path
) -> None:
    entries = json.loads((kit / "kit" / "providers" / "mcp.json").read_text())
    _valid_at_every_version(entries)
    schemas = {e["name"]: e.get("outputSchema") for e in entries}
    # file.read returns a string: listed wrapped as the one property `result`.
    assert schemas["file.read"] == {
        "type": "object",
        "properties": {"result": {"type": "string"}},
        "required": ["result"],
    }
    for fixture in ("project", "executors"):
        project = tmp_path / fixture
        shutil.copytree(FIXTURES / fixture, project)
        _build(project)
        for path in project.rglob("providers/**/mcp.json"):
            _valid_at_every_version(json.loads(path.read_text()))


@pytest.mark.skipif(not FUNCTIONS.is_dir(), reason="../shared/corpus is absent")
def test_mcp_json_of_the_corpus_fits_the_sdk(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["skills"]\nmax-namespace-depth = 5\n'
        'builtins = ["file", "batch", "db"]\n'
    )
    placed = write_manifests(tmp_path / "skills")
    _build(tmp_path)
    entries = json.loads((tmp_path / "generated/providers/mcp.json").read_text())
    assert len(entries) >= len(placed)
    _valid_at_every_version(entries)


def _stdio(kit: Path, *flags: str) -> StdioServerParameters:
    env = {**os.environ, "PYTHONPATH": str(kit), "PYTHONDONTWRITEBYTECODE": "1"}
    return StdioServerParameters(
        command=sys.executable, args=["-m", "kit", "mcp", *flags], cwd=kit, env=env
    )


def _drive(server: Any, mode: str, session: Callable[[Any], Awaitable[None]]) -> None:
    async def run() -> None:
        with anyio.fail_after(60):
            async with Client(server, mode=mode) as client:
                await session(client)

    anyio.run(run)


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_stdio_server_lists_calls_and_refuses(kit: Path, mode: str) -> None:
    listed = json.loads((kit / "kit" / "providers" / "mcp.json").read_text())

    async def session(client: Any) -> None:
        expected = "2025-11-25" if mode == "legacy" else "2026-07-28"
        assert client.protocol_version == expected
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        # and the server's own search tool (tests/test_mcp_find.py)
        assert set(tools) == {entry["name"] for entry in listed} | {"find_tool"}
        read = tools["file.read"]
        assert read.annotations.read_only_hint is True
        assert read.annotations.title == read.title == "File read"
        assert read.output_schema["type"] == "object"
        assert tools["batch.run"].annotations.destructive_hint is True
        assert tools["weather.current"].annotations.open_world_hint is True
        assert tools["s3.file.read"].input_schema["required"] == ["bucket", "key"]

        prompts = {p.name: p for p in (await client.list_prompts()).prompts}
        assert "task.pdf-extractor" in prompts
        assert [a.name for a in prompts["task.pdf-extractor"].arguments] == [
            "arguments"
        ]
        prompt = await client.get_prompt("task.pdf-extractor", {"arguments": "a.pdf"})
        assert "extract_text" in prompt.messages[0].content.text

        # A read-only tool: its string output is structured as {"result": ...}, which
        # the SDK client checks against the listed outputSchema.
        result = await client.call_tool("file.read", {"path": "hello.txt"})
        assert result.is_error is False
        assert result.structured_content == {"result": "hello\n"}
        assert result.content[0].text == "hello\n"

        bad = await client.call_tool("file.read", {"path": 3, "limit": "x"})
        assert bad.is_error is True
        assert bad.content[0].text.startswith("invalid-arguments: ")
        assert "path" in bad.content[0].text and "limit" in bad.content[0].text

        with pytest.raises(MCPError, match="unknown tool 'no.such'"):
            await client.call_tool("no.such", {})

        refused = await client.call_tool("batch.run", {"command": ["echo", "hi"]})
        assert refused.is_error is True
        assert refused.content[0].text.startswith("confirmation-required")

    _drive(_stdio(kit), mode, session)


def test_dangerous_tool_runs_when_the_server_allows_it(kit: Path) -> None:
    async def session(client: Any) -> None:
        ran = await client.call_tool("batch.run", {"command": ["echo", "hi"]})
        assert ran.is_error is False, ran.content
        assert ran.structured_content["stdout"] == "hi\n"

    _drive(_stdio(kit, "--allow-dangerous"), "legacy", session)


def test_a_profile_serves_only_its_tools(kit: Path, tmp_path: Path) -> None:
    project = tmp_path / "tools"
    shutil.copytree(FIXTURES / "tools", project)
    with (project / "pyproject.toml").open("a") as config:
        config.write(
            '\n[tool.skillc.profiles.readonly]\nprovider = "mcp"\n'
            'include = ["file.read", "file.grep"]\n'
        )
    _build(project)

    async def session(client: Any) -> None:
        tools = (await client.list_tools()).tools
        names = sorted(tool.name for tool in tools)
        assert names == ["file.grep", "file.read", "find_tool"]

    _drive(_stdio(project, "--profile", "readonly"), "legacy", session)
    unknown = run_python("", project, "-m", "kit", "mcp", "--profile", "nope")
    assert unknown.returncode == 2 and "readonly" in unknown.stderr


def test_without_the_sdk_the_command_says_how_to_install_it(kit: Path) -> None:
    """Only ``--http`` needs the SDK (stdio serves without it: test_mcp_stdio)."""
    code = "import sys, runpy; sys.modules['mcp'] = None; sys.argv = ['kit', 'mcp', '--http']; runpy.run_module('kit', run_name='__main__')"
    result = run_python(code, kit)
    assert result.returncode == 2
    assert "pip install 'mcp" in result.stderr and "Traceback" not in result.stderr


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _await_port(process: subprocess.Popen[str], port: int, attempts: int) -> None:
    """Bounded: until ``process`` listens on ``port`` (a tenth of a second between
    ``attempts``); its stderr as the failure if it exits first."""
    for _ in range(attempts):
        if process.poll() is not None:
            raise AssertionError(process.stderr.read() if process.stderr else "")
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)


@contextlib.contextmanager
def _http_server(kit: Path, port: int) -> Iterator[subprocess.Popen[str]]:
    env = {**os.environ, "PYTHONPATH": str(kit)}
    process = subprocess.Popen(
        [sys.executable, "-m", "kit", "mcp", "--http", "--port", str(port)],
        cwd=kit,
        env=env,
        text=True,
        stderr=subprocess.PIPE,
    )
    try:
        _await_port(process, port, 300)
        yield process
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_streamable_http_on_loopback(kit: Path) -> None:
    port = _free_port()

    async def session(client: Any) -> None:
        tools = {tool.name for tool in (await client.list_tools()).tools}
        assert "file.read" in tools
        result = await client.call_tool("file.read", {"path": "hello.txt"})
        assert result.structured_content == {"result": "hello\n"}

    with _http_server(kit, port):
        _drive(f"http://127.0.0.1:{port}/mcp", "auto", session)
