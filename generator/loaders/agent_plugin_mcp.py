"""An Agent Plugins ``mcp.json`` (spec/1.0.0.md §7.2): exactly ``$schema`` (the MCP
schema of the plugin's own version, §10.1) and ``mcpServers``, an object of servers,
each one of three closed variants: ``stdio`` (``command``, ``args``, ``env``, ``cwd``),
``streamable-http`` and ``sse`` (``url``, ``headers``). A file that breaks the top-level
rules disables MCP for the plugin (§7.2.2 rule 2), a server that breaks its variant's
is skipped (rule 3); each is refused at its key, and the rest of the plugin loads."""

from __future__ import annotations

import ipaddress
import posixpath
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from ..diagnostics import Report
from ..loaders.refusals import AGENT_PLUGINS, at, refuse

SCHEMA = "https://agent-plugins.org/schemas/"
TOP = frozenset({"$schema", "mcpServers"})
STDIO = frozenset({"type", "command", "args", "env", "cwd"})
REMOTE = frozenset({"type", "url", "headers"})
VARIANTS = {"stdio": STDIO, "streamable-http": REMOTE, "sse": REMOTE}
PLACEHOLDERS = ("${PLUGIN_ROOT}", "${PLUGIN_DATA}")  # §9.2


def vet(
    data: Any, where: str, text: str, manifest: Mapping[str, Any], report: Report
) -> dict[str, Any] | None:
    """The servers of ``mcp.json`` (at ``where``, ``text``) an Agent Plugins client
    starts, for the plugin whose manifest's definition is ``manifest``; None: MCP is
    disabled. What it refuses is an error at its key."""
    schema = str(manifest.get("$schema", ""))
    wanted = schema.removesuffix("plugin.schema.json") + "mcp.schema.json"
    problem = None
    if not isinstance(data, dict):
        problem = "mcp.json must be an object"
    elif data.keys() != TOP:
        extra = sorted(data.keys() - TOP) or sorted(TOP - data.keys())
        problem = f"mcp.json holds exactly $schema and mcpServers, not {extra}"
    elif data["$schema"] != wanted:
        problem = f"$schema must be {wanted!r}, the MCP schema of the plugin's version"
    elif not isinstance(data["mcpServers"], dict):
        problem = "mcpServers must be an object of servers"
    if problem is not None:
        why = f"{problem}: an Agent Plugins client disables MCP for the plugin (§7.2)"
        refuse(report, AGENT_PLUGINS, where, at(text, "$schema"), "invalid-plugin", why)
        return None
    servers = {}
    for name, server in data["mcpServers"].items():
        wrong = _server(server)
        if wrong is None:
            servers[name] = server
        else:
            why = (
                f"MCP server {name!r}: {wrong}; an Agent Plugins client skips it (§7.2)"
            )
            position = at(text, "mcpServers", name)
            refuse(report, AGENT_PLUGINS, where, position, "invalid-plugin", why)
    return {"mcpServers": servers}


def _server(server: Any) -> str | None:
    """What makes a server entry invalid (§7.2.1), or None."""
    kind = server.get("type") if isinstance(server, dict) else None
    if not isinstance(server, dict) or kind not in VARIANTS:
        return "its type must be stdio, streamable-http or sse"
    extra = sorted(server.keys() - VARIANTS[kind])
    if extra:
        return f"{', '.join(map(repr, extra))} is not a field of a {kind} server"
    if kind == "stdio":
        return _stdio(server)
    return _remote(server)


def _stdio(server: dict[str, Any]) -> str | None:
    command, cwd = server.get("command"), server.get("cwd")
    env = server.get("env", {})
    args = server.get("args", [])
    if not isinstance(command, str) or not _command(command):
        return "command must be one executable token: a bare name or a './' path inside the plugin"
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        return "args must be a list of strings"
    if not _strings(env):
        return "env must be an object of strings"
    if set(env) & {name[2:-1] for name in PLACEHOLDERS}:
        return "env may not set PLUGIN_ROOT or PLUGIN_DATA (§9.2)"
    if cwd is not None and (not isinstance(cwd, str) or not _cwd(cwd)):
        return "cwd must be './...', '${PLUGIN_ROOT}[/...]' or '${PLUGIN_DATA}[/...]', inside it"
    return None


def _command(command: str) -> bool:
    if command.startswith("./"):
        return _inside(command[2:]) and posixpath.normpath(command[2:]) != "."
    return (
        bool(command)
        and "/" not in command
        and "\\" not in command
        and not any(char.isspace() for char in command)
    )


def _cwd(cwd: str) -> bool:
    if cwd.startswith("./"):
        return _inside(cwd[2:])
    for placeholder in PLACEHOLDERS:
        if cwd == placeholder or cwd.startswith(placeholder + "/"):
            return _inside(cwd[len(placeholder) + 1 :])
    return False


def _inside(path: str) -> bool:
    """Whether a relative path stays below its root (``a/../b`` does, ``../a`` not)."""
    if path.startswith("/"):
        return False
    depth = 0
    for part in path.replace("\\", "/").split("/"):
        depth += -1 if part == ".." else part not in ("", ".")
        if depth < 0:
            return False
    return True


def _remote(server: dict[str, Any]) -> str | None:
    url, headers = server.get("url"), server.get("headers", {})
    try:
        parts = urlsplit(url) if isinstance(url, str) else None
        host = parts.hostname if parts is not None else None
    except ValueError:
        parts = host = None
    if parts is None or parts.scheme not in ("http", "https") or not host:
        return "url must be an absolute http or https URL"
    if parts.username is not None or "#" in str(url):
        return "url may hold neither user information nor a fragment"
    if parts.scheme == "http" and not _loopback(host):
        return "url must use https unless its host is localhost or a loopback address"
    if not _strings(headers):
        return "headers must be an object of strings"
    if len({name.casefold() for name in headers}) < len(headers):
        return "headers name one header twice (in another case)"
    return None


def _loopback(host: str) -> bool:
    if host.casefold() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _strings(value: Any) -> bool:
    return isinstance(value, dict) and all(isinstance(v, str) for v in value.values())
