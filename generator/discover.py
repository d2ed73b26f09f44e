"""Find the inputs under each source root: skills, subagents and plugins.

- a skill is a folder holding ``SKILL.md`` (found at any depth); the files below it are
  its bundled files (a nested skill folder keeps its own), every one an input: the MCP
  server and the well-known index publish each with the digest the lock records;
- a subagent is a ``*.md`` file directly inside a folder named ``agents`` that is not
  inside a skill folder (``.claude/agents/`` included);
- a command is a ``*.md`` file in a folder named ``commands`` or below it, not inside a
  skill folder (``.claude/commands/``, a plugin's ``commands/``);
- a plugin is a folder holding a plugin manifest of one of the formats, or one a
  marketplace lists (``generator/discover_plugins.py`` reads them and their layouts);
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

import fnmatch
import operator
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .diagnostics import Report
from .discover_plugins import PluginFolder, Plugins
from .discovered import Found as Found, Hook, Kind, McpServer, NotCompiled
from .discovered import relative as relative
from .filestat import Seen, stat_of
from .loaders.plugin import Plugin

SKIP_DIRS = frozenset({"node_modules", "__pycache__", "venv"})
VISIBLE_DOT_DIRS = frozenset({".claude", ".agents"})
# Other clients' folders: only their skills/ is walked (their agents and commands are
# in formats of their own).
SKILLS_ONLY_DOT_DIRS = frozenset({".codex", ".gemini", ".opencode"})
SKILL_FILE = "SKILL.md"
COMMANDS = "commands"
METADATA_FILE = "metadata.yaml"
TOOL_MANIFEST = "tool-manifest.yaml"
AI_TOOL = "ai-tool.yaml"
TOOLS_SUFFIX = ".tools.yaml"
SCRIPTS = "scripts/"
SCRIPT_SUFFIXES = (".py", ".sh", ".bash", ".js", ".mjs")


@dataclass(frozen=True, slots=True)
class Discovery:
    found: tuple[Found, ...]
    inputs: tuple[str, ...]  # every file the loaders will read, sorted
    # Plugins a marketplace entry defines (no plugin.json), by the key in Found.plugin.
    defined: dict[Path, Plugin] = field(default_factory=dict)
    not_compiled: tuple[NotCompiled, ...] = ()
    hooks: tuple[Hook, ...] = ()
    mcp_servers: tuple[McpServer, ...] = ()
    # The stats of the roots, folders and links the walk saw: see digests.unchanged.
    seen: Seen = field(default_factory=dict, repr=False, compare=False)


def discover(
    roots: list[Path],
    project: Path,
    skip: tuple[Path, ...],
    report: Report,
    exclude: tuple[str, ...] = (),
    max_bytes: int = 1 << 20,
) -> Discovery:
    """``skip``: folders builds write (the output, the cache), never walked nor seen;
    ``exclude``: globs (fnmatch, ``*`` crosses ``/``) of project-relative paths; a
    file is left out when its path or a folder above it matches one."""
    skipped = {os.path.realpath(folder) for folder in skip}
    walker = _Walker(os.fspath(project), skipped, report, max_bytes)
    for index, root in enumerate(roots):
        real = os.path.realpath(root)
        walker.seen[os.fspath(root)] = stat_of(os.fspath(root))
        before = len(walker.found)
        walker.plugins.marketplace(os.fspath(root))
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
    plugins = walker.plugins
    return Discovery(
        tuple(walker.found),
        tuple(inputs),
        plugins.defined,
        tuple(sorted(plugins.not_compiled, key=lambda n: (n.path, n.name))),
        tuple(plugins.hooks),
        tuple(plugins.servers),
        walker.seen,
    )


def _excluded(path: Path, project: Path, patterns: tuple[str, ...]) -> bool:
    rel = relative(path, project)
    parts = rel.split("/")
    candidates = ["/".join(parts[:end]) for end in range(1, len(parts) + 1)]
    return any(fnmatch.fnmatchcase(c, p) for c in candidates for p in patterns)


@dataclass
class _Skill:
    folder: str
    files: list[str] = field(default_factory=list)


class _Walker:
    def __init__(
        self, project: str, skip: set[str], report: Report, max_bytes: int
    ) -> None:
        self.project = project
        self.skip = skip
        self.report = report
        self.found: list[Found] = []
        self.inputs: set[str] = set()
        self.seen: Seen = {}
        self.plugins: Plugins = Plugins(project, report, self.inputs, max_bytes)

    def walk(
        self,
        folder: str,
        real: str,
        root: int,
        plugin: PluginFolder | None,
        skill: _Skill | None,
        ancestry: tuple[str, ...],
    ) -> None:
        """Walk ``folder`` (whose real path is ``real``; ``ancestry`` holds the real paths
        of the folders above it and its own, so only a symbolic link can loop)."""
        listing = self._scan(folder)
        if listing is None:
            return
        entries, files, folders = listing
        plugin = self.plugins.of(folder, entries, plugin)
        self.plugins.lookalikes(folder, entries)
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
            if (entry.is_symlink() or _is_dir(entry)) and entry.path not in self.skip:
                self.seen[entry.path] = stat_of(entry.path)  # see Discovery.seen
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
            if child not in self.skip:
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
        self, folder: str, files: list[str], root: int, plugin: PluginFolder | None
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

    def _warn(self, folder: str, code: str, message: str) -> None:
        self.report.warning(relative(folder, self.project), 1, 1, code, message)


def is_script(name: str, head: str | None = None) -> bool:
    """A file directly in a skill's ``scripts/`` folder that runs as a tool (seed 001): a
    known interpreter's extension or (when its text's ``head`` is given) a shebang line;
    never ``__init__.py`` nor a ``_private`` helper."""
    if not name.startswith(SCRIPTS) or "/" in name[len(SCRIPTS) :]:
        return False
    base = name[len(SCRIPTS) :]
    if base.startswith(("_", ".")):
        return False
    if base.endswith(SCRIPT_SUFFIXES):
        return True
    if head is None or "." in base:
        return head is None and "." not in base  # maybe a shebang script: look
    return head.startswith("#!")


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


def _key(plugin: PluginFolder | None) -> Path | None:
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
