"""Agent Plugins 1.0.0: a folder of plugins, ``packages/agent-plugins/<name>/``
(``common.plugins``; the format has no marketplace). Each holds

``plugin.json`` (its ``$schema`` the 1.0.0 identifier; only the spec's top-level
fields), the skills in ``skills/<name>/`` (immediate children, each named by its
folder: §7.1), and ``mcp.json`` (exactly ``$schema`` and ``mcpServers``, a closed
``stdio`` entry whose ``command`` is one token and whose ``env`` finds the package
from ``${PLUGIN_ROOT}``: §7.2.1, §9.2). The format has no subagents or commands: a
build's are left out with a warning. Rules: ``harness/agent_plugins.py``."""

from __future__ import annotations

from ...harness.agent_plugins import SCHEMA_1_0
from .common import (
    Bundle,
    Files,
    LeftOut,
    dumps,
    head,
    plugins,
    server_entry,
    skill_files,
)

CLIENT = "agent-plugins"
KINDS = frozenset({"skill"})
MCP_SCHEMA = "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json"  # §7.2.1
ROOT = "${PLUGIN_ROOT}"  # §9.2: expanded in args, env values and cwd


def emit(bundle: Bundle, left: LeftOut) -> Files:
    files: Files = {}
    for each in plugins(bundle, CLIENT, KINDS, left):
        at = f"{each.name}/"
        manifest = {"$schema": SCHEMA_1_0, **head(each)}
        files[f"{at}plugin.json"] = dumps(manifest)
        for member in each.members:
            files |= skill_files(member, f"{at}skills/{member.name}")
        if each.server is not None:
            entry = {"type": "stdio", **server_entry(each, ROOT, f"{CLIENT}/{at}")}
            servers = {each.name: entry}
            files[f"{at}mcp.json"] = dumps(
                {"$schema": MCP_SCHEMA, "mcpServers": servers}
            )
    return files
