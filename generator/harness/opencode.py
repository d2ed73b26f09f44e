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
