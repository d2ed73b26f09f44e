"""The harness model: what each client (Claude Code, Codex, Gemini CLI, OpenCode,
Agent Plugins, Cursor) loads, refuses and names, as data, one module per client, each
rule with its source beside it (``model.py`` has the shapes). ``CLIENTS`` is the one
table: a new client is a module and a line here; a new rule is a value in its module.

``targets`` says which clients a build follows: the ``harnesses`` setting, or every
client whose layout the project uses (its ``marks``: ``.claude/`` or
``.claude-plugin/`` for Claude Code, ``.codex/``, ``.agents/skills`` or
``.codex-plugin/`` for Codex...). ``locate`` (discovery) and ``judge`` (after loading)
give each item its verdict per client.

Imported after the no-op decision only (tests/test_startup.py)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

from . import agent_plugins, claude_code, codex, cursor, gemini_cli, opencode
from .model import Client as Client

# In this order where targeted clients disagree on an item's name or on which copy
# wins: Claude Code's first (skillc reads Claude Code's format), then the others as
# their layouts are shared (.agents/skills: Codex, then Gemini CLI, then OpenCode).
CLIENTS: dict[str, Client] = {
    client.id: client
    for client in (
        claude_code.CLIENT,
        codex.CLIENT,
        gemini_cli.CLIENT,
        opencode.CLIENT,
        agent_plugins.CLIENT,
        cursor.CLIENT,
    )
}
# An Agent Plugins manifest is a plugin.json whose $schema is the spec's.
AGENT_PLUGINS_SCHEMA = "agent-plugins.org/schemas/"
# Folders a scan for marks never enters.
UNSCANNED = frozenset({".git", "node_modules", "__pycache__", "venv", ".venv"})


def order(ids: Iterable[str]) -> list[str]:
    """``ids`` in the order of ``CLIENTS``."""
    wanted = set(ids)
    return [client for client in CLIENTS if client in wanted]


def marked(folder: str, names: Iterable[str]) -> set[str]:
    """The clients whose marks ``folder`` holds (``names``: its entries' names)."""
    present = set(names)
    found = set()
    for client in CLIENTS.values():
        for mark in client.marks:
            first, _, rest = mark.partition("/")
            if first not in present:
                continue
            path = os.path.join(folder, first)
            if rest and not os.path.isdir(os.path.join(path, rest)):
                continue
            if mark == "plugin.json" and not is_agent_plugin(path):
                continue
            found.add(client.id)
    return found


def readers(folder: str, held: list[str] | None = None) -> set[str]:
    """The clients that read a plugin manifest ``folder`` holds (``held``: the
    manifests' paths, when not looked for in the folder)."""
    found = set()
    for client in CLIENTS.values():
        for manifest in client.manifests:
            path = os.path.join(folder, *manifest.path.split("/"))
            if held is not None:
                hit = manifest.path in held
            else:
                hit = os.path.isfile(path) and (
                    manifest.path != "plugin.json" or is_agent_plugin(path)
                )
            if hit:
                found.add(client.id)
    return found


def is_agent_plugin(path: str) -> bool:
    """Whether the ``plugin.json`` at ``path`` names the Agent Plugins schema."""
    try:
        with open(path, "rb") as file:
            head = file.read(4096)
    except OSError:
        return False
    return AGENT_PLUGINS_SCHEMA.encode() in head


def targets(config: Any, met: Iterable[str] | None = None) -> frozenset[str]:
    """The ids of the clients a build of ``config`` follows: its ``harnesses``
    setting, else the clients whose marks its sources hold (``met``: those a walk of
    them already found; else they are looked for here)."""
    chosen = getattr(config, "harnesses", ())
    if chosen:
        return frozenset(chosen)
    if met is None:
        met = set()
        for root in config.source_dirs():
            met |= scan(os.fspath(root), os.fspath(config.out_dir))
    return frozenset(met)


def scan(root: str, skip: str = "", most: int = 20_000) -> set[str]:
    """The clients whose marks the folders below ``root`` hold (at most ``most``
    folders looked at; never .git, node_modules or ``skip``)."""
    found: set[str] = set()
    looked = 0
    for folder, folders, files in os.walk(root):
        found |= marked(folder, [*folders, *files])
        folders[:] = sorted(
            name
            for name in folders
            if name not in UNSCANNED and os.path.join(folder, name) != skip
        )
        looked += 1
        if looked >= most:
            break
    return found
