"""``report.json`` (tools, warnings, overrides, invalid inputs) and ``skillc.lock.json``
(generator, configuration, every source and output file with its sha256, each tool's
version).

Both are deterministic: sorted, repo-relative POSIX paths, no timestamps.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from generator.diagnostics import Diagnostic, Severity
from generator.emitters import seed_metadata
from generator.emitters.providers.schemas import Notes
from generator.emitters.python_package import Layout
from generator.ir import Definition, Function, Model, Tool, to_json

LOCK = "skillc.lock.json"
REPORT = "report.json"


def dumps(data: dict[str, Any]) -> str:
    """Sorted JSON, with each list item on one line: one line per file or tool diffs well.
    (It also keeps json's C encoder, which any ``indent`` turns off.)"""
    parts = []
    for key in sorted(data):
        value = data[key]
        if isinstance(value, list) and value:
            items = ",\n".join(f"    {_compact(item)}" for item in value)
            text = f"[\n{items}\n  ]"
        else:
            text = _compact(value)
        parts.append(f"  {_compact(key)}: {text}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


# One encoder for every value: json.dumps builds a new one per call when given options.
_ENCODER = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(", ", ": "))


def _compact(value: Any) -> str:
    return _ENCODER.encode(value)


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def emit_report(
    model: Model,
    diagnostics: list[Diagnostic],
    providers: Notes,
    budgets: dict[str, Any],
    find_tool: dict[str, str] | None = None,
) -> dict[str, str]:
    report = {
        "generator": model.generator,
        "tools": [_tool(tool) for tool in model.tools],
        "warnings": [
            {
                "path": d.path,
                "line": d.line,
                "col": d.col,
                "code": d.code,
                "message": d.message,
            }
            for d in diagnostics
            if d.severity is Severity.WARNING
        ],
        "overrides": to_json(model.overrides),
        "shadowed": to_json(model.shadowed),
        # Found and left out on purpose: remote plugins, other clients' manifests.
        "not_compiled": to_json(model.not_compiled),
        # Plugins' hooks and MCP servers, carried for a host to install, never run.
        "hooks": to_json(model.hooks),
        "mcp_servers": to_json(model.mcp_servers),
        # What the provider files left out (with the reason) or changed.
        "provider_left_out": providers.left_out,
        "provider_removed": providers.removed,
        # Tokens of each tool's Level 1 entry and Level 2 spec, and of each provider file.
        "budgets": budgets,
        "invalid": to_json(model.invalid),
    }
    if (
        find_tool is not None
    ):  # how find_tool ranks: "hybrid" (and its model) or "lexical"
        report["find_tool"] = find_tool
    return {REPORT: dumps(report)}


def _tool(tool: Tool) -> dict[str, Any]:
    d = tool.definition
    entry: dict[str, Any] = {
        "name": tool.qualname,
        "kind": d.kind.value,
        "source_name": d.name,
        "source": d.source.path,
    }
    if isinstance(d, Definition):
        # Recorded only when set: out of provider files and find_tool; hidden from /menus.
        if not d.model_invocable:
            entry["disable_model_invocation"] = True
        if not d.user_invocable:
            entry["user_invocable"] = False
    if isinstance(d, Function):
        entry |= {"origin": d.origin, "executor": d.executor.type}
        if tool.aliases:
            entry["aliases"] = list(tool.aliases)
        if d.author_schema and d.author_schema != d.input_schema:
            # What the author wrote, beside the normalised schema the code uses.
            entry["author_schema"] = d.author_schema
    return entry


def emit_lock(
    model: Model, layout: Layout, config: dict[str, Any], digests: dict[str, str]
) -> dict[str, str]:
    """The lock, from the sha256 of every other output file."""
    lock = {
        "generator": model.generator,
        "config": config,
        "sources": [{"path": s.path, "sha256": s.sha256} for s in model.sources],
        # Each tool's own version (seed 000's), so a change shows in review and --check.
        "versions": [
            {"tool": tool.qualname, "version": version}
            for tool in model.tools
            if (version := seed_metadata.metadata(tool).get("version"))
        ],
        "outputs": [
            {"path": f"{layout.out}/{path}", "sha256": digest}
            for path, digest in sorted(digests.items())
        ],
    }
    return {LOCK: dumps(lock)}
