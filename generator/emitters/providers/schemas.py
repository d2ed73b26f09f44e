"""The JSON Schema every provider file starts from, one per tool, and the checks every
provider shares (../shared/reference/providers.md §1, §8)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from generator.ir import Definition, Function, Kind, Tool

OPENAI_DESCRIPTION_LIMIT = 1024
ROOT_UNIONS = ("anyOf", "oneOf", "allOf")


@dataclass
class Notes:
    """What the provider files changed or left out, for report.json."""

    left_out: list[dict[str, str]] = field(default_factory=list)
    removed: list[dict[str, str]] = field(default_factory=list)

    def leave_out(self, file: str, tool: Tool, reason: str) -> None:
        self.left_out.append({"file": file, "tool": tool.qualname, "reason": reason})

    def remove(self, file: str, tool: Tool, path: str, keyword: str) -> None:
        self.removed.append(
            {
                "file": file,
                "tool": tool.qualname,
                "path": path or "/",
                "keyword": keyword,
            }
        )

    def remover(self, file: str, tool: Tool) -> Callable[[str, str], None]:
        """``remove`` for one file and tool, as the transforms call it."""

        def removed(path: str, keyword: str) -> None:
            self.remove(file, tool, path, keyword)

        return removed


def input_schema(tool: Tool) -> dict[str, Any]:
    """The tool's input schema: a callable tool's own; a skill takes ``arguments`` and
    its named arguments; a subagent takes ``prompt``."""
    d = tool.definition
    if isinstance(d, Function):
        schema = copy.deepcopy(dict(d.input_schema))
        schema.setdefault("properties", {})
        return schema
    if d.kind is Kind.AGENT:
        return {
            "type": "object",
            "properties": {
                "prompt": {
                    "type": "string",
                    "description": "The task for the subagent.",
                }
            },
            "required": ["prompt"],
        }
    hint = f" ({d.argument_hint})" if d.argument_hint else ""
    properties: dict[str, Any] = {
        "arguments": {
            "type": "string",
            "description": f"The text after the skill's name{hint}.",
        }
    }
    for index, argument in enumerate(tool.arguments):
        properties[argument.py_name] = {
            "type": "string",
            "description": f"Argument ${argument.name} (position {index}).",
        }
    return {"type": "object", "properties": properties}


def root_problem(schema: dict[str, Any]) -> str | None:
    """Every provider needs an object root, and Anthropic and OpenAI strict reject a
    union at the root (providers.md §2.3, §3.3)."""
    if schema.get("type") != "object":
        return "the input schema's root is not an object"
    unions = [key for key in ROOT_UNIONS if key in schema]
    if unions:
        return f"the input schema's root is a union ({', '.join(unions)})"
    return None


def description(tool: Tool) -> str:
    d = tool.definition
    return (
        " ".join(d.description.split())
        if isinstance(d, Definition)
        else d.description.strip()
    )


def capped(text: str, limit: int = OPENAI_DESCRIPTION_LIMIT) -> str:
    """OpenAI rejects descriptions over 1,024 characters."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def gemini_mcp_name(tool: Tool) -> str:
    return tool.dotted_name
