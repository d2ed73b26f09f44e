"""OpenCode: a project's config folder, ``packages/opencode/``, to copy into a
project.

``.opencode/skills/<name>/SKILL.md`` (a config folder's ``skills/**/SKILL.md``, each
skill keyed by its frontmatter name: OC-02, OC-04); each subagent as
``.opencode/agents/<name>.md`` (``description``, ``mode: subagent``, and Claude Code's
``tools`` list as a ``permission`` that denies every tool but those: OpenCode's
names for them, in ``harness.opencode.PERMISSIONS``); each command as
``.opencode/commands/<name>.md`` (``description``, and its body, whose ``$ARGUMENTS``,
``!`cmd``` and ``@path`` OpenCode reads as Claude Code does); and ``opencode.json``
with the generated MCP server as a ``local`` server. What OpenCode cannot express
(``commands.unexpressed``, or a tool OpenCode has none of) is left out with a
warning; a subagent's model (Claude Code's aliases) is left out of the subagent with
a warning (``commands.model``), and so is a colour (Claude Code's names are not
OpenCode's). Rules:
``harness/opencode.py``."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import yaml

from ...harness.opencode import AGENT_SCHEMA, PERMISSION, PERMISSIONS
from ...loaders import agent
from . import commands
from .common import (
    FOLDER,
    Bundle,
    Files,
    LeftOut,
    Member,
    admitted,
    dumps,
    server_entry,
    skill_files,
)

CLIENT = "opencode"
WHERE = f"{FOLDER}{CLIENT}/"
TITLE = "OpenCode"
MODEL = f"a provider/model id: {AGENT_SCHEMA.partition(' (')[0]}"
KINDS = frozenset({"skill", "agent", "command"})
SCHEMA = "https://opencode.ai/config.json"
NAME = re.compile(r"[a-z0-9][a-z0-9_-]*\Z")  # a subagent's name that is a file's
AGENTS = ".opencode/agents"
COMMANDS = ".opencode/commands"
# A subagent's keys with which Claude Code runs it otherwise, that OpenCode cannot
# express (code.claude.com/docs/en/sub-agents, supported frontmatter fields); its
# name, description, tools (as a permission) and model are read below, its colour
# only labels it (and is left out: Claude Code's names are not OpenCode's).
AGENT_KEYS = agent.KNOWN_KEYS - {"name", "description", "tools", "model", "color"}


def emit(bundle: Bundle, left: LeftOut) -> Files:
    placed = replace(bundle, members=tuple(map(_placed, bundle.members)))
    bundle = admitted(placed, CLIENT, KINDS, left, plugin=False, rule=_refusal)
    files: Files = {}
    for member in bundle.members:
        if member.kind == "skill":
            files |= skill_files(member, f".opencode/skills/{member.name}")
        elif member.kind == "agent":
            commands.model(member, WHERE, TITLE, MODEL, left)
            head: dict[str, Any] = {"description": member.description}
            head["mode"] = "subagent"
            if permission := _permission(member.frontmatter.get("tools"))[0]:
                head["permission"] = permission
            files[f"{AGENTS}/{member.name}.md"] = _markdown(head, member)
        else:
            head = {"description": member.description}
            files[f"{COMMANDS}/{member.name}.md"] = _markdown(head, member)
    if bundle.server is not None:
        # MCP: {type: "local", command: [program, args...], enabled}.
        entry = server_entry(bundle, "", CLIENT)
        command = [entry["command"], *entry["args"]]
        server = {"type": "local", "command": command, "enabled": True}
        config = {"$schema": SCHEMA, "mcp": {bundle.name: server}}
        files["opencode.json"] = dumps(config)
    return files


def _placed(member: Member) -> Member:
    """A subagent or command named by its file as Claude Code names it (a
    subagent by its frontmatter name, a command by its file), a source plugin's in
    a folder of its plugin's name: OpenCode names it ``<plugin>/<name>``, as Claude
    Code ``<plugin>:<name>``."""
    if member.kind == "skill":
        return member
    given = member.frontmatter.get("name")
    name = member.name
    if member.kind == "agent" and isinstance(given, str) and NAME.match(given):
        name = given
    return replace(member, name=f"{member.plugin}/{name}" if member.plugin else name)


def _refusal(member: Member) -> str:
    """Why OpenCode cannot hold the subagent or command ("" when it can)."""
    if member.kind == "command":
        return commands.unexpressed(member, TITLE, commands.body(member))
    if member.kind != "agent":
        return ""
    if member.recovered:
        return "its frontmatter is not strict YAML: OpenCode would not read it so"
    keys = commands.changing(member.frontmatter, AGENT_KEYS)
    if keys:
        return f"OpenCode has no equivalent of its {', '.join(keys)}"
    return _permission(member.frontmatter.get("tools"))[1]


def _permission(tools: object) -> tuple[dict[str, str], str]:
    """Claude Code's ``tools`` (the only tools it may use) as OpenCode's
    ``permission``: every tool denied, then those allowed (the last rule that
    matches wins), or why it cannot be."""
    if tools is None:
        return {}, ""
    names = re.split(r"\s*,\s*", tools.strip()) if isinstance(tools, str) else tools
    if not isinstance(names, list) or not all(
        isinstance(name, str) and name for name in names
    ):
        return {}, "its tools are not a list of tool names"
    if not names:
        return {}, "its tools list is empty"
    unknown = [name for name in names if name not in PERMISSIONS]
    if unknown:
        return {}, f"OpenCode has no tool for {', '.join(unknown)} ({PERMISSION})"
    permission = {"*": "deny"}
    for name in names:
        permission[PERMISSIONS[name]] = "allow"
    return permission, ""


def _markdown(head: dict[str, Any], member: Member) -> bytes:
    """A markdown file of OpenCode's: ``head`` as its frontmatter, then the body."""
    text = yaml.safe_dump(head, sort_keys=False, allow_unicode=True, width=4096)
    return f"---\n{text}---\n\n{commands.body(member)}".encode("utf-8")
