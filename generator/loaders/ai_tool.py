"""``ai-tool.yaml`` (seed 004): a command-line tool describing its own commands.

A command id ``orchestrator:status`` becomes the tool ``orchestrator.status`` (an id
without a colon goes under the tool's name). Its parameters become an input schema, and its
``cli_command`` a cli executor: an argument list, positional parameters in order, the
others as ``--name value``. Nothing here runs a command: neither ``cli_command`` nor the
install commands are executed at build time, and an install source outside the configured
allowlist is an error. ``install.pip`` must be one PEP 508 requirement (its source is
``pypi:<name>``, or its direct URL's) or one URL: pip options (``--index-url``), several
requirements and anything else pip would read otherwise are refused.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .. import discover
from ..diagnostics import Report
from ..loaders import Context, Loaded
from ..ir import CliExecutor, Function, Position
from ..loaders import manifest

SCHEMA = "ai-tool.schema.json"
DEFAULT_ALLOWLIST = ("pypi:*",)
SCHEMA_MAJOR = "1"  # the seed 004 schema_version this loader reads
_URL = re.compile(r"^(?:[a-z+]+://|git\+|[A-Za-z0-9.-]+@)")


def load(found: discover.Found, context: Context) -> Loaded:
    """An ``ai-tool.yaml`` manifest."""
    summary, functions = read(
        found.path,
        discover.relative(found.path, context.project),
        found.root,
        context.report,
        context.max_file_bytes,
        context.install_allowlist,
    )
    return Loaded(functions=tuple(functions), summary=summary)


def read(
    path: Path,
    rel: str,
    root: int,
    report: Report,
    max_bytes: int,
    allowlist: Sequence[str] = DEFAULT_ALLOWLIST,
) -> tuple[str, list[Function]]:
    """The tool's description (its namespace's summary) and its commands."""
    doc = manifest.read(path, rel, SCHEMA, report, max_bytes)
    if doc is None or _refused(doc, allowlist):
        return "", []
    data = doc.data
    tool = data["tool"]
    guidance = data.get("guidance") or {}
    shared = {
        "notes": _notes(guidance),
        "cli_tool": {**tool, "install": data.get("install") or {}}
        | ({"guidance": guidance} if guidance else {}),
    }
    functions: list[Function] = []
    for at, command in doc.entries("commands", "id", "command id", "used"):
        function = _command(doc, command, at, root, shared)
        if function is not None:
            functions.append(function)
    return str(tool.get("description") or ""), functions


def _refused(doc: manifest.Manifest, allowlist: Sequence[str]) -> bool:
    """Whether the manifest is of a schema version this loader does not read, or
    installs from what it may not (an error at its place)."""
    data = doc.data
    version = str(data["schema_version"])
    if version.split(".")[0] != SCHEMA_MAJOR:
        doc.error(
            ("schema_version",),
            "manifest-invalid",
            f"schema_version {version!r}: only major version {SCHEMA_MAJOR} is understood",
        )
        return True
    pip = (data.get("install") or {}).get("pip")
    source = None if pip is None else install_source(pip)
    if pip is not None and source is None:
        doc.error(
            ("install", "pip"),
            "install-not-allowed",
            f"install.pip {pip[:200]!r} is not one PEP 508 requirement or one URL "
            "(pip options such as --index-url are not allowed)",
        )
        return True
    if source is not None and not any(
        fnmatch.fnmatchcase(source, pattern) for pattern in allowlist
    ):
        doc.error(
            ("install", "pip"),
            "install-not-allowed",
            f"install source {source[:200]!r} is not in the install-allowlist "
            f"({', '.join(allowlist) or 'empty'})",
        )
        return True
    return False


def _notes(guidance: dict[str, Any]) -> tuple[str, ...]:
    """The tool's guidance, as every command's notes."""
    notes = [*guidance.get("best_practices", [])]
    notes += [
        f"{pattern['trigger']} -> {pattern['action']}"
        for pattern in guidance.get("usage_patterns", [])
    ]
    return tuple(notes)


def _command(
    doc: manifest.Manifest,
    command: dict[str, Any],
    at: manifest.JsonPath,
    root: int,
    shared: dict[str, Any],
) -> Function | None:
    """One command's function (``shared``: the notes and cli_tool of every one), or
    None when it has an error."""
    tool = doc.data["tool"]
    ident = command["id"]
    parts = ident.split(":")
    if len(parts) > 1 and parts[0] != tool["name"]:
        doc.error(
            (*at, "id"),
            "invalid-tool-id",
            f"command id {ident!r} carries another tool's prefix: in tool "
            f"{tool['name']!r} it must read {tool['name']}:{':'.join(parts[1:])}",
        )
        return None
    path_parts = tuple(parts) if len(parts) > 1 else (tool["name"], ident)
    schema, positional = _schema(command.get("parameters") or [])
    author = {"parameters": command.get("parameters") or []}
    checked = doc.input_schema(schema, (*at, "parameters"))
    words = manifest.split_words(doc, command["cli_command"], (*at, "cli_command"))
    if checked is None or words is None:
        return None
    return Function(
        name=ident,
        path=path_parts,
        origin="ai-tool",
        description=command["description"],
        input_schema=checked,
        author_schema=author,
        output_schema=None,
        executor=CliExecutor(tuple(words), tuple(positional)),
        source=Position(*doc.where((*at, "id"))),
        root=root,
        examples=manifest.strings(command.get("examples")),
        notes=shared["notes"],
        triggers=manifest.strings(command.get("triggers")),
        dangerous=bool(command.get("dangerous", False)),
        cli_tool=shared["cli_tool"],
    )


def _schema(parameters: list[dict[str, Any]]) -> tuple[dict[str, Any], list[str]]:
    properties: dict[str, Any] = {}
    required: list[str] = []
    positional: list[str] = []
    for parameter in parameters:
        name = parameter["name"]
        kind = parameter.get("type", "string")
        prop: dict[str, Any] = {"type": kind}
        if kind == "array":
            prop["items"] = {"type": "string"}
        if parameter.get("description"):
            prop["description"] = parameter["description"]
        if "default" in parameter:
            prop["default"] = parameter["default"]
        properties[name] = prop
        if parameter.get("required"):
            required.append(name)
        if parameter.get("positional"):
            positional.append(name)
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return schema, positional


def install_source(pip: str) -> str | None:
    """Where ``pip install <pip>`` fetches from: ``pypi:<name>`` for a PEP 508
    requirement, the URL without its scheme for a direct reference (``name @ url``) or
    a URL alone; None for anything else pip would read (options, several requirements).
    """
    from packaging.requirements import InvalidRequirement, Requirement

    text = pip.strip()
    try:
        requirement = Requirement(text)
    except InvalidRequirement:
        if not _URL.match(text) or any(char.isspace() for char in text):
            return None
        return _without_scheme(text)
    if requirement.url is not None:
        return _without_scheme(requirement.url)
    return f"pypi:{requirement.name}"


def _without_scheme(url: str) -> str:
    text = re.sub(r"^git\+", "", url)
    text = re.sub(r"^[a-z+]+://", "", text)
    text = re.sub(r"^[^@/]+@", "", text)  # user@ of ssh URLs
    return text.replace(":", "/", 1) if ":" in text.split("/", 1)[0] else text
