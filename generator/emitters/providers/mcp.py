"""MCP ``tools/list`` entries (providers.md §5): dotted names, ``title``, ``inputSchema``,
``outputSchema``, and ``annotations`` from what the manifests say: ``read_only`` gives
``readOnlyHint``, ``dangerous`` gives ``destructiveHint``, an http tool is open-world.

MCP 2025-11-25 requires an ``object`` root for ``outputSchema`` (the SDK rejects the whole
``tools/list`` otherwise), so any other output schema is wrapped as the one property
``result``, and the runtime sends ``structuredContent`` as ``{"result": value}`` for it
(``_mcp.structured_content``).
"""

from __future__ import annotations

from typing import Any

from generator.emitters.providers.schemas import (
    Notes,
    description,
    gemini_mcp_name,
    input_schema,
)
from generator.ir import Function, Tool


def _title(tool: Tool) -> str:
    words = tool.qualname.replace(".", " ").replace("_", " ").split()
    return " ".join(words)[:1].upper() + " ".join(words)[1:]


def output_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The tool's output schema with an object root: its own, or wrapped as ``result``."""
    if schema.get("type") == "object":
        return schema
    return {
        "type": "object",
        "properties": {"result": schema},
        "required": ["result"],
    }


def entry(tool: Tool, notes: Notes, file: str, always: bool) -> dict[str, Any] | None:
    title = _title(tool)
    item: dict[str, Any] = {"name": gemini_mcp_name(tool), "title": title}
    text = description(tool)
    if text:
        item["description"] = text
    item["inputSchema"] = input_schema(tool)
    annotations: dict[str, Any] = {"title": title}
    d = tool.definition
    if isinstance(d, Function):
        if d.output_schema is not None:
            item["outputSchema"] = output_schema(dict(d.output_schema))
        annotations["readOnlyHint"] = bool(d.read_only)
        if not d.read_only:
            annotations["destructiveHint"] = d.dangerous
        annotations["openWorldHint"] = d.executor.type == "http"
    else:  # a skill or subagent only returns instructions
        annotations |= {"readOnlyHint": True, "openWorldHint": False}
    item["annotations"] = annotations
    return item
