"""A written package's files held to its client's rules where skillc's loaders do not
read them as the client does (``packages`` reads the rest back through them):

- the marketplaces: Claude Code's (``name``, ``owner.name``, each string source a
  ``./`` path), Codex's (``marketplace.rs``: its fields, each local path ``./``,
  inside the marketplace's root), Cursor's (its closed schema);
- Gemini CLI's ``gemini-extension.json`` (``name`` and ``version``, the name's
  characters) and OpenCode's ``opencode.json`` (each MCP server a strict ``local`` or
  ``remote`` entry);
- the upload bundles (``bundles``): a zip a skill, one top-level folder holding a
  ``SKILL.md`` whose ``name`` is the folder's, with the digest the lock records.

Each rule cites the client's source beside it."""

from __future__ import annotations

import hashlib
import io
import json
import re
import zipfile
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, NamedTuple

import yaml

from ..filestat import read_regular
from ..loaders.refusals import at

MAX_BYTES = 4 * 1024 * 1024  # a package's manifest: skillc writes a few KiB
MAX_ZIP_BYTES = 1 << 28  # the output folder's largest file (writer.MAX_OUTPUT_BYTES)
MAX_SKILL_MD = 1 << 20  # what is read of a bundle's SKILL.md
BUNDLES = frozenset({"openai-skills", "anthropic-skills"})
SKILL = "SKILL.md"
FRONTMATTER = re.compile(rb"\A---\r?\n(.*?)\r?\n---\r?\n", re.DOTALL)

CLAUDE = "code.claude.com/docs/en/plugins/marketplace-reference"
CODEX = "openai/codex codex-rs/core-plugins/src/marketplace.rs@0324d09"
CURSOR = "cursor/plugins schemas/marketplace.schema.json@195d935"
GEMINI = "google-gemini/gemini-cli packages/cli/src/config/extension-manager.ts@5411f11"
OPENCODE = "anomalyco/opencode packages/opencode/src/config/config.ts@002d982"
ANTHROPIC = "platform.claude.com/docs/en/api/skills/create"
SKILLS_SPEC = (
    "agentskills.io/specification (name: 'Must match the parent directory name')"
)


class Finding(NamedTuple):
    """What a client refuses in a written package, where."""

    client: str
    path: str  # project-relative
    line: int
    col: int
    message: str


Said = Iterator[tuple[tuple[str, ...], str]]  # (the keys leading to it, why)
Rule = Callable[[Any], Said]


def _text(value: Any) -> bool:
    return isinstance(value, str) and bool(value)


def _claude_marketplace(data: Any) -> Said:
    """Top-level fields (required: name, owner, plugins; owner.name), Plugin sources
    (a relative path starts with ./)."""
    if not _text(data.get("name")):
        yield ("name",), "the marketplace needs a name (a string)"
    owner = data.get("owner")
    if not (isinstance(owner, dict) and _text(owner.get("name"))):
        yield ("owner",), "the marketplace needs an owner with a name (a string)"
    for index, entry in enumerate(_list(data.get("plugins"))):
        source = entry.get("source") if isinstance(entry, dict) else None
        if isinstance(source, str) and not source.startswith("./"):
            why = f"plugins[{index}].source {source!r}: a relative path starts with ./"
            yield ("plugins", "source"), why


def _codex_marketplace(data: Any) -> Said:
    """RawMarketplaceManifest (name, plugins; each name and source) and
    resolve_local_plugin_source_path: './' first, not empty, plain folder names."""
    if not isinstance(data.get("name"), str):
        yield ("name",), "the marketplace needs a name (a string)"
    if not isinstance(data.get("plugins"), list):
        yield ("plugins",), "the marketplace needs a plugins list"
    for index, entry in enumerate(_list(data.get("plugins"))):
        if not (isinstance(entry, dict) and isinstance(entry.get("name"), str)):
            yield ("plugins",), f"plugins[{index}] needs a name (a string)"
            continue
        source = entry.get("source")
        path = source.get("path") if isinstance(source, dict) else source
        if isinstance(source, dict) and source.get("source") != "local":
            continue  # a remote source: fetched by Codex, not checked here
        if not isinstance(path, str):
            yield ("plugins", "source"), f"plugins[{index}] needs a local source path"
        elif not _local(path):
            why = (
                f"plugins[{index}] source path {path!r}: a local path starts with ./ "
                "and stays inside the marketplace's root"
            )
            yield ("plugins", "source"), why


def _local(path: str) -> bool:
    parts = path.removeprefix("./").split("/")
    return path.startswith("./") and all(p not in ("", ".", "..") for p in parts)


CURSOR_TOP = frozenset({"name", "owner", "metadata", "plugins"})
CURSOR_ENTRY = frozenset({"name", "source", "description", "minClientVersions"})
CURSOR_NAME = re.compile(r"[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?")


def _cursor_marketplace(data: Any) -> Said:
    """The closed schema: lines 6-35 (required name, plugins; no other field), 37-53
    (owner: name, email), 54-79 (each entry: name by its pattern, source, closed)."""
    for key in sorted(data.keys() - CURSOR_TOP):
        yield (key,), f"{key!r} is not a field of a Cursor marketplace"
    if not _text(data.get("name")):
        yield ("name",), "the marketplace needs a name (a string)"
    owner = data.get("owner", {"name": "-"})
    if not (
        isinstance(owner, dict)
        and owner.keys() <= {"name", "email"}
        and _text(owner.get("name"))
        and isinstance(owner.get("email", ""), str)
    ):
        yield ("owner",), "owner must be an object of name (required) and email"
    if not isinstance(data.get("metadata", {}), dict):
        yield ("metadata",), "metadata must be an object"
    if not isinstance(data.get("plugins"), list):
        yield ("plugins",), "the marketplace needs a plugins list"
    for index, entry in enumerate(_list(data.get("plugins"))):
        if not isinstance(entry, dict):
            yield ("plugins",), f"plugins[{index}] must be an object"
            continue
        for key in sorted(entry.keys() - CURSOR_ENTRY):
            yield ("plugins", key), f"plugins[{index}].{key} is not a field of an entry"
        name = entry.get("name")
        if not (isinstance(name, str) and CURSOR_NAME.fullmatch(name)):
            yield (
                "plugins",
                "name",
            ), f"plugins[{index}].name must match {CURSOR_NAME.pattern}"
        if not _text(entry.get("source")):
            yield ("plugins", "source"), f"plugins[{index}] needs a source (a string)"
        if not isinstance(entry.get("description", ""), str):
            yield (
                "plugins",
                "description",
            ), f"plugins[{index}].description must be a string"


GEMINI_NAME = re.compile(r"[a-zA-Z0-9-]+")


def _gemini_extension(data: Any) -> Said:
    """loadExtensionConfig, lines 1026-1030 (a name and a version, or 'Invalid
    configuration'), and validateName, 1283-1289 (letters, digits and dashes)."""
    name = data.get("name")
    if not name:
        yield ("name",), "the extension needs a name"
    elif not (isinstance(name, str) and GEMINI_NAME.fullmatch(name)):
        yield ("name",), f"name {name!r}: only letters, digits and dashes"
    if not data.get("version"):
        yield ("version",), "the extension needs a version"


MCP_KEYS = {
    "local": frozenset({"type", "command", "environment", "enabled", "timeout"}),
    "remote": frozenset({"type", "url", "enabled", "headers", "oauth", "timeout"}),
}


def _opencode(data: Any) -> Said:
    """McpLocal and McpRemote (strict objects, by their type): a local server's
    command is a list of strings, a remote one's url a string."""
    servers = data.get("mcp", {})
    if not isinstance(servers, dict):
        yield ("mcp",), "mcp must be an object of servers"
        return
    for name, entry in sorted(servers.items()):
        kind = entry.get("type") if isinstance(entry, dict) else None
        if kind not in MCP_KEYS:
            yield ("mcp", name), f"mcp.{name}: its type is local or remote"
            continue
        for key in sorted(entry.keys() - MCP_KEYS[kind]):
            yield (
                "mcp",
                name,
                key,
            ), f"mcp.{name}.{key} is not a field of a {kind} server"
        command = entry.get("command")
        if kind == "local" and not (
            isinstance(command, list) and all(isinstance(c, str) for c in command)
        ):
            yield ("mcp", name), f"mcp.{name}.command must be a list of strings"
        if kind == "remote" and not isinstance(entry.get("url"), str):
            yield ("mcp", name), f"mcp.{name}.url must be a string"


# Each client's files below its package folder (a glob), the rule, and its source.
RULES: dict[str, tuple[tuple[str, Rule, str], ...]] = {
    "claude-code": ((".claude-plugin/marketplace.json", _claude_marketplace, CLAUDE),),
    "codex": ((".agents/plugins/marketplace.json", _codex_marketplace, CODEX),),
    "cursor": ((".cursor-plugin/marketplace.json", _cursor_marketplace, CURSOR),),
    "gemini-cli": (("*/gemini-extension.json", _gemini_extension, GEMINI),),
    "opencode": (("opencode.json", _opencode, OPENCODE),),
}


def manifests(client: str, folder: Path, shown: str) -> list[Finding]:
    """What ``client`` refuses in the package's marketplace and manifests."""
    found = []
    for pattern, rule, source in RULES.get(client, ()):
        for file in sorted(folder.glob(pattern)):
            path = f"{shown}/{file.relative_to(folder).as_posix()}"
            found += _manifest(client, file, path, rule, source)
    return found


def _manifest(
    client: str, file: Path, path: str, rule: Rule, source: str
) -> list[Finding]:
    data = read_regular(str(file), MAX_BYTES)
    if data is None:
        return [Finding(client, path, 1, 1, f"{client}: not a regular file it reads")]
    try:
        text = data.decode("utf-8")
        value = json.loads(text)
    except UnicodeDecodeError:
        return [Finding(client, path, 1, 1, f"{client}: not UTF-8 JSON ({source})")]
    except ValueError as exc:
        line, col = getattr(exc, "lineno", 1), getattr(exc, "colno", 1)
        return [Finding(client, path, line, col, f"{client}: not JSON: {exc}")]
    if not isinstance(value, dict):
        return [Finding(client, path, 1, 1, f"{client}: not a JSON object ({source})")]
    return [
        Finding(client, path, *at(text, *keys), f"{client}: {why} ({source})")
        for keys, why in rule(value)
    ]


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def bundles(
    client: str, folder: Path, shown: str, owned: Mapping[str, str]
) -> list[Finding]:
    """Each upload bundle of ``folder``: one top-level folder, the skill's, holding a
    SKILL.md of that name (ANTHROPIC: 'All files must be in the same top-level
    directory and must include a SKILL.md file at the root of that directory';
    SKILLS_SPEC), and the digest ``owned`` (the lock, by path below the output
    folder) records."""
    found = []
    below = shown.split("/", 1)[1]  # the path below the output folder
    for file in sorted(folder.glob("*.zip")):
        path = f"{shown}/{file.name}"
        data = read_regular(str(file), MAX_ZIP_BYTES)
        why = _bundle(data, owned.get(f"{below}/{file.name}"))
        found += [Finding(client, path, 1, 1, f"{client}: {said}") for said in why]
    return found


def _bundle(data: bytes | None, recorded: str | None) -> list[str]:
    """What is wrong with one bundle's bytes (``recorded``: the lock's digest)."""
    if data is None:
        return ["not a regular file of at most 256 MiB"]
    said = []
    digest = hashlib.sha256(data).hexdigest()
    if recorded is None:
        said.append("the lock records no such bundle")
    elif digest != recorded:
        said.append(f"its sha256 {digest[:12]}... is not the lock's {recorded[:12]}...")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            infos = archive.infolist()
            tops = sorted({info.filename.split("/", 1)[0] for info in infos})
            if len(tops) != 1 or all("/" not in i.filename for i in infos):
                shown = ", ".join(tops) or "none"
                return [
                    *said,
                    f"holds {len(tops)} top-level entries ({shown}), "
                    f"not one folder ({ANTHROPIC})",
                ]
            said += _skill_md(archive, tops[0])
    except (zipfile.BadZipFile, OSError, EOFError) as exc:
        said.append(f"not a zip archive: {exc}")
    return said


def _skill_md(archive: zipfile.ZipFile, top: str) -> list[str]:
    """The bundle's SKILL.md: there, and named as its folder."""
    try:
        info = archive.getinfo(f"{top}/{SKILL}")
    except KeyError:
        return [f"its folder {top}/ holds no {SKILL} ({ANTHROPIC})"]
    if info.file_size > MAX_SKILL_MD:
        return [f"{top}/{SKILL} is over {MAX_SKILL_MD:,} bytes"]
    head = FRONTMATTER.match(archive.read(info))
    try:
        frontmatter = yaml.safe_load(head[1]) if head else None
    except yaml.YAMLError:
        frontmatter = None
    name = frontmatter.get("name") if isinstance(frontmatter, dict) else None
    if name != top:
        return [f"{top}/{SKILL}'s name {name!r} is not its folder's ({SKILLS_SPEC})"]
    return []
