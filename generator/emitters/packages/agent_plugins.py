"""Agent Plugins 1.0.0: one plugin, ``packages/agent-plugins/``.

``plugin.json`` (its ``$schema`` the 1.0.0 identifier; only the spec's top-level
fields), the skills in ``skills/<name>/`` (immediate children, each named by its
folder: §7.1), and ``mcp.json`` (exactly ``$schema`` and ``mcpServers``, a closed
``stdio`` entry whose ``command`` is one token and whose ``env`` finds the package
from ``${PLUGIN_ROOT}``: §7.2.1, §9.2). The format has no subagents or commands: a
build's are left out with a warning. Rules: ``harness/agent_plugins.py``."""

from __future__ import annotations

from ...harness.agent_plugins import SCHEMA_1_0
from .common import Bundle, Files, LeftOut, admitted, dumps, server_entry, skill_files

CLIENT = "agent-plugins"
KINDS = frozenset({"skill"})
MCP_SCHEMA = "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json"  # §7.2.1
ROOT = "${PLUGIN_ROOT}"  # §9.2: expanded in args, env values and cwd


def emit(bundle: Bundle, left: LeftOut) -> Files:
    bundle = admitted(bundle, CLIENT, KINDS, left, plugin=True)
    manifest = {
        "$schema": SCHEMA_1_0,
        "name": bundle.name,
        "description": bundle.description,
    }
    files: Files = {"plugin.json": dumps(manifest)}
    for member in bundle.members:
        files |= skill_files(member, f"skills/{member.name}")
    if bundle.server is not None:
        entry = {"type": "stdio", **server_entry(bundle, ROOT, CLIENT)}
        servers = {bundle.name: entry}
        files["mcp.json"] = dumps({"$schema": MCP_SCHEMA, "mcpServers": servers})
    return files
