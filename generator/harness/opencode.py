"""OpenCode 1.x (anomalyco/opencode, packages/opencode/src/skill/index.ts at a2cc772,
the v1 loader). Its V2 documentation (opencode.ai/v2/docs/skills) names a skill by
its folder and reads single-file skills (``skills/review.md``); the v1 loader does
neither (it globs ``SKILL.md`` only and keys skills by their frontmatter ``name``),
and skillc follows the loader of the released version."""

from __future__ import annotations

from .model import Client, Naming, Precedence, Root

INDEX = "anomalyco/opencode packages/opencode/src/skill/index.ts@a2cc772"
# Glob's ** matches zero or more folders: a SKILL.md at the root too.
ANY = (0, None)

# Subagents and commands, from each config folder (.opencode/): the `**/*.md` of its
# agent(s)/ and command(s)/ folders, each named by its path there without ".md"
# (SRC/agent.ts@0598880:13, 25; SRC/command.ts@01b622e:35, 47).
SRC = "anomalyco/opencode packages/opencode/src/config"
V1 = "anomalyco/opencode packages/core/src/v1/config"
# A subagent's frontmatter: description, mode (subagent, primary or all), model
# (provider/model), color (#rrggbb or a theme colour: Claude Code's "green" is
# neither), permission (tool -> ask, allow or deny, and "*"; its keys in the order
# written, the last that matches a tool wins) and the deprecated tools (tool ->
# boolean); the body is its prompt. A value of the wrong type is a configuration
# error; a key it does not know is kept as an option of the model.
AGENT_SCHEMA = f"{V1}/agent.ts@24e0290:7-44 (schema), 66-81 (tools -> permission)"
PERMISSION = f"{V1}/permission.ts@02ce4a3:14-35"
# Claude Code's tool names, as OpenCode's permission keys: write, edit and patch are
# all "edit" (agent.ts@24e0290:75-77), the others its tools' own ids.
PERMISSIONS = {
    "Read": "read",
    "Write": "edit",
    "Edit": "edit",
    "MultiEdit": "edit",
    "NotebookEdit": "edit",
    "Glob": "glob",
    "Grep": "grep",
    "LS": "list",
    "Bash": "bash",
    "Task": "task",
    "Agent": "task",
    "WebFetch": "webfetch",
    "WebSearch": "websearch",
    "TodoWrite": "todowrite",
    "Skill": "skill",
}
# A command's frontmatter: description, agent, model, subtask; the trimmed body is
# its template (SRC/command.ts@01b622e:14-20, 49-53), where $ARGUMENTS is the text
# typed after it, $1, $2... its words (from 1: Claude Code's $1 is the second),
# !`cmd` a command's output and @path a file's content, as in Claude Code
# (SRC/markdown.ts@0a8a0ed:9-10; opencode.ai/docs/commands). A command that fails
# the schema stops the whole configuration from loading (command.ts:54-59).
# opencode.json's `mcp`: a name -> {type: "local", command: [program, args...],
# environment?, enabled?, timeout?} (or a remote server: type "remote", url):
# V1/mcp.ts@1423089:6-26 (McpLocalConfig).

CLIENT = Client(
    id="opencode",
    title="OpenCode",
    version="1.x (a2cc772)",
    marks=(".opencode",),
    roots=(
        # .claude and .agents folders found walking up from the working folder (for
        # each, .claude before .agents), then the config folders (.opencode); each
        # match is added in turn and the last of a name wins.
        Root(
            "skill",
            ".claude/skills",
            "project",
            ANY,
            dot=True,
            source=f"{INDEX}:21-23 (skills/**/SKILL.md), 179-196 (dot: true)",
        ),
        Root(
            "skill",
            ".agents/skills",
            "project",
            ANY,
            dot=True,
            source=f"{INDEX}:21-23, 179-196",
        ),
        Root(
            "skill",
            ".opencode/skill",
            "project",
            ANY,
            dot=False,  # no dot option: the glob's default
            source=f"{INDEX}:24 ({{skill,skills}}/**/SKILL.md), 198-201",
        ),
        Root(
            "skill",
            ".opencode/skills",
            "project",
            ANY,
            dot=False,
            source=f"{INDEX}:24, 198-201",
        ),
    ),
    manifests=(),
    naming=Naming(
        # isSkillFrontmatter: name must be a string, else the skill is skipped with
        # no message; there is no folder fallback.
        project="name",
        plugin="name",
        source=f"{INDEX}:46-52, 116",
    ),
    precedence=Precedence(
        # state.skills[name] = ...: a later match replaces an earlier one ("duplicate
        # skill name"). The matches are parsed concurrently, so "last" is the order
        # of discovery, which is what the loader means; skillc follows it.
        "last",
        source=f"{INDEX}:119-133, 228-237",
    ),
)
