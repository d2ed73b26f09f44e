"""Claude Code plugins: ``.claude-plugin/plugin.json``. Only ``name`` matters here: it
namespaces the plugin's skills and subagents (``task.<plugin>.<skill>``)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from generator import discover, frontmatter
from generator.diagnostics import Report

NAME_RULE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


@dataclass(frozen=True, slots=True)
class Plugin:
    name: str
    description: str
    path: str


def load_plugin(
    path: Path, project: Path, report: Report, max_bytes: int
) -> Plugin | None:
    rel = discover.relative(path, project)
    text = frontmatter.read(path, rel, report, max_bytes)
    if text is None:
        return None
    data = frontmatter.parse_json(text, rel, report)
    name = data.get("name") if isinstance(data, dict) else None
    if not isinstance(name, str) or not name:
        report.error(rel, 1, 1, "invalid-plugin", 'plugin.json needs a "name" string')
        return None
    if not NAME_RULE.match(name):
        report.warning(
            rel, 1, 1, "invalid-plugin", f"plugin name {name!r} is not kebab-case"
        )
    description = data.get("description")
    return Plugin(name, description if isinstance(description, str) else "", rel)
