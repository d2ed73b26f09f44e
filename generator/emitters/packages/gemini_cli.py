"""Gemini CLI: a folder of extensions, ``packages/gemini-cli/<name>/``
(``common.plugins``). Each holds

``gemini-extension.json`` (``name``: letters, digits and hyphens, no periods;
``version``, required; ``mcpServers``, whose strings the CLI hydrates from
``${extensionPath}``: GM-13), the skills one level deep (``skills/<name>/SKILL.md``,
named by their frontmatter name: GM-03, GM-05, GM-14) and the subagents in
``agents/`` (top-level ``*.md``, strict frontmatter keys: GM-09, GM-10). A command is
a TOML file with placeholders of its own in Gemini CLI (GM-15), which skillc does not
translate: a build's commands are left out with a warning. Rules:
``harness/gemini_cli.py``."""

from __future__ import annotations

from ...harness.gemini_cli import AT
from .common import (
    Bundle,
    Files,
    LeftOut,
    Member,
    plugins,
    dumps,
    server_entry,
    skill_files,
)

CLIENT = "gemini-cli"
KINDS = frozenset({"skill", "agent"})
AGENTS = f"agentLoader.ts{AT}:97-108"
TOOL_NAMES = f"tool-names.ts{AT}:303"  # both in google-gemini/gemini-cli
ROOT = "${extensionPath}"  # extensions/variables.ts@5411f11:22
VERSION = "0.1.0"  # required, and never compared by the CLI


def emit(bundle: Bundle, left: LeftOut) -> Files:
    files: Files = {}
    for each in plugins(bundle, CLIENT, KINDS, left, _tools):
        at = f"{each.name}/"
        manifest: dict[str, object] = {"name": each.name, "version": VERSION}
        for member in each.members:
            if member.kind == "skill":
                files |= skill_files(member, f"{at}skills/{member.name}")
            else:
                ((_file, data),) = member.files
                files[f"{at}agents/{member.name}.md"] = data
        if each.server is not None:
            servers = {each.name: server_entry(each, ROOT, f"{CLIENT}/{at}")}
            manifest["mcpServers"] = servers
        files[f"{at}gemini-extension.json"] = dumps(manifest)
    return files


def _tools(member: Member) -> str:
    """Why Gemini CLI refuses a subagent for its ``tools``: Claude Code's names
    (Read, Grep, Bash(git:*)) are none of Gemini CLI's (read_file, grep_search...),
    and its loader refuses an agent that names a tool it does not know."""
    if member.kind == "agent" and "tools" in member.frontmatter:
        return (
            "Gemini CLI refuses it: its tools are Claude Code's, and Gemini CLI's "
            f"subagents name tools of their own ({AGENTS}; {TOOL_NAMES})"
        )
    return ""
