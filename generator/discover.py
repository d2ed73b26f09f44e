"""Find the inputs under each source root: skills, subagents and plugins.

- a skill is a folder holding ``SKILL.md`` (found at any depth); the files below it are
  its bundled files (a nested skill folder keeps its own), every one an input: the MCP
  server and the well-known index publish each with the digest the lock records;
- a subagent is a ``*.md`` file directly inside a folder named ``agents`` that is not
  inside a skill folder (``.claude/agents/`` included);
- a command is a ``*.md`` file in a folder named ``commands`` or below it, not inside a
  skill folder (``.claude/commands/``, a plugin's ``commands/``);
- a plugin is a folder holding a plugin manifest of one of PLUGIN_FORMATS (Claude
  Code's ``.claude-plugin/plugin.json``, Codex's ``.codex-plugin/plugin.json``, an Agent
  Plugins ``plugin.json``, a Gemini CLI ``gemini-extension.json``), or one listed with a
  local source by a marketplace of a source root (Claude Code's or Codex's); what lies
  below it belongs to it. Its ``agents/`` (searched at any depth, subfolders joining the
  name) and ``commands/`` are replaced by the folders or files its ``agents`` and
  ``commands`` list; what it holds that skillc does not compile, and the manifests of
  clients skillc does not read (``.cursor-plugin/``...), are reported;
- a tool manifest is a ``tool-manifest.yaml`` (outside a skill folder: inside one, it is
  the skill's), an ``ai-tool.yaml`` or a ``*.tools.yaml`` file.

One walk does it all. Symbolic links to folders are followed; a link back into its own
ancestry is reported and skipped. Hidden folders are skipped, except ``.claude`` and
``.agents`` (where Claude Code and other clients keep skills and subagents), and the
``skills/`` of ``.codex``, ``.gemini`` and ``.opencode``. Nothing is
dropped silently: an entry named ``SKILL.md`` or like a tool manifest that is not a
readable file (a link to nothing or to itself, a FIFO, a folder), and an entry whose
name is not UTF-8, are errors at their place, so the build fails and the last output,
with the tools they were, stays.
"""

from __future__ import annotations

import functools
import operator
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from generator.diagnostics import Report
from generator.ir import Hook, Kind, McpServer, NotCompiled

if TYPE_CHECKING:  # the plugin loaders are imported when a plugin is met
    from generator.loaders.plugin import Layout, Plugin

SKIP_DIRS = frozenset({"node_modules", "__pycache__", "venv"})
VISIBLE_DOT_DIRS = frozenset({".claude", ".agents"})
# Other clients' folders: only their skills/ is walked (their agents and commands are
# in formats of their own).
SKILLS_ONLY_DOT_DIRS = frozenset({".codex", ".gemini", ".opencode"})
SKILL_FILE = "SKILL.md"
COMMANDS = "commands"
METADATA_FILE = "metadata.yaml"
# Each plugin format's loader module, the first of a folder's manifests defining the
# plugin: Claude Code's, Codex's, Agent Plugins 1.0's, a Gemini CLI extension's.
PLUGIN_FORMATS = (
    "generator.loaders.plugin",
    "generator.loaders.codex_plugin",
    "generator.loaders.agent_plugin",
    "generator.loaders.gemini_extension",
)
# Marketplaces at a source root: Claude Code's, and Codex's (the same entries).
MARKETPLACES = (".claude-plugin/marketplace.json", ".agents/plugins/marketplace.json")
# Other clients' plugin manifests, kept in the same repositories: never read.
LOOKALIKES = frozenset({".cursor-plugin", ".kimi-plugin"})
TOOL_MANIFEST = "tool-manifest.yaml"
AI_TOOL = "ai-tool.yaml"
TOOLS_SUFFIX = ".tools.yaml"
SCRIPTS = "scripts/"
SCRIPT_SUFFIXES = (".py", ".sh", ".bash", ".js", ".mjs")


@dataclass(frozen=True, slots=True)
class Found:
    kind: Kind
    path: Path  # SKILL.md or the subagent file
    root: int
    plugin: Path | None  # the plugin.json of the enclosing plugin
    files: tuple[str, ...] = ()  # a skill's bundled files, relative to its folder
    manifest: str = (
        ""  # a tool manifest's format: "tool-manifest", "ai-tool" or "tools"
    )
    subfolders: tuple[str, ...] = ()  # a plugin subagent's folders below agents/


@dataclass(frozen=True, slots=True)
class Discovery:
    found: tuple[Found, ...]
    inputs: tuple[str, ...]  # every file the loaders will read, sorted
    # Plugins a marketplace entry defines (no plugin.json), by the key in Found.plugin.
    defined: dict[Path, Plugin] = field(default_factory=dict)
    not_compiled: tuple[NotCompiled, ...] = ()
    hooks: tuple[Hook, ...] = ()
    mcp_servers: tuple[McpServer, ...] = ()


def relative(path: Path | str, project: Path | str) -> str:
    """A repo-relative POSIX path (``..`` segments when outside the project)."""
    text, base = os.fspath(path), os.fspath(project)
    if text.startswith(base + os.sep):
        return text[len(base) + 1 :].replace(os.sep, "/")
    return Path(os.path.relpath(text, base)).as_posix()


def discover(
    roots: list[Path],
    project: Path,
    skip: Path,
    report: Report,
    exclude: tuple[str, ...] = (),
    max_bytes: int = 1 << 20,
) -> Discovery:
    """``exclude``: globs (fnmatch, ``*`` crosses ``/``) of project-relative paths; a
    file is left out when its path or a folder above it matches one."""
    walker = _Walker(os.fspath(project), os.path.realpath(skip), report, max_bytes)
    for index, root in enumerate(roots):
        real = os.path.realpath(root)
        before = len(walker.found)
        walker.marketplace(os.fspath(root))
        walker.walk(os.fspath(root), real, index, None, None, (real,))
        if exclude:
            walker.found = [
                f for f in walker.found if not _excluded(f.path, project, exclude)
            ]
        if len(walker.found) == before:
            walker._warn(
                os.fspath(root),
                "empty-source",
                "this source root holds no skill, subagent or tool manifest",
            )
    inputs = sorted(
        path
        for path in walker.inputs
        if not exclude or not _excluded(Path(path), project, exclude)
    )
    return Discovery(
        tuple(walker.found),
        tuple(inputs),
        walker.defined,
        tuple(sorted(walker.not_compiled, key=lambda n: (n.path, n.name))),
        tuple(walker.hooks),
        tuple(walker.servers),
    )


def _excluded(path: Path, project: Path, patterns: tuple[str, ...]) -> bool:
    import fnmatch

    rel = relative(path, project)
    parts = rel.split("/")
    candidates = ["/".join(parts[:end]) for end in range(1, len(parts) + 1)]
    return any(fnmatch.fnmatchcase(c, p) for c in candidates for p in patterns)


@dataclass
class _Skill:
    folder: str
    files: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class _Plugin:
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


class _Walker:
    def __init__(self, project: str, skip: str, report: Report, max_bytes: int) -> None:
        self.project = project
        self.max_bytes = max_bytes  # of the plugin and marketplace manifests read here
        self.skip = skip
        self.report = report
        self.found: list[Found] = []
        self.inputs: set[str] = set()
        self.declared: dict[str, _Plugin] = {}  # folders a marketplace gives a plugin
        self.defined: dict[Path, Plugin] = {}
        self.not_compiled: list[NotCompiled] = []
        self.hooks: list[Hook] = []
        self.servers: list[McpServer] = []

    def marketplace(self, root: str) -> None:
        """Read the root's marketplaces, if any: their local plugins are declared for
        the walk, their remote ones reported."""
        for market_file in MARKETPLACES:
            path = os.path.join(root, *market_file.split("/"))
            if os.path.isfile(path):
                self._marketplace(root, path)

    def _marketplace(self, root: str, path: str) -> None:
        from generator.loaders import plugin as claude
        from generator.loaders.marketplace import read_marketplace
        from generator.loaders.plugin import layout, plugin_from

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
                entry.definition, rel, relative(folder, self.project), self.report
            )
            if plugin is None:
                continue
            self.defined[Path(key)] = plugin
            self._extras(entry.name, folder, entry.definition, rel)
            self._uncompiled(entry.name, folder, entry.definition, rel, claude)
            context = _Plugin(
                key, folder, layout(entry.definition, market.text, rel, self.report)
            )
            self._left_out(entry.name, folder, context.layout, rel)
            self.declared.setdefault(folder, context)
            for (
                skill
            ) in context.layout.skills:  # a shared folder: ./ in anthropics/skills
                self.declared[os.path.normpath(os.path.join(folder, skill))] = context

    def walk(
        self,
        folder: str,
        real: str,
        root: int,
        plugin: _Plugin | None,
        skill: _Skill | None,
        ancestry: tuple[str, ...],
    ) -> None:
        """Walk ``folder`` (whose real path is ``real``; ``ancestry`` holds the real paths
        of the folders above it and its own, so only a symbolic link can loop)."""
        listing = self._scan(folder)
        if listing is None:
            return
        entries, files, folders = listing
        plugin = self._plugin(folder, entries, plugin)
        self._lookalikes(folder, entries)
        own = self._own_skill(folder, files)
        if own is None and skill is not None:
            self._bundled_files(folder, files, skill)
        if skill is None and own is None:
            self._components(folder, files, root, plugin)
        self._manifests(
            folder, files, root, _key(plugin), own is not None or skill is not None
        )
        inner = own or skill
        if os.path.basename(folder) in SKILLS_ONLY_DOT_DIRS:
            folders = [entry for entry in folders if entry.name == "skills"]
        for entry, child in self._subfolders(folders, ancestry, real):
            below = None if entry.name.startswith(".") else inner
            self.walk(entry.path, child, root, plugin, below, (*ancestry, child))
        if own is not None:  # after the walk below it: its bundled files are known
            path = Path(os.path.join(folder, SKILL_FILE))
            files_below = tuple(sorted(own.files))
            self.found.append(Found(Kind.SKILL, path, root, _key(plugin), files_below))

    def _scan(self, folder: str) -> _Listing | None:
        """The folder's entries, its files' names and its subfolders' entries, each by
        name (one look at each entry); None (and an error) when it cannot be read."""
        try:
            with os.scandir(folder) as scan:
                entries = sorted(scan, key=_name)
        except OSError as exc:  # an error: its tools would vanish from the output
            self.report.error(
                relative(folder, self.project),
                1,
                1,
                "file-unreadable",
                f"cannot read the folder: {exc.strerror}",
            )
            return None
        files, folders = [], []
        for entry in entries:
            if not self._readable_name(entry):
                continue
            if _is_file(entry):
                files.append(entry.name)
            elif _is_input(entry.name):  # where a skill or manifest was expected
                self._error(entry.path, "file-unreadable", _not_a_file(entry.path))
            elif _is_dir(entry):
                folders.append(entry)
        return entries, files, folders

    def _readable_name(self, entry: os.DirEntry[str]) -> bool:
        """Whether the entry's name is UTF-8 (a name that is not cannot name a tool,
        nor be written into the output): an error where it could hold an input."""
        name = entry.name
        try:
            name.encode("utf-8")
            return True
        except UnicodeEncodeError:
            pass
        if not (name.startswith(".") or name in SKIP_DIRS):
            self._error(
                entry.path,
                "name-not-utf8",
                f"the name '{_shown(name)}' is not valid UTF-8; rename it",
            )
        return False

    def _error(self, path: str, code: str, message: str) -> None:
        self.report.error(_shown(relative(path, self.project)), 1, 1, code, message)

    def _plugin(
        self, folder: str, entries: list[os.DirEntry[str]], plugin: _Plugin | None
    ) -> _Plugin | None:
        """The plugin the folder belongs to: one a marketplace declared for it, one its
        own manifest defines (the first of PLUGIN_FORMATS it holds; another naming the
        same plugin is read with it), or the enclosing one."""
        if self.declared:  # a marketplace's plugins
            declared = self.declared.get(os.path.normpath(folder))
            if declared is not None:
                return declared
        if not any(entry.name in _manifest_entries() for entry in entries):
            return plugin
        from generator.loaders.plugin import read_manifest

        defined: _Plugin | None = None
        name = None
        for form in plugin_formats():
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
                defined, name = _Plugin(manifest, folder, found), own
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

    def _own_skill(self, folder: str, files: list[str]) -> _Skill | None:
        """The skill whose ``SKILL.md`` is in this folder, with its files here."""
        if SKILL_FILE not in files:
            return None
        own = _Skill(folder)
        bundled = [n for n in files if _bundled(n)]
        self.inputs.update(os.path.join(folder, n) for n in bundled)
        own.files.extend(n for n in bundled if n not in (SKILL_FILE, METADATA_FILE))
        return own

    def _bundled_files(self, folder: str, files: list[str], skill: _Skill) -> None:
        """Files of a folder below a skill's: bundled with it, and inputs of the build
        (scripts are read for their descriptions, and every file is published with its
        digest)."""
        base = folder[len(skill.folder) + 1 :].replace(os.sep, "/") + "/"
        bundled = [name for name in files if _bundled(name)]
        skill.files.extend(base + name for name in bundled)
        self.inputs.update(os.path.join(folder, name) for name in bundled)
        if base == "agents/" and "openai.yaml" in files:  # Codex's settings
            self.inputs.add(os.path.join(folder, "openai.yaml"))

    def _subfolders(
        self, folders: list[os.DirEntry[str]], ancestry: tuple[str, ...], real: str
    ) -> Iterator[tuple[os.DirEntry[str], str]]:
        """The folders to walk into, with their real paths: not the skipped ones
        (hidden, ``node_modules``..., the output folder), nor a link that loops."""
        for entry in folders:
            name = entry.name
            if name in SKIP_DIRS or (
                name.startswith(".")
                and name not in VISIBLE_DOT_DIRS | SKILLS_ONLY_DOT_DIRS
            ):
                continue
            child = (
                os.path.realpath(entry.path)
                if entry.is_symlink()
                else os.path.join(real, name)
            )
            if child in ancestry:
                self._warn(
                    entry.path,
                    "symlink-loop",
                    "a symbolic link loops back into a folder being scanned; skipped",
                )
                continue
            if child != self.skip:
                yield entry, child

    def _manifests(
        self,
        folder: str,
        files: list[str],
        root: int,
        plugin: Path | None,
        in_skill: bool,
    ) -> None:
        """Tool manifests; a skill's own tool-manifest.yaml goes with the skill."""
        for name in files:
            if name == TOOL_MANIFEST:
                kind = "" if in_skill else "tool-manifest"
            elif name == AI_TOOL:
                kind = "ai-tool"
            elif name.endswith(TOOLS_SUFFIX) and len(name) > len(TOOLS_SUFFIX):
                kind = "tools"
            else:
                continue
            path = os.path.join(folder, name)
            self.inputs.add(path)
            if kind:
                self.found.append(
                    Found(Kind.TOOL, Path(path), root, plugin, manifest=kind)
                )

    def _components(
        self, folder: str, files: list[str], root: int, plugin: _Plugin | None
    ) -> None:
        """Subagents and commands: a plugin's where its layout says, elsewhere in any
        folder named ``agents`` (not below) or in and below one named ``commands``."""
        kind: Kind | None = None
        subfolders: tuple[str, ...] = ()
        if plugin is not None:
            found = plugin.kind(folder, False)
            if found is not None:
                kind, subfolders = found
                if kind is Kind.COMMAND:
                    subfolders = ()  # subfolders of commands/ do not change the name
        elif os.path.basename(folder) == "agents":
            kind = Kind.AGENT
        elif COMMANDS in relative(folder, self.project).split("/"):
            kind = Kind.COMMAND
        for name in files:
            if not name.endswith(".md"):
                continue
            path = os.path.join(folder, name)
            listed = None if plugin is None else plugin.kind(path, True)
            file_kind = kind if listed is None else listed[0]
            if file_kind is None:
                continue
            self.inputs.add(path)
            self.found.append(
                Found(
                    file_kind,
                    Path(path),
                    root,
                    _key(plugin),
                    subfolders=subfolders if file_kind is Kind.AGENT else (),
                )
            )

    def _extras(
        self,
        name: str,
        folder: str,
        manifest: dict[str, Any],
        rel: str,
        form: ModuleType | None = None,
    ) -> None:
        """A plugin's hooks and MCP servers (``form``: its format's module)."""
        from generator.loaders import plugin as claude
        from generator.loaders.plugin_extras import read_extras

        form = form or claude
        hooks, servers = read_extras(
            name,
            folder,
            manifest,
            rel,
            lambda path: relative(path, self.project),
            self.report,
            self.max_bytes,
            form.MCP_FILE,
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
        from generator.loaders.plugin_extras import uncompiled

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
        from generator.loaders.plugin import left_out

        for path, reason in left_out(Path(folder), found):
            where = relative(os.path.join(folder, path), self.project)
            self._not_compiled(where, name, reason, "component")
            self.report.warning(
                rel, 1, 1, "component-not-compiled", f"{where}: {reason}"
            )

    def _lookalikes(self, folder: str, entries: list[os.DirEntry[str]]) -> None:
        """Other clients' plugin manifests skillc does not read: Cursor's and Kimi's,
        and a Codex marketplace that is not at a source root."""
        for entry in entries:
            market = os.path.join(entry.path, "marketplace.json")
            if entry.name in LOOKALIKES or (
                entry.name == "plugins"
                and os.path.basename(folder) == ".agents"
                and market not in self.inputs
            ):
                self._not_compiled(
                    relative(entry.path, self.project),
                    "",
                    "another client's plugin manifests: not read (skillc reads "
                    "Claude Code's, Codex's, Agent Plugins' and Gemini CLI's, and "
                    "marketplaces at a source root)",
                    "manifest",
                )

    def _warn(self, folder: str, code: str, message: str) -> None:
        self.report.warning(relative(folder, self.project), 1, 1, code, message)


@functools.cache
def plugin_formats() -> tuple[ModuleType, ...]:
    """Each plugin format's loader module, in PLUGIN_FORMATS order."""
    import importlib

    return tuple(importlib.import_module(name) for name in PLUGIN_FORMATS)


@functools.cache
def _manifest_entries() -> frozenset[str]:
    """The first part of each format's manifest path: a folder holding none of them
    holds no manifest."""
    return frozenset(form.MANIFEST.split("/")[0] for form in plugin_formats())


def plugin_format(manifest: Path) -> ModuleType:
    """The format of the plugin manifest at ``manifest``."""
    text = manifest.as_posix()
    return next(f for f in plugin_formats() if text.endswith("/" + f.MANIFEST))


def _json(text: str) -> dict[str, Any]:
    """A manifest's object as written (problems with it are reported where it is
    read as a plugin)."""
    import json

    try:
        data = json.loads(text)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _has_manifest(folder: str) -> bool:
    """Whether ``folder`` holds a plugin manifest of any format."""
    return any(
        os.path.isfile(os.path.join(folder, *form.MANIFEST.split("/")))
        for form in plugin_formats()
    )


def is_script(name: str, path: Path | None = None) -> bool:
    """A file directly in a skill's ``scripts/`` folder that runs as a tool (seed 001): a
    known interpreter's extension or (when ``path`` is given) a shebang line; never
    ``__init__.py`` nor a ``_private`` helper."""
    if not name.startswith(SCRIPTS) or "/" in name[len(SCRIPTS) :]:
        return False
    base = name[len(SCRIPTS) :]
    if base.startswith(("_", ".")):
        return False
    if base.endswith(SCRIPT_SUFFIXES):
        return True
    if path is None or "." in base:
        return path is None and "." not in base  # maybe a shebang script: look
    try:
        with path.open("rb") as handle:
            return handle.read(2) == b"#!"
    except OSError:
        return False


def has_tools(files: tuple[str, ...]) -> bool:
    """Whether a skill may bring tools: a tool-manifest.yaml or scripts."""
    return TOOL_MANIFEST in files or any(is_script(name) for name in files)


def _bundled(name: str) -> bool:
    return not name.startswith(".") and not name.endswith(".pyc")


def _is_input(name: str) -> bool:
    """Whether a file of this name is read as a skill or a tool manifest."""
    return name in (SKILL_FILE, TOOL_MANIFEST, AI_TOOL) or (
        name.endswith(TOOLS_SUFFIX) and len(name) > len(TOOLS_SUFFIX)
    )


def _not_a_file(path: str) -> str:
    """Why ``path``, where a file was expected, is none (for an error)."""
    import stat

    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "a symbolic link to nothing, not a file: its tools cannot be read"
    except OSError as exc:
        return f"cannot be read ({exc.strerror}): its tools cannot be read"
    kind = "a folder" if stat.S_ISDIR(mode) else "a FIFO, socket or device"
    return f"{kind}, not a file: its tools cannot be read"


def _shown(text: str) -> str:
    """A path or name as text that can be printed and stored: bytes that are not UTF-8
    (surrogates in Python's file names) written as ``\\xff``."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


# A folder's entries by name, the names of its files and the entries of its folders.
_Listing = tuple[list[os.DirEntry[str]], list[str], list[os.DirEntry[str]]]
_name = operator.attrgetter("name")


def _key(plugin: _Plugin | None) -> Path | None:
    return None if plugin is None else Path(plugin.key)


def _is_file(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file()
    except OSError:
        return False


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False
