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
from generator.emitters.providers.schemas import (
    Notes,
    gemini_mcp_name,
    input_schema,
    root_problem,
)
from generator.ir import Model, Tool

FOLDER = "providers/"
KEEPS_DOTS = ("gemini", "mcp")
SEPARATOR = "\x1e"  # JSON text holds control characters only as \u escapes
NAME_PROVIDERS = ("anthropic", "bedrock", "gemini", "mcp", "openai")
Entry = Callable[[Tool, Notes, str, bool], dict[str, Any] | None]
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


def emit(
    model: Model,
    config: Config,
    report: Report,
    keys: dict[str, str],
    previous: dict[str, str],
    renders: dict[str, str],
) -> tuple[dict[str, str], Notes]:
    """The files, and what they left out or changed. ``keys`` holds each tool's render
    key: an entry whose tool is unchanged comes from ``previous`` (the last build)."""
    notes = Notes()
    tools = []
    for tool in model.tools:
        problem = root_problem(input_schema(tool))
        if problem is None:
            tools.append(tool)
            continue
        d = tool.definition
        report.warning(
            d.source.path,
            d.source.line,
            d.source.col,
            "provider-schema",
            f"{tool.qualname} is left out of the provider files: {problem}",
        )
        notes.leave_out(FOLDER + "*", tool, problem)
    writer = _Writer(notes, keys, previous, renders)
    always = frozenset(config.always_loaded)
    files = writer.files(FOLDER, tuple(ENTRIES), tools, always)
    files[FOLDER + "names.json"] = _dumps(names(tools))
    for profile in config.profiles:
        seen = profiles.visible(tools, profile)
        profiles.check_conflicts(profile, seen, config.conflicts, report)
        if profiles.is_cli(profile):
            continue  # CLI agents get shell commands in CLAUDE.md / AGENTS.md, not JSON
        files |= writer.files(
            f"{FOLDER}{profile.name}/",
            BY_PROVIDER[profile.provider],
            seen,
            always | set(profile.always_loaded),
        )
    for name, profile in profiles.BUILTIN.items():
        if all(p.name != name for p in config.profiles):
            seen = profiles.visible(tools, profile)
            profiles.check_conflicts(profile, seen, config.conflicts, report)
    return files, notes


class _Writer:
    """Provider files, one JSON line per tool. A tool's lines for every file are memoised
    together under its key (one memo entry per tool keeps the build cache small)."""

    def __init__(
        self,
        notes: Notes,
        keys: dict[str, str],
        previous: dict[str, str],
        renders: dict[str, str],
    ) -> None:
        self.notes = notes
        self.keys = keys
        self.previous = previous
        self.renders = renders
        self.lines: dict[tuple[str, bool], dict[str, str]] = {}

    def files(
        self,
        folder: str,
        names: tuple[str, ...],
        tools: list[Tool],
        always: frozenset[str],
    ) -> dict[str, str]:
        result = {}
        for name in names:
            lines = [
                self.line(folder + name, name, tool, tool.qualname in always)
                for tool in tools
            ]
            result[folder + name] = _wrap(name, [line for line in lines if line])
        return result

    def line(self, path: str, name: str, tool: Tool, always: bool) -> str:
        """The tool's JSON line in file ``name`` ("" when left out)."""
        cached = self._entries(tool, always)[name]
        if not cached.startswith("\0"):
            return cached
        memo = json.loads(cached[1:])
        self.notes.left_out += [{**note, "file": path} for note in memo["left_out"]]
        self.notes.removed += [{**note, "file": path} for note in memo["removed"]]
        return str(memo["line"])

    def _entries(self, tool: Tool, always: bool) -> dict[str, str]:
        """Each file's memo for one tool: its line ("" when left out) or, when the entry
        has notes, a NUL and a JSON object holding line and notes; joined in ENTRIES
        order by a separator JSON never leaves raw in its text."""
        found = self.lines.get((tool.qualname, always))
        if found is not None:
            return found
        key = f"{self.keys[tool.qualname]}|providers|{always:d}"
        cached = self.previous.get(key)
        if cached is None:
            values = []
            for name, build in ENTRIES.items():
                scratch = Notes()
                entry = build(tool, scratch, "", always)
                line = "" if entry is None else _ENCODER.encode(entry)
                if scratch.left_out or scratch.removed:
                    notes = {
                        "line": line,
                        "left_out": scratch.left_out,
                        "removed": scratch.removed,
                    }
                    line = "\0" + json.dumps(notes)
                values.append(line)
            cached = SEPARATOR.join(values)
        self.renders[key] = cached
        found = dict(zip(ENTRIES, cached.split(SEPARATOR)))
        self.lines[(tool.qualname, always)] = found
        return found


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


def names(tools: list[Tool]) -> dict[str, Any]:
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
