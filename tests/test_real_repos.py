"""Each shared corpus as a user meets it (issue 31): copied as it is into a fresh
folder, then ``skillc init`` and ``skillc build`` in fresh processes, with no hand
edits. Every skill, subagent, command and function compiles, and the build says so in
a few lines."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from conftest import shared_corpus

# Tool counts: every SKILL.md of the skill collections; the marketplace's 91 plugins'
# skills, subagents and commands; every function of the four catalogues.
CORPORA = {
    "anthropics-skills": (("skills", "anthropics-skills"), 12),
    "obra-superpowers": (("skills", "obra-superpowers"), 14),
    "wshobson-agents": (("plugins", "wshobson-agents"), 494),
    "functions": (("functions",), 874),
}
MOST_LINES = 30  # what init and build print together, warnings counted past a few


def skillc(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "generator", *args],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def catalogue_manifests(functions: Path, project: Path) -> None:
    """One tool-manifest.yaml per catalogue, its functions as they are; a name a
    catalogue gives twice (BFCL samples one function more than once) goes to the
    next manifest, as two tools of one name in one manifest are an error."""
    for path in sorted(functions.glob("*.json")):
        rounds: dict[int, list[dict[str, Any]]] = {}
        seen: dict[str, int] = {}
        for item in json.loads(path.read_text(encoding="utf-8")):
            round_ = seen.get(item["name"], 0)
            seen[item["name"]] = round_ + 1
            rounds.setdefault(round_, []).append(item)
        for round_, items in rounds.items():
            namespace = path.stem.replace("-", "_") + (str(round_) if round_ else "")
            tools = [
                {
                    "name": item["name"],
                    "description": item.get("description") or "(none)",
                    "parameters": item.get("parameters", item.get("inputSchema")),
                    "executor": {"type": "http", "url": "https://example.com/call"},
                }
                for item in items
            ]
            folder = project / "skills" / namespace
            folder.mkdir(parents=True)
            manifest = {"namespace": namespace, "tools": tools}
            (folder / "tool-manifest.yaml").write_text(
                yaml.safe_dump(manifest, sort_keys=False), encoding="utf-8"
            )


@pytest.mark.parametrize("corpus", sorted(CORPORA))
def test_init_then_build_compiles_every_tool(tmp_path: Path, corpus: str) -> None:
    parts, expected = CORPORA[corpus]
    source = shared_corpus(*parts)
    project = tmp_path / corpus
    if corpus == "functions":
        catalogue_manifests(source, project)
    else:
        shutil.copytree(source, project)
    init = skillc(project, "init")
    assert init.returncode == 0, init.stdout + init.stderr
    build = skillc(project, "build")
    assert build.returncode == 0, build.stderr
    report = json.loads((project / "generated" / "report.json").read_text())
    assert len(report["tools"]) == expected
    assert not report["invalid"]
    printed = (init.stdout + init.stderr + build.stdout + build.stderr).splitlines()
    assert len(printed) <= MOST_LINES, "\n".join(printed)
    assert build.stderr.splitlines()[-1].startswith(f"skillc: {expected:,} tools; ")
