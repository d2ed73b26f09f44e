"""bom.json: what each tool and plugin of a build can reach, by name, never a value;
on fixtures written for it and on the real marketplace."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import built_marketplace, run_skillc, write_skill

MANIFEST = """namespace: api
tools:
  - name: get
    description: Get a thing.
    input_schema: {type: object, properties: {id: {type: string}}}
    executor:
      type: http
      method: GET
      url: "https://api.example.com:8443/things/{id}?key=${API_KEY}"
      headers_template: {Authorization: "Bearer sk-live-literal-1234", X-Team: "${TEAM_TOKEN}"}
  - name: sync
    description: Sync things.
    input_schema: {type: object, properties: {}}
    executor: {type: cli, command: "rsync -a ${SYNC_TARGET}"}
"""


def test_bom_lists_reach_and_names_never_values(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (skills_project / "skills" / "api").mkdir()
    (skills_project / "skills" / "api" / "api.tools.yaml").write_text(MANIFEST)
    write_skill(
        skills_project / "skills",
        "ship",
        "---\nname: ship\ndescription: Ship it.\nallowed-tools: Bash(git push:*) Read\n"
        "hooks:\n  PostToolUse:\n    - matcher: Bash\n      hooks:\n"
        '        - {type: command, command: "notify --to $SLACK_HOOK"}\n'
        "---\nStatus: !`git status --short`\n\n```!\ngit log -1\n```\n",
    )
    write_skill(
        skills_project / "skills",
        "plain",
        "---\nname: plain\ndescription: P.\n---\nP.\n",
    )
    assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    text = (skills_project / "generated" / "bom.json").read_text()
    bom = json.loads(text)
    assert "sk-live-literal" not in text  # a header's value is never recorded
    assert bom["hosts"] == ["https://api.example.com:8443"]
    assert bom["env"] == ["API_KEY", "SLACK_HOOK", "SYNC_TARGET", "TEAM_TOKEN"]
    assert bom["shell"] == ["git log -1", "git status --short"]
    assert bom["allowed_tools"] == ["Bash(git push:*)", "Read"]
    tools = {t["tool"]: t for t in bom["tools"]}
    assert set(tools) == {"api.get", "api.sync", "task.ship"}  # plain reaches nothing
    assert tools["api.sync"]["commands"] == ["rsync -a '${SYNC_TARGET}'"]
    assert tools["task.ship"]["hooks"] == [
        {"command": "notify --to $SLACK_HOOK", "event": "PostToolUse"}
    ]
    # One line per tool: a change to one tool's reach is a one-line diff.
    assert sum(line.startswith('    {"') for line in text.splitlines()) == 3


def test_wshobson_bom(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The real marketplace reaches little beyond its skills' scripts: no hosts, no
    hooks or MCP servers in this snapshot; subagents' tool lists are recorded."""
    project = built_marketplace(tmp_path, capsys)
    bom = json.loads((project / "market" / "bom.json").read_text())
    report = json.loads((project / "market" / "report.json").read_text())
    assert (
        bom["plugins"] == [] and report["hooks"] == [] and report["mcp_servers"] == []
    )
    assert bom["hosts"] == []
    assert any("tools" in t for t in bom["tools"])  # subagents' tools
    assert all(t["source"].startswith("mk/") for t in bom["tools"])
