"""The JSON Schema every provider file starts from, one per tool, and the checks every
provider shares (../shared/reference/providers.md §1, §8)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...views import ToolView

OPENAI_DESCRIPTION_LIMIT = 1024


@dataclass
class Notes:
    """What the provider files changed or left out, for report.json."""

    left_out: list[dict[str, str]] = field(default_factory=list)
    removed: list[dict[str, str]] = field(default_factory=list)

    def leave_out(self, file: str, tool: ToolView, reason: str) -> None:
        self.left_out.append({"file": file, "tool": tool.qualname, "reason": reason})

    def remove(self, file: str, tool: ToolView, path: str, keyword: str) -> None:
        self.removed.append(
            {
                "file": file,
                "tool": tool.qualname,
                "path": path or "/",
                "keyword": keyword,
            }
        )

    def remover(self, file: str, tool: ToolView) -> Callable[[str, str], None]:
        """``remove`` for one file and tool, as the transforms call it."""

        def removed(path: str, keyword: str) -> None:
            self.remove(file, tool, path, keyword)

        return removed


def input_schema(tool: ToolView) -> dict[str, Any]:
    """The tool's plain input schema, shared by every provider file: each builds what
    it changes anew (``strict``, ``gemini``) and never changes it in place."""
    return dict(tool.input_schema)


def description(tool: ToolView) -> str:
    return tool.description


def capped(text: str, limit: int = OPENAI_DESCRIPTION_LIMIT) -> str:
    """OpenAI rejects descriptions over 1,024 characters."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def gemini_mcp_name(tool: ToolView) -> str:
    return tool.dotted_name
