"""Agent Plugins 1.0 (agentplugins/agent-plugins-spec): a ``plugin.json`` at the
plugin's root whose ``$schema`` names the Agent Plugins manifest schema. Its
components are at fixed places: skills in ``skills/``, MCP servers in ``mcp.json``
(stdio servers may use ``${PLUGIN_ROOT}`` and ``${PLUGIN_DATA}``). A ``plugin.json``
without that ``$schema`` is not a plugin of this format and is left alone. Client
data under ``extensions`` and client folders (``com.example.client/``) belong to other
clients."""

from __future__ import annotations

from typing import Any

MANIFEST = "plugin.json"
CLIENT = "Agent Plugins"
MCP_FILE = "mcp.json"
SCHEMA = "https://agent-plugins.org/schemas/"
UNCOMPILED = (
    ("extensions", "extensions", "", "client-specific data, read by those clients"),
)


def definition(data: dict[str, Any]) -> dict[str, Any] | None:
    schema = data.get("$schema")
    if not isinstance(schema, str) or not schema.startswith(SCHEMA):
        return None
    return {key: data[key] for key in ("name", "description") if key in data}
