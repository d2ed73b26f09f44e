"""``ai-tools.json``: seed 004's aggregate of every ai-tool.yaml, with a content hash in
place of its ``generated_at`` time, so the file only changes when its content does."""

from __future__ import annotations

import hashlib
import shlex
import json
from typing import Any

from generator.ir import Function, Model

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
    if not tools:
        return {}
    body = json.dumps(tools, sort_keys=True, ensure_ascii=False)
    aggregate = {
        "$schema": SCHEMA,
        "version": "1.0",
        "content_hash": "sha256:" + hashlib.sha256(body.encode()).hexdigest(),
        "generator": generator,
        "tools": tools,
    }
    return {"ai-tools.json": json.dumps(aggregate, indent=2, ensure_ascii=False) + "\n"}
