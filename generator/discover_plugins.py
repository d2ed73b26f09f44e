"""Discovery's plugins: which folders are plugins, and what their layouts say.

A plugin is a folder holding a plugin manifest of one of ``FORMATS``
(Claude Code's ``.claude-plugin/plugin.json``, Codex's ``.codex-plugin/plugin.json``,
Cursor's ``.cursor-plugin/plugin.json``, an Agent Plugins ``plugin.json``, a Gemini
CLI ``gemini-extension.json``), or one listed
with a local source by a marketplace of a source root (Claude Code's or Codex's); what
lies below it belongs to it. Its ``agents/`` (searched at any depth, subfolders joining
the name) and ``commands/`` are replaced by the folders or files its ``agents`` and
``commands`` list; its hooks and MCP servers are read with it; what it holds that
skillc does not compile, and the manifests of clients skillc does not read
(``.kimi-plugin/``, Cursor's marketplace...), are reported, never dropped silently.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from .diagnostics import Report
from .discovered import Hook, Kind, McpServer, NotCompiled, relative
from .loaders import agent_plugin, codex_plugin, cursor_plugin, gemini_extension
from .loaders import plugin as claude
from .loaders.marketplace import read_marketplace
from .loaders.plugin import Layout, Plugin, layout, left_out, plugin_from
from .loaders.plugin import read_manifest
from .loaders.plugin_extras import read_extras, uncompiled

# Each plugin format's loader module, which names its manifest: the first a folder
# holds defines the plugin (Cursor's before Agent Plugins', whose plugin.json ends
# theirs: plugin_format takes the first whose manifest a path ends with).
FORMATS: tuple[ModuleType, ...] = (
    claude,
    codex_plugin,
    cursor_plugin,
    agent_plugin,
    gemini_extension,
)
PLUGIN_MANIFESTS = tuple(form.MANIFEST for form in FORMATS)
# The first part of each format's manifest path: a folder holding none of them holds no
# manifest.
MANIFEST_ENTRIES = frozenset(manifest.split("/")[0] for manifest in PLUGIN_MANIFESTS)

# Marketplaces at a source root: Claude Code's, and Codex's (the same entries).
MARKETPLACES = (".claude-plugin/marketplace.json", ".agents/plugins/marketplace.json")
# Other clients' plugin manifests, kept in the same repositories: never read (Cursor's
# marketplace is not; its plugins are read by their own .cursor-plugin/plugin.json).
LOOKALIKES = frozenset({".kimi-plugin"})
CURSOR_MARKETPLACE = ".cursor-plugin/marketplace.json"


@dataclass(frozen=True, slots=True)
class PluginFolder:
    key: str  # its plugin.json, or marketplace.json#name for an entry-defined plugin
    folder: str
    layout: Layout

    def kind(self, path: str, is_file: bool) -> tuple[Kind, tuple[str, ...]] | None:
        """Whether ``path`` (a folder, or a file listed by name) holds subagents or
        commands, with the subfolders below the listed folder."""
        rel = os.path.relpath(path, self.folder).replace(os.sep, "/")
        for kind, listed in (
            (Kind.AGENT, self.layout.agents),
            (Kind.COMMAND, self.layout.commands),
        ):
            for base in listed if listed is not None else (kind.value + "s",):
                if rel == base and is_file == base.endswith(".md"):
                    return kind, ()
                if not is_file and rel.startswith(base + "/"):
                    return kind, tuple(rel[len(base) + 1 :].split("/"))
        return None


@dataclass
class Plugins:
    """The plugins met by one discovery, and what they hold that is not compiled
    (``inputs``: the discovery's, to which the manifests read here are added)."""

    project: str
    report: Report
    inputs: set[str]
    max_bytes: int  # of the plugin and marketplace manifests read here
    declared: dict[str, PluginFolder] = field(default_factory=dict)  # by marketplaces
    met: dict[str, PluginFolder] = field(default_factory=dict)  # every one, by key
    defined: dict[Path, Plugin] = field(default_factory=dict)
    not_compiled: list[NotCompiled] = field(default_factory=list)
    hooks: list[Hook] = field(default_factory=list)
    servers: list[McpServer] = field(default_factory=list)

    def marketplace(self, root: str) -> None:
        """Read the root's marketplaces, if any: their local plugins are declared for
        the walk, their remote ones reported."""
        for market_file in MARKETPLACES:
            path = os.path.join(root, *market_file.split("/"))
            if os.path.isfile(path):
                self._marketplace(root, path)

    def _marketplace(self, root: str, path: str) -> None:
        self.inputs.add(path)
        rel = relative(path, self.project)
        market = read_marketplace(Path(path), rel, self.report, self.max_bytes)
        if market is None:
            return
        for name, source in market.remote:
            self.not_compiled.append(
                NotCompiled(
                    rel, name, f"remote source ({source}): not fetched", "plugin"
                )
            )
        for entry in market.entries:
            folder = os.path.normpath(os.path.join(root, entry.folder))
            if not os.path.isdir(folder):
                self.report.error(
                    rel,
                    1,
                    1,
                    "invalid-plugin-path",
                    f"plugin {entry.name!r}: "
                    f"source folder {entry.folder or '.'!r} does not exist",
                )
                continue
            if entry.strict and _has_manifest(folder):
                continue  # its manifest defines it; the walk finds it
            earlier = self.declared.get(folder)
            if earlier is not None and not earlier.key.startswith(path + "#"):
                continue  # the root's other marketplace declared it first
            key = f"{path}#{entry.name}"
            plugin = plugin_from(
                entry.definition,
                rel,
                relative(folder, self.project),
                self.report,
            )
            if plugin is None:
                continue
            self.defined[Path(key)] = plugin
            self._extras(entry.name, folder, entry.definition, rel)
            self._uncompiled(entry.name, folder, entry.definition, rel, claude)
            context = PluginFolder(
                key, folder, layout(entry.definition, market.text, rel, self.report)
            )
            self._left_out(entry.name, folder, context.layout, rel)
            self.declared.setdefault(folder, context)
            self.met[key] = context
            for (
                skill
            ) in context.layout.skills:  # a shared folder: ./ in anthropics/skills
                self.declared[os.path.normpath(os.path.join(folder, skill))] = context

    def of(
        self, folder: str, entries: list[os.DirEntry[str]], plugin: PluginFolder | None
    ) -> PluginFolder | None:
        """The plugin the folder belongs to: one a marketplace declared for it, one its
        own manifest defines (the first of PLUGIN_FORMATS it holds; another naming the
        same plugin is read with it), or the enclosing one."""
        if self.declared:  # a marketplace's plugins
            declared = self.declared.get(os.path.normpath(folder))
            if declared is not None:
                return declared
        if not any(entry.name in MANIFEST_ENTRIES for entry in entries):
            return plugin
        defined: PluginFolder | None = None
        name = None
        for form in FORMATS:
            manifest = os.path.join(folder, *form.MANIFEST.split("/"))
            if not os.path.isfile(manifest):
                continue
            rel = relative(manifest, self.project)
            report = self.report if defined is None else Report()
            found, data, text = read_manifest(
                Path(manifest), rel, report, self.max_bytes, form
            )
            if data is None:
                continue  # not of this format (a plugin.json of something else)
            self.inputs.add(manifest)
            own = data.get("name") if isinstance(data.get("name"), str) else None
            if defined is None:
                defined, name = PluginFolder(manifest, folder, found), own
                self.met[manifest] = defined
                if own is not None:
                    self._extras(own, folder, data, rel, form)
                    self._left_out(own, folder, found, rel)
            elif own != name:
                self._not_compiled(
                    rel,
                    own or "",
                    f"names another plugin than {relative(defined.key, self.project)}"
                    f" ({name!r}), which defines this folder: not read",
                    "manifest",
                )
                continue
            if own is not None:
                self._uncompiled(own, folder, _json(text), rel, form)
        return defined or plugin

    def _extras(
        self,
        name: str,
        folder: str,
        manifest: dict[str, Any],
        rel: str,
        form: ModuleType | None = None,
    ) -> None:
        """A plugin's hooks and MCP servers (``form``: its format's module)."""
        form = form or claude
        hooks, servers = read_extras(
            name,
            folder,
            manifest,
            rel,
            lambda path: relative(path, self.project),
            self.report,
            self.max_bytes,
            form,
        )
        self.hooks += hooks
        self.servers += servers
        sources = {hook.source for hook in hooks} | {mcp.source for mcp in servers}
        for source in sources - {rel}:
            self.inputs.add(os.path.join(self.project, source))

    def _uncompiled(
        self,
        name: str,
        folder: str,
        manifest: dict[str, Any],
        rel: str,
        form: ModuleType,
    ) -> None:
        """What the plugin holds that skillc does not compile: in the report, with a
        ``component-not-compiled`` warning at its manifest."""
        for kind, path, does in uncompiled(form, folder, manifest, rel):
            where = (
                path
                if path == rel
                else relative(os.path.join(folder, path), self.project)
            )
            self._not_compiled(where, name, f"{does}; not compiled", kind)
            self.report.warning(
                rel, 1, 1, "component-not-compiled", f"{where}: {kind}: {does}"
            )

    def _not_compiled(self, path: str, name: str, reason: str, kind: str) -> None:
        self.not_compiled.append(NotCompiled(path, name, reason, kind))

    def _left_out(self, name: str, folder: str, found: Layout, rel: str) -> None:
        """Component folders a plugin's layout leaves out, or lists but lacks: reported
        (and a warning at its manifest), never dropped silently."""
        for path, reason in left_out(Path(folder), found):
            where = relative(os.path.join(folder, path), self.project)
            self._not_compiled(where, name, reason, "component")
            self.report.warning(
                rel, 1, 1, "component-not-compiled", f"{where}: {reason}"
            )

    def lookalikes(self, folder: str, entries: list[os.DirEntry[str]]) -> None:
        """Other clients' plugin manifests skillc does not read: Kimi's, Cursor's
        marketplace, and a Codex marketplace that is not at a source root."""
        for entry in entries:
            if entry.name in LOOKALIKES or (
                entry.name == "plugins"
                and os.path.basename(folder) == ".agents"
                and os.path.join(entry.path, "marketplace.json") not in self.inputs
            ):
                self._not_compiled(
                    relative(entry.path, self.project),
                    "",
                    "another client's plugin manifests: not read (skillc reads "
                    "Claude Code's, Codex's, Cursor's, Agent Plugins' and Gemini "
                    "CLI's, and marketplaces at a source root)",
                    "manifest",
                )
        market = os.path.join(folder, *CURSOR_MARKETPLACE.split("/"))
        if any(e.name == ".cursor-plugin" for e in entries) and os.path.isfile(market):
            self._not_compiled(
                relative(market, self.project),
                "",
                "Cursor's marketplace: not read (each of its plugins is read by its "
                "own .cursor-plugin/plugin.json)",
                "manifest",
            )


def _json(text: str) -> dict[str, Any]:
    """A manifest's object as written (problems with it are reported where it is
    read as a plugin)."""
    try:
        data = json.loads(text)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _has_manifest(folder: str) -> bool:
    """Whether ``folder`` holds a plugin manifest of any format."""
    return any(
        os.path.isfile(os.path.join(folder, *manifest.split("/")))
        for manifest in PLUGIN_MANIFESTS
    )


def plugin_format(manifest: Path) -> ModuleType:
    """The format of the plugin manifest at ``manifest``."""
    text = manifest.as_posix()
    return next(f for f in FORMATS if text.endswith("/" + f.MANIFEST))
