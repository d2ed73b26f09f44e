"""``providers/``: each provider's tool-schema file, the name map in both directions,
and one folder per configured profile (providers.md; seed 002)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..config import Config
from ..diagnostics import Report
from ..emitters import profiles, render
from ..emitters.providers import File, Shown
from ..emitters.providers.schemas import Notes, gemini_mcp_name
from ..provider_registry import PROVIDERS
from ..views import ToolView, pylit

FOLDER = "providers/"


def files() -> dict[str, File]:
    """Every provider's files, by name, in the registry's order (not to be changed)."""
    return {f.name: f for module in PROVIDERS.values() for f in module.FILES}


def runtime(header: str) -> dict[str, str]:
    """The providers' half of the package's runtime: each name ``dispatch()`` takes,
    its provider's runtime module copied into ``_providers/``, and the table that
    finds them (with each provider's name form for ``find_tool``'s matches)."""
    served = [
        (d.name, d.runtime, module.NAMES)
        for module in PROVIDERS.values()
        for d in getattr(module, "DISPATCH", ())
    ]
    copied = {
        f"_providers/{path.name}": f"{pylit.pycomment(header)}\n"
        + path.read_text(encoding="utf-8")
        for _, path, _ in served
    }
    return copied | {
        "_providers/__init__.py": render.render(
            "providers.py.jinja",
            header=header,
            served=[(name, path.stem, column) for name, path, column in served],
            name_forms={name: m.NAMES for name, m in PROVIDERS.items() if m.NAMES},
        )
    }


def profile_files(provider: str) -> tuple[str, ...]:
    """The files a profile of ``provider`` gets."""
    module = PROVIDERS[provider]
    default = tuple(f.name for f in module.FILES)
    return tuple(getattr(module, "PROFILE_FILES", default))


# A tool's line in one provider file ("" when left out) and what making it noted.
Line = tuple[str, Notes]


class _Lines:
    """Each tool's line in each file, made once though several folders show it."""

    def __init__(self) -> None:
        self.made: dict[tuple[str, str, bool], Line] = {}

    def __call__(self, tool: ToolView, file: File, loaded: bool) -> Line:
        key = (tool.qualname, file.name, loaded)
        line = self.made.get(key)
        if line is None:
            scratch = Notes()
            entry = file.entry(tool, scratch, "", loaded)
            text = "" if entry is None else _ENCODER.encode(entry)
            line = self.made[key] = text, scratch
        return line


def emit(
    tools: tuple[ToolView, ...],
    config: Config,
    report: Report,
    namespaces: Mapping[str, str],
) -> tuple[dict[str, str], Notes]:
    """The files, joined from each tool's lines, and what they left out or changed;
    ``namespaces``: each namespace's Level 1 summary, by its qualname."""
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
    lines = _Lines()
    result = _files(notes, FOLDER, tuple(files()), shown, always, lines, namespaces)
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
            lines,
            namespaces,
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
    lines: _Lines,
    namespaces: Mapping[str, str],
) -> dict[str, str]:
    """Provider files, one JSON line per tool, with the notes of each line."""
    result = {}
    known = files()
    summaries = [namespaces.get(".".join(tool.namespace), "") for tool in tools]
    for name in names:
        path = folder + name
        file = known[name]
        shown = []
        for tool, summary in zip(tools, summaries):
            loaded = file.deferrable and tool.qualname in always
            line, noted = lines(tool, file, loaded)
            if noted.left_out or noted.removed:
                notes.left_out += [{**n, "file": path} for n in noted.left_out]
                notes.removed += [{**n, "file": path} for n in noted.removed]
            if line:
                shown.append(Shown(line, tool, summary))
        result[path] = file.wrap(shown)
    return result


def names(tools: list[ToolView]) -> dict[str, Any]:
    """Each tool's name for each provider, and back: the dispatcher maps by this table."""
    columns = {n: m.NAMES for n, m in sorted(PROVIDERS.items()) if m.NAMES}
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
