"""Codex (openai/codex, codex-rs): its skills loader and plugin manifest, read at the
commits named below."""

from __future__ import annotations

from .model import (
    Kind,
    Budget,
    Check,
    Client,
    Listing,
    Manifest,
    Naming,
    Precedence,
    Root,
)

LOADER = "openai/codex codex-rs/core-skills/src/loader.rs@c9d127c"
MANIFEST = "openai/codex codex-rs/core-plugins/src/manifest.rs@19b965a"
SKILLS: frozenset[Kind] = frozenset({"skill"})

CLIENT = Client(
    id="codex",
    title="Codex",
    version="codex-rs at c9d127c",
    marks=(".codex", ".agents/skills", ".agents/plugins", ".codex-plugin"),
    roots=(
        # Roots in the order the loader lists them (config layers, plugins, then each
        # .agents/skills from the project root down to the working folder); each is
        # scanned 6 folders deep, dot entries skipped.
        Root(
            "skill",
            ".codex/skills",
            "project",
            (0, 6),
            dot=False,
            source=f"{LOADER}:231-294 (a Project layer's <.codex>/skills), :117 "
            "MAX_SCAN_DEPTH, :436 (entries starting with '.' skipped)",
        ),
        Root(
            "skill",
            "skills",
            "plugin",
            (0, 6),
            dot=False,
            source=f"{LOADER}:211-225 (plugin skill roots, User scope); {MANIFEST} "
            "(skills: a ./ path, default skills/)",
        ),
        Root(
            "skill",
            ".agents/skills",
            "project",
            (0, 6),
            dot=False,
            source=f"{LOADER}:295-311, 352-368 (every <dir>/.agents/skills from the "
            "project root to the working folder)",
        ),
    ),
    manifests=(
        Manifest(".codex-plugin/plugin.json", MANIFEST),
        Manifest(
            ".claude-plugin/plugin.json",
            "openai/codex codex-rs/utils/plugins/src/plugin_namespace.rs "
            "DISCOVERABLE_PLUGIN_MANIFEST_PATHS",
        ),
    ),
    naming=Naming(
        # The frontmatter name, whitespace collapsed; else the folder's name; a
        # plugin's skills are <plugin>:<name>.
        project="name-or-folder",
        plugin="name-or-folder",
        source=f"{LOADER}:531-537 (default_skill_name, namespaced_skill_name)",
    ),
    precedence=Precedence(
        # Skills are deduplicated by the path of their SKILL.md, never by name: two
        # copies of one name in two roots are both listed.
        "path",
        source=f"{LOADER}:174-191; codex-rs/core-skills/src/root_loader.rs@1329725 "
        "(merge_skill_root_snapshots)",
    ),
    checks=(
        Check(
            "frontmatter",
            "yaml",
            "refused",
            SKILLS,
            f"{LOADER}:526-529 (serde_yaml; 'invalid YAML', no fallback)",
        ),
        Check(
            "qualified-name",  # <plugin>:<name> for a plugin's
            "max",
            "refused",
            SKILLS,
            f"{LOADER}:106 MAX_NAME_LEN, :555 validate_len",
            64,
        ),
        Check(
            "description",
            "required",
            "refused",
            SKILLS,
            f"{LOADER}:556 validate_len ('missing field `description`')",
        ),
        Check(
            "description",
            "max",
            "refused",
            SKILLS,
            f"{LOADER}:107 MAX_DESCRIPTION_LEN, :556 validate_len",
            1024,
        ),
        Check(
            "metadata.short-description",
            "max",
            "refused",
            SKILLS,
            f"{LOADER}:41-47, 557-563",
            1024,
        ),
    ),
    listing=Listing(
        "codex",
        SKILLS,
        "skill",
        ("description",),  # when_to_use is not read (umputun/agterm#528)
        "- {name}: {text} (file: {path})",
        "- {name}: (file: {path})",
        "share",
        sources=(
            # 2% of the context window in tokens (4 bytes a token), 8,000
            # characters when the window is unknown; descriptions shortened alike,
            # then every description removed and the skills past the budget left
            # out, in scope then name order.
            "github.com/openai/codex codex-rs/core-skills/src/render.rs",
            "github.com/openai/codex/pull/18213",
            "developers.openai.com/codex/skills",
            "github.com/umputun/agterm/pull/528",
            # the window is the model's full context_window (core/src/session/mod.rs:
            # default_skill_metadata_budget(turn_context.model_info.context_window)):
            # gpt-5.2-codex, first in the picker (priority 0), 272,000 tokens
            "openai/codex codex-rs/core/models.json@21dac7d",
        ),
        budget=Budget(0.02, "tokens", 4, fallback_chars=8000),
        default_context=272_000,
        default_model="gpt-5.2-codex",
        # a repository skill's path, as Codex shows it: absolute, so some root
        path_root="/home/user/project/",
    ),
)
