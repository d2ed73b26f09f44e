"""Codex's settings of a skill: ``agents/openai.yaml`` in its folder (the Codex skills
docs). ``interface`` says how Codex shows the skill, ``dependencies.tools`` the MCP
servers it needs, and ``policy.allow_implicit_invocation: false`` keeps it out of the
model's context unless invoked by name, as Claude Code's
``disable-model-invocation: true`` does. Read for the skill loader; a file that is not
a mapping of these keys is a warning, and its usable keys are kept."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from ..diagnostics import Report
from ..loaders import frontmatter

FILE = "agents/openai.yaml"
INTERFACE = (
    "display_name",
    "short_description",
    "default_prompt",
    "brand_color",
    "icon_small",
    "icon_large",
)


def read(path: Path, rel: str, report: Report, max_bytes: int) -> dict[str, Any]:
    """The Codex settings the file sets, by the ``Codex`` field of the Invocation:
    the interface's strings, ``tool_dependencies`` (``mcp:github``) and
    ``allow_implicit_invocation``."""
    text = frontmatter.read(path, rel, report, max_bytes)
    try:
        data = yaml.safe_load(text) if text is not None else None
    except yaml.YAMLError as exc:
        report.warning(rel, 1, 1, "invalid-openai-yaml", f"not YAML: {exc}")
        return {}
    if not isinstance(data, dict):
        if text is not None:
            report.warning(rel, 1, 1, "invalid-openai-yaml", "must be a mapping")
        return {}
    settings: dict[str, Any] = {}
    interface = _mapping(data, "interface", rel, report)
    for key in INTERFACE:
        if isinstance(interface.get(key), str) and interface[key]:
            settings[key] = interface[key]
    tools = _mapping(data, "dependencies", rel, report).get("tools", [])
    needs = [
        f"{tool.get('type', 'mcp')}:{tool['value']}"
        for tool in (tools if isinstance(tools, list) else [])
        if isinstance(tool, dict) and isinstance(tool.get("value"), str)
    ]
    if needs:
        settings["tool_dependencies"] = tuple(needs)
    implicit = _mapping(data, "policy", rel, report).get("allow_implicit_invocation")
    if implicit is False:
        settings["allow_implicit_invocation"] = False
    return settings


def _mapping(
    data: dict[str, Any], key: str, rel: str, report: Report
) -> dict[str, Any]:
    value = data.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        report.warning(rel, 1, 1, "invalid-openai-yaml", f"{key} must be a mapping")
        return {}
    return value
