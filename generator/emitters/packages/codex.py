"""Codex: a marketplace, ``packages/codex/``.

``.agents/plugins/marketplace.json`` (the file Codex reads first: CX-26) lists each
plugin (``common.plugins``) by a ``local`` source; each plugin's ``.codex-plugin/plugin.json`` names its
skills and MCP servers by ``./`` paths as strings, never arrays (CX-23, CX-25). Each
skill keeps its own ``agents/openai.yaml``, or gets one derived from its frontmatter
(``interface.display_name`` at most 64 characters, ``short_description`` its
description's first sentence within 64: CX-18, and the 25-64 window OpenAI's plugin
validator is said to hold, D5). Codex plugins hold no subagents or commands: a
build's are left out with a warning. Codex gives a plugin's MCP server no
placeholder for its folder: the package must be importable where Codex starts it."""

from __future__ import annotations

from typing import Any

import yaml

from .claude_code import plugin
from .common import Bundle, Files, LeftOut, Member, dumps, plugins

CLIENT = "codex"
KINDS = frozenset({"skill"})
OPENAI_YAML = "agents/openai.yaml"
MAX_DISPLAY = 64  # loader.rs:49-101 (display_name)
MAX_SHORT = 64  # the plugin validator's window (D5); the loader allows 1,024


def emit(bundle: Bundle, left: LeftOut) -> Files:
    files: Files = {}
    entries = []
    for each in plugins(bundle, CLIENT, KINDS, left):
        name = each.name
        entries.append(
            {
                "name": name,
                "source": {"source": "local", "path": f"./{name}"},
                "policy": {"installation": "AVAILABLE", "authentication": "ON_INSTALL"},
                "category": "Productivity",
            }
        )
        files |= plugin(each, f"{name}/", "", CLIENT)
        manifest: dict[str, Any] = {
            "name": name,
            "description": each.description,
            "skills": "./skills/",
        }
        if each.server is not None:
            manifest["mcpServers"] = "./.mcp.json"
        files[f"{name}/.codex-plugin/plugin.json"] = dumps(manifest)
        for member in each.members:
            if OPENAI_YAML not in dict(member.files):
                path = f"{name}/skills/{member.name}/{OPENAI_YAML}"
                files[path] = openai_yaml(member)
    # interface.displayName: the marketplace's label in Codex's plugin picker
    # (developers.openai.com/codex/plugins/build).
    marketplace = {
        "name": bundle.name,
        "interface": {"displayName": bundle.name},
        "plugins": entries,
    }
    files[".agents/plugins/marketplace.json"] = dumps(marketplace)
    return dict(sorted(files.items()))


def openai_yaml(skill: Member) -> bytes:
    """A skill's ``agents/openai.yaml`` from its frontmatter."""
    title = " ".join(word.capitalize() for word in skill.name.split("-"))
    interface = {
        "display_name": _cut(title, MAX_DISPLAY),
        "short_description": _cut(_sentence(skill.description), MAX_SHORT),
    }
    text = yaml.safe_dump(
        {"interface": interface}, sort_keys=False, allow_unicode=True, width=4096
    )
    return text.encode("utf-8")


def _sentence(text: str) -> str:
    """The first sentence of ``text``, whitespace collapsed."""
    words = " ".join(text.split())
    end = words.find(". ")
    return words[: end + 1] if end > 0 else words


def _cut(text: str, most: int) -> str:
    """``text`` within ``most`` characters, cut at a word, with an ellipsis."""
    if len(text) <= most:
        return text
    head = text[: most - 1]
    if " " in head:
        head = head[: head.rindex(" ")]
    return head.rstrip(" ,;:.") + "…"
