"""The Agent Skills whose files are published, with each file's digest and size: what
the MCP server serves as SEP-2640 skills and the well-known index lists.

A published skill is one models are offered (not ``disable-model-invocation``) whose
``SKILL.md`` frontmatter has the ``name`` and ``description`` both specifications
require, the name by the Agent Skills naming rules. Its files are every input below its
folder (so a nested skill's files too, as SEP-2640 asks), each with the sha256 the lock
records for it. A skill that cannot be published stays a tool and a prompt, with a
``skill-not-published`` warning saying why; one with a file that leads out of its
folder (``confined``), with a ``symlink-escapes-skill`` error at the link.
"""

from __future__ import annotations

from dataclasses import dataclass

import bisect
import os
import posixpath
import re
from urllib.parse import quote
from collections.abc import Mapping
from typing import Any

from ..config import Config
from ..emitters import confined
from ..diagnostics import Report
from ..ir import UNREADABLE
from ..views import PackageView, ToolView

SKILL_FILE = "SKILL.md"
# The Agent Skills naming rules: 1-64 characters, lowercase letters, digits and single
# hyphens inside.
NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
MAX_NAME = 64
MAX_DESCRIPTION = 1024
# SEP-2640's per-skill limits: what every conforming host accepts.
MAX_FILES = 512
MAX_BYTES = 16 * 1024 * 1024
# A file's MIME type by its extension: a fixed table, so that the output does not
# depend on the machine's mime.types.
MIME_TYPES = {
    ".md": "text/markdown",
    ".markdown": "text/markdown",
    ".txt": "text/plain",
    ".py": "text/x-python",
    ".sh": "text/x-shellscript",
    ".bash": "text/x-shellscript",
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".ts": "text/plain",
    ".json": "application/json",
    ".yaml": "application/yaml",
    ".yml": "application/yaml",
    ".toml": "application/toml",
    ".csv": "text/csv",
    ".html": "text/html",
    ".css": "text/css",
    ".xml": "application/xml",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".pdf": "application/pdf",
    ".zip": "application/zip",
}
BINARY = "application/octet-stream"


@dataclass(frozen=True, slots=True)
class File:
    path: str  # relative to the skill's folder
    sha256: str  # as the lock records it
    size: int
    linked_out: bool = False  # a symbolic link to a place outside the project

    @property
    def mime_type(self) -> str:
        return MIME_TYPES.get(posixpath.splitext(self.path)[1].lower(), BINARY)

    @property
    def uri_path(self) -> str:
        return "/".join(quote(part, safe="") for part in self.path.split("/"))


@dataclass(frozen=True, slots=True)
class Published:
    tool: ToolView
    path: str  # the skill path: its folder below its source root, ending in its name
    name: str
    description: str
    folder: str  # project-relative
    frontmatter: dict[str, Any]  # as written, as JSON data
    files: tuple[File, ...]  # SKILL.md first, then by path


def published(package: PackageView, config: Config, report: Report) -> list[Published]:
    """The offered skills whose files can be published, by skill path."""
    sources = sorted(package.sources, key=lambda s: s.path)
    paths = [source.path for source in sources]
    found: dict[str, Published] = {}
    escapes = _Escapes(os.fspath(config.root.resolve()), report)
    for tool in sorted(package.offered, key=lambda t: t.qualname):
        if tool.agent_skill is None:
            continue
        skill = tool.agent_skill
        folder = skill.folder
        prefix = "" if folder in ("", ".") else folder + "/"
        files = []  # the sources below the folder: a run of the sorted paths
        for source in sources[bisect.bisect_left(paths, prefix) :]:
            if not source.path.startswith(prefix):
                break
            path = source.path[len(prefix) :]
            files.append(File(path, source.sha256, source.size, source.linked_out))
        files.sort(key=lambda f: (f.path != SKILL_FILE, f.path))
        name, description = skill.frontmatter.get("name"), skill.frontmatter.get(
            "description"
        )
        why = _unpublishable(name, description, files)
        if why is None and name != tool.name:  # one name in every output
            why = (
                f"its frontmatter name {name!r} is not the name its clients give it "
                f"({tool.name!r}); make its name and its folder one"
            )
        try:
            frontmatter = json_data(skill.frontmatter)
        except ValueError as exc:
            why = why or f"its frontmatter holds what JSON cannot ({exc})"
        path = _skill_path(folder, config.sources, str(name))
        if why is None and path in found:
            why = f"skill://{path} is already {found[path].tool.qualname}'s"
        if why is None and escapes.found(tool, folder, files):
            continue  # an error said why
        if why is not None:
            report.warning(
                tool.source.path,
                1,
                1,
                "skill-not-published",
                f"{tool.qualname} is a tool and a prompt, but its files are not "
                f"published (MCP skills, well-known index): {why}",
            )
            continue
        assert isinstance(name, str) and isinstance(description, str)
        assert isinstance(frontmatter, dict)
        found[path] = Published(
            tool, path, name, description, folder, frontmatter, tuple(files)
        )
    return [found[path] for path in sorted(found)]


class _Escapes:
    """Files of a skill that lead out of its folder: an error at each link (once, when
    two skills hold it), and the skill's files are not published (``confined``)."""

    def __init__(self, project: str, report: Report) -> None:
        self.project = project
        self.report = report
        self.said: set[str] = set()

    def found(self, tool: ToolView, folder: str, files: list[File]) -> bool:
        place = confined.Folder(self.project, folder)
        escapes = [e for e in map(place.escape, (f.path for f in files)) if e]
        for link, target in sorted(set(escapes)):
            if link not in self.said:
                self.said.add(link)
                self.report.error(
                    link,
                    1,
                    1,
                    "symlink-escapes-skill",
                    f"a symbolic link to {target}, out of the skill folder "
                    f"{folder or '.'}/: {tool.qualname}'s files are not published "
                    "(MCP skills, well-known index), or they would publish it",
                )
        return bool(escapes)


def json_data(value: Any) -> Any:
    """YAML data as JSON data (read-only mappings as dicts); ValueError when it holds
    what JSON cannot (a binary value, a set, a key that is not text)."""
    if isinstance(value, Mapping):
        if not all(isinstance(key, str) for key in value):
            raise ValueError("a key that is not text")
        return {key: json_data(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_data(item) for item in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    raise ValueError(type(value).__name__)


def _unpublishable(name: Any, description: Any, files: list[File]) -> str | None:
    """Why a skill cannot be published; None when it can."""
    if not isinstance(name, str) or not name:
        return "its frontmatter has no name"
    if len(name) > MAX_NAME or not NAME.fullmatch(name):
        return f"its name {name!r} breaks the Agent Skills naming rules"
    if not isinstance(description, str) or not description.strip():
        return "its frontmatter has no description"
    if len(description) > MAX_DESCRIPTION:
        return f"its description is longer than {MAX_DESCRIPTION:,} characters"
    unreadable = [f.path for f in files if f.sha256 == UNREADABLE]
    if unreadable:
        return f"{unreadable[0]} cannot be read"
    linked = [f.path for f in files if f.linked_out]
    if linked:  # it may be anything of the machine's: a secret
        return f"{linked[0]} is a symbolic link to a place outside the project"
    if len(files) > MAX_FILES:
        return f"it has {len(files):,} files; hosts need accept only {MAX_FILES}"
    total = sum(f.size for f in files)
    if total > MAX_BYTES:
        return f"its files hold {total:,} bytes; hosts need accept only {MAX_BYTES:,}"
    return None


def _skill_path(folder: str, roots: tuple[str, ...], name: str) -> str:
    """The skill's folder below the source root that holds it, its last segment the
    skill's name (as SEP-2640 requires), each segment as a URI writes it."""
    below = folder
    for root in sorted((posixpath.normpath(r) for r in roots), key=len, reverse=True):
        if root == "." or folder == root or folder.startswith(root + "/"):
            below = folder if root == "." else folder[len(root) :]
            break
    parts = [part for part in below.split("/") if part not in ("", ".")]
    return "/".join(quote(part, safe="") for part in [*parts[:-1], name])
