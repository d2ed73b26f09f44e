"""Cursor (closed source): its published plugin schema (cursor/plugins at 195d935,
schemas/plugin.schema.json last changed at 0701892), the layout its own marketplace
repository ships, and its documentation. How the editor discovers a plugin's skills
is not published: the roots below are the documented and shipped layout."""

from __future__ import annotations

from .model import Client, Manifest, Naming, Precedence, Root

SCHEMA = "cursor/plugins schemas/plugin.schema.json@195d935"
LAYOUT = "cursor/plugins README.md@195d935:34-48 (every shipped plugin: skills/<name>/)"
TOP_LEVEL = frozenset(
    {
        *("name", "displayName", "description", "version", "minClientVersions"),
        *("author", "publisher", "homepage", "repository", "license", "logo"),
        *("keywords", "category", "tags", "commands", "agents", "skills", "rules"),
        *("hooks", "variables", "mcpServers"),
    }
)

CLIENT = Client(
    id="cursor",
    title="Cursor",
    version="plugin schema at 0701892",
    marks=(".cursor-plugin", ".cursor/skills"),
    roots=(
        # UNVERIFIED depth and dot policy (closed source): one level, as shipped.
        Root("skill", "skills", "plugin", (1, 1), False, LAYOUT),
        Root(
            "skill",
            ".cursor/skills",
            "project",
            (1, 1),
            False,
            "cursor.com/docs/context/skills (.cursor/skills/<name>/SKILL.md)",
        ),
    ),
    manifests=(
        Manifest(
            ".cursor-plugin/plugin.json",
            f"{SCHEMA}:3-14 (additionalProperties: false, required: [name]), "
            "$defs.author (name, email; closed)",
            closed=TOP_LEVEL,
            # Periods allowed; unlike Agent Plugins, -- and .. are too.
            name_pattern=r"^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$",
        ),
    ),
    naming=Naming(
        # 'A skill is invoked by its directory slug'; the picker shows the name.
        project="folder",
        plugin="folder",
        source="github.com/cursor/plugins/pull/382",
    ),
    precedence=Precedence("first", source="UNVERIFIED (not documented)"),
)
