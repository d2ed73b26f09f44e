"""Each client's own package of the build (``harness-packages``): written below the
output folder, ``packages/<client>/``, so that the lock records every file and
``skillc build --check`` finds a stale one. ``PACKAGES`` is the one table: a client's
package is its module's ``emit(bundle, report) -> {path: bytes}`` (paths below its
folder) and a line here.

Every package is made from one ``Bundle``: the skills the build publishes (their
files as the lock hashed them, read under ``confined``'s rule), the subagents and
commands (their files as written), and, when the build has manifest tools, the
generated MCP server (``python -m <package> mcp``). Each client's module keeps what
its client loads (``common.admitted``) and lays it out by the client's rules
(``generator/harness/``)."""

from __future__ import annotations

import json
import os
import posixpath
from collections.abc import Callable
from dataclasses import replace
from functools import partial

import yaml

from ...config import Config
from ...diagnostics import Report
from ...ir import SourceFile
from ...project import relative
from ...views import PackageView, TaskModule, ToolView
from .. import confined
from ..skill_files import Published
from ..well_known import reader
from . import agent_plugins, bundles, claude_code, codex, cursor, gemini_cli, opencode
from . import root as root
from .common import FOLDER, FRONTMATTER, Bundle, Files, LeftOut, Member, Server, slug

# A source plugin's manifests, where its version is read from (first found).
MANIFESTS = (
    ".claude-plugin/plugin.json",
    ".codex-plugin/plugin.json",
    ".cursor-plugin/plugin.json",
    "plugin.json",
    "gemini-extension.json",
)
PACKAGES: dict[str, Callable[[Bundle, LeftOut], Files]] = {
    "claude-code": claude_code.emit,
    "codex": codex.emit,
    "gemini-cli": gemini_cli.emit,
    "agent-plugins": agent_plugins.emit,
    "cursor": cursor.emit,
    "opencode": opencode.emit,
    "openai-skills": bundles.emitter("openai-skills"),
    "anthropic-skills": bundles.emitter("anthropic-skills"),
}


def emit(
    package: PackageView, published: list[Published], config: Config, report: Report
) -> dict[str, bytes]:
    """Every file of the packages ``config.harness_packages`` names, by path below
    the output folder."""
    if not config.harness_packages:
        return {}
    bundle = collect(package, published, config)
    files: dict[str, bytes] = {}
    left = LeftOut()
    for member in bundle.members:
        if member.unfit:
            left.add(member, f"every package in {FOLDER}", member.unfit)
    bundle = replace(bundle, members=tuple(m for m in bundle.members if not m.unfit))
    for client in config.harness_packages:
        for path, data in PACKAGES[client](bundle, left).items():
            files[f"{FOLDER}{client}/{path}"] = data
    left.say(report)
    return dict(sorted(files.items()))


def collect(package: PackageView, published: list[Published], config: Config) -> Bundle:
    """The build as every package takes it."""
    read = reader(config.root)
    members = [
        Member(
            "skill",
            skill.name,
            skill.description,
            skill.tool.qualname,
            skill.tool.source,
            skill.frontmatter,
            tuple((file.path, read(skill.folder, file)) for file in skill.files),
            _plugin(skill.tool),
        )
        for skill in published
    ]
    project = os.fspath(config.root.resolve())
    sources = {source.path: source for source in package.sources}
    done = {skill.tool.qualname for skill in published}
    for tool in sorted(package.tools, key=lambda t: t.qualname):
        if tool.agent_skill is not None and tool.qualname not in done:
            members.append(_unfit(tool))
        # A command is a skill of one file (Claude Code merged the two): no folder.
        if tool.kind == "agent" or (tool.kind == "skill" and tool.agent_skill is None):
            members.append(_file_member(tool, project, sources))
    module = config.module
    server = None
    if any(tool.kind == "tool" for tool in package.tools):
        profiles = frozenset(p.name for p in config.profiles if p.provider == "mcp")
        server = Server(module, config.import_root, profiles)
    summaries = {space.qualname: space.summary for space in package.namespaces}
    descriptions = {
        _plugin(tool): summaries.get(".".join(tool.namespace), "")
        for tool in package.tools
        if _plugin(tool)
    }
    return Bundle(
        slug(module.rpartition(".")[2]) or "skills",
        f"The skills and tools of {module}, compiled by skillc",
        tuple(members),
        server,
        relative(config.root, config.out),
        descriptions,
        _versions(package, project, sources),
    )


def _versions(
    package: PackageView, project: str, sources: dict[str, SourceFile]
) -> dict[str, str]:
    """Each source plugin's version, as the first of ``MANIFESTS`` it has that gives
    one says, by plugin."""
    found: dict[str, str] = {}
    for tool in package.tools:
        body, name = tool.body, _plugin(tool)
        if isinstance(body, TaskModule) and body.plugin_dir and name not in found:
            paths = (posixpath.join(body.plugin_dir, m) for m in MANIFESTS)
            held = [sources[path] for path in paths if path in sources]
            found[name] = next(filter(None, map(partial(_version, project), held)), "")
    return {name: version for name, version in found.items() if version}


def _version(project: str, source: SourceFile) -> str:
    """A manifest's ``version`` ("" if none), read as the build hashed it."""
    folder, _, file = source.path.rpartition("/")
    try:
        data = json.loads(
            confined.Folder(project, folder).read(file, source.sha256, source.size)
        )
    except (OSError, ValueError):
        return ""  # the build said what is wrong with it
    version = data.get("version") if isinstance(data, dict) else None
    return version.strip() if isinstance(version, str) else ""


def _unfit(tool: ToolView) -> Member:
    """A skill whose files are not published: in no package, and why."""
    why = (
        "its files are not published (skill-not-published says why)"
        if tool.offered
        else "only a person may invoke it (disable-model-invocation), and skillc "
        "packages the skills models are offered"
    )
    return Member("skill", tool.name, "", tool.qualname, tool.source, {}, (), unfit=why)


def _file_member(
    tool: ToolView, project: str, sources: dict[str, SourceFile]
) -> Member:
    """A subagent or command: its file, and its frontmatter (``recovered`` when it is
    not strict YAML, which a build reads as Claude Code does)."""
    path = tool.source.path
    source = sources[path]
    folder, _, file = path.rpartition("/")
    try:
        data = confined.Folder(project, folder).read(file, source.sha256, source.size)
    except OSError as exc:  # a link out of its folder, or changed since hashed
        why = f"its file is not read into a package: {exc}"
        return Member(
            "agent", tool.name, "", tool.qualname, tool.source, {}, (), unfit=why
        )
    frontmatter: object = {}
    head = FRONTMATTER.match(data.decode("utf-8", "replace"))
    try:
        frontmatter = yaml.safe_load(head[1]) if head else {}
    except yaml.YAMLError:
        frontmatter = None
    stem = file.rpartition(".")[0] or file
    return Member(
        "agent" if tool.kind == "agent" else "command",
        stem,
        tool.description,
        tool.qualname,
        tool.source,
        frontmatter if isinstance(frontmatter, dict) else {},
        ((file, data),),
        _plugin(tool),
        recovered=frontmatter is None,
    )


def _plugin(tool: ToolView) -> str:
    """The plugin a skill, subagent or command is in, as the packages name it ("":
    none)."""
    plugin = tool.body.plugin if isinstance(tool.body, TaskModule) else None
    return slug(plugin) if plugin else ""
