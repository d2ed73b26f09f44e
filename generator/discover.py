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
ancestry is reported and skipped. Of the dot folders, ``.claude`` and ``.agents`` are
walked whole, the folders of other clients (``.codex``, ``.gemini``, ``.opencode``,
``.cursor``) for the subfolders a client reads, and any dot folder below a ``skills``
folder (``skills/.curated/``); the others (``.git`` and tools' caches aside) are only
looked through for definitions, which are reported. What each client the build
follows reaches of what was found, and what is left out, is ``discover_views``'s.
Nothing is dropped silently: an entry named ``SKILL.md`` or like a tool manifest that
is not a readable file (a link to nothing or to itself, a FIFO, a folder), and an entry
whose name is not UTF-8, are errors at their place, so the build fails and the last
output, with the tools they were, stays.
"""

from __future__ import annotations

import fnmatch
import operator
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from . import discover_views as views
from .diagnostics import Report
from .discover_plugins import PluginFolder, Plugins
from .discovered import Found as Found, Hook, Kind, McpServer, NotCompiled
from .discovered import relative as relative
from .discover_files import AI_TOOL, SKILL_FILE, is_dir, is_file, is_input
from .discover_files import TOOL_MANIFEST as TOOL_MANIFEST
from .discover_files import TOOLS_SUFFIX as TOOLS_SUFFIX
from .discover_files import is_bundled, not_a_file, shown
from .discover_files import has_tools as has_tools
from .discover_files import is_script as is_script
from .filestat import Seen, stat_of
from .harness import marked
from .harness.views import Reach, locate
from .loaders.plugin import Plugin

SKIP_DIRS = frozenset({"node_modules", "__pycache__", "venv"})
VISIBLE_DOT_DIRS = views.VISIBLE_DOT_DIRS
# Other clients' folders: the subfolders a client reads are walked (.gemini: skills and
# agents); the others are only looked through.
CLIENT_DOT_DIRS = {
    name: children
    for name, children in views.client_folders().items()
    if name not in VISIBLE_DOT_DIRS
}
# Dot folders of version control, virtual environments and tools' caches: never read.
NOT_CONTENT = frozenset(
    {".git", ".hg", ".svn", ".venv", ".tox", ".nox", ".cache", ".idea", ".vscode"}
    | {".mypy_cache", ".pytest_cache", ".ruff_cache", ".DS_Store"}
)
COMMANDS = "commands"
METADATA_FILE = "metadata.yaml"


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
    # The clients the build follows, and each one's view of the place of every item
    # in a client's layout, by project-relative path (discover_views).
    targets: tuple[str, ...] = ()
    reach: dict[str, dict[str, Reach]] = field(default_factory=dict)


def discover(
    roots: list[Path],
    project: Path,
    skip: tuple[Path, ...],
    report: Report,
    exclude: tuple[str, ...] = (),
    max_bytes: int = 1 << 20,
    harnesses: tuple[str, ...] = (),
) -> Discovery:
    """``skip``: folders builds write (the output, the cache), never walked nor seen;
    ``exclude``: globs (fnmatch, ``*`` crosses ``/``) of project-relative paths; a
    file is left out when its path or a folder above it matches one; ``harnesses``:
    the clients the build follows (none: those whose layouts the sources use)."""
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
    plugins = walker.plugins
    met = walker.marks | views.marks_of(roots, project)
    placed = views.place(walker.found, plugins.met, roots, project, harnesses, met)
    placed.left_hidden(walker.hidden, project, exclude)
    placed.left_singles(walker.singles, project)
    placed.left_outside(project, roots, skip, exclude)
    placed.broken(walker.broken, report)
    dropped = views.inputs_of(placed.left) - views.inputs_of(placed.kept)
    inputs = sorted(
        path
        for path in walker.inputs - dropped
        if not exclude or not _excluded(Path(path), project, exclude)
    )
    views.summarise(placed.not_compiled, placed.causes, report, placed.counts)
    left = [*plugins.not_compiled, *placed.not_compiled]
    return Discovery(
        tuple(placed.kept),
        tuple(inputs),
        plugins.defined,
        tuple(sorted(left, key=lambda n: (n.path, n.name))),
        tuple(plugins.hooks),
        tuple(plugins.servers),
        walker.seen,
        targets=placed.targets,
        reach=placed.reach,
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
        self.marks: set[str] = set()  # the clients whose layouts the walk met
        self.hidden: list[str] = []  # dot folders only looked through
        self.singles: list[str] = []  # single-file skills in clients' skills folders
        # Links to nothing in clients' layouts, with each client's view of the place.
        self.broken: dict[str, dict[str, Reach]] = {}
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
        self.marks |= marked(folder, (entry.name for entry in entries))
        plugin = self.plugins.of(folder, entries, plugin)
        self.plugins.lookalikes(folder, entries)
        own = self._own_skill(folder, files)
        if own is None and skill is not None:
            self._bundled_files(folder, files, skill)
        if skill is None and own is None:
            self._components(folder, files, root, plugin)
            self.singles += views.single_files(folder, files)
        self._manifests(
            folder, files, root, _key(plugin), own is not None or skill is not None
        )
        inner = own or skill
        read = CLIENT_DOT_DIRS.get(os.path.basename(folder))
        if read is not None:  # another client's folder: what it reads of it
            self.hidden += [e.path for e in folders if e.name not in read]
            folders = [entry for entry in folders if entry.name in read]
        for entry, child in self._subfolders(folders, ancestry, real, folder):
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
            if is_file(entry):
                files.append(entry.name)
            elif is_input(entry.name):  # where a skill or manifest was expected
                self._unreadable(entry.path, "SKILL.md" == entry.name)
            elif is_dir(entry):
                folders.append(entry)
            elif entry.is_symlink():  # to nothing: a skill folder in a client's?
                self._unreadable(entry.path, False, folder=True)
            if (entry.is_symlink() or is_dir(entry)) and entry.path not in self.skip:
                self.seen[entry.path] = stat_of(entry.path)  # see Discovery.seen
        return entries, files, folders

    def _unreadable(self, path: str, skill: bool, folder: bool = False) -> None:
        """An entry that is not a readable file or folder: an error at its place; one
        in a client's layout (a skill's link in a mirror whose targets moved) is that
        client's, said once the clients the build follows are known (``broken``)."""
        rel = relative(path, self.project)
        where = f"{rel}/SKILL.md" if folder else rel
        reach = locate("skill", where, None) if skill or folder else {}
        if reach:
            self.broken[rel] = reach
        elif not folder:
            self._error(path, "file-unreadable", not_a_file(path))

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
                f"the name '{shown(name)}' is not valid UTF-8; rename it",
            )
        return False

    def _error(self, path: str, code: str, message: str) -> None:
        self.report.error(shown(relative(path, self.project)), 1, 1, code, message)

    def _own_skill(self, folder: str, files: list[str]) -> _Skill | None:
        """The skill whose ``SKILL.md`` is in this folder, with its files here."""
        if SKILL_FILE not in files:
            return None
        own = _Skill(folder)
        bundled = [n for n in files if is_bundled(n)]
        self.inputs.update(os.path.join(folder, n) for n in bundled)
        own.files.extend(n for n in bundled if n not in (SKILL_FILE, METADATA_FILE))
        return own

    def _bundled_files(self, folder: str, files: list[str], skill: _Skill) -> None:
        """Files of a folder below a skill's: bundled with it, and inputs of the build
        (scripts are read for their descriptions, and every file is published with its
        digest)."""
        base = folder[len(skill.folder) + 1 :].replace(os.sep, "/") + "/"
        bundled = [name for name in files if is_bundled(name)]
        skill.files.extend(base + name for name in bundled)
        self.inputs.update(os.path.join(folder, name) for name in bundled)
        if base == "agents/" and "openai.yaml" in files:  # Codex's settings
            self.inputs.add(os.path.join(folder, "openai.yaml"))

    def _subfolders(
        self,
        folders: list[os.DirEntry[str]],
        ancestry: tuple[str, ...],
        real: str,
        folder: str,
    ) -> Iterator[tuple[os.DirEntry[str], str]]:
        """The folders to walk into, with their real paths: not the skipped ones
        (``node_modules``..., the output folder, dot folders no client reads: those
        are looked through), nor a link that loops."""
        for entry in folders:
            name = entry.name
            if name in SKIP_DIRS or name in NOT_CONTENT:
                continue
            if name.startswith(".") and not self._walked(name, folder):
                self.hidden.append(entry.path)
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

    def _walked(self, name: str, folder: str) -> bool:
        """Whether the dot folder ``name`` in ``folder`` is walked: a client's own,
        or one below a ``skills`` folder (a catalogue's ``skills/.curated``)."""
        if name in VISIBLE_DOT_DIRS or name in CLIENT_DOT_DIRS:
            return True
        return "skills" in relative(folder, self.project).split("/")

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
        elif os.path.basename(folder) == "agents" or views.in_agents(
            folder, self.project
        ):
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


# A folder's entries by name, the names of its files and the entries of its folders.
_Listing = tuple[list[os.DirEntry[str]], list[str], list[os.DirEntry[str]]]
_name = operator.attrgetter("name")


def _key(plugin: PluginFolder | None) -> Path | None:
    return None if plugin is None else Path(plugin.key)
