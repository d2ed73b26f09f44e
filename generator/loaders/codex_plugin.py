"""Codex plugins: ``.codex-plugin/plugin.json``. Codex made its manifest compatible with
Claude Code's (``name``, ``description``, ``skills``, ``mcpServers``, ``hooks``), and
adds ``interface`` (how its plugin directory shows the plugin) and ``apps``. A folder
holding both manifests is one plugin, defined by ``.claude-plugin/plugin.json``. An
empty ``name`` is the folder's (``vetted``)."""

from __future__ import annotations

import os
from typing import Any

from ..diagnostics import Report
from ..loaders.refusals import at

MANIFEST = ".codex-plugin/plugin.json"
CLIENT = "Codex"
MCP_FILE = ".mcp.json"
UNCOMPILED = (("apps", "apps", ".app.json", "ChatGPT apps (connectors) it installs"),)
# Claude Code's keys Codex reads alike; a component path Codex does not know (commands,
# agents) is not taken from its manifest.
KEYS = ("name", "description", "version", "skills", "mcpServers", "hooks")


def definition(data: dict[str, Any]) -> dict[str, Any] | None:
    return {key: data[key] for key in KEYS if key in data}


def vetted(
    data: dict[str, Any], text: str, rel: str, folder: str, report: Report
) -> dict[str, Any]:
    """The manifest as Codex reads it: an empty ``name`` (or one of spaces) is the
    plugin folder's name (openai/codex core-plugins/src/manifest.rs@19b965a,
    ``load_plugin_manifest``), never a refusal."""
    name = data.get("name")
    if not isinstance(name, str) or name.strip():
        return data
    folder_name = os.path.basename(os.path.normpath(folder))
    report.warning(
        rel,
        *at(text, "name"),
        "missing-name",
        f"name is empty: Codex names the plugin by its folder, {folder_name!r}",
    )
    return data | {"name": folder_name}
