"""``providers/``: each provider's tool-schema file, the name map in both directions,
and one folder per configured profile (providers.md; seed 002)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from generator.config import Config
from generator.diagnostics import Report
from generator.emitters import profiles
from generator.emitters.providers import anthropic, bedrock, gemini, mcp, openai
from generator.emitters.providers.schemas import Notes, gemini_mcp_name
from generator.views import ProviderLine, ToolView, fragments

FOLDER = "providers/"
KEEPS_DOTS = ("gemini", "mcp")
NAME_PROVIDERS = ("anthropic", "bedrock", "gemini", "mcp", "openai")
Entry = Callable[[ToolView, Notes, str, bool], dict[str, Any] | None]
# Each file's entry for one tool (None: left out of that file).
ENTRIES: dict[str, Entry] = {
    "anthropic.json": anthropic.plain,
    "anthropic.strict.json": anthropic.strict,
    "anthropic.deferred.json": anthropic.deferred,
    "openai-chat.json": openai.chat,
    "openai-chat.strict.json": openai.chat_strict,
    "openai-responses.json": openai.responses,
    "openai-responses.strict.json": openai.responses_strict,
    "gemini.json": gemini.declaration,
    "mcp.json": mcp.entry,
    "bedrock.json": bedrock.entry,
}
# The files whose entry changes when a tool is always loaded.
DEFERRED = ("anthropic.deferred.json",)
# The files each provider of a profile gets.
BY_PROVIDER = {
    "anthropic": ("anthropic.json", "anthropic.strict.json", "anthropic.deferred.json"),
    "openai": (
        "openai-chat.json",
        "openai-chat.strict.json",
        "openai-responses.json",
        "openai-responses.strict.json",
    ),
    "openai-compatible": ("openai-chat.json",),
    "gemini": ("gemini.json",),
    "bedrock": ("bedrock.json",),
    "mcp": ("mcp.json",),
}


def fragment(
    tool: ToolView,
) -> tuple[dict[str, ProviderLine], dict[str, ProviderLine]]:
    """The tool's line in each provider file, and in the files whose line changes when
    the tool is always loaded (no lines when no provider takes its schema)."""
    if tool.schema_problem is not None:
        return {}, {}
    plain = {name: _line(name, build, tool, False) for name, build in ENTRIES.items()}
    always = {name: _line(name, ENTRIES[name], tool, True) for name in DEFERRED}
    return plain, always


def _line(name: str, build: Entry, tool: ToolView, always: bool) -> ProviderLine:
    scratch = Notes()
    entry = build(tool, scratch, "", always)
    return ProviderLine(
        "" if entry is None else _ENCODER.encode(entry),
        tuple(scratch.left_out),
        tuple(scratch.removed),
    )


def emit(
    tools: tuple[ToolView, ...], config: Config, report: Report
) -> tuple[dict[str, str], Notes]:
    """The files, joined from each tool's lines, and what they left out or changed."""
    notes = Notes()
    shown = []
    for tool in tools:
        if tool.schema_problem is None:
            shown.append(tool)
            continue
        report.warning(
            tool.source.path,
            tool.source.line,
            tool.source.col,
            "provider-schema",
            f"{tool.qualname} is left out of the provider files: "
            f"{tool.schema_problem}",
        )
        notes.leave_out(FOLDER + "*", tool, tool.schema_problem)
    always = frozenset(config.always_loaded)
    files = _files(notes, FOLDER, tuple(ENTRIES), shown, always)
    files[FOLDER + "names.json"] = _dumps(names(shown))
    for profile in config.profiles:
        seen = profiles.visible(shown, profile)
        profiles.check_conflicts(profile, seen, config.conflicts, report)
        if profiles.is_cli(profile):
            continue  # CLI agents get shell commands in CLAUDE.md / AGENTS.md, not JSON
        files |= _files(
            notes,
            f"{FOLDER}{profile.name}/",
            BY_PROVIDER[profile.provider],
            seen,
            always | set(profile.always_loaded),
        )
    for name, profile in profiles.BUILTIN.items():
        if all(p.name != name for p in config.profiles):
            seen = profiles.visible(shown, profile)
            profiles.check_conflicts(profile, seen, config.conflicts, report)
    return files, notes


def _files(
    notes: Notes,
    folder: str,
    names: tuple[str, ...],
    tools: list[ToolView],
    always: frozenset[str],
) -> dict[str, str]:
    """Provider files, one JSON line per tool, with the notes of each line."""
    result = {}
    for name in names:
        lines = []
        for tool in tools:
            plain, loaded = fragments(tool).providers, fragments(tool).always
            line = (loaded if tool.qualname in always and name in loaded else plain)[
                name
            ]
            notes.left_out += [{**n, "file": folder + name} for n in line.left_out]
            notes.removed += [{**n, "file": folder + name} for n in line.removed]
            if line.line:
                lines.append(line.line)
        result[folder + name] = _wrap(name, lines)
    return result


def _wrap(name: str, lines: list[str]) -> str:
    """A JSON array with one tool per line (Gemini's: inside its one ``tools`` entry)."""
    if name == "anthropic.deferred.json":
        lines = [_ENCODER.encode(anthropic.TOOL_SEARCH), *lines]
    if name == "gemini.json":
        if not lines:
            return "[]\n"
        inner = ",\n".join(f"    {line}" for line in lines)
        return f'[\n  {{"functionDeclarations": [\n{inner}\n  ]}}\n]\n'
    if not lines:
        return "[]\n"
    return "[\n" + ",\n".join(f"  {line}" for line in lines) + "\n]\n"


def names(tools: list[ToolView]) -> dict[str, Any]:
    """Each tool's name for each provider, and back: the dispatcher maps by this table."""
    to_provider = {}
    for tool in tools:
        dotted = gemini_mcp_name(tool)
        to_provider[tool.qualname] = {
            provider: dotted if provider in KEEPS_DOTS else tool.provider_name
            for provider in NAME_PROVIDERS
        }
    from_provider = {
        provider: {names[provider]: qualname for qualname, names in to_provider.items()}
        for provider in NAME_PROVIDERS
    }
    return {
        "rule": "Anthropic, OpenAI and Bedrock reject dots: each '.' becomes '__' "
        "(s3.file.read -> s3__file__read); a skill script keeps its id "
        "(skill-name__script); Gemini and MCP keep the dotted name.",
        "keeps_dots": list(KEEPS_DOTS),
        "to_provider": to_provider,
        "from_provider": from_provider,
    }


# json's C encoder, which any ``indent`` turns off (it is ~30 times faster).
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "))


def _dumps(data: dict[str, Any]) -> str:
    """A mapping with one entry per line (one level down for nested mappings), so a diff
    shows which tool changed."""
    lines = []
    for key, value in data.items():
        if isinstance(value, dict) and value:
            inner = ",\n".join(
                f"    {_ENCODER.encode(k)}: {_ENCODER.encode(v)}"
                for k, v in value.items()
            )
            lines.append(f"  {_ENCODER.encode(key)}: {{\n{inner}\n  }}")
        else:
            lines.append(f"  {_ENCODER.encode(key)}: {_ENCODER.encode(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"
