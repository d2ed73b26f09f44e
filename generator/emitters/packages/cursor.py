"""Cursor: a marketplace, ``packages/cursor/``.

``.cursor-plugin/marketplace.json`` (closed: ``name``, ``owner``, ``plugins`` whose
entries are ``name``, ``source``, ``description``) lists each plugin at ``<name>``;
each plugin's ``.cursor-plugin/plugin.json`` holds only fields of Cursor's closed
schema (``name``, ``description``, ``mcpServers``: ``./mcp.json``), beside the layout
Cursor's own plugins ship: ``skills/<name>/``, ``agents/``, ``commands/`` and
``mcp.json``. Cursor gives a plugin's MCP server no placeholder for its folder: the
generated package must be importable where Cursor starts it. Rules:
``harness/cursor.py`` (CU-01 to CU-09)."""

from __future__ import annotations

from .claude_code import plugin
from .common import Bundle, Files, LeftOut, dumps, head, plugins

CLIENT = "cursor"
KINDS = frozenset({"skill", "agent", "command"})


def emit(bundle: Bundle, left: LeftOut) -> Files:
    files: Files = {}
    entries = []
    for each in plugins(bundle, CLIENT, KINDS, left):
        name = each.name
        entries.append({"name": name, "source": name, "description": each.description})
        files |= plugin(each, f"{name}/", "", CLIENT, mcp="mcp.json")
        manifest = head(each)
        if each.server is not None:
            manifest["mcpServers"] = "./mcp.json"
        files[f"{name}/.cursor-plugin/plugin.json"] = dumps(manifest)
    marketplace = {
        "name": bundle.name,
        "owner": {"name": bundle.name},
        "metadata": {"description": bundle.description},
        "plugins": entries,
    }
    files[".cursor-plugin/marketplace.json"] = dumps(marketplace)
    return files
