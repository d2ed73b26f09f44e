"""Bedrock Converse ``toolConfig.tools`` entries (providers.md §6): ``toolSpec`` with the
schema under ``inputSchema.json``; an empty description is left out (Bedrock rejects "").
"""

from __future__ import annotations

from typing import Any

from ...emitters.providers import RUNTIME, Dispatch, File
from ...emitters.providers.schemas import Notes, description, input_schema
from ...views import ToolView


def entry(
    tool: ToolView, notes: Notes, file: str, always: bool
) -> dict[str, Any] | None:
    spec: dict[str, Any] = {"name": tool.provider_name}
    text = description(tool)
    if text:
        spec["description"] = text
    spec["inputSchema"] = {"json": input_schema(tool)}
    return {"toolSpec": spec}


FILES = (File("bedrock.json", entry),)
NAMES = "flat"
DISPATCH = (Dispatch("bedrock", RUNTIME / "bedrock.py"),)
