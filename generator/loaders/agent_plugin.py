"""Agent Plugins 1.0 (agentplugins/agent-plugins-spec, spec/1.0.0.md@bd38355): a
``plugin.json`` at the plugin's root whose ``$schema`` names the Agent Plugins manifest
schema. Its components are at fixed places: skills in ``skills/``, MCP servers in
``mcp.json`` (``agent_plugin_mcp``). A ``plugin.json`` without that ``$schema`` is not
a plugin of this format and is left alone. Client data under ``extensions`` and client
folders (``com.example.client/``) belong to other clients.

What the spec rejects (``vetted``) is refused at its key, and none of the plugin is
compiled: an unknown version (§5.2), a missing, empty or ill-formed name (§5.3,
§5.5; periods allowed), a field of the wrong type, an author object with another key
(§5.4). What it reports and ignores is a warning, never obeyed: an unknown top-level
field (``"skills": "./custom"``, §5.2, §6.1), an ``extensions`` that is no object
(§8.1). The 1.1.0 working draft (spec/1.1.0.md@86cdad2) adds ``presentation``. Which
of its skills a client finds (§7.1) is the harness model's."""

from __future__ import annotations

import os
import posixpath
import re
from typing import Any

from ..diagnostics import Report
from ..harness import agent_plugins
from ..loaders import agent_plugin_mcp
from ..loaders.agent_plugin_mcp import SCHEMA
from ..loaders.refusals import AGENT_PLUGINS, at, refuse

MANIFEST = "plugin.json"
CLIENT = "Agent Plugins"
MCP_FILE = "mcp.json"
MCP_RULES = agent_plugin_mcp.vet  # which of mcp.json's servers a client starts
SKILLS = "skills"
# A client's folder at the plugin's root is named by its reverse-domain namespace.
NAMESPACE = re.compile(r"^[a-z0-9-]+(\.[a-z0-9-]+)+$")
UNCOMPILED = (
    ("extensions", "extensions", "", "client-specific data, read by those clients"),
)
# The versions known, by their manifest's $schema (§5.2: exactly that text).
VERSIONS = {SCHEMA + f"{v}/plugin.schema.json": v for v in ("1.0.0", "1.1.0")}
DRAFT = "1.1.0"
# §5.2: the manifest's top-level fields; 1.1.0 (§5.7 of its draft) adds presentation.
FIELDS = frozenset(
    {"$schema", "name", "version", "description", "author", "homepage"}
    | {"repository", "license", "keywords", "extensions"}
)
DRAFT_FIELDS = FIELDS | {"presentation"}
STRINGS = ("version", "description", "homepage", "repository", "license")
# §5.5 (schemas/1.0.0/plugin.schema.json): 1-64 of a-z, 0-9, '-', '.'; alphanumeric
# at both ends; no '--' nor '..'.
# Its plugins' names (§5.5), as the harness model has them: a period allowed.
NAME = re.compile(agent_plugins.CLIENT.manifests[0].name_pattern)
NAME_RULE: re.Pattern[str] | None = None  # its names are checked by vetted
AUTHOR = frozenset({"name", "email", "url"})  # §5.4: strings, nothing else
PRESENTATION = frozenset({"displayName", "icon"})  # 1.1.0 §5.7: strings


def definition(data: dict[str, Any]) -> dict[str, Any] | None:
    schema = data.get("$schema")
    if not isinstance(schema, str) or not schema.startswith(SCHEMA):
        return None
    return {key: data[key] for key in ("$schema", "name", "description") if key in data}


def vetted(
    data: dict[str, Any], text: str, rel: str, folder: str, report: Report
) -> dict[str, Any] | None:
    """``data``, the manifest ``rel`` (in ``folder``), when an Agent Plugins client
    loads the plugin; None when it rejects it. What it rejects is refused at its key,
    what it ignores warned of."""
    refused: list[tuple[tuple[int, int], str]] = []
    version = VERSIONS.get(data["$schema"])
    if version is None:
        refused.append(
            (
                at(text, "$schema"),
                f"$schema {data['$schema']!r} names no Agent Plugins version skillc "
                "knows (1.0.0; the 1.1.0 draft): a client rejects the plugin (§5.2)",
            )
        )
    elif version == DRAFT:
        report.warning(
            rel,
            *at(text, "$schema"),
            "draft-version",
            "the plugin targets the Agent Plugins 1.1.0 working draft: read by its "
            "rules; a client of 1.0.0 alone rejects it (§5.2)",
        )
    refused += _name(data.get("name"), text)
    for key in sorted(data.keys() - (DRAFT_FIELDS if version == DRAFT else FIELDS)):
        report.warning(
            rel,
            *at(text, key),
            "manifest-field-ignored",
            f"{key!r} is not an Agent Plugins manifest field: reported and ignored, "
            "as §5.2 says, never obeyed (skills are in skills/, MCP servers in "
            "mcp.json, §6.1; a client's own data goes under extensions)",
        )
    refused += _types(data, text, rel, report)
    for where, why in refused:
        refuse(report, AGENT_PLUGINS, rel, where, "invalid-plugin", why)
    _locations(folder, rel, report)
    return None if refused else data


def _name(name: Any, text: str) -> list[tuple[tuple[int, int], str]]:
    """§5.3, §5.5: periods are allowed (``acme.tools``)."""
    if isinstance(name, str) and NAME.fullmatch(name):
        return []
    shown = f"name {name!r}" if isinstance(name, str) else "a name string"
    return [
        (
            at(text, "name"),
            f"{shown}: Agent Plugins needs 1-64 lowercase letters, digits, '-' "
            "and '.', alphanumeric at both ends, no '--' nor '..'; a client rejects "
            "the plugin (§5.3, §5.5)",
        )
    ]


def _types(
    data: dict[str, Any], text: str, rel: str, report: Report
) -> list[tuple[tuple[int, int], str]]:
    """The manifest's fields of the wrong type or shape (§5.2, §5.4, §8.1)."""
    wrong = [key for key in STRINGS if key in data and not isinstance(data[key], str)]
    keywords = data.get("keywords", [])
    if not isinstance(keywords, list) or not all(isinstance(k, str) for k in keywords):
        wrong.append("keywords")
    refused = [
        (
            at(text, key),
            f"{key} must be {'a list of strings' if key == 'keywords' else 'a string'}"
            ": a client rejects the plugin (§5.4)",
        )
        for key in wrong
    ]
    for key, allowed, section in (
        ("author", AUTHOR, "§5.4"),
        ("presentation", PRESENTATION, "1.1.0 §5.7"),
    ):
        value = data.get(key, {})
        if not isinstance(value, dict) or any(
            k not in allowed or not isinstance(v, str) for k, v in value.items()
        ):
            refused.append(
                (
                    at(text, key),
                    f"{key} must be an object of {', '.join(sorted(allowed))} strings "
                    f"alone: a client rejects the plugin ({section})",
                )
            )
    extensions = data.get("extensions", {})
    if not isinstance(extensions, dict):
        report.warning(
            rel,
            *at(text, "extensions"),
            "manifest-field-ignored",
            "extensions is not an object: reported and ignored (§8.1)",
        )
    elif not all(isinstance(value, dict) for value in extensions.values()):
        refused.append(
            (
                at(text, "extensions"),
                "each extensions namespace must hold an object: a client rejects the "
                "plugin (§8.1, schemas/1.0.0/plugin.schema.json)",
            )
        )
    return refused


def _locations(folder: str, rel: str, report: Report) -> None:
    """§6.2: a fixed location of another kind invalidates its component type, refused
    where it is (``rel``: the manifest's path, beside it)."""
    for name, is_kind, kind in (
        (SKILLS, os.path.isdir, "a folder"),
        (MCP_FILE, os.path.isfile, "a file"),
    ):
        path = os.path.join(folder, name)
        if os.path.lexists(path) and not is_kind(path):
            where = posixpath.join(posixpath.dirname(rel), name)
            refuse(
                report,
                AGENT_PLUGINS,
                where,
                (1, 1),
                "invalid-plugin",
                f"{name} is not {kind}: an Agent Plugins client treats its component "
                "type as invalid (§6.2) and loads the rest",
            )


def folders(folder: str) -> list[tuple[str, str, str]]:
    """The client folders (``com.example.client/``) at the plugin's root."""
    return [
        ("client-folder", name, "files of the client of that name, for it alone")
        for name in sorted(os.listdir(folder))
        if NAMESPACE.match(name)
        and name != MCP_FILE  # mcp.json that is a folder: an invalid component
        and os.path.isdir(os.path.join(folder, name))
    ]
