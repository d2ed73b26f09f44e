"""``ai-tools.json``: seed 004's aggregate of every ai-tool.yaml, with a content hash in
place of its ``generated_at`` time, so the file only changes when its content does."""

from __future__ import annotations

import hashlib
import json
import shlex
from typing import Any

from generator.emitters import seed_metadata
from generator.ir import Definition, Function, Model, to_json

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
                for key in (
                    "name",
                    "version",
                    "description",
                    "homepage",
                    "install",
                    "guidance",
                )
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
        if d.author_schema.get("parameters"):  # as the manifest gives them
            command["parameters"] = d.author_schema["parameters"]
        if d.examples:
            command["examples"] = list(d.examples)
        command["dangerous"] = d.dangerous
        command["tool"] = tool.qualname  # skillc's addition: the generated tool
        entry["commands"].append(command)
    plugins, skills = _plugins(model), _skills(model)
    if not tools and not plugins and not skills:
        return {}
    extras = {"plugins": plugins, "skills": skills}
    extras = {key: value for key, value in extras.items() if value}
    hashed = [tools, extras] if extras else tools  # seed 004's hash with only tools
    body = json.dumps(hashed, sort_keys=True, ensure_ascii=False)
    aggregate = {
        "$schema": SCHEMA,
        "version": "1.0",
        "content_hash": "sha256:" + hashlib.sha256(body.encode()).hexdigest(),
        "generator": generator,
        "tools": tools,
    }
    # skillc's additions: what a host installs beside the tools (plugins), and seed
    # 000's metadata of the skills, commands and subagents that set any (skills).
    aggregate |= extras
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


def _skills(model: Model) -> dict[str, Any]:
    """Each task tool offered to models that sets seed 000's metadata, by dotted name."""
    skills: dict[str, Any] = {}
    for tool in model.tools:
        d = tool.definition
        meta = seed_metadata.metadata(tool)
        if isinstance(d, Definition) and d.model_invocable and meta:
            skills[tool.qualname] = {
                "name": d.name,
                "kind": d.kind.value,
                "description": d.description,
                **meta,
                "source": d.source.path,
            }
    return skills
