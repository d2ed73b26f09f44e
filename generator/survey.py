"""A bounded scan of a whole repository for what looks like a definition: every
``SKILL.md``, every ``*.md`` in a folder named ``agents`` (a subagent) or below one
named ``commands`` (a command), every plugin manifest and marketplace of the formats
skillc knows. It never enters version control, ``node_modules``, virtual
environments, caches or the folders named in ``skip`` (the output).

``skillc init`` reads the repository with it; a build uses it to say what lies outside
every source (``outside``)."""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from .discovered import NotCompiled, relative
from .harness import is_agent_plugin

# Never entered: version control, dependencies, virtual environments, caches.
SKIPPED = frozenset(
    {".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv"}
    | {".tox", ".nox", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".cache"}
)
# Folders whose definitions are another project's or a build's.
VENDORED = frozenset({"vendor", "vendored", "third_party", "third-party", "dist"})
MANIFESTS = (
    ".claude-plugin/plugin.json",
    ".codex-plugin/plugin.json",
    ".cursor-plugin/plugin.json",
    "gemini-extension.json",
    "plugin.json",
)
MARKETPLACES = (
    ".claude-plugin/marketplace.json",
    ".agents/plugins/marketplace.json",
    ".cursor-plugin/marketplace.json",
)
MOST_FOLDERS = 50_000
MAX_MARKETPLACE = 1 << 22  # bytes of a marketplace file read to look at it


@dataclass
class Survey:
    """What a scan found, as project-relative POSIX paths."""

    definitions: list[tuple[str, str]] = field(default_factory=list)  # (kind, path)
    manifests: list[str] = field(default_factory=list)  # plugin manifests
    marketplaces: list[str] = field(default_factory=list)
    links: list[str] = field(default_factory=list)  # links to nothing
    cut: bool = False  # more folders than MOST_FOLDERS: the scan stopped


def scan(root: Path, skip: tuple[Path, ...] = ()) -> Survey:
    """Every definition-like file below ``root`` (see the module's docstring)."""
    found = Survey()
    skipped = {os.path.realpath(path) for path in skip}
    looked = 0
    base = os.fspath(root)
    for folder, folders, files in os.walk(base):
        looked += 1
        if looked > MOST_FOLDERS:
            found.cut = True
            break
        rel = relative(folder, base) if folder != base else ""
        folders[:] = sorted(
            name
            for name in folders
            if name not in SKIPPED
            and os.path.realpath(os.path.join(folder, name)) not in skipped
            and not os.path.isfile(os.path.join(folder, name, "pyvenv.cfg"))
        )
        _files(found, rel, folder, sorted(files))  # (a link to nothing is a file)
    return found


def _files(found: Survey, rel: str, folder: str, files: list[str]) -> None:
    parts = rel.split("/") if rel else []
    for name in files:
        path = f"{rel}/{name}" if rel else name
        full = os.path.join(folder, name)
        if os.path.islink(full) and not os.path.exists(full):
            found.links.append(path)
        if name == "SKILL.md":
            found.definitions.append(("skill", path))
        elif name.endswith(".md") and "agents" in parts:
            found.definitions.append(("agent", path))
        elif name.endswith(".md") and "commands" in parts:
            found.definitions.append(("command", path))
        elif any(path == m or path.endswith("/" + m) for m in MARKETPLACES):
            if _lists_plugins(full):
                found.marketplaces.append(path)
        elif any(path == m or path.endswith("/" + m) for m in MANIFESTS[:-1]):
            found.manifests.append(path)
        elif name == "plugin.json" and is_agent_plugin(full):
            found.manifests.append(path)


def _lists_plugins(path: str) -> bool:
    """Whether the marketplace file at ``path`` lists plugins (another tool's file of
    the name, or a broken one, is no marketplace to choose)."""
    try:
        with open(path, "rb") as file:
            data = json.loads(file.read(MAX_MARKETPLACE))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and isinstance(data.get("plugins"), list)


def counted(kinds: Counter[str]) -> str:
    """``3 skills, 1 subagent``."""
    words = {"skill": "skill", "agent": "subagent", "command": "command"}
    return ", ".join(
        f"{kinds[kind]:,} {word}{'s' * (kinds[kind] != 1)}"
        for kind, word in words.items()
        if kinds[kind]
    )


def outside(
    project: Path, sources: list[Path], skip: tuple[Path, ...]
) -> list[tuple[str, NotCompiled]]:
    """What looks like a definition outside every source, one entry per top folder of
    the project that holds some, and why it is not compiled; with how many of each kind
    (for the info line: report.json keeps the entry alone, which a new test fixture
    does not change)."""
    roots = [relative(source, project) for source in sources]
    if "." in roots or "" in roots:
        return []
    found = scan(project, (*skip, *sources))
    groups: dict[str, Counter[str]] = {}
    for kind, path in found.definitions:
        top = path.split("/")[0] if "/" in path else "."
        groups.setdefault(top, Counter())[kind] += 1
    return [
        (counted(kinds), NotCompiled(top, "", f"outside every source: {_why(top)}"))
        for top, kinds in sorted(groups.items())
    ]


def _why(top: str) -> str:
    if top in VENDORED:
        return "vendored or generated"
    return (
        f'add "{top}" (or a folder in it) to sources to compile them as installed, '
        "each by the rules of the client whose layout holds it"
    )
