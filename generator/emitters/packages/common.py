"""What every client's package is made of: the build's skills (their files, as the
lock hashed them), subagents and commands (their files as written), and the MCP
server entry that brings the manifest tools to the client; and the one rule for what
a client's package leaves out (``admitted``): what the client cannot express, or what
its rules (``harness.judge``) refuse or skip, with a ``package-left-out`` warning at
the source that names the client."""

from __future__ import annotations

import json
import re
import posixpath
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ...diagnostics import Report
from ...harness import CLIENTS
from ...harness.judge import Item, refusal
from ...ir import Position

Files = dict[str, bytes]  # a package's files, by path below its folder
FOLDER = "packages/"  # below the output folder: packages/<client>/
FRONTMATTER = re.compile(r"\A---\r?\n(.*?)\r?\n---\r?\n", re.DOTALL)


@dataclass(frozen=True, slots=True)
class Member:
    """A skill (its folder's files), a subagent or a command (its one file) of the
    build, as the client is given it."""

    kind: str  # "skill", "agent" or "command"
    name: str  # the skill's folder name, or the file's stem
    description: str
    qualname: str
    source: Position
    frontmatter: Mapping[str, Any]
    files: tuple[tuple[str, bytes], ...]  # (path below its folder, or its file name)
    plugin: str = ""  # the plugin it is in, in the packages ("": the build's own)
    recovered: bool = False  # its frontmatter is not strict YAML
    unfit: str = ""  # why no package holds it


@dataclass(frozen=True, slots=True)
class Server:
    """The generated MCP server, ``python -m <module> mcp``: the package is imported
    from ``import_root`` (project-relative)."""

    module: str
    import_root: str
    profiles: frozenset[str]  # the names of the profiles served over MCP


@dataclass(frozen=True, slots=True)
class Bundle:
    """What one plugin of a package holds (or the whole build: ``plugins`` splits
    it): its name, description, members, and the MCP server when the build has
    manifest tools (the build's own plugin serves them)."""

    name: str
    description: str
    members: tuple[Member, ...]
    server: Server | None
    out: str  # the output folder, project-relative
    descriptions: Mapping[str, str] = field(default_factory=dict)  # by plugin
    versions: Mapping[str, str] = field(default_factory=dict)  # by plugin, if any
    version: str = ""  # one plugin's: its source plugin's version, if it has one

    def of(self, kind: str) -> tuple[Member, ...]:
        return tuple(m for m in self.members if m.kind == kind)


def slug(name: str) -> str:
    """A name every client takes for a plugin: lowercase letters and digits, with
    single hyphens between (Gemini CLI's extensions have no periods, Agent Plugins'
    no ``--``)."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def dumps(value: Any) -> bytes:
    """JSON as every package file writes it: two spaces, UTF-8, a final newline."""
    return (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


class LeftOut:
    """What each client's package leaves out, or writes otherwise than its source
    says, said once an item: one ``package-left-out`` (and one ``package-changed``)
    warning at its source naming every client and why."""

    def __init__(self) -> None:
        self.found: dict[str, tuple[Member, list[str]]] = {}
        self.changed: dict[str, tuple[Member, list[str]]] = {}

    def add(self, member: Member, client: str, why: str) -> None:
        self.found.setdefault(member.qualname, (member, []))[1].append(
            f"{client} ({why})"
        )

    def change(self, member: Member, client: str, how: str) -> None:
        """``member`` is written into ``client``'s package otherwise than its source
        says (``how``)."""
        self.changed.setdefault(member.qualname, (member, []))[1].append(
            f"{client} {how}"
        )

    def say(self, report: Report) -> None:
        for code, found, verb in (
            ("package-left-out", self.found, "is left out of"),
            ("package-changed", self.changed, "is written into"),
        ):
            for member, reasons in found.values():
                where = member.source
                report.warning(
                    where.path,
                    where.line,
                    where.col,
                    code,
                    f"{member.qualname} {verb} " + "; ".join(reasons),
                )


def admitted(
    bundle: Bundle,
    client: str,
    kinds: frozenset[str],
    left: LeftOut,
    plugin: bool,
    rule: Callable[[Member], str] | None = None,
) -> Bundle:
    """``bundle`` with what ``client`` loads of it: each member of a kind it holds
    (``kinds``) that its rules load (``plugin``: as a plugin's, named
    ``plugin:name``; ``rule``: why the package's own rule refuses it, if it does),
    once per name; each other member is left out (``left``)."""
    title = CLIENTS[client].title if client in CLIENTS else client
    kept: list[Member] = []
    taken: set[tuple[str, str]] = set()
    for member in bundle.members:
        why = ""
        if member.kind not in kinds:
            why = f"{title} packages hold no {member.kind}s"
        elif (member.kind, member.name) in taken:
            why = f"another {member.kind} there is named {member.name!r}"
        elif rule is not None and (said := rule(member)):
            why = said
        elif client in CLIENTS:
            item = Item(
                member.kind,  # type: ignore[arg-type]
                member.name,
                member.frontmatter,
                bundle.name if plugin else None,
                member.recovered,
            )
            why = refusal(client, item)
        if why:
            left.add(member, f"{FOLDER}{client}/", why)
            continue
        taken.add((member.kind, member.name))
        kept.append(member)
    return replace(bundle, members=tuple(kept))


def plugins(
    bundle: Bundle,
    client: str,
    kinds: frozenset[str],
    left: LeftOut,
    rule: Callable[[Member], str] | None = None,
) -> list[Bundle]:
    """The build as the plugins of ``client``'s package, by name: each source
    plugin's members as a plugin of its name, the others (and the MCP server) as
    one named after the generated package; each as the client loads it
    (``admitted``), none empty."""
    groups: dict[str, list[Member]] = {}
    for member in bundle.members:
        groups.setdefault(member.plugin or bundle.name, []).append(member)
    if bundle.server is not None:
        groups.setdefault(bundle.name, [])
    found = []
    for name, members in sorted(groups.items()):
        one = replace(
            bundle,
            name=name,
            description=bundle.descriptions.get(name, bundle.description),
            version=bundle.versions.get(name, ""),
            members=tuple(members),
            server=bundle.server if name == bundle.name else None,
        )
        one = admitted(one, client, kinds, left, True, rule)
        if one.members or one.server is not None:
            found.append(one)
    return found


def head(bundle: Bundle) -> dict[str, Any]:
    """A plugin manifest's first keys: ``name``, ``version`` (its source plugin's,
    when it has one: never made up, as a client may pin updates to it) and
    ``description``."""
    version = {"version": bundle.version} if bundle.version else {}
    return {"name": bundle.name, **version, "description": bundle.description}


def skill_files(member: Member, folder: str) -> Files:
    """A skill's files below ``folder`` (its own folder in the package)."""
    return {f"{folder}/{path}": data for path, data in member.files}


def server_entry(bundle: Bundle, root: str, here: str) -> dict[str, Any]:
    """The client's stdio entry for the MCP server: ``python -m <module> mcp``, with
    ``--profile <client>`` when the project has an MCP profile of the client's name
    (``here``'s first part: the package's folder below ``packages/``); ``root``: the
    client's placeholder for that folder (none: the module must be importable where
    the client runs it)."""
    server = bundle.server
    assert server is not None
    args = ["-m", server.module, "mcp"]
    client = here.partition("/")[0]
    if client in server.profiles:
        args += ["--profile", client]
    entry: dict[str, Any] = {"command": "python", "args": args}
    if root:
        folder = posixpath.join(bundle.out, FOLDER, here)
        up = posixpath.relpath(server.import_root, posixpath.normpath(folder))
        entry["env"] = {"PYTHONPATH": f"{root}/{up}"}
    return entry
