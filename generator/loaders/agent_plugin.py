"""Agent Plugins 1.0 (agentplugins/agent-plugins-spec): a ``plugin.json`` at the
plugin's root whose ``$schema`` names the Agent Plugins manifest schema. Its
components are at fixed places: skills in ``skills/``, MCP servers in ``mcp.json``
(stdio servers may use ``${PLUGIN_ROOT}`` and ``${PLUGIN_DATA}``). A ``plugin.json``
without that ``$schema`` is not a plugin of this format and is left alone. Client
data under ``extensions`` and client folders (``com.example.client/``) belong to other
clients."""

from __future__ import annotations

import os
import re
from typing import Any

from ..harness import agent_plugins

MANIFEST = "plugin.json"
CLIENT = "Agent Plugins"
# Its plugins' names, as the harness model has them (a period allowed, or capitals).
NAME_RULE = re.compile(agent_plugins.CLIENT.manifests[0].name_pattern)
MCP_FILE = "mcp.json"
SCHEMA = "https://agent-plugins.org/schemas/"
# A client's folder at the plugin's root is named by its reverse-domain namespace.
NAMESPACE = re.compile(r"^[a-z0-9-]+(\.[a-z0-9-]+)+$")
UNCOMPILED = (
    ("extensions", "extensions", "", "client-specific data, read by those clients"),
)


def definition(data: dict[str, Any]) -> dict[str, Any] | None:
    schema = data.get("$schema")
    if not isinstance(schema, str) or not schema.startswith(SCHEMA):
        return None
    return {key: data[key] for key in ("name", "description") if key in data}


def folders(folder: str) -> list[tuple[str, str, str]]:
    """The client folders (``com.example.client/``) at the plugin's root."""
    return [
        ("client-folder", name, "files of the client of that name, for it alone")
        for name in sorted(os.listdir(folder))
        if NAMESPACE.match(name) and os.path.isdir(os.path.join(folder, name))
    ]
