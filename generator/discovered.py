"""The parts of the model a discovery makes (ir.py has them too): kinds of input, and
what plugins declare that is carried, not compiled. Apart from ir.py and its 20
dataclasses, since a build with nothing to do walks the sources and loads nothing:
importing skillc.ir took 0.028 s of the 0.114 s such a build spent importing skillc
(python -X importtime, least of 9 runs; this repository's floor is about 0.09 s)."""

from __future__ import annotations

import dataclasses
import enum
import os
from pathlib import Path

from .filestat import UNREADABLE as UNREADABLE


def relative(path: Path | str, project: Path | str) -> str:
    """A repo-relative POSIX path (``..`` segments when outside the project)."""
    text, base = os.fspath(path), os.fspath(project)
    if text.startswith(base + os.sep):
        return text[len(base) + 1 :].replace(os.sep, "/")
    return Path(os.path.relpath(text, base)).as_posix()


class Kind(enum.Enum):
    SKILL = "skill"
    AGENT = "agent"
    COMMAND = (
        "command"  # a Claude Code command: .claude/commands/*.md, a plugin's commands/
    )
    TOOL = "tool"  # a callable tool: from a manifest, a skill's script, or a built-in


@dataclasses.dataclass(frozen=True, slots=True)
class Found:
    """An input a discovery found (discover.py)."""

    kind: Kind
    path: Path  # SKILL.md or the subagent file
    root: int
    plugin: Path | None  # the plugin.json of the enclosing plugin
    files: tuple[str, ...] = ()  # a skill's bundled files, relative to its folder
    # A tool manifest's format: "tool-manifest", "ai-tool" or "tools".
    manifest: str = ""
    subfolders: tuple[str, ...] = ()  # a plugin subagent's folders below agents/


@dataclasses.dataclass(frozen=True, slots=True)
class Hook:
    """A plugin's hook, carried for a host to install; skillc never runs it."""

    plugin: str
    event: str  # PreToolUse, SessionStart...
    matcher: str
    type: str  # command, prompt, agent or http
    action: str  # the command, prompt or url as written (${CLAUDE_PLUGIN_ROOT} kept)
    source: str


@dataclasses.dataclass(frozen=True, slots=True)
class McpServer:
    """A plugin's MCP server, carried for a host to start; skillc never starts it."""

    plugin: str
    name: str
    transport: str  # stdio, http, sse...
    target: str  # the command or the url as written
    args: tuple[str, ...]
    env: tuple[str, ...]  # the names of its environment variables, never their values
    source: str


@dataclasses.dataclass(frozen=True, slots=True)
class NotCompiled:
    """An input found and left out on purpose (a remote plugin, another client's
    manifest), with the reason, for the report."""

    path: str
    name: str  # the plugin's name ("" when it belongs to none)
    reason: str  # why it is left out, and what it would do in its client
    kind: str = ""  # what it is: a remote plugin, lsp-servers, bin...
