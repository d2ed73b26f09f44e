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
NAME_PROVIDERS = ("anthropic", "bedrock", "gemini", "mcp", "openai")
Builder = Callable[[list[Tool], Notes, str, frozenset[str]], list[dict[str, Any]]]
FILES: dict[str, Builder] = {
    "anthropic.json": lambda t, n, f, a: anthropic.plain(t),
    "anthropic.strict.json": lambda t, n, f, a: anthropic.strict(t, n, f),
    "anthropic.deferred.json": lambda t, n, f, a: anthropic.deferred(t, a),
    "openai-chat.json": lambda t, n, f, a: openai.chat(t, False, n, f),
    "openai-chat.strict.json": lambda t, n, f, a: openai.chat(t, True, n, f),
    "openai-responses.json": lambda t, n, f, a: openai.responses(t, False, n, f),
    "openai-responses.strict.json": lambda t, n, f, a: openai.responses(t, True, n, f),
    "gemini.json": lambda t, n, f, a: gemini.declarations(t, n, f),
    "mcp.json": lambda t, n, f, a: mcp.tools(t),
    "bedrock.json": lambda t, n, f, a: bedrock.tools(t),
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


def emit(model: Model, config: Config, report: Report) -> tuple[dict[str, str], Notes]:
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
    always = frozenset(config.always_loaded)
    files = _files(FOLDER, tuple(FILES), tools, notes, always)
    files[FOLDER + "names.json"] = _dumps(names(tools))
    for profile in config.profiles:
        seen = profiles.visible(tools, profile)
        profiles.check_conflicts(profile, seen, config.conflicts, report)
        if profiles.is_cli(profile):
            continue  # CLI agents get shell commands in CLAUDE.md / AGENTS.md, not JSON
        folder = f"{FOLDER}{profile.name}/"
        files |= _files(
            folder,
            BY_PROVIDER[profile.provider],
            seen,
            notes,
            always | set(profile.always_loaded),
        )
    for name, profile in profiles.BUILTIN.items():
        if all(p.name != name for p in config.profiles):
            profiles.check_conflicts(
                profile, profiles.visible(tools, profile), config.conflicts, report
            )
    return files, notes


def _files(
    folder: str,
    names: tuple[str, ...],
    tools: list[Tool],
    notes: Notes,
    always: frozenset[str],
) -> dict[str, str]:
    return {
        folder + name: _dumps(FILES[name](tools, notes, folder + name, always))
        for name in names
    }


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


def _dumps(data: Any) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
