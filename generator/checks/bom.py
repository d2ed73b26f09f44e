"""``bom.json``, the build's bill of materials: per tool and per plugin, what it can
reach, for a reviewer to read and a diff to show. For a tool: its executor and where
that goes (an HTTP origin, a command, a script, a Python function, the built-ins'
folder or database), the commands a skill's ``!`cmd``` lines run, its bundled
scripts, its hooks, the ``allowed-tools`` it pre-approves, the environment variables
it reads (by name; a value is never read). For a plugin: its hooks' commands and its
MCP servers. A tool that reaches nothing (a skill of plain instructions) is left out.

One line per tool, sorted: a change to what one tool reaches is a one-line diff.
What the build saw is all it says: nothing is run or fetched.
"""

from __future__ import annotations

import dataclasses
import posixpath
import re
import shlex
from collections.abc import Iterable, Iterator, Mapping
from typing import Any
from urllib.parse import urlsplit

from .. import urls
from ..config import Config
from ..emitters.lock_report import dumps
from ..ir import (
    CliExecutor,
    Definition,
    Function,
    Hook,
    HttpExecutor,
    McpServer,
    Model,
    PythonExecutor,
    ScriptExecutor,
    Tool,
)

FILE = "bom.json"
# A skill's lines Claude Code runs before the model reads it (as the runtime's
# _tasks._SHELL finds them), and its ```! blocks.
SHELL = re.compile(r"!`([^`\n]+)`")
SHELL_BLOCK = re.compile(r"^```!\s*\n(.*?)^```", re.M | re.S)
# ${NAME}, ${NAME:-default} (and the shell's other operators), $NAME: by name only;
# nothing after an operator is read, so a "${A:-" run cannot be scanned twice.
ENV = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?=[}:?=+-])|\$([A-Z_][A-Z0-9_]{2,})\b")
# Variables a host sets, not a secret of the user's.
HOST_VARIABLES = frozenset(
    {
        "ARGUMENTS",
        "CLAUDE_PLUGIN_ROOT",
        "CLAUDE_PLUGIN_DATA",
        "CLAUDE_PROJECT_DIR",
        "CLAUDE_SKILL_DIR",
        "CLAUDE_SESSION_ID",
        "CLAUDE_EFFORT",
        "HOME",
        "PATH",
        "PWD",
    }
)
SCRIPT_SUFFIXES = (".py", ".sh", ".bash", ".js", ".mjs", ".ts", ".rb", ".pl", ".ps1")
# What each built-in namespace reaches besides its arguments.
BUILTINS = {
    "file": ("file_root",),
    "batch": ("file_root", "commands"),
    "db": ("database",),
}


def reach(tool: Tool, config: Config) -> dict[str, Any]:
    """What one tool can reach (empty when nothing)."""
    d = tool.definition
    found: dict[str, Any] = {}
    if isinstance(d, Function):
        found = _executor(d, config)
        if d.dangerous:
            found["dangerous"] = True
    else:
        found = _instructions(d)
    if not found:
        return {}
    return {"tool": tool.qualname, "source": d.source.path, **found}


def _executor(d: Function, config: Config) -> dict[str, Any]:
    ex = d.executor
    found: dict[str, Any] = {"executor": ex.type}
    if d.origin == "builtin":
        for what in BUILTINS.get(d.path[0], ()):
            if what == "file_root":
                found["file_root"] = config.file_root
            elif what == "database":
                found["database"] = config.db_path
            else:
                found["commands"] = ["any command its caller gives"]
        return found
    texts: list[str] = []
    if isinstance(ex, HttpExecutor):
        found["hosts"] = [_origin(ex.url)]
        found["method"] = ex.method
        texts += [ex.url, *(ex.headers_template or {}).values(), repr(ex.body_template)]
    elif isinstance(ex, CliExecutor):
        found["commands"] = [shlex.join(ex.command)]
        texts += ex.command
    elif isinstance(ex, ScriptExecutor):
        found["scripts"] = [script_file(d, ex)]
        texts += ex.args_template
    elif isinstance(ex, PythonExecutor):
        found["python"] = ex.function
    env = sorted(_variables(texts))
    if env:
        found["env"] = env
    return found


def script_file(d: Function, ex: ScriptExecutor) -> str:
    """A script tool's file, project-relative: its entry below the tool's folder (a
    skill's own scripts run from the project folder, ``.``, so their cwd is not it)."""
    return posixpath.normpath(posixpath.join(d.skill_dir or ex.cwd, ex.entry))


def _origin(url: str) -> str:
    """scheme://host[:port] of a URL as written (placeholders kept)."""
    parts = urlsplit(url)
    if parts.scheme and parts.netloc:
        return f"{parts.scheme}://{parts.netloc}"
    return url.split("/", 3)[0] if "://" not in url else url


def _instructions(d: Definition) -> dict[str, Any]:
    found: dict[str, Any] = {}
    if d.allowed_tools:
        key = "tools" if d.kind.value == "agent" else "allowed_tools"
        found[key] = list(d.allowed_tools)
    commands = shell_commands(d.body)
    if commands:
        found["shell"] = commands
    scripts = [
        f"{d.skill_dir}/{name}"
        for name in d.files
        if d.skill_dir
        and (name.startswith("scripts/") or name.endswith(SCRIPT_SUFFIXES))
    ]
    if scripts:
        found["scripts"] = scripts
    hooks = [
        {"event": h["event"], "command": h["command"]}
        for h in skill_hooks(d.extra.get("hooks"))
    ]
    if hooks:
        found["hooks"] = hooks
    env = sorted(_variables([*commands, *(h["command"] for h in hooks)]))
    if env:
        found["env"] = env
    return found


def shell_commands(body: str) -> list[str]:
    """The commands a skill's body has Claude Code run before the model reads it."""
    blocks = [
        line
        for b in SHELL_BLOCK.findall(body)
        for line in b.splitlines()
        if line.strip()
    ]
    return [*SHELL.findall(body), *blocks]


def skill_hooks(value: Any) -> Iterator[dict[str, str]]:
    """A skill's own ``hooks`` (Claude Code's settings form): each command hook, with
    its event and matcher."""
    if not isinstance(value, Mapping):
        return
    for event, groups in sorted(value.items()):
        for group in groups if isinstance(groups, list) else ():
            inner = group.get("hooks") if isinstance(group, Mapping) else None
            matcher = group.get("matcher") if isinstance(group, Mapping) else None
            for hook in inner if isinstance(inner, list) else ():
                if isinstance(hook, Mapping) and isinstance(hook.get("command"), str):
                    yield {
                        "event": str(event),
                        "matcher": matcher if isinstance(matcher, str) else "",
                        "command": hook["command"],
                    }


def _variables(texts: Iterable[str]) -> set[str]:
    names = {a or b for text in texts for a, b in ENV.findall(text)}
    return names - HOST_VARIABLES


def plugins(model: Model) -> list[dict[str, Any]]:
    """Each plugin's hooks and MCP servers (servers' environment by name only)."""
    found: dict[str, dict[str, Any]] = {}
    items: list[Hook | McpServer] = [*model.hooks, *model.mcp_servers]
    for item in items:
        entry = found.setdefault(item.plugin, {"plugin": item.plugin})
        fields = [f.name for f in dataclasses.fields(item) if f.name != "plugin"]
        key = "hooks" if isinstance(item, Hook) else "mcp_servers"
        record = {name: getattr(item, name) for name in fields}
        if isinstance(item, Hook):  # what its command reads, as a tool's does
            record["env"] = sorted(_variables([item.action]))
        entry.setdefault(key, []).append(record)
    return [found[name] for name in sorted(found)]


# The totals at the top of the file, each from these keys of the tools' entries.
TOTALS = ("hosts", "commands", "scripts", "shell", "allowed_tools", "env")


def emit(model: Model, config: Config, generator: str) -> dict[str, str]:
    """``bom.json``: the totals a reviewer scans first (every host, command, script,
    shell line, pre-approved tool and variable), then each tool's reach and each
    plugin's."""
    tools = [r for r in (reach(t, config) for t in model.tools) if r]
    extras = plugins(model)
    totals: dict[str, set[str]] = {key: set() for key in TOTALS}
    for entry in tools:
        for key in TOTALS:
            totals[key].update(entry.get(key, ()))
    for entry in extras:
        for hook in entry.get("hooks", ()):
            if hook["type"] == "command":
                totals["commands"].add(hook["action"])
            totals["env"].update(hook["env"])
        for server in entry.get("mcp_servers", ()):
            key = "commands" if server["transport"] == "stdio" else "hosts"
            totals[key].add(server["target"])
            totals["env"].update(server["env"])
    bom: dict[str, Any] = {key: sorted(values) for key, values in totals.items()}
    bom |= {"generator": generator, "tools": tools, "plugins": extras}
    return {FILE: dumps(urls.scrub(bom))}
