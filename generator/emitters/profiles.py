"""Profiles (seed 002): which tools each consumer sees. API providers see every tool;
CLI agents (claude_code, codex) leave out the ``file_ops`` and ``shell`` categories,
whose native equivalents they have, and reach tools through CLAUDE.md / AGENTS.md as shell commands.
"""

from __future__ import annotations

import fnmatch

from ..config import CLI_EXCLUDED, CLI_PROVIDERS, Conflict, Profile
from ..diagnostics import Report
from ..views import ToolView

# CLI agents' own tools, which a conflict may name (seed 002's native tools).
NATIVE = {
    "claude_code": frozenset(
        {
            "Bash",
            "Read",
            "Write",
            "Edit",
            "MultiEdit",
            "Glob",
            "Grep",
            "LS",
            "Task",
            "WebFetch",
            "WebSearch",
            "NotebookRead",
            "NotebookEdit",
        }
    ),
    "codex": frozenset({"shell", "apply_patch", "read_file", "list_dir", "grep_files"}),
}
BUILTIN = {
    "claude_code": Profile("claude_code", "claude_code", CLI_EXCLUDED),
    "codex": Profile("codex", "codex", CLI_EXCLUDED),
}


def visible(
    tools: tuple[ToolView, ...] | list[ToolView], profile: Profile
) -> list[ToolView]:
    return [tool for tool in tools if _sees(profile, tool)]


def _sees(profile: Profile, tool: ToolView) -> bool:
    category = tool.category
    if category is not None and category in profile.exclude_categories:
        return False
    if profile.include and not _matches(tool.qualname, profile.include):
        return False
    return not _matches(tool.qualname, profile.exclude)


def _matches(name: str, patterns: tuple[str, ...]) -> bool:
    return any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns)


def check_conflicts(
    profile: Profile,
    tools: list[ToolView],
    conflicts: tuple[Conflict, ...],
    report: Report,
) -> None:
    """A profile may not enable both tools of an incompatible pair."""
    enabled = {tool.qualname for tool in tools} | NATIVE.get(
        profile.provider, frozenset()
    )
    for conflict in conflicts:
        a, b = conflict.tools
        if conflict.kind == "incompatible" and a in enabled and b in enabled:
            hint = f" ({conflict.hint})" if conflict.hint else ""
            report.error(
                "pyproject.toml",
                1,
                1,
                "profile-invalid",
                f"profile {profile.name!r} enables both {a} and {b}, which are "
                f"incompatible{hint}; exclude one of them",
            )


def is_cli(profile: Profile) -> bool:
    return profile.provider in CLI_PROVIDERS
