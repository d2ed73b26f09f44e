"""The view parts of a skill, subagent or command: its module's data and its Level 2."""

from __future__ import annotations

from collections.abc import Mapping

from ..ir import Definition, Kind, Tool
from ..names import function_name
from ..views import ClaudeValue, TaskModule, seed_metadata

# Claude Code's keys (skills, commands, subagents) the Invocation carries, by field name.
CLAUDE_KEYS = {
    "context": "context",
    "agent": "agent",
    "effort": "effort",
    "permission_mode": "permissionMode",
    "disallowed_tools": "disallowedTools",
    "skills": "skills",
    "color": "color",
}
# Seed 000's metadata shown in the Level 2 help, by key.
SEED_LABELS = {
    "version": "Version",
    "tags": "Tags",
    "author": "Author",
    "capabilities": "Capabilities",
    "constraints": "Constraints",
    "tools": "Tools",
}


def module(
    tool: Tool, d: Definition, package: str, meta: dict[str, str | list[str]]
) -> TaskModule:
    """The module's data; ``meta``: the tool's seed 000 metadata."""
    return TaskModule(
        kind=d.kind.value,
        name=d.name,
        qualname=tool.qualname,
        summary=tool.summary,
        help=level2_help(tool, d, package, meta),
        instructions=d.body,
        argument_names=tuple(a.name for a in tool.arguments),
        named=tool.arguments,
        allowed_tools=d.allowed_tools,
        model=d.model,
        skill_dir=d.skill_dir,
        plugin_dir=d.plugin_dir,
        plugin=d.plugin,
        claude=tuple(claude_settings(d).items()),
        codex=tuple(codex_settings(d).items()),
        files=d.files,
        py_name=tool.py_name,
        function=function_name(tool.py_name),
        free_text=d.kind is Kind.SKILL,
    )


def claude_settings(d: Definition) -> dict[str, ClaudeValue]:
    """The Claude Code settings ``d`` sets (defaults left out), by ClaudeCode field."""
    settings: dict[str, ClaudeValue] = {}
    for field, key in CLAUDE_KEYS.items():
        value = d.extra.get(key)
        if field in ("disallowed_tools", "skills"):
            items = value.split(",") if isinstance(value, str) else value
            if isinstance(items, list) and items:
                settings[field] = tuple(str(i).strip() for i in items if str(i).strip())
        elif isinstance(value, (str, int, float)) and not isinstance(value, bool):
            settings[field] = str(value)
    if not d.user_invocable:
        settings["user_invocable"] = False
    return settings


def codex_settings(d: Definition) -> dict[str, ClaudeValue]:
    """Codex's settings of a skill (its agents/openai.yaml), by Codex field."""
    codex = d.extra.get("codex")
    if not isinstance(codex, Mapping):
        return {}
    return {
        field: tuple(value) if isinstance(value, (list, tuple)) else value
        for field, value in sorted(codex.items())
        if isinstance(value, (str, bool, list, tuple))
    }


def _setting(value: ClaudeValue) -> str:
    if isinstance(value, tuple):
        return ", ".join(value)
    return "false" if value is False else str(value)


def level2_help(
    tool: Tool, d: Definition, package: str, meta: dict[str, str | list[str]]
) -> str:
    """Level 2: the full spec of one task tool, as plain text."""
    kind = "skill" if d.kind is Kind.SKILL else "subagent"
    lines = [f"{tool.qualname}: {kind} {d.name!r}", "", d.description.strip(), ""]
    if d.kind is Kind.SKILL:
        hint = f" (hint: {d.argument_hint})" if d.argument_hint else ""
        lines += [
            "Parameters:",
            f"  arguments: str | list[str] = ''  the text after the skill's name, $ARGUMENTS{hint}",
        ]
        lines += [
            f"  {a.py_name}: str | None = None  named argument ${a.name} (position {i})"
            for i, a in enumerate(tool.arguments)
        ]
        example_call = f'{tool.qualname}("...")'
        shell_call = f"python -m {package} call {tool.qualname} ARG ..."
    else:
        lines += ["Parameters:", "  prompt: str  the task for the subagent"]
        example_call = f'{tool.qualname}(prompt="...")'
        shell_call = f'python -m {package} call {tool.qualname} "PROMPT"'
    lines += [
        "",
        "Returns: an Invocation (instructions, allowed tools, model, bundled files),",
        "or your task runner's result once set_task_runner() is called.",
        "",
        "Usage:",
        f"  {example_call}",
        f"  {shell_call}",
    ]
    facts = [
        ("Allowed tools", ", ".join(d.allowed_tools)),
        ("Model", d.model or ""),
        (
            "Claude Code",
            "; ".join(
                f"{CLAUDE_KEYS.get(field, 'user-invocable')}: {_setting(value)}"
                for field, value in claude_settings(d).items()
            ),
        ),
        (
            "Codex",
            "; ".join(
                f"{field}: {_setting(value)}"
                for field, value in codex_settings(d).items()
            ),
        ),
        *(
            (label, seed_metadata.text(meta.get(key)))
            for key, label in SEED_LABELS.items()
        ),
        ("License", d.license or ""),
        ("Compatibility", d.compatibility or ""),
        (
            "Bundled files",
            ", ".join(d.files[:20]) + (" ..." if len(d.files) > 20 else ""),
        ),
        ("Source", d.source.path),
    ]
    lines.append("")
    lines += [f"{label}: {value}" for label, value in facts if value]
    return "\n".join(lines)
