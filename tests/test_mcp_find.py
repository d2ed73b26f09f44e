"""find_tool over MCP, driven by the official SDK client at 5,000 tools: the server
lists a ``find_tool`` tool on every transport, and ``mcp --progressive`` lists only
``find_tool``, the always-loaded tools and ``call_tool``: a client finds a tool it was
never listed and calls it by name, its arguments validated in full."""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from skillc import cli
from test_mcp_paging import _drive, _env, _http

pytest.importorskip("mcp")  # test_mcp_paging skips without it too, except on CI
from mcp.client.stdio import StdioServerParameters  # noqa: E402

GROUPS, PER_GROUP = 50, 100  # 5,000 tools
HIDDEN = "g31.rainfall_forecast"  # the tool to find: listed in no progressive list
ALWAYS = "g00.op000"
PURPOSE = "forecast the rainfall in a city"


def _tool(name: str, description: str) -> dict[str, Any]:
    return {
        "name": name,
        "description": description,
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


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """5,000 python tools that echo their arguments (one about rainfall), built once."""
    root = tmp_path_factory.mktemp("find-mcp")
    for group in range(GROUPS):
        tools = [
            _tool(f"op{n:03d}", f"Operation {n} of group {group}: echoes its text.")
            for n in range(PER_GROUP - (group == 31))
        ]
        if group == 31:
            tools.append(
                _tool("rainfall_forecast", "Forecast the rainfall of a city, in mm.")
            )
        manifest = {"namespace": f"g{group:02d}", "description": "A group."}
        path = root / "src" / f"g{group:02d}.tools.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(yaml.safe_dump({**manifest, "tools": tools}))
    (root / "echo_impl.py").write_text("def echo(**arguments):\n    return arguments\n")
    (root / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["src"]\nout = "kit"\nbuiltins = []\n'
        f'always-loaded = ["{ALWAYS}"]\n'
    )
    with contextlib.redirect_stderr(io.StringIO()) as err:
        assert cli.main(["-C", str(root), "build"]) == 0, err.getvalue()
    return root


def _stdio(project: Path, *flags: str) -> Any:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "kit", "mcp", *flags],
        cwd=project,
        env=_env(project),
    )


async def _find_and_call(client: Any) -> list[str]:
    """The progressive session, as a transcript of what the client saw."""
    listed = (await client.list_tools()).tools
    names = [tool.name for tool in listed]
    assert names == ["find_tool", ALWAYS, "call_tool"]
    transcript = [f"tools/list -> {names}"]
    found = await client.call_tool("find_tool", {"purpose": PURPOSE, "k": 3})
    assert found.is_error is False, found.content
    tools = found.structured_content["tools"]
    assert tools[0]["name"] == HIDDEN
    assert tools[0]["description"] == "Forecast the rainfall of a city, in mm."
    assert 0 < tools[0]["relevance"] <= 1 and "rainfall" in tools[0]["reason"]
    assert json.loads(found.content[0].text) == tools
    transcript.append(f"find_tool {PURPOSE!r} -> {tools[0]}")
    arguments = {"text": "Paris", "count": 2}
    called = await client.call_tool(
        "call_tool", {"name": HIDDEN, "arguments": arguments}
    )
    assert called.is_error is False, called.content
    assert called.structured_content == arguments
    transcript.append(f"call_tool {HIDDEN} {arguments} -> {called.structured_content}")
    # Validated in full, as a listed tool's call: a missing required argument, a
    # wrong type, an argument the schema does not declare.
    wrong = {"name": HIDDEN, "arguments": {"count": -1, "colour": "red"}}
    refused = await client.call_tool("call_tool", wrong)
    assert refused.is_error is True
    text = refused.content[0].text
    assert text.startswith("invalid-arguments: ") and "text: required" in text
    assert "count" in text and "colour: unknown argument" in text
    unknown = await client.call_tool("call_tool", {"name": "g31.nope"})
    assert (
        unknown.is_error is True and "find_tool finds tools" in unknown.content[0].text
    )
    bad = await client.call_tool("find_tool", {"purpose": "", "k": 500})
    assert bad.is_error is True
    transcript.append(f"call_tool {wrong} -> {text}")
    return transcript


def test_progressive_over_stdio_finds_and_calls_an_unlisted_tool(big: Path) -> None:
    transcript = _drive(_stdio(big, "--progressive"), "auto", _find_and_call)
    print("\n".join(transcript))  # the closing note's transcript (pytest -s)


def test_progressive_over_http_finds_and_calls_an_unlisted_tool(big: Path) -> None:
    with _http(big, "--progressive") as url:
        _drive(url, "auto", _find_and_call)


def test_find_tool_is_listed_beside_every_tool(big: Path) -> None:
    async def session(client: Any) -> None:
        names, cursor = [], None
        while True:
            page = await client.list_tools(cursor=cursor)
            names += [tool.name for tool in page.tools]
            cursor = page.next_cursor
            if cursor is None:
                break
        assert len(names) == GROUPS * PER_GROUP + 1 and names[-1] == "find_tool"
        assert "call_tool" not in names  # only progressive mode needs it
        found = await client.call_tool("find_tool", {"purpose": PURPOSE, "k": 1})
        assert [t["name"] for t in found.structured_content["tools"]] == [HIDDEN]

    _drive(_stdio(big), "legacy", session)
