"""Claude Code subagents: ``agents/*.md`` with ``name`` and ``description``; the body is
the system prompt. ``tools``, ``model``, ``color`` and every other key are kept.
"""

from __future__ import annotations

from .. import discover
from ..loaders import Context, markdown_loader
from ..ir import Definition, Kind, Position
from ..loaders.fields import Document, Fallback, has_frontmatter, read_document
from ..loaders.skill import NAME_RULE
from ..names import skill_name

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


def load_agent(found: discover.Found, context: Context) -> Definition | None:
    path, root, plugin, report = found.path, found.root, context.plugin, context.report
    rel = discover.relative(path, context.project)
    if not has_frontmatter(path):
        # Claude Code treats such files as documentation, not subagents.
        report.warning(
            rel, 1, 1, "not-a-subagent", "no frontmatter: not a subagent; skipped"
        )
        return None
    # Claude Code registers a plugin's subagent whose frontmatter does not parse, by
    # its file name, with this description and every tool (#91871, #86841); a
    # project's it skips (#16916).
    fallback = None
    if plugin is not None:
        given = {"name": path.stem, "description": f"Agent from {plugin} plugin"}
        said = (
            "as Claude Code registers a plugin's subagent whose frontmatter does not "
            f"parse (anthropics/claude-code#91871): {given['name']!r}, described "
            f"{given['description']!r}, with every tool"
        )
        fallback = Fallback(given, said)
    doc = read_document(path, rel, report, context.max_file_bytes, KNOWN_KEYS, fallback)
    if doc is None:
        return None
    for key in sorted(doc.data.keys() - KNOWN_KEYS):
        doc.unknown(key, KNOWN_KEYS, "subagent")
    name = _name(doc, path.stem, plugin is not None)
    written = doc.text("name") or path.stem
    if name and found.subfolders:  # a plugin's agents/review/x.md: plugin:review:x
        name = "-".join((*found.subfolders, name))
        written = "-".join((*found.subfolders, written))
    description = doc.text("description", required="missing-description")
    return Definition(
        kind=Kind.AGENT,
        name=name or "",
        written_name=written,
        plugin=plugin,
        description=description or "",
        body=doc.body,
        source=Position(rel),
        yaml_frontmatter=doc.yaml,
        root=root,
        allowed_tools=doc.tool_list("tools"),
        model=doc.text("model"),
        extra=doc.extra(frozenset({"name", "description", "tools", "model"})),
    )


def _name(doc: Document, stem: str, in_plugin: bool) -> str | None:
    """The subagent's ``name``, normalised as skill names are. Claude Code skips a file
    without one (a plugin's loads under its file name) and one with ``:`` in it."""
    raw = doc.text("name")
    if raw is None:
        if not in_plugin:
            doc.error(
                "name" if "name" in doc.data else None,
                "missing-name",
                "name is missing or empty",
            )
            return None
        raw = stem
        doc.lenient(
            None, "missing-name", f"name is missing; the file name {stem!r} is used"
        )
    if ":" in raw or not raw.isprintable():
        doc.error(
            "name",
            "invalid-name",
            f"subagent name {raw!r} may not contain ':' (plugin ids use it) or "
            "control characters",
        )
        return None
    name = skill_name(raw)
    if not name:
        doc.error("name", "invalid-name", f"subagent name {raw!r} gives no name")
        return None
    if name != raw or not NAME_RULE.match(name):
        reading = f"is read as {name!r}" if name != raw else "is used as it is"
        doc.lenient(
            "name",
            "invalid-name",
            f"subagent name {raw!r} {reading} (lowercase letters, digits and hyphens)",
        )
    return name


load = markdown_loader(load_agent)  # A subagent's Markdown file.
