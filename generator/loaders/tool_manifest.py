"""``tool-manifest.yaml`` (seed 003, section 3.2): dynamic tools with script or http
executors, standalone or inside a skill folder.

Standalone, its tools take the namespace of its ``namespace:`` key, else of its folder's
name. Inside a skill folder they belong to the skill (namespace: the skill's name) and run
with the skill folder as working directory. The aliases ``parameters`` (``input_schema``),
``script`` (``entry``) and ``endpoint`` (``url``) are read as the names they stand for.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import discover
from ..diagnostics import Report
from ..loaders import Context, Loaded
from ..ir import Executor, Function, HttpExecutor, Position, ScriptExecutor
from ..loaders import credentials, executor_check, manifest

FILE = "tool-manifest.yaml"
SCHEMA = "tool-manifest.schema.json"
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")
_NAME = re.compile(r"^[A-Za-z0-9_.-]+$")
NAME_LIMIT = 64  # the tightest provider limit on a tool name


@dataclass(frozen=True, slots=True)
class Owner:
    """Where the tools belong: a namespace and the folder they run in."""

    namespace: tuple[str, ...]
    folder: str  # repo-relative working directory
    skill: str | None = None


def load(found: discover.Found, context: Context) -> Loaded:
    """A ``tool-manifest.yaml`` outside a skill folder."""
    summary, functions, _ = read(
        found.path,
        discover.relative(found.path, context.project),
        found.root,
        None,
        context.report,
        context.max_file_bytes,
    )
    return Loaded(functions=tuple(functions), summary=summary)


def read(
    path: Path,
    rel: str,
    root: int,
    owner: Owner | None,
    report: Report,
    max_bytes: int,
) -> tuple[str, list[Function], set[str]]:
    """The manifest's description, its tools, and the script entries they run."""
    doc = manifest.read(path, rel, SCHEMA, report, max_bytes)
    if doc is None:
        return "", [], set()
    if owner is None:
        folder = posixpath.dirname(rel)
        namespace = doc.data.get("namespace") or posixpath.basename(folder) or "tools"
        owner = Owner(tuple(namespace.split(".")), folder)
    runtime = doc.data.get("runtime") or {}
    functions: list[Function] = []
    entries: set[str] = set()
    for at, tool in doc.entries("tools", "name", "tool"):
        name = tool["name"]
        check_name(doc, name, (*at, "name"))
        if "input_schema" in tool and "parameters" in tool:
            doc.error(
                (*at, "parameters"),
                "manifest-invalid",
                "give input_schema or its alias parameters, not both",
            )
            continue
        key = "input_schema" if "input_schema" in tool else "parameters"
        author = tool.get(key)
        schema = doc.input_schema(author, (*at, key))
        executor = _executor(doc, tool.get("executor"), (*at, "executor"), owner)
        if schema is None or executor is None:
            continue
        if not executor_check.check(doc, tool["executor"], (*at, "executor"), schema):
            continue
        if isinstance(executor, ScriptExecutor):
            entries.add(executor.entry)
        functions.append(
            Function(
                name=name,
                path=(*owner.namespace, *name.split(".")),
                origin="tool-manifest",
                description=doc.description(tool, at, name),
                input_schema=schema,
                author_schema=author if isinstance(author, dict) else {},
                output_schema=None,
                executor=executor,
                source=Position(rel, *doc.where((*at, "name"))[1:]),
                root=root,
                timeout_sec=tool.get("timeout_sec", runtime.get("default_timeout_sec")),
                retry=manifest.retry(tool.get("retry") or runtime.get("default_retry")),
                skill=owner.skill,
                skill_dir=owner.folder,
            )
        )
    return str(doc.data.get("description") or ""), functions, entries


def check_name(doc: manifest.Manifest, name: str, at: manifest.JsonPath) -> None:
    """Real-world names may hold spaces or run long: usable, but worth a warning."""
    if not _NAME.match(name):
        doc.warning(
            at,
            "invalid-name",
            f"tool name {name!r} has characters other than letters, digits, '_', '-' "
            "and '.'; its Python name is sanitised",
        )
    if len(name) > NAME_LIMIT:
        doc.warning(
            at,
            "invalid-name",
            f"tool name {name!r} is {len(name)} characters; providers accept at most "
            f"{NAME_LIMIT}",
        )


def _executor(
    doc: manifest.Manifest, value: Any, at: manifest.JsonPath, owner: Owner
) -> Executor | None:
    if value is None:
        doc.error(at[:-1], "manifest-invalid", "the tool has no executor")
        return None
    if value["type"] == "script":
        return script_executor(doc, value, at, owner.folder)
    return http_executor(doc, value, at)


def script_executor(
    doc: manifest.Manifest, value: dict[str, Any], at: manifest.JsonPath, folder: str
) -> Executor | None:
    if "entry" in value and "script" in value:
        doc.error(
            (*at, "script"),
            "manifest-invalid",
            "give entry or its alias script, not both",
        )
        return None
    entry = str(value.get("entry") or value.get("script") or "")
    if not entry:
        doc.error(at, "manifest-invalid", "a script executor needs an entry")
        return None
    normal = posixpath.normpath(entry)
    if posixpath.isabs(normal) or normal.startswith("../"):
        doc.error(
            (*at, "entry" if "entry" in value else "script"),
            "executor-invalid",
            f"entry {entry!r} must be a path inside {folder or 'the project'}",
        )
        return None
    template = value.get("args_template") or []
    if isinstance(template, str):
        template = manifest.split_words(doc, template, (*at, "args_template"))
        if template is None:
            return None
    env = credentials.env_names(value.get("env"))
    secrets = credentials.secrets(value)
    return ScriptExecutor(normal, tuple(template), folder, env=env, secrets=secrets)


def http_executor(
    doc: manifest.Manifest, value: dict[str, Any], at: manifest.JsonPath
) -> Executor | None:
    if "url" in value and "endpoint" in value:
        doc.error(
            (*at, "endpoint"),
            "manifest-invalid",
            "give url or its alias endpoint, not both",
        )
        return None
    url = str(value.get("url") or value.get("endpoint") or "")
    scheme = _SCHEME.match(url)
    if not url or (scheme and scheme.group(1).lower() not in ("http", "https")):
        doc.error(
            (*at, "url" if "url" in value else "endpoint"),
            "executor-invalid",
            f"url {url!r} must be an http or https URL",
        )
        return None
    method = str(value.get("method") or ("POST" if "body_template" in value else "GET"))
    headers = value.get("headers_template")
    return HttpExecutor(
        method.upper(),
        url,
        dict(sorted(headers.items())) if headers else None,
        "body_template" in value,
        value.get("body_template"),
        credentials.secrets(value),
    )
