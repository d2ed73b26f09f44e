"""``ai-tools.json``: seed 004's aggregate of every ai-tool.yaml, with a content hash in
place of its ``generated_at`` time, so the file only changes when its content does."""

from __future__ import annotations

import hashlib
import shlex
import json
from typing import Any

from generator.ir import Function, Model, to_json

SCHEMA = "https://ai-tool-bridge.dev/schema/v1/ai-tools.json"


def emit(model: Model, generator: str) -> dict[str, str]:
    tools: dict[str, Any] = {}
    for tool in model.tools:
        d = tool.definition
        if not isinstance(d, Function) or d.cli_tool is None:
            continue
        owner = d.cli_tool
        entry = tools.setdefault(
            str(owner["name"]),
            {
                key: owner[key]
                for key in ("name", "version", "description", "homepage", "install")
                if owner.get(key) not in (None, "", {})
            }
            | {"commands": []},
        )
        command: dict[str, Any] = {
            "id": d.name,
            "description": d.description,
            "cli_command": shlex.join(d.executor.settings["command"]),
        }
        if d.triggers:
            command["triggers"] = list(d.triggers)
        command["dangerous"] = d.dangerous
        command["tool"] = tool.qualname  # skillc's addition: the generated tool
        entry["commands"].append(command)
    plugins = _plugins(model)
    if not tools and not plugins:
        return {}
    hashed = [tools, plugins] if plugins else tools  # seed 004's hash when no plugins
    body = json.dumps(hashed, sort_keys=True, ensure_ascii=False)
    aggregate = {
        "$schema": SCHEMA,
        "version": "1.0",
        "content_hash": "sha256:" + hashlib.sha256(body.encode()).hexdigest(),
        "generator": generator,
        "tools": tools,
    }
    if plugins:  # skillc's addition: what a host installs beside the tools
        aggregate["plugins"] = plugins
    return {"ai-tools.json": json.dumps(aggregate, indent=2, ensure_ascii=False) + "\n"}


def _plugins(model: Model) -> dict[str, Any]:
    """Each plugin's hooks and MCP servers, by plugin name."""
    plugins: dict[str, Any] = {}
    for key, items in (("hooks", model.hooks), ("mcp_servers", model.mcp_servers)):
        for item in items:
            entry = to_json(item)
            plugins.setdefault(entry.pop("plugin"), {}).setdefault(key, []).append(
                entry
            )
    return plugins
