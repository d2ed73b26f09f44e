"""The project folder: where its ``[tool.skillc]`` is, which sources it has when none
are configured, and where its output may go (never over the project, a source, the
home folder or the file system's root)."""

from __future__ import annotations

import keyword
import os
import sys
from pathlib import Path


class ConfigError(Exception):
    """A usage or configuration error: exit status 2."""


class SettingsError(ConfigError):
    """Bad ``[tool.skillc]`` values: each a located error line of its own."""


# Where clients keep skills, subagents and commands (generator/harness has each
# client's), and the plain folders a catalogue keeps them in. Without a sources
# setting, whichever exist are the sources (in this order), unless the root is a
# marketplace or a plugin: then the root is, with every client's folder in it.
CLIENT_FOLDERS = (
    ".codex/skills",
    ".gemini/skills",
    ".opencode/skill",
    ".opencode/skills",
    ".cursor/skills",
    ".agents/skills",
    ".claude/skills",
    ".gemini/agents",
    ".claude/agents",
    ".claude/commands",
)
DEFAULT_SOURCES = (*CLIENT_FOLDERS, "skills", "agents")
# The manifests that make the root a marketplace or plugin repository.
ROOT_MANIFESTS = (
    ".claude-plugin/marketplace.json",
    ".claude-plugin/plugin.json",
    ".agents/plugins/marketplace.json",
    ".codex-plugin/plugin.json",
    "gemini-extension.json",
)


def find_root(start: Path) -> Path:
    """The nearest folder at or above ``start`` whose pyproject.toml has [tool.skillc]."""
    for folder in (start, *start.parents):
        pyproject = folder / "pyproject.toml"
        if pyproject.is_file() and "[tool.skillc" in pyproject.read_text(
            encoding="utf-8"
        ):
            return folder
    return start


# What a generated package imports besides the standard library, when installed.
RUNTIME_DEPENDENCIES = frozenset({"re2", "regex", "mcp"})


def check_package_name(name: str) -> None:
    """A package named like a module it (or Python) imports would shadow that module:
    ``import json`` inside it, or anywhere on the same path, would find the package."""
    if not name.isidentifier() or keyword.iskeyword(name):
        raise ConfigError(f"package name {name!r} is not a Python identifier")
    if name in sys.stdlib_module_names or name in RUNTIME_DEPENDENCIES:
        raise ConfigError(
            f"package name {name!r} shadows the module {name!r} that Python or the "
            "generated package imports; choose another --package or out folder name"
        )


def check_out(root: Path, sources: list[str], out: str, outside: bool) -> None:
    """The output folder must be inside the project (unless out-outside-project = true),
    and never the file system's root, the home folder, or a folder holding the project
    or a source root: a build may replace everything skillc owns there. Each source
    folder must exist, and neither hold the output folder nor lie in it."""
    project = root.resolve()
    out_dir = (project / out).resolve()
    paths = [(project / source).resolve() for source in sources]
    if out_dir in (Path(out_dir.anchor), Path.home().resolve()) or any(
        out_dir == path or out_dir in path.parents for path in (project, *paths)
    ):
        raise ConfigError(
            f"output folder {out!r} is the root, the home folder, the project, a source "
            "root or a folder holding one; choose a folder inside the project"
        )
    if not outside and project not in out_dir.parents:
        raise ConfigError(
            f"output folder {out!r} is outside the project folder; choose a folder "
            "inside it (or set out-outside-project = true in [tool.skillc])"
        )
    for source, path in zip(sources, paths):
        if not path.is_dir():
            raise ConfigError(f"source folder {source!r} does not exist")
        # Only the project's root may hold the output among its sources (a marketplace
        # repository's default source): discovery never walks into the output folder.
        inside = path in out_dir.parents and path != project
        if path == out_dir or out_dir in path.parents or inside:
            raise ConfigError(
                f"source folder {source!r} and output folder {out!r} overlap"
            )


def root_manifest(root: Path) -> str | None:
    """The manifest that makes ``root`` a marketplace or plugin repository, if any."""
    return next((m for m in ROOT_MANIFESTS if (root / m).is_file()), None)


def default_sources(root: Path) -> list[str]:
    if root_manifest(root) is not None:
        return ["."]  # a marketplace or plugin repository: every view it ships
    found = [source for source in DEFAULT_SOURCES if (root / source).is_dir()]
    if found:
        return found
    raise ConfigError(
        f"no source folder: none of {', '.join(DEFAULT_SOURCES)} exists, nor "
        f"{' or '.join(ROOT_MANIFESTS)}; set [tool.skillc] sources or pass --source DIR"
    )


def import_path(root: Path, out: str, package: str) -> tuple[str, str]:
    """The folder the output is imported from (repo-relative) and its dotted import path:
    every enclosing folder with an ``__init__.py`` is part of it, so ``src/app/agent_tools``
    inside the package ``app`` is ``app.agent_tools``, imported from ``src``."""
    project = root.resolve()
    folder = (project / out).resolve().parent
    parts = [package]
    while folder != project and (folder / "__init__.py").is_file():
        parts.insert(0, folder.name)
        folder = folder.parent
    # os.path.relpath: with out-outside-project the folder may lie beside the project.
    relative = Path(os.path.relpath(folder, project)).as_posix()
    return relative, ".".join(parts)


def read_pyproject(root: Path) -> str:
    """The project's pyproject.toml ("" when it has none)."""
    pyproject = root / "pyproject.toml"
    try:
        return pyproject.read_text(encoding="utf-8") if pyproject.is_file() else ""
    except UnicodeDecodeError as exc:
        raise ConfigError(f"pyproject.toml: {exc}") from None


def relative(root: Path, path: str) -> str:
    project = root.resolve()
    return Path(os.path.relpath((project / path).resolve(), project)).as_posix()
