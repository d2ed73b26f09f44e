"""Codex plugins: ``.codex-plugin/plugin.json``. Codex made its manifest compatible with
Claude Code's (``name``, ``description``, ``skills``, ``mcpServers``, ``hooks``), and
adds ``interface`` (how its plugin directory shows the plugin) and ``apps``. A folder
holding both manifests is one plugin, defined by ``.claude-plugin/plugin.json``."""

from __future__ import annotations

from typing import Any

MANIFEST = ".codex-plugin/plugin.json"
CLIENT = "Codex"
MCP_FILE = ".mcp.json"
UNCOMPILED = (("apps", "apps", ".app.json", "ChatGPT apps (connectors) it installs"),)
# Claude Code's keys Codex reads alike; a component path Codex does not know (commands,
# agents) is not taken from its manifest.
KEYS = ("name", "description", "version", "skills", "mcpServers", "hooks")


def definition(data: dict[str, Any]) -> dict[str, Any] | None:
    return {key: data[key] for key in KEYS if key in data}
