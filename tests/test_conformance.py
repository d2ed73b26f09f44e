"""The conformance cases of tests/conformance/ (its README has their format): each
client's verdict on a layout, written from the rule its case cites, checked against
what a build makes of it. One test, one case each; every build in-process, stopped
after the model (no output is written)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import TESTS
from skillc import pipeline
from skillc.diagnostics import Report, Severity
from skillc.harness import CLIENTS

CONFORMANCE = TESTS / "conformance"
CASES = sorted(CONFORMANCE.glob("*/*/expected.json"))
FOLDERS = {*CLIENTS, "several"}
REQUIRED = {"rule", "source", "about"}


def _project(case: Path, expected: dict[str, Any], tmp_path: Path) -> Path:
    project = tmp_path / "project"
    shutil.copytree(case.parent / "tree", project, symlinks=True)
    pyproject = project / "pyproject.toml"
    if not pyproject.exists():
        lines = ["[tool.skillc]"]
        for key in ("harnesses", "sources"):
            if key in expected:
                lines.append(f"{key} = {json.dumps(expected[key])}")
        pyproject.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return project


def _build(project: Path) -> tuple[Any, Report]:
    config, _ = pipeline.configure(project, cached=False)
    report = Report(strict=config.strict, ignore=frozenset(config.ignore))
    build = pipeline.run(config, report, cached=False, emit=False)
    assert build.model is not None
    return build.model, report


@pytest.mark.parametrize(
    "case",
    CASES,
    ids=[case.parent.relative_to(CONFORMANCE).as_posix() for case in CASES],
)
def test_case(case: Path, tmp_path: Path) -> None:
    expected = json.loads(case.read_text(encoding="utf-8"))
    assert REQUIRED <= set(expected), f"{case}: needs {sorted(REQUIRED)}"
    model, report = _build(_project(case, expected, tmp_path))
    found = {v.path: v.clients for v in model.verdicts}
    for path, clients in expected.get("verdicts", {}).items():
        for client, wanted in clients.items():
            got = found.get(path, {}).get(client)
            if wanted is None:
                assert got is None, (path, client, got)
                continue
            assert (
                got is not None
            ), f"{path}: no verdict of {client} ({found.get(path)})"
            assert got.outcome == wanted["outcome"], (path, client, got)
            if "name" in wanted:
                assert got.name == wanted["name"], (path, client, got)
            if "why" in wanted:
                assert wanted["why"] in got.why, (path, client, got)
    if "tools" in expected:
        assert sorted(t.qualname for t in model.tools) == expected["tools"]
    if "not_compiled" in expected:
        left = sorted({entry.path for entry in model.not_compiled})
        assert left == expected["not_compiled"]
    for tool, path in expected.get("winner", {}).items():
        source = next(t for t in model.tools if t.qualname == tool).definition.source
        assert source.path == path, tool
    if "diagnostics" in expected:
        codes = sorted(d.code for d in report.items)
        assert codes == expected["diagnostics"], [d.format() for d in report.items]
    said = [d.format() for d in report.items]
    assert report.has_errors == (expected.get("exit", 0) == 1), said
    located = {
        f"{d.path}:{d.line}:{d.col}: {d.code}"
        for d in report.items
        if d.severity is Severity.ERROR
    }
    for error in expected.get("errors", []):  # each refusal at its key
        assert error in located, said
    if "servers" in expected:
        assert sorted(s.name for s in model.mcp_servers) == expected["servers"]


def test_cases_cover_every_client() -> None:
    """At least 60 cases, filed by client, each citing its rule's source; each client
    of the harness model has some."""
    folders = {case.parent.parent.name for case in CASES}
    assert folders <= FOLDERS, folders - FOLDERS
    assert set(CLIENTS) <= folders
    assert len(CASES) >= 60
