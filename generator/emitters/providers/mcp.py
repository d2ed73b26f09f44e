"""MCP ``tools/list`` entries (providers.md §5): dotted names, ``title``, ``icons`` where a
manifest gives them, ``inputSchema``, ``outputSchema``, ``annotations`` from what the
manifests say (``read_only`` gives ``readOnlyHint``, ``dangerous`` gives
``destructiveHint``, ``idempotent`` or an idempotent HTTP method ``idempotentHint``, an
http tool is open-world), and ``_meta`` with the tool's Python path (``META_PYTHON``) and, for an ``always-loaded``
tool, ``META_ALWAYS``.

MCP 2025-11-25 requires an ``object`` root for ``outputSchema`` (the SDK rejects the whole
``tools/list`` otherwise), so any other output schema is wrapped as the one property
``result``, and the runtime sends ``structuredContent`` as ``{"result": value}`` for it
(``_mcp.structured_content``).
"""

from __future__ import annotations

from typing import Any

from ...emitters.providers import RUNTIME, Dispatch, File
from ...emitters.providers.schemas import (
    Notes,
    description,
    gemini_mcp_name,
    input_schema,
)
from ...views import ToolView

# The ``_meta`` key (MCP: an optional prefix of dot-separated labels and a slash) of
# what Python imports to call the tool itself: "generated.s3.file.read".
META_PYTHON = "skillc/python"
# The ``_meta`` key that marks an ``always-loaded`` tool: the one listed beside the
# search tool by ``mcp --progressive`` (``_mcp.Handlers``).
META_ALWAYS = "skillc/always-loaded"


def _title(tool: ToolView) -> str:
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


def entry(
    tool: ToolView, notes: Notes, file: str, always: bool
) -> dict[str, Any] | None:
    title = _title(tool)
    item: dict[str, Any] = {"name": gemini_mcp_name(tool), "title": title}
    text = description(tool)
    if text:
        item["description"] = text
    if tool.icons:
        item["icons"] = [dict(icon) for icon in tool.icons]
    item["inputSchema"] = input_schema(tool)
    if tool.output_schema is not None:
        item["outputSchema"] = output_schema(dict(tool.output_schema))
    item["annotations"] = {"title": title, **tool.hints}
    item["_meta"] = {META_PYTHON: tool.python_path}
    if always:
        item["_meta"][META_ALWAYS] = True
    return item


FILES = (File("mcp.json", entry, deferrable=True),)
NAMES = "dotted"
DISPATCH = (Dispatch("mcp", RUNTIME / "mcp.py"),)
