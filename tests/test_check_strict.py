"""report.json's strict eligibility: per tool and provider, true or why not, as the
strict provider files decided (providers.md 2.4, 3.3); then on a real catalogue."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import built_functions, run_skillc

MANIFEST = """namespace: t
tools:
  - name: plain
    description: Fine.
    input_schema: {type: object, properties: {a: {type: string}}, required: [a]}
    executor: {type: cli, command: "true"}
  - name: freeform
    description: Takes any object.
    input_schema: {type: object, properties: {data: {type: object}}}
    executor: {type: cli, command: "true"}
  - name: many
    description: Seventeen optional parameters.
    input_schema:
      type: object
      properties: {%s}
    executor: {type: cli, command: "true"}
  - name: union
    description: A union at the root.
    input_schema: {type: object, anyOf: [{required: [x]}, {required: [y]}], properties: {x: {type: string}, y: {type: string}}}
    executor: {type: cli, command: "true"}
""" % ", ".join(f"p{i}: {{type: string}}" for i in range(17))


def test_eligibility_per_tool_and_provider(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (skills_project / "skills" / "t.tools.yaml").write_text(MANIFEST)
    assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    report = json.loads((skills_project / "generated" / "report.json").read_text())
    strict = {entry.pop("tool"): entry for entry in report["strict"]}
    assert strict["t.plain"] == {"anthropic": True, "openai": True}
    assert strict["t.freeform"] == {
        "anthropic": "/properties/data is a free-form object",
        "openai": "/properties/data is a free-form object",
    }
    # Optional becomes nullable: 17 unions, over Anthropic's 16 a request; OpenAI's
    # limits are per schema and far above.
    assert strict["t.many"] == {
        "anthropic": "17 nullable or union parameters; Anthropic allows 16 per request",
        "openai": True,
    }
    assert strict["t.union"] == {
        "anthropic": "the input schema's root is a union (anyOf)",
        "openai": "the input schema's root is a union (anyOf)",
    }
    assert "20 strict tools" in report["strict_limits"]["anthropic"]


def test_github_mcp_server_strict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = built_functions(tmp_path, capsys, "github-mcp-server")
    report = json.loads((project / "generated" / "report.json").read_text())
    assert len(report["strict"]) == len(report["tools"]) == 117
    refused = [e for e in report["strict"] if e["openai"] is not True]
    assert refused and all(isinstance(e["openai"], str) for e in refused)
