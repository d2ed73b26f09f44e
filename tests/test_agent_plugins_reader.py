"""The Agent Plugins package ``harness-packages`` writes, read by an implementation
of the Agent Plugins 1.0 specification that is not skillc: the PyPI package
``agent-plugins`` 0.2.4 (peter-gy/agent-plugins; the tests' tool, noxfile.TEST_TOOLS).
Its reader validates plugin.json and mcp.json against the specification's rules, finds
the skills, and resolves a stdio server into the command, environment and working
folder a client starts: the generated MCP server started that way answers a manifest
tool through the official MCP client."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from conftest import built_fixture

agent_plugins = pytest.importorskip("agent_plugins")


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tests/fixtures/packages built: its Agent Plugins package."""
    project = tmp_path_factory.mktemp("agent-plugins") / "project"
    built_fixture("packages", project)
    return project / "kit" / "packages" / "agent-plugins"


def test_every_plugin_reads_without_an_issue(written: Path) -> None:
    plugins = sorted(folder.parent for folder in written.glob("*/plugin.json"))
    assert [p.name for p in plugins] == ["kit", "notes-kit"]
    for folder in plugins:
        plugin = agent_plugins.Plugin(folder)
        assert plugin.manifest.name == folder.name
        assert plugin.manifest.issues == ()
        skills = sorted(p.parent.name for p in folder.glob("skills/*/SKILL.md"))
        assert sorted(skill.name for skill in plugin.skills) == skills
        if (folder / "mcp.json").exists():
            assert plugin.mcp is not None and plugin.mcp.issues == ()


def test_the_server_it_resolves_answers_a_manifest_tool(
    written: Path, tmp_path: Path
) -> None:
    if not os.environ.get("CI"):  # CI installs it (noxfile.PROVIDER_SDKS)
        pytest.importorskip("mcp")
    import anyio
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    plugin = agent_plugins.Plugin(written / "kit")
    # "python" as the client finds it: this interpreter's, first on the PATH.
    path = os.pathsep.join([os.path.dirname(sys.executable), os.environ["PATH"]])
    resolved = plugin.mcp.resolve_stdio(
        "kit",
        data_dir=tmp_path,
        base_env={"PATH": path, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    command = shutil.which(resolved.command, path=path)
    assert command is not None
    server = StdioServerParameters(
        command=command,
        args=list(resolved.args),
        env=dict(resolved.env),
        cwd=str(resolved.cwd or tmp_path),  # not the project: the entry finds it
    )

    async def session() -> None:
        with anyio.fail_after(60):
            async with Client(server) as client:
                result = await client.call_tool(
                    "units.length.convert", {"value": 1, "from": "km", "to": ["m"]}
                )
                assert not result.is_error and "1000" in str(result.content)

    anyio.run(session)
