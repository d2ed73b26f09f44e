"""Claude Code (closed source: its documentation at code.claude.com and its issue
tracker, anthropics/claude-code, with the CLI version each report measured)."""

from __future__ import annotations

from .model import Budget, Check, Client, Listing, Manifest, Naming, Precedence, Root

ISSUES = "github.com/anthropics/claude-code/issues/"
DOCS = "code.claude.com/docs/en/"

CLIENT = Client(
    id="claude-code",
    title="Claude Code",
    version="2.1.238",
    marks=(".claude", ".claude-plugin"),
    roots=(
        Root(
            "skill",
            ".claude/skills",
            "project",
            (1, 1),  # .claude/skills/group/child/SKILL.md is ignored, silently
            # UNVERIFIED: no report names dot folders; skillc reads none (as before).
            dot=False,
            source=f"{ISSUES}39138 (CLI 2.1.84); {ISSUES}88400 (CLI 2.1.238); "
            f"{ISSUES}18192",
        ),
        Root(
            "skill",
            "skills",
            "plugin",
            (1, 1),  # skills/flatone/SKILL.md loads, skills/deep/er/SKILL.md does not
            dot=False,
            source=f"{ISSUES}88400 (plugin table); {ISSUES}28266",
        ),
        Root(
            "agent",
            ".claude/agents",
            "project",
            (0, None),  # subfolders are read; the name is the frontmatter's
            dot=False,
            source=f"{ISSUES}58950 (~/.claude/agents/foo/bar.md loads as bar)",
        ),
        Root(
            "agent",
            "agents",
            "plugin",
            (0, None),
            dot=False,
            source=f"{DOCS}plugins-reference (plugin:sub:agent for agents/sub/)",
        ),
        Root(
            "command",
            ".claude/commands",
            "project",
            (0, None),  # a subfolder namespaces the command, /frontend:component
            dot=False,
            source=f"{DOCS}slash-commands (namespacing by subdirectories)",
        ),
        Root(
            "command",
            "commands",
            "plugin",
            (0, None),
            dot=False,
            source=f"{DOCS}plugins-reference (commands/)",
        ),
    ),
    manifests=(
        Manifest(
            ".claude-plugin/plugin.json",
            f"{DOCS}plugins/manifest-reference",
            # One unknown key inside these and the plugin does not load.
            strict=("userConfig", "channels", "lspServers", "monitors"),
        ),
        Manifest(
            "marketplace",  # an entry of .claude-plugin/marketplace.json
            f"{DOCS}plugins/marketplace-reference (strict: false entries)",
        ),
    ),
    naming=Naming(
        # A project skill is /<folder>; a plugin skill /<plugin>:<folder>: a skill at
        # skills/aaa-directory-name/ with name: zzz-frontmatter-name resolves as
        # aaa-directory-name (CLI 2.1.222).
        project="folder",
        plugin="folder",
        source=f"{DOCS}plugins ('The folder name becomes the skill name'); "
        "github.com/voygr-tech/placecall/pull/10 (CLI 2.1.222); "
        f"{ISSUES}44903",
    ),
    precedence=Precedence(
        # Project skills in one folder cannot share a name; a skill beats a command of
        # its name; plugin skills are namespaced, so never clash.
        "first",
        source=f"{DOCS}skills ('If a skill and a command share the same name, the "
        "skill takes precedence')",
    ),
    checks=(
        Check(
            "frontmatter",
            "yaml",
            "refused",
            frozenset({"agent"}),
            # A project's subagent whose frontmatter does not parse is not registered
            # (a plugin's gets a placeholder: its loader's fallback, CC-07).
            f"{ISSUES}16916 (2.1.1: .claude/agents descriptions with unquoted colons "
            f"'fail to register'); {ISSUES}91871 (plugin agents 'load as placeholders', "
            "project ones 'not at all')",
            scope="project",
        ),
    ),
    listing=Listing(
        "claude-code",
        frozenset({"skill", "command"}),
        "claude",
        ("description", "when_to_use"),
        "- {name}: {text}",
        "- {name}",
        "rank",
        sources=(
            # budget = floor(context tokens x 4 x skillListingBudgetFraction 0.01),
            # default context 200000 (constants read from the shipped binary);
            # SLASH_COMMAND_TOOL_CHAR_BUDGET overrides it.
            "github.com/melodic-software/claude-code-plugins/issues/1271",
            "github.com/anthropics/claude-code/issues/64606",
            # description + when_to_use cut at 1,536 characters
            # (skillListingMaxDescChars); over budget, descriptions of the least
            # used skills are dropped first, whole, the names kept.
            "code.claude.com/docs/en/skills#skill-descriptions-are-cut-short",
            "github.com/anthropics/claude-code/issues/68135",
            "github.com/martinholovsky/SOTA-skills/pull/349",
            # an invoked skill is re-attached after compaction at up to 5,000 tokens
            "code.claude.com/docs/en/skills (../shared/reference/skills-format.md 4.2)",
            # subagents are listed apart, in full, without a budget
            "github.com/anthropics/claude-code/issues/87515",
            # the default model (the default alias: Sonnet 4.5 for API accounts) has
            # a 200k window; only a [1m] model name opts into 1M
            "code.claude.com/docs/en/model-config (Model aliases; Extended context "
            "with [1m])",
        ),
        budget=Budget(0.01, "chars", 4),
        default_context=200_000,
        default_model="Sonnet 4.5",
        entry_cap=1536,
        reattach_tokens=5000,
    ),
)
