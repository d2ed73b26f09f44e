"""Find the inputs under each source root: skills, subagents and plugins.

- a skill is a folder holding ``SKILL.md`` (found at any depth); the files below it are
  its bundled files (a nested skill folder keeps its own);
- a subagent is a ``*.md`` file directly inside a folder named ``agents`` that is not
  inside a skill folder (``.claude/agents/`` included);
- a command is a ``*.md`` file in a folder named ``commands`` or below it, not inside a
  skill folder (``.claude/commands/``, a plugin's ``commands/``);
- a plugin is a folder holding ``.claude-plugin/plugin.json``; what lies below it belongs
  to it;
- a tool manifest is a ``tool-manifest.yaml`` (outside a skill folder: inside one, it is
  the skill's), an ``ai-tool.yaml`` or a ``*.tools.yaml`` file.

One walk does it all. Symbolic links to folders are followed; a link back into its own
ancestry is reported and skipped. Hidden folders are skipped, except ``.claude`` and
``.agents`` (where Claude Code and other clients keep skills and subagents).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from generator.diagnostics import Report
from generator.ir import Kind

SKIP_DIRS = frozenset({"node_modules", "__pycache__", "venv"})
VISIBLE_DOT_DIRS = frozenset({".claude", ".agents"})
SKILL_FILE = "SKILL.md"
COMMANDS = "commands"
METADATA_FILE = "metadata.yaml"
PLUGIN_MANIFEST = os.path.join(".claude-plugin", "plugin.json")
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


@dataclass(frozen=True, slots=True)
class Discovery:
    found: tuple[Found, ...]
    inputs: tuple[str, ...]  # every file the loaders will read, sorted


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
) -> Discovery:
    """``exclude``: globs (fnmatch, ``*`` crosses ``/``) of project-relative paths; a
    file is left out when its path or a folder above it matches one."""
    walker = _Walker(os.fspath(project), os.path.realpath(skip), report)
    for index, root in enumerate(roots):
        real = os.path.realpath(root)
        before = len(walker.found)
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
    return Discovery(tuple(walker.found), tuple(inputs))


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


class _Walker:
    def __init__(self, project: str, skip: str, report: Report) -> None:
        self.project = project
        self.skip = skip
        self.report = report
        self.found: list[Found] = []
        self.inputs: set[str] = set()

    def walk(
        self,
        folder: str,
        real: str,
        root: int,
        plugin: str | None,
        skill: _Skill | None,
        ancestry: tuple[str, ...],
    ) -> None:
        """Walk ``folder`` (whose real path is ``real``; ``ancestry`` holds the real paths
        of the folders above it and its own, so only a symbolic link can loop)."""
        try:
            with os.scandir(folder) as scan:
                entries = sorted(scan, key=lambda entry: entry.name)
        except OSError as exc:  # an error: its tools would vanish from the output
            self.report.error(
                relative(folder, self.project),
                1,
                1,
                "file-unreadable",
                f"cannot read the folder: {exc.strerror}",
            )
            return
        files = {entry.name for entry in entries if _is_file(entry)}
        manifest = os.path.join(folder, PLUGIN_MANIFEST)
        if any(entry.name == ".claude-plugin" for entry in entries) and os.path.isfile(
            manifest
        ):
            plugin = manifest
            self.inputs.add(plugin)
        own: _Skill | None = None
        if SKILL_FILE in files:
            own = _Skill(folder)
            self.inputs.add(os.path.join(folder, SKILL_FILE))
            if METADATA_FILE in files:
                self.inputs.add(os.path.join(folder, METADATA_FILE))
            own.files.extend(
                n
                for n in sorted(files)
                if _bundled(n) and n not in (SKILL_FILE, METADATA_FILE)
            )
        elif skill is not None:
            base = folder[len(skill.folder) + 1 :].replace(os.sep, "/") + "/"
            skill.files.extend(base + name for name in sorted(files) if _bundled(name))
            if base == SCRIPTS:  # read for their descriptions: inputs of the build
                self.inputs.update(
                    os.path.join(folder, n) for n in files if is_script(base + n)
                )
        kind = None
        if skill is None and own is None:
            if os.path.basename(folder) == "agents":
                kind = Kind.AGENT
            elif COMMANDS in relative(folder, self.project).split("/"):
                kind = Kind.COMMAND  # subfolders of commands/ do not change the name
        if kind is not None:
            for name in sorted(files):
                if name.endswith(".md"):
                    path = os.path.join(folder, name)
                    self.inputs.add(path)
                    self.found.append(Found(kind, Path(path), root, _path(plugin)))
        self._manifests(
            folder, files, root, plugin, own is not None or skill is not None
        )
        inner = own or skill
        for entry in entries:
            name = entry.name
            if name in SKIP_DIRS or (
                name.startswith(".") and name not in VISIBLE_DOT_DIRS
            ):
                continue
            if not _is_dir(entry):
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
            if child == self.skip:
                continue
            self.walk(
                entry.path,
                child,
                root,
                plugin,
                None if name.startswith(".") else inner,
                (*ancestry, child),
            )
        if own is not None:
            path = os.path.join(folder, SKILL_FILE)
            self.found.append(
                Found(
                    Kind.SKILL,
                    Path(path),
                    root,
                    _path(plugin),
                    tuple(sorted(own.files)),
                )
            )

    def _manifests(
        self,
        folder: str,
        files: set[str],
        root: int,
        plugin: str | None,
        in_skill: bool,
    ) -> None:
        """Tool manifests; a skill's own tool-manifest.yaml goes with the skill."""
        for name in sorted(files):
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
                    Found(Kind.TOOL, Path(path), root, _path(plugin), manifest=kind)
                )

    def _warn(self, folder: str, code: str, message: str) -> None:
        self.report.warning(relative(folder, self.project), 1, 1, code, message)


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


def _path(text: str | None) -> Path | None:
    return None if text is None else Path(text)


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
