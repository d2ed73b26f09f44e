"""A skill's own tools: its ``tool-manifest.yaml`` and the scripts in its ``scripts/``
folder (seed 001). Each runnable script directly in ``scripts/`` (a known interpreter's
extension, or a shebang line; not ``__init__.py`` nor a ``_private`` helper) becomes the
tool ``<skill>.<script>``, with the provider id ``skill-name__script_name``: the skill
part lowercase with ``-`` for ``_``, the script part lowercase with ``_`` for ``-``
(``web-artifacts-builder__bundle_artifact``), matching ``^[a-z0-9-]+__[a-z0-9_]+$`` in at
most 60 characters; a tool of the skill's tool-manifest.yaml gets an id the same way.
A script's description is its module docstring or leading comment block. A script that
a manifest entry runs takes that entry's parameters (and description); any other takes
a free-form list of string arguments.
"""

from __future__ import annotations

import dataclasses
import posixpath
import re
from pathlib import Path

from generator import discover
from generator.diagnostics import Report
from generator.loaders import Context, Loaded
from generator.ir import Function, Position, ScriptExecutor
from generator.loaders import frontmatter, tool_manifest
from generator.names import script_name, skill_name

PROVIDER_ID = re.compile(r"^[a-z0-9-]+__[a-z0-9_]+$")
PROVIDER_ID_LIMIT = 60
FREE_FORM = {
    "type": "object",
    "properties": {
        "args": {
            "type": "array",
            "items": {"type": "string"},
            "description": "Command-line arguments, passed to the script as they are.",
        }
    },
}


def load(found: discover.Found, context: Context) -> Loaded:
    """A skill folder's tools: its tool-manifest.yaml and its scripts."""
    functions = read(
        found.path,
        discover.relative(found.path, context.project),
        found.path.parent.name,
        found.files,
        found.root,
        context.report,
        context.max_file_bytes,
    )
    return Loaded(functions=tuple(functions))


def read(
    skill_file: Path,
    rel: str,
    skill: str,
    files: tuple[str, ...],
    root: int,
    report: Report,
    max_bytes: int,
) -> list[Function]:
    folder = posixpath.dirname(rel)
    owner = tool_manifest.Owner((skill,), folder, skill)
    functions: list[Function] = []
    used: set[str] = set()
    if tool_manifest.FILE in files:
        _, functions, used = tool_manifest.read(
            skill_file.parent / tool_manifest.FILE,
            posixpath.join(folder, tool_manifest.FILE),
            root,
            owner,
            report,
            max_bytes,
        )
    functions = [
        dataclasses.replace(f, provider_id=tool_id)
        for f in functions
        if (tool_id := _tool_id(skill, f.name, f.source, report)) is not None
    ]
    for script in files:
        path = skill_file.parent / script
        if script in used or not discover.is_script(script, path):
            continue
        stem = script_name(posixpath.splitext(posixpath.basename(script))[0])
        where = Position(posixpath.join(folder, script))
        frontmatter.check_link(path, where.path, report)  # as every other input
        provider_id = _tool_id(skill, stem, where, report, script)
        if provider_id is None:
            continue
        functions.append(
            Function(
                name=stem,
                path=(skill, stem),
                origin="script",
                description=script_description(path)
                or f"Run the {script} script of the {skill} skill.",
                input_schema=FREE_FORM,
                author_schema={},
                output_schema=None,
                # args is the script's own command line, options included
                executor=ScriptExecutor(script, ("{args}",), folder, free_argv=True),
                source=where,
                root=root,
                skill=skill,
                skill_dir=folder,
                provider_id=provider_id,
            )
        )
    return functions


def _tool_id(
    skill: str, name: str, where: Position, report: Report, script: str | None = None
) -> str | None:
    """Seed 001's id: the skill's name lowercased with ``-`` for ``_``, ``__``, the tool's
    name lowercased; it must match ``^[a-z0-9-]+__[a-z0-9_]+$`` and fit 60 characters.
    """
    tool_id = f"{skill_name(skill)}__{script_name(name)}"
    if len(tool_id) > PROVIDER_ID_LIMIT:
        reason = f"is {len(tool_id)} characters; the limit is {PROVIDER_ID_LIMIT}"
    elif not PROVIDER_ID.match(tool_id):
        reason = "must match ^[a-z0-9-]+__[a-z0-9_]+$"
    else:
        return tool_id
    what = f"script {script!r}" if script else f"tool {name!r}"
    report.error(
        where.path,
        where.line,
        where.col,
        "invalid-tool-id",
        f"skill {skill!r}, {what}: tool id {tool_id!r} {reason}",
    )
    return None


def script_description(path: Path, limit: int = 4096) -> str:
    """A script's module docstring (Python) or leading comment block (``#`` or ``//``
    lines after the shebang), as one paragraph; "" when it has none."""
    try:
        with path.open("rb") as handle:
            head = handle.read(limit).decode("utf-8", "replace")
    except OSError:
        return ""
    lines = head.splitlines()
    if lines and lines[0].startswith("#!"):
        lines = lines[1:]
    text = "\n".join(lines).lstrip()
    if path.suffix == ".py" and text[:3] in ('"""', "'''"):
        end = text.find(text[:3], 3)
        return _paragraph(text[3:end] if end > 0 else "")
    comment: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        marker = next((m for m in ("#", "//") if stripped.startswith(m)), None)
        if marker is None or stripped.startswith(("# -*-", "#!")):
            if marker is None:
                break
            continue
        comment.append(stripped[len(marker) :].strip())
    return _paragraph("\n".join(comment))


def _paragraph(text: str) -> str:
    """The first paragraph, on one line."""
    first = text.strip().split("\n\n", 1)[0]
    return " ".join(first.split())
