"""Cursor plugins: ``.cursor-plugin/plugin.json``, read by the closed schema Cursor
publishes (cursor/plugins schemas/plugin.schema.json, last changed at 0701892, read
at 195d935). Its ``skills``, ``agents`` and ``commands`` are read as Claude Code's
(paths; ``./`` added where it is left out, as Cursor's own plugins write
``assets/avatar.png``), ``mcpServers`` with ``mcp.json`` beside the manifest's folder
(README.md@195d935:34-48). Its rules (``.mdc``), hooks (Cursor's own format:
``{"version": 1, "hooks": {"stop": [...]}}``) and variables are reported, not compiled.

What breaks the schema is refused at its key, and none of the plugin is compiled
(``vetted``): a field it does not name (``additionalProperties: false``), a name off
``^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$`` (periods allowed; ``--`` and ``..`` too), a field
of the wrong type, an author other than ``{name, email}``, a minimum client version
that is not ``X.Y.Z``. Glob patterns in component paths are not expanded: such a path
is reported as not found."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from ..diagnostics import Report
from ..loaders.refusals import CURSOR, at, refuse

MANIFEST = ".cursor-plugin/plugin.json"
CLIENT = "Cursor"
MCP_FILE = "mcp.json"
HOOKS_FILE = ""  # its hooks are in Cursor's format, not Claude Code's
NAME_RULE: re.Pattern[str] | None = None  # its names are checked by vetted
UNCOMPILED = (
    ("rules", "rules", "rules", "rules (.mdc) it loads into its context"),
    ("hooks", "hooks", "hooks/hooks.json", "hooks it runs on its own events"),
    ("variables", "variables", "", "variables it asks the user for"),
)
SOURCE = "cursor/plugins schemas/plugin.schema.json@195d935"
NAME = re.compile(r"[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?")
SEMVER = re.compile(
    r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)"
    r"(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
)
PATHS = ("skills", "agents", "commands", "rules")  # $defs.stringOrStringArray


def _string(value: Any) -> bool:
    return isinstance(value, str)


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _path_or_paths(value: Any) -> bool:
    return isinstance(value, str) or _strings(value)


def _uri(value: Any) -> bool:
    """``format: uri``: an absolute URI (a scheme and what follows it)."""
    if not isinstance(value, str) or any(c.isspace() for c in value):
        return False
    parts = urlsplit(value)
    return bool(parts.scheme) and bool(parts.netloc or parts.path)


def _author(value: Any) -> bool:
    """``$defs.author``: a non-empty ``name`` and an optional ``email``, closed."""
    return (
        isinstance(value, dict)
        and value.keys() <= {"name", "email"}
        and isinstance(value.get("name"), str)
        and bool(value["name"])
        and isinstance(value.get("email", ""), str)
    )


def _versions(value: Any) -> bool:
    """``$defs.minClientVersions``: at least one client, each a strict semver."""
    return (
        isinstance(value, dict)
        and bool(value)
        and all(isinstance(v, str) and SEMVER.fullmatch(v) for v in value.values())
    )


def _mcp(value: Any) -> bool:
    """``$defs.mcpServers``: a path, an object, or a list of either."""
    items = value if isinstance(value, list) else [value]
    return all(isinstance(item, (str, dict)) for item in items)


def _variables(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and value.get("type") == "object"
        and isinstance(value.get("properties", {}), dict)
        and _strings(value.get("required", []))
    )


# Each field of the schema, and what its value must be.
FIELDS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "name": (lambda v: isinstance(v, str) and bool(NAME.fullmatch(v)), NAME.pattern),
    "displayName": (_string, "a string"),
    "description": (_string, "a string"),
    "version": (_string, "a string"),
    "minClientVersions": (_versions, "an object of X.Y.Z versions"),
    "author": (_author, "an object of name (required) and email alone"),
    "publisher": (lambda v: isinstance(v, str) and bool(v), "a non-empty string"),
    "homepage": (_uri, "a URI"),
    "repository": (_uri, "a URI"),
    "license": (_string, "a string"),
    "logo": (_string, "a string"),
    "keywords": (_strings, "a list of strings"),
    "category": (_string, "a string"),
    "tags": (_strings, "a list of strings"),
    **{key: (_path_or_paths, "a path or a list of paths") for key in PATHS},
    "hooks": (lambda v: isinstance(v, (str, dict)), "a path or an object"),
    "variables": (_variables, 'a JSON Schema of "type": "object"'),
    "mcpServers": (_mcp, "a path, an object, or a list of either"),
}


def vetted(
    data: dict[str, Any], text: str, rel: str, folder: str, report: Report
) -> dict[str, Any] | None:
    """``data`` when Cursor's schema admits it; None, each breach an error at its key,
    when it does not."""
    refused = [
        (
            key,
            f"{key!r} is not a field of a Cursor plugin (additionalProperties: false)",
        )
        for key in sorted(data.keys() - FIELDS.keys())
    ]
    if "name" not in data:
        refused.append(("name", "a Cursor plugin needs a name (required)"))
    for key, (fits, what) in FIELDS.items():
        if key in data and not fits(data[key]):
            refused.append((key, f"{key} must be {what}"))
    for key, why in refused:
        text_why = f"{why}: Cursor refuses the plugin ({SOURCE})"
        refuse(report, CURSOR, rel, at(text, key), "invalid-plugin", text_why)
    return None if refused else data


def definition(data: dict[str, Any]) -> dict[str, Any] | None:
    """Its name and description, and its components as Claude Code's keys."""
    defined: dict[str, Any] = {
        key: data[key] for key in ("name", "description") if key in data
    }
    for key in ("skills", "agents", "commands"):
        if key in data:
            value = data[key]
            defined[key] = (
                _relative(value)
                if isinstance(value, str)
                else [_relative(v) for v in value if isinstance(v, str)]
            )
    if "mcpServers" in data:
        defined["mcpServers"] = data["mcpServers"]
    return defined


def _relative(path: str) -> str:
    """A component path as Claude Code's layout reads it: ``./`` first."""
    if path.startswith(("./", "/")) or path in (".", ""):
        return path
    return "./" + path
