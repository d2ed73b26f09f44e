"""``providers/``: each provider's tool-schema file, the name map in both directions,
and one folder per configured profile (providers.md; seed 002)."""

from __future__ import annotations

import functools
import importlib
import json
from types import ModuleType
from typing import Any

from generator.config import Config
from generator.diagnostics import Report
from generator.emitters import profiles
from generator.emitters.providers import File
from generator.emitters.providers.schemas import Notes, gemini_mcp_name
from generator.provider_registry import PROVIDERS
from generator.views import Fragments, ProviderNotes, ToolView, fragments

FOLDER = "providers/"


def providers() -> dict[str, ModuleType]:
    """Each registered provider's module, by its name."""
    return {name: importlib.import_module(path) for name, path in PROVIDERS.items()}


def files() -> dict[str, File]:
    """Every provider's files, by name, in the registry's order (not to be changed)."""
    return _files_of(tuple(PROVIDERS.items()))


@functools.cache  # asked once per tool: the registry's modules are looked up once
def _files_of(registry: tuple[tuple[str, str], ...]) -> dict[str, File]:
    modules = (importlib.import_module(path) for _, path in registry)
    return {f.name: f for module in modules for f in module.FILES}


def profile_files(provider: str) -> tuple[str, ...]:
    """The files a profile of ``provider`` gets."""
    module = providers()[provider]
    default = tuple(f.name for f in module.FILES)
    return tuple(getattr(module, "PROFILE_FILES", default))


Lines = dict[str, str]
LineNotes = dict[tuple[str, bool], ProviderNotes]


def fragment(tool: ToolView) -> tuple[Lines, Lines, LineNotes]:
    """The tool's line in each provider file, in the files whose line changes when
    the tool is always loaded, and the notes of the lines that have any (no lines when
    no provider takes its schema)."""
    plain: Lines = {}
    always: Lines = {}
    notes: LineNotes = {}
    if tool.schema_problem is not None:
        return plain, always, notes
    for file in files().values():
        for loaded, lines in ((False, plain), (True, always)):
            if loaded and not file.deferrable:
                continue
            scratch = Notes()
            entry = file.entry(tool, scratch, "", loaded)
            lines[file.name] = "" if entry is None else _ENCODER.encode(entry)
            if scratch.left_out or scratch.removed:
                noted = ProviderNotes(tuple(scratch.left_out), tuple(scratch.removed))
                notes[(file.name, loaded)] = noted
    return plain, always, notes


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
    result = _files(notes, FOLDER, tuple(files()), shown, always)
    result[FOLDER + "names.json"] = _dumps(names(shown))
    for profile in config.profiles:
        seen = profiles.visible(shown, profile)
        profiles.check_conflicts(profile, seen, config.conflicts, report)
        if profiles.is_cli(profile):
            continue  # CLI agents get shell commands in CLAUDE.md / AGENTS.md, not JSON
        result |= _files(
            notes,
            f"{FOLDER}{profile.name}/",
            profile_files(profile.provider),
            seen,
            always | set(profile.always_loaded),
        )
    for name, profile in profiles.BUILTIN.items():
        # Without conflicts to check, what a built-in profile sees is never needed.
        if config.conflicts and all(p.name != name for p in config.profiles):
            seen = profiles.visible(shown, profile)
            profiles.check_conflicts(profile, seen, config.conflicts, report)
    return result, notes


def _files(
    notes: Notes,
    folder: str,
    names: tuple[str, ...],
    tools: list[ToolView],
    always: frozenset[str],
) -> dict[str, str]:
    """Provider files, one JSON line per tool, with the notes of each line."""
    result = {}
    wraps = files()
    done = [fragments(t) for t in tools]
    # Most tools are not always loaded and have no notes: their lines are taken at once.
    chosen = [i for i, t in enumerate(tools) if t.qualname in always]
    noted = [i for i, d in enumerate(done) if d.provider_notes]
    for name in names:
        path = folder + name
        lines = [d.providers[name] for d in done]
        loaded: dict[int, bool] = {}
        for i in chosen:
            loaded[i], lines[i] = _line(done[i], name, True)
        for i in noted:
            note = done[i].provider_notes.get((name, loaded.get(i, False)))
            if note is not None:
                notes.left_out += [{**n, "file": path} for n in note.left_out]
                notes.removed += [{**n, "file": path} for n in note.removed]
        result[path] = wraps[name].wrap([line for line in lines if line])
    return result


def _line(done: Fragments, name: str, is_always: bool) -> tuple[bool, str]:
    """Whether a tool's line in file ``name`` is its always-loaded one, and the line."""
    loaded = is_always and name in done.always
    return loaded, done.always[name] if loaded else done.providers[name]


def tool_lines(tool: ToolView, config: Config) -> dict[str, str]:
    """An offered tool's line in each provider file that shows it ("" where it has
    none): what ``emit`` joins, one tool at a time (a rebuild splices them)."""
    done = fragments(tool)
    always = frozenset(config.always_loaded)
    folders = [(FOLDER, tuple(files()), always)]
    for profile in config.profiles:
        if not profiles.is_cli(profile) and profiles.visible([tool], profile):
            folders.append(
                (
                    f"{FOLDER}{profile.name}/",
                    profile_files(profile.provider),
                    always | set(profile.always_loaded),
                )
            )
    return {
        folder + name: _line(done, name, tool.qualname in chosen)[1]
        for folder, names, chosen in folders
        for name in names
    }


def names(tools: list[ToolView]) -> dict[str, Any]:
    """Each tool's name for each provider, and back: the dispatcher maps by this table."""
    columns = {n: m.NAMES for n, m in sorted(providers().items()) if m.NAMES}
    keeps_dots = [name for name, column in columns.items() if column == "dotted"]
    to_provider = {}
    for tool in tools:
        dotted = gemini_mcp_name(tool)
        to_provider[tool.qualname] = {
            provider: dotted if provider in keeps_dots else tool.provider_name
            for provider in columns
        }
    from_provider = {
        provider: {names[provider]: qualname for qualname, names in to_provider.items()}
        for provider in columns
    }
    return {
        "rule": "Anthropic, OpenAI and Bedrock reject dots: each '.' becomes '__' "
        "(s3.file.read -> s3__file__read); a skill script keeps its id "
        "(skill-name__script); Gemini and MCP keep the dotted name.",
        "keeps_dots": keeps_dots,
        "to_provider": to_provider,
        "from_provider": from_provider,
    }


# json's C encoder, which any ``indent`` turns off (it is ~30 times faster), without
# the check for cycles (a tool's entries have none), which costs more than encoding a
# small entry: a build encodes about ten per tool.
_ENCODER = json.JSONEncoder(
    ensure_ascii=False, separators=(", ", ": "), check_circular=False
)


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
