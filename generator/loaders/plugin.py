"""Claude Code plugins: ``.claude-plugin/plugin.json``. ``name`` namespaces the plugin's
skills, subagents and commands (``task.<plugin>.<skill>``); the component paths
(``skills``, ``commands``, ``agents``) tell discovery where they are.

This is one plugin format of several (``discover_plugins.FORMATS``); each module of one
names its manifest (``MANIFEST``), its client, the components skillc does not compile
(``UNCOMPILED``), and turns its manifest into the definition read here
(``definition``: Claude Code's keys). The reading below is shared by all of them."""

from __future__ import annotations

from dataclasses import dataclass

import json
import os
import posixpath
import re
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

from ..loaders import claude_manifest, frontmatter
from ..diagnostics import Report, position
from ..discovered import relative

NAME_RULE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
MANIFEST = ".claude-plugin/plugin.json"
CLIENT = "Claude Code"
MCP_FILE = ".mcp.json"  # its MCP servers when plugin.json names none
# What a Claude Code plugin may hold that skillc does not compile: (kind, its key in
# plugin.json or "", its default file or folder or "", what Claude Code does with it).
UNCOMPILED = (
    ("lsp-servers", "lspServers", ".lsp.json", "language servers it starts"),
    ("output-styles", "outputStyles", "output-styles", "replacements of its prompt"),
    ("themes", "", "themes", "colour themes of its interface"),
    (
        "monitors",
        "monitors",
        "monitors/monitors.json",
        "commands it watches in the background",
    ),
    ("workflows", "workflows", "workflows", "workflows it runs"),
    ("user-config", "userConfig", "", "settings it asks the user for on enabling"),
    ("channels", "channels", "", "channels that deliver messages into a session"),
    ("dependencies", "dependencies", "", "other plugins (semver) installed with it"),
    ("settings", "", "settings.json", "settings it applies while the plugin is on"),
    ("bin", "", "bin", "executables put on its Bash tool's PATH"),
)


def definition(data: dict[str, Any]) -> dict[str, Any] | None:
    """The plugin's definition: Claude Code's own manifest, as it is."""
    return data


vetted = claude_manifest.vetted  # what makes Claude Code refuse the plugin


@dataclass(frozen=True, slots=True)
class Plugin:
    name: str
    description: str
    path: str
    folder: str = (
        ""  # the plugin's folder, project-relative (for ${CLAUDE_PLUGIN_ROOT})
    )


@dataclass(frozen=True, slots=True)
class Layout:
    """Where a plugin keeps its components, relative to its folder (``./`` removed).
    ``skills`` adds to ``skills/``; ``commands`` and ``agents`` replace their default
    folder when set (None: the default)."""

    skills: tuple[str, ...] = ()
    commands: tuple[str, ...] | None = None
    agents: tuple[str, ...] | None = None


def left_out(folder: Path, found: Layout) -> list[tuple[str, str]]:
    """What a plugin's layout leaves uncompiled, as (path relative to ``folder``,
    reason): a default ``commands/`` or ``agents/`` folder that a custom path replaces,
    and a listed component path that does not exist."""
    gaps = []
    for key, listed in (
        ("skills", found.skills),
        ("commands", found.commands),
        ("agents", found.agents),
    ):
        if listed is None:
            continue
        shown = ", ".join(f"./{path}" for path in listed) or "nothing"
        inside = any(path == key or path.startswith(key + "/") for path in listed)
        if key != "skills" and not inside and (folder / key).is_dir():
            gaps.append(
                (key, f'replaced by plugin.json\'s "{key}" ({shown}): not compiled')
            )
        for path in listed:
            if path and not (folder / path).exists():
                gaps.append((path, f'listed in plugin.json\'s "{key}": not found'))
    return gaps


def load_plugin(
    path: Path, project: Path, report: Report, max_bytes: int, form: ModuleType
) -> Plugin | None:
    """The plugin whose manifest, in the format of module ``form``, is ``path``."""
    rel = relative(path, project)
    text = frontmatter.read(path, rel, report, max_bytes)
    if text is None:
        return None
    data = frontmatter.parse_json(text, rel, report)
    if data is None:  # not JSON skillc reads: said where, not again as a missing name
        return None
    folder = plugin_folder(path, form)
    if isinstance(data, dict):
        data = as_read(form, data, text, rel, folder, report)
        if data is None:
            return None  # refused by its client: none of it is compiled
    defined = form.definition(data) if isinstance(data, dict) else data
    return plugin_from(defined, rel, relative(folder, project), report, form_rule(form))


def form_rule(form: ModuleType) -> re.Pattern[str] | None:
    """The name rule whose break is a warning: Claude Code's kebab-case, unless the
    format checks names of its own (``NAME_RULE = None``)."""
    rule: re.Pattern[str] | None = getattr(form, "NAME_RULE", NAME_RULE)
    return rule


def as_read(
    form: ModuleType,
    data: dict[str, Any],
    text: str,
    rel: str,
    folder: Path,
    report: Report,
) -> dict[str, Any] | None:
    """The manifest ``rel`` as the client of format ``form`` reads it (the format's
    ``vetted``), or None when that client refuses the plugin: each refusal an error at
    its key."""
    vet = getattr(form, "vetted", None)
    if vet is None:
        return data
    kept: dict[str, Any] | None = vet(data, text, rel, os.fspath(folder), report)
    return kept


def plugin_folder(manifest: Path, form: ModuleType) -> Path:
    """The folder of the plugin whose manifest, of format ``form``, is ``manifest``."""
    folder = manifest.parent
    for _ in range(form.MANIFEST.count("/")):
        folder = folder.parent
    return folder


def plugin_from(
    data: Any,
    rel: str,
    folder: str,
    report: Report,
    rule: re.Pattern[str] | None = NAME_RULE,
) -> Plugin | None:
    """A plugin from its definition: a plugin.json or a marketplace entry. A name
    that breaks ``rule`` (Claude Code's kebab-case; None: its format checked it) is a
    warning."""
    name = data.get("name") if isinstance(data, dict) else None
    if not isinstance(name, str) or not name:
        report.error(rel, 1, 1, "invalid-plugin", 'plugin.json needs a "name" string')
        return None
    if rule is not None and not rule.match(name):
        said = "is not kebab-case" if rule is NAME_RULE else f"breaks {rule.pattern}"
        report.warning(rel, 1, 1, "invalid-plugin", f"plugin name {name!r} {said}")
    description = data.get("description")
    return Plugin(
        name, description if isinstance(description, str) else "", rel, folder
    )


def read_manifest(
    path: Path, rel: str, report: Report, max_bytes: int, form: ModuleType
) -> tuple[Layout, dict[str, Any] | None, str]:
    """A manifest's component paths, its definition (Claude Code's keys) and its text;
    path problems are reported (its JSON errors are left to ``load_plugin``, which
    reads it again). The definition is None when the file is not of the format
    (an Agent Plugins ``plugin.json`` without its ``$schema``)."""
    quiet = Report()
    text = frontmatter.read(path, rel, quiet, max_bytes)
    data = None if text is None else frontmatter.parse_json(text, rel, quiet)
    defined = form.definition(data if isinstance(data, dict) else {})
    if defined is None:
        return Layout(), None, text or ""
    if text is None or not isinstance(data, dict):
        return Layout(), {}, ""
    data = as_read(form, data, text, rel, plugin_folder(path, form), report)
    if data is None:
        return Layout(), {}, text  # refused: a plugin of no name, with nothing to read
    defined = form.definition(data)
    return layout(defined, text, rel, report), defined, text


def layout(data: Mapping[str, Any], text: str, rel: str, report: Report) -> Layout:
    """``text`` is the manifest's source, to locate a bad path in it."""

    def paths(key: str) -> tuple[str, ...] | None:
        value = data.get(key)
        if value is None:
            return None
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
            _error(
                rel,
                text,
                key,
                None,
                f'"{key}" must be a path or a list of paths',
                report,
            )
            return None
        kept = []
        for item in items:
            clean = _component_path(item, key, rel, text, report)
            if clean is not None:
                kept.append(clean)
        return tuple(kept)

    return Layout(paths("skills") or (), paths("commands"), paths("agents"))


def _component_path(
    item: str, key: str, rel: str, text: str, report: Report
) -> str | None:
    if item == "." and key == "skills":
        return ""
    if not item.startswith("./"):
        _error(
            rel, text, key, item, f"{key} path {item!r} must start with './'", report
        )
        return None
    if ".." in item.split("/"):
        _error(
            rel,
            text,
            key,
            item,
            f"{key} path {item!r} leaves the plugin ('..')",
            report,
        )
        return None
    clean = posixpath.normpath(item)
    return "" if clean == "." else clean


def _error(
    rel: str, text: str, key: str, needle: str | None, message: str, report: Report
) -> None:
    """An ``invalid-plugin-path`` error where ``needle`` is quoted after ``key`` (at
    ``key`` when None)."""
    start = max(text.find(json.dumps(key)), 0)
    offset = start
    if needle is not None:
        offset = text.find(json.dumps(needle), start + len(json.dumps(key)))
        offset = start if offset < 0 else offset
    report.error(rel, *position(text, offset), "invalid-plugin-path", message)
