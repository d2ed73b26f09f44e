"""``ai-tools.json``: seed 004's aggregate of every ai-tool.yaml, with a content hash in
place of its ``generated_at`` time, so the file only changes when its content does."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from .. import urls
from ..ir import to_json
from ..views import PackageView

SCHEMA = "https://ai-tool-bridge.dev/schema/v1/ai-tools.json"


def emit(package: PackageView) -> dict[str, str]:
    tools: dict[str, Any] = {}
    for tool in package.tools:
        if tool.ai_tool is None:
            continue
        owner, command = tool.ai_tool
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
        entry["commands"].append(dict(command))
    plugins = _plugins(package)
    skills = {t.qualname: dict(t.ai_skill) for t in package.tools if t.ai_skill}
    if not tools and not plugins and not skills:
        return {}
    # Hosts install from it (an install line, a server's URL): without credentials.
    tools, plugins, skills = urls.scrub([tools, plugins, skills])
    extras = {"plugins": plugins, "skills": skills}
    extras = {key: value for key, value in extras.items() if value}
    hashed = [tools, extras] if extras else tools  # seed 004's hash with only tools
    body = json.dumps(hashed, sort_keys=True, ensure_ascii=False)
    aggregate = {
        "$schema": SCHEMA,
        "version": "1.0",
        "content_hash": "sha256:" + hashlib.sha256(body.encode()).hexdigest(),
        "generator": package.generator,
        "tools": tools,
    }
    # skillc's additions: what a host installs beside the tools (plugins), and seed
    # 000's metadata of the skills, commands and subagents that set any (skills).
    aggregate |= extras
    return {"ai-tools.json": json.dumps(aggregate, indent=2, ensure_ascii=False) + "\n"}


def _plugins(package: PackageView) -> dict[str, Any]:
    """Each plugin's hooks and MCP servers, by plugin name."""
    plugins: dict[str, Any] = {}
    for key, items in (("hooks", package.hooks), ("mcp_servers", package.mcp_servers)):
        for item in items:
            entry = to_json(item)
            plugins.setdefault(entry.pop("plugin"), {}).setdefault(key, []).append(
                entry
            )
    return plugins
