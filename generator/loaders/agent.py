"""Claude Code subagents: ``agents/*.md`` with ``name`` and ``description``; the body is
the system prompt. ``tools``, ``model``, ``color`` and every other key are kept.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import MappingProxyType

from generator import discover
from generator.diagnostics import Report
from generator.ir import Definition, Kind, Position
from generator.loaders.fields import read_document

KNOWN_KEYS = frozenset(
    {
        "name",
        "description",
        "tools",
        "disallowedTools",
        "model",
        "permissionMode",
        "maxTurns",
        "skills",
        "mcpServers",
        "hooks",
        "memory",
        "background",
        "effort",
        "isolation",
        "color",
        "initialPrompt",
    }
)
NAME_RULE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


def load_agent(
    found: discover.Found,
    project: Path,
    plugin: str | None,
    report: Report,
    max_bytes: int,
) -> Definition | None:
    path, root = found.path, found.root
    rel = discover.relative(path, project)
    errors = report.error_count
    if not _has_frontmatter(path):
        # Claude Code treats such files as documentation, not subagents.
        report.warning(
            rel, 1, 1, "not-a-subagent", "no frontmatter: not a subagent; skipped"
        )
        return None
    doc = read_document(path, rel, report, max_bytes)
    if doc is None:
        return None
    for key in sorted(doc.data):
        if key not in KNOWN_KEYS:
            doc.warning(
                key,
                "unknown-key",
                f"unknown subagent key {key!r}; it is kept but not used",
                at_key=True,
            )
    name = doc.text("name", required="missing-name")
    if name is not None:
        name = name.strip()
        if name.startswith("-") or ":" in name or not _is_token(name):
            doc.error(
                "name",
                "invalid-name",
                f"subagent name {name!r} may not start with '-', or contain ':', "
                "white space or control characters",
            )
        elif not NAME_RULE.match(name):
            doc.lenient(
                "name",
                "invalid-name",
                f"subagent name {name!r} should be lowercase letters, digits and hyphens",
            )
    description = doc.text("description", required="missing-description")
    definition = Definition(
        kind=Kind.AGENT,
        name=name or "",
        display_name=name or "",
        plugin=plugin,
        description=description or "",
        body=doc.body,
        source=Position(rel),
        root=root,
        skill_dir=None,
        files=(),
        arguments=(),
        argument_hint=None,
        allowed_tools=doc.tool_list("tools"),
        model=doc.text("model"),
        version=None,
        tags=(),
        license=None,
        compatibility=None,
        metadata=MappingProxyType({}),
        extra=doc.extra(frozenset({"name", "description", "tools", "model"})),
    )
    return None if report.error_count > errors else definition


def _is_token(name: str) -> bool:
    return all(char.isprintable() and not char.isspace() for char in name)


def _has_frontmatter(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            head = handle.read(8)
    except OSError:
        return True  # let the reader report why it cannot be read
    return head.removeprefix(b"\xef\xbb\xbf").startswith(b"---")
