"""Codex: a marketplace, ``packages/codex/``.

``.agents/plugins/marketplace.json`` (the file Codex reads first: CX-26) lists each
plugin (``common.plugins``) by a ``local`` source; each plugin's
``.codex-plugin/plugin.json`` names its skills and MCP servers by ``./`` paths as
strings, never arrays (CX-23, CX-25), and its version when its source plugin has
one. Each skill keeps its own ``agents/openai.yaml``, or gets one derived from its
frontmatter (``interface.display_name`` at most 64 characters: CX-18;
``short_description`` 25 to 64, every string quoted: ``SHORT``). A Codex plugin's
manifest names skills, MCP servers, apps, hooks and its interface, and no subagents,
commands or prompts (openai/codex codex-rs/core-plugins/src/manifest.rs@01b4840:21-42,
RawPluginManifest): a build's are left out with a warning. Codex gives a plugin's MCP
server no placeholder for its folder: the package must be importable where Codex
starts it."""

from __future__ import annotations

import json

from .claude_code import plugin
from .common import Bundle, Files, LeftOut, Member, dumps, head, plugins

CLIENT = "codex"
KINDS = frozenset({"skill"})
OPENAI_YAML = "agents/openai.yaml"
MAX_DISPLAY = 64  # loader.rs:49-101 (display_name)
# "interface.short_description: Human-facing short UI blurb (25-64 chars)"; "Quote
# all string values" (openai/skills skills/.system/skill-creator/references/
# openai_yaml.md@7885d6d). Codex's loader allows 1,024 (harness/codex.py).
SHORT = (25, 64)


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
        manifest = head(each) | {"skills": "./skills/"}
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
    """A skill's ``agents/openai.yaml`` from its frontmatter: a short description
    its description's first sentence, or the whole (cut) when that is too short,
    or none (it is optional) when the whole is."""
    title = " ".join(word.capitalize() for word in skill.name.split("-"))
    interface = {"display_name": _cut(title, MAX_DISPLAY)}
    least, most = SHORT
    for text in (_sentence(skill.description), " ".join(skill.description.split())):
        if len(short := _cut(text, most)) >= least:
            interface["short_description"] = short
            break
    lines = ["interface:"]
    lines += [f"  {key}: {_quoted(value)}" for key, value in interface.items()]
    return ("\n".join(lines) + "\n").encode("utf-8")


def _quoted(text: str) -> str:
    """A YAML double-quoted scalar (a JSON string is one)."""
    return json.dumps(text, ensure_ascii=False)


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
