"""Claude Code marketplaces: ``.claude-plugin/marketplace.json`` at a source root. Its
entries with a local source (``./plugins/x``) are compiled; a remote one (github, url,
git, npm...) is listed in the report as not fetched: skillc never fetches anything.
"""

from __future__ import annotations

from dataclasses import dataclass

import json
import posixpath
import re
from pathlib import Path
from typing import Any

from ..loaders import frontmatter
from ..diagnostics import Report, position

FILE = ".claude-plugin/marketplace.json"


@dataclass(frozen=True, slots=True)
class Entry:
    """A plugin with a local source: ``folder`` relative to the marketplace's root
    (``""`` for ``./``); ``definition`` is the entry itself, the whole plugin when
    ``strict`` is false (or when the folder has no plugin.json)."""

    name: str
    folder: str
    definition: dict[str, Any]
    strict: bool


@dataclass(frozen=True, slots=True)
class Marketplace:
    entries: tuple[Entry, ...]
    remote: tuple[tuple[str, str], ...]  # (plugin name, where it would come from)
    text: str  # the file, to locate problems in


def read_marketplace(
    path: Path, rel: str, report: Report, max_bytes: int
) -> Marketplace | None:
    text = frontmatter.read(path, rel, report, max_bytes)
    if text is None:
        return None
    data = frontmatter.parse_json(text, rel, report)
    plugins = data.get("plugins") if isinstance(data, dict) else None
    if not isinstance(plugins, list):
        report.error(rel, 1, 1, "invalid-marketplace", 'needs a "plugins" list')
        return None
    entries: list[Entry] = []
    remote: list[tuple[str, str]] = []
    seen: dict[str, int] = {}
    for index, item in enumerate(plugins):
        name = item.get("name") if isinstance(item, dict) else None
        if not isinstance(item, dict) or not isinstance(name, str) or not name:
            report.error(
                rel, 1, 1, "invalid-marketplace", f"plugins[{index}] needs a name"
            )
            continue
        if name in seen:
            first, _ = _where(text, "name", name, 0)
            report.error(
                rel,
                *_where(text, "name", name, 1),
                "duplicate-plugin",
                f"plugins[{index}] is named {name!r} like plugins[{seen[name]}] "
                f"(line {first}); plugin names must be unique",
            )
            continue
        seen[name] = index
        source = item.get("source")
        local = _local(source)
        if local is None:
            remote.append((name, _describe(source)))
        elif ".." in local.split("/"):
            report.error(
                rel,
                *_where(text, "source", local, 0),
                "invalid-plugin-path",
                f"plugins[{index}].source: path {local!r} contains '..'",
            )
        else:
            folder = posixpath.normpath(local)
            entries.append(
                Entry(
                    name,
                    "" if folder == "." else folder,
                    item,
                    item.get("strict", True) is not False,
                )
            )
    return Marketplace(tuple(entries), tuple(sorted(remote)), text)


def _local(source: Any) -> str | None:
    """The relative path of a local source; None for a remote one."""
    if isinstance(source, str) and source.startswith("./"):
        return source
    if isinstance(source, dict) and source.get("source") == "local":
        path = source.get("path")
        return path if isinstance(path, str) else None
    return None


def _describe(source: Any) -> str:
    if isinstance(source, dict):
        kind = source.get("source", "?")
        where = next(
            (
                source[k]
                for k in ("repo", "url", "package")
                if isinstance(source.get(k), str)
            ),
            "",
        )
        return f"{kind} {where}".strip()
    return str(source)


def _where(text: str, key: str, value: str, occurrence: int) -> tuple[int, int]:
    """The line and column of the ``occurrence``-th (0-based) ``"key": "value"``."""
    pattern = rf'"{key}"\s*:\s*' + re.escape(json.dumps(value))
    matches = list(re.finditer(pattern, text))
    if not matches:
        return 1, 1
    return position(text, matches[min(occurrence, len(matches) - 1)].start())
