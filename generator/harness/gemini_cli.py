"""Gemini CLI (google-gemini/gemini-cli at 5411f11, package 0.56.0-nightly): its skill
loader and manager, its subagent loader and its extension manager."""

from __future__ import annotations

from .model import Check, Client, Manifest, Naming, Precedence, Root

AT = "@5411f11"
SKILLS = f"google-gemini/gemini-cli packages/core/src/skills/skillLoader.ts{AT}"
MANAGER = f"google-gemini/gemini-cli packages/core/src/skills/skillManager.ts{AT}"
AGENTS = f"google-gemini/gemini-cli packages/core/src/agents/agentLoader.ts{AT}"
EXTENSIONS = (
    f"google-gemini/gemini-cli packages/cli/src/config/extension-manager.ts{AT}"
)
# The glob ['SKILL.md', '*/SKILL.md'] without dot: true: the root's own SKILL.md and
# its child folders', never deeper, never a dot folder.
GLOB = f"{SKILLS}:127-133"
# Custom commands (the TOML format, v1), FileCommandLoader.ts: an extension's are the
# `**/*.toml` files of its `commands/` folder (:112-115, 237-242), each named by its
# path there, folders joined by ":" (an extension's commands/kit/changelog.toml is
# /kit:changelog); each segment's characters outside COMMAND_SEGMENT become "_" and a
# segment over 50 characters is cut (COMMAND_NAME). The file holds `prompt`
# (required) and `description` (optional: else "Custom command from <file>"; shown
# cut to 100 characters after "[<extension>] ") (:55-61, 322-330).
COMMANDS = (
    f"google-gemini/gemini-cli packages/cli/src/services/FileCommandLoader.ts{AT}"
)
COMMAND_NAME = f"{COMMANDS}:302-320"
COMMAND_SEGMENT = r"[a-zA-Z0-9_\-.]{1,50}"
# The prompt's placeholders: {{args}} is the text typed after the command (raw, but
# shell-escaped as one word inside !{...}); a prompt without it gets the whole
# invocation appended after a blank line, as Claude Code appends "ARGUMENTS: ...".
# !{cmd} runs cmd (after a confirmation) and puts its output in its place; @{path}
# puts a file's content (a missing file leaves the placeholder, with an error shown).
# There are no positional arguments.
PROCESSORS = "packages/cli/src/services/prompt-processors"
PLACEHOLDERS = (
    f"{PROCESSORS}/types.ts{AT}:44-54; {COMMANDS}:332-358; "
    f"{PROCESSORS}/argumentProcessor.ts{AT}:17-26"
)
ARGS_IN_SHELL = f"{PROCESSORS}/shellProcessor.ts{AT}:97-112"
ARGS = "{{args}}"
SHELL = "!{"
FILE = "@{"
# A local subagent's frontmatter (zod .strict(): one other key and it does not load).
AGENT_KEYS = frozenset(
    {
        "kind",
        "name",
        "description",
        "display_name",
        "tools",
        "mcp_servers",
        "model",
        "temperature",
        "max_turns",
        "timeout_mins",
    }
)

CLIENT = Client(
    id="gemini-cli",
    title="Gemini CLI",
    version="0.56.0-nightly (5411f11)",
    marks=(".gemini", "gemini-extension.json"),
    roots=(
        # In the order the manager adds them; a later root's skill of one name wins.
        Root(
            "skill", "skills", "plugin", (0, 1), False, f"{EXTENSIONS}:921-927; {GLOB}"
        ),
        Root("skill", ".gemini/skills", "project", (0, 1), False, GLOB),
        Root("skill", ".agents/skills", "project", (0, 1), False, f"{MANAGER}:94-98"),
        Root(
            "agent",
            ".gemini/agents",
            "project",
            (0, 0),  # the folder's own *.md files, not its subfolders'
            dot=False,
            source=f"{AGENTS}:665-670; packages/core/src/agents/registry.ts{AT}:173-181",
            skipped_prefix="_",
        ),
        Root(
            "agent",
            "agents",
            "plugin",
            (0, 0),
            dot=False,
            source=f"{EXTENSIONS}:947-949; {AGENTS}:665-670",
            skipped_prefix="_",
        ),
    ),
    manifests=(
        Manifest(
            "gemini-extension.json",
            f"{EXTENSIONS}:1017-1049, 1283-1287",
            name_pattern=r"^[a-zA-Z0-9-]+$",  # no periods
        ),
    ),
    naming=Naming(
        # The frontmatter name, with : \ / < > * ? " | replaced by -; no folder
        # fallback: a skill without a name (or a description) is skipped silently.
        project="name",
        plugin="name",
        source=f"{SKILLS}:41-61, 106-109, 174-180; {EXTENSIONS}:921-927 (an "
        "extension's skills keep their names)",
        replaced=':\\/<>*?"|',
        namespaced=False,
    ),
    precedence=Precedence(
        "last",
        source=f"{MANAGER}:54-98 (order), 124-146 (addSkillsWithPrecedence: 'Skill "
        "conflict detected')",
    ),
    checks=(
        Check(
            "description",
            "required",
            "skipped",
            frozenset({"skill"}),
            f"{SKILLS}:41-61, 106-109 (parseFrontmatter returns null)",
        ),
        Check(
            "frontmatter",
            "yaml",
            "refused",
            frozenset({"agent"}),
            f"{AGENTS}:359-367 ('YAML frontmatter parsing failed'; skills have a "
            "line-parser fallback, subagents none)",
            alone=True,
        ),
        Check(
            "frontmatter",
            "keys",
            "refused",
            frozenset({"agent"}),
            f"{AGENTS}:92-116 (localAgentSchema .strict())",
            AGENT_KEYS,
            alone=True,
        ),
        Check(
            "name",
            "pattern",
            "refused",
            frozenset({"agent"}),
            f"{AGENTS}:50-52 (nameSchema: 'Name must be a valid slug')",
            r"^[a-z0-9-_]+$",
            alone=True,
        ),
        Check(
            "description",
            "required",
            "refused",
            frozenset({"agent"}),
            f"{AGENTS}:96 (description: z.string().min(1))",
            alone=True,
        ),
    ),
)
