"""``*.tools.yaml``: skillc's own namespaced manifest (its schema: ``schemas/tools.schema.json``).

One namespace per file (``file``, ``s3.file``), and its tools: each with an input schema,
an optional output schema, a category, aliases (legacy names that call the same tool),
examples, errors, notes and an executor (``python``, ``script``, ``http`` or ``cli``). The
built-in namespaces are written in this format too.
"""

from __future__ import annotations

import posixpath
from pathlib import Path
from typing import Any

from .. import discover
from ..diagnostics import Report
from ..loaders import Context, Loaded
from ..ir import CliExecutor, Executor, Function, Position, PythonExecutor
from ..loaders import (
    call_examples,
    credentials,
    executor_check,
    manifest,
    tool_manifest,
)

SCHEMA = "tools.schema.json"


def load(found: discover.Found, context: Context) -> Loaded:
    """A ``*.tools.yaml`` manifest."""
    rel = discover.relative(found.path, context.project)
    summary, functions = read(
        found.path, rel, found.root, context.report, context.max_file_bytes
    )
    return Loaded(functions=tuple(functions), summary=summary)


def read(
    path: Path,
    rel: str,
    root: int,
    report: Report,
    max_bytes: int,
    origin: str = "tools",
) -> tuple[str, list[Function]]:
    """The namespace's description and its tools."""
    doc = manifest.read(path, rel, SCHEMA, report, max_bytes)
    if doc is None:
        return "", []
    namespace = tuple(doc.data["namespace"].split("."))
    folder = posixpath.dirname(rel)
    runtime = doc.data.get("runtime") or {}
    functions: list[Function] = []
    for at, tool in doc.entries("tools", "name", "tool"):
        name = tool["name"]
        tool_manifest.check_name(doc, name, (*at, "name"))
        author = tool.get("input_schema")
        schema = doc.input_schema(author, (*at, "input_schema"))
        output = None
        if "output_schema" in tool:
            output = doc.output_schema(tool["output_schema"], (*at, "output_schema"))
            if output is None:
                continue
        executor = _executor(doc, tool["executor"], (*at, "executor"), folder)
        if schema is None or executor is None:
            continue
        if not executor_check.check(doc, tool["executor"], (*at, "executor"), schema):
            continue
        full = (*namespace, *name.split("."))
        examples = manifest.strings(tool.get("examples"))
        inputs = call_examples.inputs(
            doc,
            (*at, "examples"),
            examples,
            {".".join(full), *(tool.get("aliases") or ())},
            schema,
        )
        if inputs is None:
            continue
        functions.append(
            Function(
                name=name,
                path=full,
                origin=origin,
                description=doc.description(tool, at, name),
                input_schema=schema,
                author_schema=author if isinstance(author, dict) else {},
                output_schema=output,
                executor=executor,
                source=Position(rel, *doc.where((*at, "name"))[1:]),
                root=root,
                category=tool.get("category"),
                aliases=tuple(tool.get("aliases") or ()),
                examples=examples,
                input_examples=inputs,
                errors=manifest.strings(tool.get("errors")),
                notes=manifest.strings(tool.get("notes")),
                triggers=manifest.strings(tool.get("tags")),
                dangerous=bool(tool.get("dangerous", False)),
                read_only=tool.get("read_only"),
                idempotent=tool.get("idempotent"),
                icons=tuple(tool.get("icons") or ()),
                timeout_sec=tool.get("timeout_sec", runtime.get("default_timeout_sec")),
                retry=manifest.retry(tool.get("retry") or runtime.get("default_retry")),
                # The built-ins run in the package; others in their manifest's folder.
                skill_dir=None if origin == "builtin" else folder,
            )
        )
    return str(doc.data.get("description") or ""), functions


def _executor(
    doc: manifest.Manifest, value: dict[str, Any], at: manifest.JsonPath, folder: str
) -> Executor | None:
    kind = value["type"]
    if kind == "python":
        return PythonExecutor(value["function"])
    if kind == "script":
        return tool_manifest.script_executor(doc, value, at, folder)
    if kind == "http":
        return tool_manifest.http_executor(doc, value, at)
    command = value["command"]
    if isinstance(command, str):
        command = manifest.split_words(doc, command, (*at, "command"))
        if command is None:
            return None
    positional = tuple(value.get("positional") or ())
    env = credentials.env_names(value.get("env"))
    return CliExecutor(tuple(command), positional, env, credentials.secrets(value))
