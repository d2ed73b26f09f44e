"""Agent Plugins (agentplugins/agent-plugins-spec: spec/1.0.0.md at bd38355; the 1.1.0
working draft, spec/1.1.0.md at 86cdad2, adds only ``presentation``)."""

from __future__ import annotations

from .model import Kind, Check, Client, Manifest, Naming, Precedence, Root

SPEC = "agentplugins/agent-plugins-spec spec/1.0.0.md@bd38355"
DRAFT = "agentplugins/agent-plugins-spec spec/1.1.0.md@86cdad2"
SKILLS_SPEC = "agentskills.io/specification"
SCHEMA_1_0 = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json"
SCHEMA_1_1 = "https://agent-plugins.org/schemas/1.1.0/plugin.schema.json"  # a draft
TOP_LEVEL = frozenset(
    {
        "$schema",
        *("name", "version", "description", "author", "homepage", "repository"),
        *("license", "keywords", "extensions"),
    }
)
SKILLS: frozenset[Kind] = frozenset({"skill"})

CLIENT = Client(
    id="agent-plugins",
    title="Agent Plugins",
    version="1.0.0",
    marks=("plugin.json",),  # with an agent-plugins.org $schema (discovery checks it)
    roots=(
        Root(
            "skill",
            "skills",
            "plugin",
            (1, 1),  # each immediate child; 'Clients MUST NOT recursively search'
            dot=True,  # any immediate child folder holding a regular SKILL.md
            source=f"{SPEC} §7.1",
        ),
    ),
    manifests=(
        Manifest(
            "plugin.json",
            f"{SPEC} §5.1-5.5; {DRAFT} §5.2, §5.7 (presentation)",
            schemas=(SCHEMA_1_0,),
            closed=TOP_LEVEL,  # others are reported and ignored (§5.2)
            # 1-64 characters, a-z 0-9 - and ., alphanumeric at both ends, no -- or ..
            name_pattern=r"^(?!.*(--|\.\.))[a-z0-9](?:[a-z0-9.-]{0,62}[a-z0-9])?$",
        ),
    ),
    naming=Naming(
        # A skill must conform to the Agent Skills specification, whose name equals
        # its folder's: the two are one.
        project="folder",
        plugin="folder",
        source=f"{SPEC} §7.1; {SKILLS_SPEC} (name: 'Must match the parent directory "
        "name')",
    ),
    precedence=Precedence("first", source=f"{SPEC} §7.1 (one skill per child folder)"),
    checks=(
        # A skill that does not conform to the Agent Skills specification: 'the client
        # MUST skip that skill and continue' (§7.1).
        Check("name", "required", "skipped", SKILLS, f"{SPEC} §7.1; {SKILLS_SPEC}"),
        Check("name", "folder", "skipped", SKILLS, f"{SPEC} §7.1; {SKILLS_SPEC}"),
        Check(
            "name",
            "pattern",
            "skipped",
            SKILLS,
            f"{SPEC} §7.1; {SKILLS_SPEC} (lowercase letters, digits, single hyphens)",
            r"^[a-z0-9]+(-[a-z0-9]+)*$",
        ),
        Check("name", "max", "skipped", SKILLS, f"{SPEC} §7.1; {SKILLS_SPEC}", 64),
        Check("description", "required", "skipped", SKILLS, f"{SPEC} §7.1"),
        Check(
            "description", "max", "skipped", SKILLS, f"{SPEC} §7.1; {SKILLS_SPEC}", 1024
        ),
    ),
)
