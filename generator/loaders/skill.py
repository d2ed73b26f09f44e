"""Agent Skills: ``<folder>/SKILL.md`` (plus an optional ``metadata.yaml`` beside it).

Validated by the Agent Skills specification; Claude Code's extension keys are kept.
What Claude Code accepts but the spec does not (a name that differs from its folder, a
``version`` key, a description over 1,024 characters, flow-style lists) is a warning, or
an error under ``--strict``.

``metadata.yaml`` (seed 000's version, author, tags, capabilities, constraints, tools) is
merged in; on a key both files set, SKILL.md wins and the clash is a warning.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from types import MappingProxyType

from .. import discover
from ..loaders import frontmatter, openai_yaml, yamlpos
from ..diagnostics import Report
from ..loaders import Context, markdown_loader
from ..ir import Definition, Kind, Position
from ..loaders.fields import Document, read_document
from ..names import skill_name

SPEC_KEYS = frozenset(
    {"name", "description", "license", "compatibility", "metadata", "allowed-tools"}
)
CLAUDE_CODE_KEYS = frozenset(
    {
        "when_to_use",
        "argument-hint",
        "arguments",
        "disable-model-invocation",
        "user-invocable",
        "disallowed-tools",
        "model",
        "effort",
        "context",
        "agent",
        "background",
        "hooks",
        "paths",
        "shell",
    }
)
# Keys seed 000 puts in frontmatter; common in real skills, outside the spec.
SEED_KEYS = frozenset(
    {"version", "author", "tags", "capabilities", "constraints", "tools"}
)
KNOWN_KEYS = SPEC_KEYS | CLAUDE_CODE_KEYS | SEED_KEYS
NAME_RULE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
MAX_NAME = 64
MAX_DESCRIPTION = 1024
MAX_COMPATIBILITY = 500
MAX_BUNDLED_FILES = 500
# Keys that have a field of their own in the model; every other key goes to ``extra``.
TAKEN = frozenset(
    {
        "name",
        "description",
        "license",
        "compatibility",
        "metadata",
        "allowed-tools",
        "arguments",
        "argument-hint",
        "model",
        "version",
        "tags",
    }
)


def load_skill(found: discover.Found, context: Context) -> Definition | None:
    path, root, plugin = found.path, found.root, context.plugin
    project, report, max_bytes = context.project, context.report, context.max_file_bytes
    # The folder as text: a Path made from it costs more than the rest of the paths' work.
    folder = os.path.dirname(path)
    rel = discover.relative(path, project)
    doc = read_document(path, rel, report, max_bytes, KNOWN_KEYS)
    if doc is None:
        return None
    written = MappingProxyType(dict(doc.data))  # before metadata.yaml is merged in
    metadata = os.path.join(folder, discover.METADATA_FILE)
    _merge_metadata_yaml(doc, metadata, project, report, max_bytes)
    for key in sorted(doc.data):
        if key in SEED_KEYS and doc.origins[key][0] == rel:
            doc.lenient(
                key,
                "non-spec-key",
                f"{key!r} is not an Agent Skills frontmatter key (metadata.yaml or metadata: is its place)",
                at_key=True,
            )
        elif key not in KNOWN_KEYS:
            doc.unknown(key, KNOWN_KEYS, "frontmatter")
    doc.check_flow_style()

    identity = _identity(doc, os.path.basename(folder))
    name = _name(doc, identity)
    description = doc.text("description")
    if description is None:
        description = first_line(doc.body) or name or identity
        doc.lenient(
            "description" if "description" in doc.data else None,
            "missing-description",
            f"description is missing or empty; Claude Code, and Level 1, use {description!r}",
        )
    elif len(description) > MAX_DESCRIPTION:
        doc.lenient(
            "description",
            "description-too-long",
            f"description is {len(description):,} characters; the spec allows {MAX_DESCRIPTION:,}",
        )
    codex = _codex(found, folder, project, report, max_bytes)
    doc.flag("background")  # checked, as Claude Code reads it
    return Definition(
        kind=Kind.SKILL,
        # Claude Code names project skills by their folder, plugin skills by ``name``.
        name=identity if plugin is None or not name else name,
        written_name=(
            os.path.basename(folder)
            if plugin is None or not name
            else doc.text("name") or name
        ),
        plugin=plugin,
        description=description,
        body=doc.body,
        source=Position(rel),
        yaml_frontmatter=doc.yaml,
        root=root,
        skill_dir=discover.relative(folder, project),
        files=_bundled(found.files, rel, report),
        arguments=doc.words("arguments"),
        argument_hint=argument_hint(doc),
        allowed_tools=doc.tool_list("allowed-tools"),
        model=doc.text("model"),
        version=doc.text("version"),
        tags=doc.words("tags"),
        license=doc.text("license"),
        compatibility=doc.text("compatibility", limit=MAX_COMPATIBILITY),
        metadata=MappingProxyType(_metadata(doc)),
        extra=doc.extra(TAKEN) | ({"codex": codex} if codex else {}),
        frontmatter=written,
        model_invocable=doc.flag("disable-model-invocation") is not True
        and codex.get("allow_implicit_invocation") is not False,
        user_invocable=doc.flag("user-invocable") is not False,
    )


def _codex(
    found: discover.Found, folder: str, project: Path, report: Report, max_bytes: int
) -> dict[str, object]:
    """Codex's settings of the skill, from its ``agents/openai.yaml``."""
    if openai_yaml.FILE not in found.files:
        return {}
    path = Path(folder, *openai_yaml.FILE.split("/"))
    rel = discover.relative(path, project)
    return openai_yaml.read(path, rel, report, max_bytes)


def _bundled(files: tuple[str, ...], rel: str, report: Report) -> tuple[str, ...]:
    if len(files) > MAX_BUNDLED_FILES:
        report.warning(
            rel,
            1,
            1,
            "too-many-files",
            f"the skill folder has {len(files):,} files; the first {MAX_BUNDLED_FILES} are listed",
        )
    return files[:MAX_BUNDLED_FILES]


def _identity(doc: Document, folder: str) -> str:
    """The folder's name, normalised as seed 001 says (``PDF_Tools`` -> ``pdf-tools``)."""
    identity = _normalised(folder)
    if not identity:
        doc.error(None, "invalid-name", f"folder name {folder!r} gives no skill name")
    elif identity != folder:
        doc.lenient(
            None,
            "invalid-name",
            f"folder name {folder!r} is read as {identity!r} (lowercase letters, "
            "digits and single hyphens)",
        )
    return identity or folder


def _name(doc: Document, identity: str) -> str | None:
    """The frontmatter name, normalised (None when it is missing or gives nothing):
    Claude Code loads ``Zoho Desk Automation``, ``zoho_mail``, ``-x`` and ``12306-mcp``.
    """
    raw = doc.text("name")
    if raw is None:
        doc.lenient(
            "name" if "name" in doc.data else None,
            "missing-name",
            f"name is missing or empty; the folder name {identity!r} is used",
        )
        return None
    name = _normalised(raw)
    if not NAME_RULE.match(name):
        doc.lenient(
            "name",
            "invalid-name",
            f"name {raw!r} has no usable reading as lowercase letters, digits and "
            f"hyphens; the folder name {identity!r} is used",
        )
        return None
    if name != raw:
        doc.lenient(
            "name",
            "invalid-name",
            f"name {raw!r} is read as {name!r} (lowercase letters, digits and single "
            "hyphens, not starting or ending with a hyphen)",
        )
    if len(name) > MAX_NAME:
        doc.lenient(
            "name",
            "invalid-name",
            f"name is {len(name)} characters; the spec allows {MAX_NAME}",
        )
    if name != identity:
        doc.lenient(
            "name",
            "name-folder-mismatch",
            f"name {name!r} differs from its folder {identity!r} (Claude Code names project skills by their folder)",
        )
    return name


def _normalised(name: str) -> str:
    """``skill_name(name)``: a name that already keeps the spec's rule is its own."""
    return name if NAME_RULE.match(name) else skill_name(name)


def first_line(body: str) -> str:
    """The first line of text of a Markdown body, without heading marks."""
    for line in body.splitlines():
        text = line.strip().lstrip("#").strip()
        if text:
            return text
    return ""


def _metadata(doc: Document) -> dict[str, str]:
    value = doc.data.get("metadata")
    if value is None:
        return {}
    if not isinstance(value, dict):
        doc.error(
            "metadata",
            "invalid-field",
            "metadata must be a mapping of strings to strings",
        )
        return {}
    result: dict[str, str] = {}
    for key, item in value.items():
        if isinstance(item, (dict, list)):
            doc.error(
                "metadata",
                "invalid-field",
                f"metadata.{key} must be a string, not a {type(item).__name__}",
            )
        else:
            result[str(key)] = "" if item is None else str(item)
    return dict(sorted(result.items()))


def argument_hint(doc: Document) -> str | None:
    """A skill's or command's ``argument-hint``: an unquoted ``[issue-number]`` is a
    warning (Claude Code shows it), never an error."""
    value = doc.data.get("argument-hint")
    if isinstance(value, list):
        # Unquoted ``[issue-number]`` is YAML for a list; the author meant the text.
        doc.warning(
            "argument-hint",
            "invalid-field",
            'argument-hint was read as a YAML list; quote it: argument-hint: "[...]"',
        )
        return "[" + " ".join(str(item) for item in value) + "]"
    return doc.text("argument-hint")


def _merge_metadata_yaml(
    doc: Document, path: str, project: Path, report: Report, max_bytes: int
) -> None:
    if not os.path.isfile(path):
        return
    rel = discover.relative(path, project)
    text = frontmatter.read(Path(path), rel, report, max_bytes)
    if text is None:
        return
    located = yamlpos.parse(text, rel, 0, report)
    if located is None or located.data is None:
        return
    if not isinstance(located.data, dict):
        report.error(
            rel, 1, 1, "frontmatter-not-mapping", "metadata.yaml must be a YAML mapping"
        )
        return
    for key, value in located.data.items():
        key = str(key)
        if key not in doc.data:
            doc.data[key] = value
            doc.origins[key] = (rel, located)
        elif doc.data[key] != value:
            line, col = located.where(key)
            report.warning(
                rel,
                line,
                col,
                "metadata-conflict",
                f"{key!r} differs from {doc.path}; the SKILL.md value is used",
            )


load = markdown_loader(load_skill)  # A skill's SKILL.md (with its metadata.yaml).
