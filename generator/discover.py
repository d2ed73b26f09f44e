"""Find the inputs under each source root: skills, subagents and plugins.

- a skill is a folder holding ``SKILL.md`` (found at any depth);
- a subagent is a ``*.md`` file directly inside a folder named ``agents`` that is not
  inside a skill folder (``.claude/agents/`` included);
- a plugin is a folder holding ``.claude-plugin/plugin.json``; what lies below it belongs
  to it.

Symbolic links to folders are followed once; a link back into its own ancestry is
reported and skipped.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from generator.diagnostics import Report
from generator.ir import Kind

SKIP_DIRS = frozenset({"node_modules", "__pycache__", "venv"})
VISIBLE_DOT_DIRS = frozenset({".claude", ".agents"})
MAX_BUNDLED_FILES = 500


@dataclass(frozen=True, slots=True)
class Found:
    kind: Kind
    path: Path  # SKILL.md or the subagent file
    root: int
    plugin: Path | None  # the plugin.json of the enclosing plugin


def relative(path: Path, project: Path) -> str:
    """A repo-relative POSIX path (``..`` segments when outside the project)."""
    return Path(os.path.relpath(path, project)).as_posix()


def discover(
    roots: list[Path], project: Path, skip: Path, report: Report
) -> list[Found]:
    found: list[Found] = []
    for index, root in enumerate(roots):
        _walk(root, index, None, False, (), project, skip, report, found)
    return found


def _walk(
    folder: Path,
    root: int,
    plugin: Path | None,
    in_skill: bool,
    ancestry: tuple[tuple[int, int], ...],
    project: Path,
    skip: Path,
    report: Report,
    found: list[Found],
) -> None:
    try:
        info = folder.stat()
        entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
    except OSError as exc:
        report.warning(
            relative(folder, project), 1, 1, "file-unreadable", str(exc.strerror)
        )
        return
    identity = (info.st_dev, info.st_ino)
    if identity in ancestry:
        report.warning(
            relative(folder, project),
            1,
            1,
            "symlink-loop",
            "symbolic link loops back into a folder being scanned; skipped",
        )
        return
    ancestry = (*ancestry, identity)
    names = {entry.name for entry in entries}
    manifest = folder / ".claude-plugin" / "plugin.json"
    if ".claude-plugin" in names and manifest.is_file():
        plugin = manifest
    is_skill = "SKILL.md" in names and (folder / "SKILL.md").is_file()
    if is_skill:
        found.append(Found(Kind.SKILL, folder / "SKILL.md", root, plugin))
    if folder.name == "agents" and not in_skill:
        for entry in entries:
            if entry.name.endswith(".md") and entry.is_file():
                found.append(Found(Kind.AGENT, Path(entry.path), root, plugin))
    for entry in entries:
        if not _descend(entry, skip):
            continue
        _walk(
            Path(entry.path),
            root,
            plugin,
            in_skill or is_skill,
            ancestry,
            project,
            skip,
            report,
            found,
        )


def _descend(entry: os.DirEntry[str], skip: Path) -> bool:
    name = entry.name
    if name in SKIP_DIRS or (name.startswith(".") and name not in VISIBLE_DOT_DIRS):
        return False
    try:
        return entry.is_dir() and Path(entry.path).resolve() != skip
    except OSError:
        return False


def bundled_files(skill_dir: Path, rel: str, report: Report) -> tuple[str, ...]:
    """Files a skill ships beside SKILL.md, relative to its folder (nested skills excluded)."""
    files: list[str] = []
    seen: set[tuple[int, int]] = set()
    for current, dirs, names in os.walk(skill_dir, followlinks=True):
        here = Path(current)
        try:
            stat = here.stat()
        except OSError:
            dirs[:] = []
            continue
        if (stat.st_dev, stat.st_ino) in seen:
            dirs[:] = []
            continue
        seen.add((stat.st_dev, stat.st_ino))
        dirs[:] = sorted(
            d
            for d in dirs
            if d not in SKIP_DIRS
            and not d.startswith(".")
            and not (here / d / "SKILL.md").is_file()
        )
        for name in sorted(names):
            if name.startswith(".") or name.endswith(".pyc"):
                continue
            path = (here / name).relative_to(skill_dir).as_posix()
            if path not in ("SKILL.md", "metadata.yaml"):
                files.append(path)
    files.sort()
    if len(files) > MAX_BUNDLED_FILES:
        report.warning(
            rel,
            1,
            1,
            "too-many-files",
            f"the skill folder has {len(files)} files; the first {MAX_BUNDLED_FILES} are listed",
        )
        del files[MAX_BUNDLED_FILES:]
    return tuple(files)
