"""A plugin's hooks and MCP servers: carried into the report, ``ai-tools.json`` and the
agent docs so a host can install them, never run by skillc. Hooks come from
``hooks/hooks.json`` and the manifest's ``hooks`` (paths or an inline object); servers
from ``.mcp.json`` and ``mcpServers``. An environment's or a header's values are never
recorded (they may hold secrets): only their names."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

from ..loaders import frontmatter
from ..diagnostics import Report
from ..discovered import Hook, McpServer

HOOKS_FILE = "hooks/hooks.json"
MCP_FILE = ".mcp.json"
HOOK_TYPES = frozenset({"command", "prompt", "agent", "http"})


def read_extras(
    plugin: str,
    folder: str,
    manifest: Mapping[str, Any],
    rel: str,
    relative: Callable[[str], str],
    report: Report,
    max_bytes: int,
    form: ModuleType | None = None,
) -> tuple[list[Hook], list[McpServer]]:
    """``rel``: the manifest's path; ``relative`` gives a path's project-relative form;
    ``form``: the plugin's format's module: where it keeps its MCP servers
    (``MCP_FILE``, "": nowhere) and the rules they must keep (``MCP_RULES``), and
    its hooks in Claude Code's format (``HOOKS_FILE``, "": none)."""
    mcp_file = getattr(form, "MCP_FILE", MCP_FILE)
    hooks_file = getattr(form, "HOOKS_FILE", HOOKS_FILE)
    rules = getattr(form, "MCP_RULES", None)
    hooks: list[Hook] = []
    servers: list[McpServer] = []
    for where, data, _ in _configs(
        folder, hooks_file, manifest.get("hooks"), rel, relative, report, max_bytes
    ):
        hooks += _hooks(plugin, data, where, report)
    for where, data, text in _configs(
        folder, mcp_file, manifest.get("mcpServers"), rel, relative, report, max_bytes
    ):
        if rules is not None:
            data = rules(data, where, text, manifest, report)
        if data is not None:
            servers += _servers(plugin, data, where, report)
    return hooks, servers


def uncompiled(
    form: ModuleType, folder: str, manifest: Mapping[str, Any], rel: str
) -> list[tuple[str, str, str]]:
    """What a plugin of format ``form`` holds that skillc does not compile, as (kind,
    path: the manifest's for a key it sets, else relative to ``folder``, what it
    would do): every key of ``form.UNCOMPILED`` the manifest (as written) sets, every
    default file or folder present, and what the format's ``folders`` finds."""
    client = form.CLIENT
    found = []
    for kind, key, default, does in form.UNCOMPILED:
        if key and manifest.get(key) not in (None, [], {}, ""):
            found.append((kind, rel, f'"{key}": {client}: {does}'))
        elif default and os.path.exists(os.path.join(folder, default)):
            found.append((kind, default, f"{client}: {does}"))
    experimental = manifest.get("experimental")
    if isinstance(experimental, dict):
        for key in sorted(experimental):
            found.append((key, rel, f'"experimental.{key}": {client}'))
    for kind, path, does in getattr(form, "folders", lambda _: [])(folder):
        found.append((kind, path, f"{client}: {does}"))
    return found


def _configs(
    folder: str,
    default: str,
    value: Any,
    rel: str,
    relative: Callable[[str], str],
    report: Report,
    max_bytes: int,
) -> list[tuple[str, Any, str]]:
    """The default file (when present) and the manifest's files, then its inline
    object: each where it is, its data and its text ("" for the inline object)."""
    paths = (
        [default] if default and os.path.isfile(os.path.join(folder, default)) else []
    )
    inline = []
    if isinstance(value, dict):
        inline.append((rel, value))
    elif isinstance(value, (str, list)):
        for item in [value] if isinstance(value, str) else value:
            if (
                not isinstance(item, str)
                or not item.startswith("./")
                or ".." in item.split("/")
            ):
                report.error(
                    rel,
                    1,
                    1,
                    "invalid-plugin-path",
                    f"{item!r} must be a './' path inside the plugin",
                )
            elif os.path.normpath(item) not in paths:
                paths.append(os.path.normpath(item))
    elif value is not None:
        report.error(
            rel,
            1,
            1,
            "invalid-plugin",
            "hooks and mcpServers take a path, a list of paths or an object",
        )
    found = []
    for path in paths:
        full = os.path.join(folder, path)
        where = relative(full)
        text = frontmatter.read(Path(full), where, report, max_bytes)
        data = None if text is None else frontmatter.parse_json(text, where, report)
        if data is not None and text is not None:
            found.append((where, data, text))
    return found + [(where, data, "") for where, data in inline]


def _hooks(plugin: str, data: Any, where: str, report: Report) -> list[Hook]:
    """``{"hooks": {Event: [{"matcher": ..., "hooks": [{"type": ..., ...}]}]}}``; a file
    may also hold the event map itself (the inline form)."""
    events = data.get("hooks", data) if isinstance(data, dict) else None
    if not isinstance(events, dict):
        _invalid(where, "hooks must be an object of events", report)
        return []
    result = []
    for event, groups in sorted(events.items()):
        if not isinstance(groups, list):
            _invalid(where, f"hooks.{event} must be a list", report)
            continue
        for group in groups:
            result += _group(plugin, event, group, where, report)
    return result


def _group(
    plugin: str, event: str, group: Any, where: str, report: Report
) -> list[Hook]:
    """One ``{"matcher": ..., "hooks": [...]}`` entry of an event's list."""
    inner = group.get("hooks") if isinstance(group, dict) else None
    if not isinstance(inner, list):
        _invalid(where, f"each hooks.{event} entry needs a 'hooks' list", report)
        return []
    matcher = str(group.get("matcher", ""))
    result = []
    for hook in inner:
        kind = hook.get("type") if isinstance(hook, dict) else None
        if kind not in HOOK_TYPES:
            _invalid(
                where,
                f"a {event} hook has no known type ({sorted(HOOK_TYPES)})",
                report,
            )
            continue
        action = next(
            (
                hook[k]
                for k in ("command", "prompt", "url", "agent")
                if isinstance(hook.get(k), str)
            ),
            "",
        )
        result.append(Hook(plugin, event, matcher, kind, action, where))
    return result


def _servers(plugin: str, data: Any, where: str, report: Report) -> list[McpServer]:
    """``{"mcpServers": {name: {"command": ..., "args": [...]} | {"type": "http", "url": ...}}}``
    (or the server map itself)."""
    table = data.get("mcpServers", data) if isinstance(data, dict) else None
    if not isinstance(table, dict):
        _invalid(where, "mcpServers must be an object of servers", report)
        return []
    result = []
    for name, server in sorted(table.items()):
        command = server.get("command") if isinstance(server, dict) else None
        url = server.get("url") if isinstance(server, dict) else None
        if not isinstance(server, dict) or not isinstance(command or url, str):
            _invalid(
                where,
                f"MCP server {name!r} needs a 'command' or a 'url' string",
                report,
            )
            continue
        args = server.get("args", [])
        result.append(
            McpServer(
                plugin,
                name,
                str(server.get("type", "stdio" if command else "http")),
                str(command or url),
                tuple(str(a) for a in args) if isinstance(args, list) else (),
                tuple(sorted(str(k) for k in server.get("env", {}) or {})),
                where,
            )
        )
    return result


def _invalid(where: str, message: str, report: Report) -> None:
    report.error(where, 1, 1, "invalid-plugin", message + "; skipped")
