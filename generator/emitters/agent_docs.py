"""CLAUDE.md and AGENTS.md beside the package: a few lines that point CLI agents (Claude
Code, Codex) at the tools their profile shows them, as shell commands that work from the
repository root: the real import path (``PYTHONPATH=src python -m app.agent_tools`` when
the output sits inside a package), ``find`` first, and the configured command that
rebuilds the output. Claude Code loads the skills and subagents of ``.claude/`` itself,
so CLAUDE.md does not repeat them."""

from __future__ import annotations

from dataclasses import dataclass


from ..emitters import render
from ..config import Config, Conflict, Profile
from ..emitters import profiles
from ..emitters.python_package import HEADER
from .. import urls
from ..views import PackageView, ToolView

DOCS = {"claude_code": "CLAUDE.md", "codex": "AGENTS.md"}


@dataclass(frozen=True, slots=True)
class Equivalent:
    ours: str
    native: str
    hint: str


def emit(
    package: PackageView,
    config: Config,
) -> dict[str, str]:
    configured, conflicts = config.profiles, config.conflicts
    files = {}
    for name, file in DOCS.items():
        profile = next(
            (p for p in configured if p.name == name), profiles.BUILTIN[name]
        )
        files[file] = _doc(package, config, profile, conflicts)
    for profile in configured:
        if profiles.is_cli(profile) and profile.name not in DOCS:
            path = f"providers/{profile.name}/{DOCS[profile.provider]}"
            files[path] = _doc(package, config, profile, conflicts)
    # What every agent's context holds: no URL in it carries a credential.
    return {path: urls.redact(text) for path, text in files.items()}


def _equivalents(
    tools: list[ToolView], profile: Profile, conflicts: tuple[Conflict, ...]
) -> list[Equivalent]:
    """Declared equivalents between a tool this agent sees and one of its native tools:
    the agent is told, with the resolution hint."""
    shown = {tool.qualname for tool in tools}
    native = profiles.NATIVE.get(profile.provider, frozenset())
    result = []
    for conflict in conflicts:
        if conflict.kind != "equivalent":
            continue
        for ours, theirs in (conflict.tools, conflict.tools[::-1]):
            if ours in shown and theirs in native:
                result.append(Equivalent(ours, theirs, conflict.hint))
    return result


def _call_shown(tools: list[ToolView]) -> str:
    """The tool call the docs show: one that runs as written, or none ("").

    Every required value is spelled out from the schema (no placeholder), the options
    are declared by a schema (not a skill's free script, whose arguments nobody
    declared), and nothing needs the network or the host's approval. Read-only first,
    then the fewest options."""
    runnable = [
        t
        for t in tools
        if t.tool_call
        and "'<" not in t.tool_call
        and t.report.get("origin") != "script"
        and not t.hints.get("openWorldHint")
        and not t.hints.get("destructiveHint")
    ]
    runnable.sort(
        key=lambda t: (
            not t.hints.get("readOnlyHint"),
            t.tool_call.count(" --"),
            t.qualname,
        )
    )
    return runnable[0].tool_call if runnable else ""


def _doc(
    package: PackageView,
    config: Config,
    profile: Profile,
    conflicts: tuple[Conflict, ...],
) -> str:
    tools = profiles.visible(package.offered, profile)
    native = profile.provider == "claude_code" and any(t.claude_native for t in tools)
    if native:
        tools = [t for t in tools if not t.claude_native]
    top = sorted({t.namespace[0] for t in tools})
    task_call = next((t.task_call for t in tools if t.task_call), "")
    tool_call = _call_shown(tools)
    path = "" if config.import_root == "." else f"PYTHONPATH={config.import_root} "
    return render.render(
        "CLAUDE.md.jinja",
        header=HEADER.format(source=""),
        out=config.out,
        run=f"{path}python -m {config.module}",
        count=len(tools),
        namespaces=", ".join(f"`{name}`" for name in top) or "(none)",
        example=tools[0].qualname if tools else "",
        task_call=task_call,
        tool_call=tool_call,
        native=native,
        scripts=any(t.report.get("origin") == "script" for t in tools),
        sources=", ".join(f"`{source}/`" for source in config.sources),
        regenerate=config.regenerate,
        equivalents=_equivalents(tools, profile, conflicts),
        # Claude Code installs a plugin's hooks; both clients start MCP servers.
        hooks=package.hooks if profile.provider == "claude_code" else (),
        servers=package.mcp_servers if profiles.is_cli(profile) else (),
        # Codex's AGENTS.md is also what a developer's agent reads to write code.
        frameworks=profile.provider == "codex",
        module=config.module,
    )
