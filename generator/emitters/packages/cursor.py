"""Cursor: a marketplace of one plugin, ``packages/cursor/``.

``.cursor-plugin/marketplace.json`` (closed: ``name``, ``owner``, ``plugins`` whose
entries are ``name``, ``source``, ``description``) lists the plugin at ``<name>``;
the plugin's ``.cursor-plugin/plugin.json`` holds only fields of Cursor's closed
schema (``name``, ``description``, ``mcpServers``: ``./mcp.json``), beside the layout
Cursor's own plugins ship: ``skills/<name>/``, ``agents/``, ``commands/`` and
``mcp.json``. Cursor gives a plugin's MCP server no placeholder for its folder: the
generated package must be importable where Cursor starts it. Rules:
``harness/cursor.py`` (CU-01 to CU-09)."""

from __future__ import annotations

from .claude_code import plugin
from .common import Bundle, Files, LeftOut, admitted, dumps

CLIENT = "cursor"
KINDS = frozenset({"skill", "agent", "command"})


def emit(bundle: Bundle, left: LeftOut) -> Files:
    bundle = admitted(bundle, CLIENT, KINDS, left, plugin=True)
    name = bundle.name
    entry = {"name": name, "source": name, "description": bundle.description}
    marketplace = {
        "name": name,
        "owner": {"name": name},
        "metadata": {"description": bundle.description},
        "plugins": [entry],
    }
    files: Files = {".cursor-plugin/marketplace.json": dumps(marketplace)}
    files |= plugin(bundle, f"{name}/", "", CLIENT, mcp="mcp.json")
    manifest = {"name": name, "description": bundle.description}
    if bundle.server is not None:
        manifest["mcpServers"] = "./mcp.json"
    files[f"{name}/.cursor-plugin/plugin.json"] = dumps(manifest)
    return files
