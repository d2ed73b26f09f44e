"""``report.json`` (tools, warnings, overrides, invalid inputs) and ``skillc.lock.json``
(generator, configuration, every source and output file with its sha256, each tool's
version).

Both are deterministic: sorted, repo-relative POSIX paths, no timestamps.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from .. import urls
from ..diagnostic import Diagnostic
from ..diagnostics import Severity
from ..emitters import interfaces
from ..emitters.providers.schemas import Notes
from ..ir import to_json
from ..views import PackageView
from ..root_files import KEY as ROOT_FILES
from ..writer import LOCK

REPORT = "report.json"


def dumps(data: dict[str, Any]) -> str:
    """Sorted JSON, with each list item on one line: one line per file or tool diffs well.
    (It also keeps json's C encoder, which any ``indent`` turns off.)"""
    parts = [f"  {compact(key)}: {dumps_value(data[key])}" for key in sorted(data)]
    return "{\n" + ",\n".join(parts) + "\n}\n"


def dumps_value(value: Any) -> str:
    """A value of ``dumps``'s mapping: a list with one item per line."""
    if isinstance(value, list) and value:
        items = ",\n".join(f"    {compact(item)}" for item in value)
        return f"[\n{items}\n  ]"
    return compact(value)


# One encoder for every value: json.dumps builds a new one per call when given options.
# Without the check for cycles (JSON data from the model has none), which costs more
# than encoding a small value.
_ENCODER = json.JSONEncoder(
    sort_keys=True, ensure_ascii=False, separators=(", ", ": "), check_circular=False
)


def compact(value: Any) -> str:
    return _ENCODER.encode(value)


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def emit_report(
    package: PackageView,
    diagnostics: list[Diagnostic],
    providers: Notes,
    budgets: dict[str, Any],
    find_tool: dict[str, str] | None = None,
    sections: dict[str, Any] | None = None,
) -> dict[str, str]:
    """``sections``: more keys, each made by its own module (strict eligibility)."""
    report = {
        "generator": package.generator,
        "tools": [dict(tool.report) for tool in package.tools],
        "warnings": warnings(diagnostics),
        "overrides": to_json(package.overrides),
        "shadowed": to_json(package.shadowed),
        # Found and left out on purpose: remote plugins, other clients' manifests.
        "not_compiled": to_json(package.not_compiled),
        # Plugins' hooks and MCP servers, carried for a host to install, never run.
        "hooks": to_json(package.hooks),
        "mcp_servers": to_json(package.mcp_servers),
        # What the provider files left out (with the reason) or changed.
        "provider_left_out": providers.left_out,
        "provider_removed": providers.removed,
        # Tokens of each tool's Level 1 entry and Level 2 spec, and of each provider file.
        "budgets": budgets,
        "invalid": to_json(package.invalid),
    }
    if (
        find_tool is not None
    ):  # how find_tool ranks: "hybrid" (and its model) or "lexical"
        report["find_tool"] = find_tool
    return {REPORT: dumps(urls.scrub(report | (sections or {})))}


def warnings(diagnostics: list[Diagnostic]) -> list[dict[str, Any]]:
    """report.json's warnings."""
    return [
        {
            "path": d.path,
            "line": d.line,
            "col": d.col,
            "code": d.code,
            "message": d.message,
        }
        for d in diagnostics
        if d.severity is Severity.WARNING
    ]


def emit_lock(
    package: PackageView,
    out: str,
    config: dict[str, Any],
    digests: dict[str, str],
    at_root: dict[str, str] | None = None,
) -> dict[str, str]:
    """The lock, from the sha256 of every other output file (``at_root``: of the
    files written at the project's root, ``harness-root-files``)."""
    lock = {
        "generator": package.generator,
        "config": config,
        "sources": [{"path": s.path, "sha256": s.sha256} for s in package.sources],
        # Each tool's own version (seed 000's), so a change shows in review and --check.
        "versions": [
            {"tool": tool.qualname, "version": tool.metadata["version"]}
            for tool in package.tools
            if tool.metadata.get("version")
        ],
        # Each tool's interface, so skillc check can classify what a change breaks.
        "interfaces": [interfaces.entry(tool) for tool in package.tools],
        "outputs": [
            {"path": f"{out}/{path}", "sha256": digest}
            for path, digest in sorted(digests.items())
        ],
    }
    if at_root:
        lock[ROOT_FILES] = [
            {"path": path, "sha256": digest} for path, digest in sorted(at_root.items())
        ]
    return {LOCK: dumps(lock)}
