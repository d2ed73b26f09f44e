"""Gemini CLI extensions: ``gemini-extension.json`` at the extension's root (``name``,
``version``, ``description``, ``mcpServers`` inline, with ``${extensionPath}``), its
skills in ``skills/``, subagents in ``agents/`` and hooks in ``hooks/hooks.json``.
What Gemini CLI alone uses (context files, excluded tools, the settings it asks the
user for, TOML commands, themes) is reported, not compiled."""

from __future__ import annotations

import re
from typing import Any

from ..harness import gemini_cli

MANIFEST = "gemini-extension.json"
CLIENT = "Gemini CLI"
# Its plugins' names, as the harness model has them (a period allowed, or capitals).
NAME_RULE = re.compile(gemini_cli.CLIENT.manifests[0].name_pattern)
MCP_FILE = ""  # its servers are in the manifest
UNCOMPILED = (
    ("context", "contextFileName", "GEMINI.md", "context loaded into every session"),
    ("exclude-tools", "excludeTools", "", "built-in tools it hides meanwhile"),
    ("settings", "settings", "", "settings it asks the user for, as variables"),
    ("themes", "themes", "", "colour themes of its interface"),
    ("commands", "", "commands", "custom commands (TOML)"),
)


def definition(data: dict[str, Any]) -> dict[str, Any] | None:
    defined: dict[str, Any] = {
        key: data[key] for key in ("name", "description") if key in data
    }
    if isinstance(data.get("mcpServers"), dict):
        defined["mcpServers"] = data["mcpServers"]
    return defined
