"""Compile rates on the real corpora of ../shared/corpus, per source: the share of its
skills, subagents and function definitions that end up in the built package.

Skills and plugins are built as they are (with empty stand-ins for the scripts the corpus
left out); each ``functions/*.json`` source is split into tool manifests of 200 tools, as
users split large catalogues. Everything is built in one project with ``--keep-going``,
so one bad input is reported and left out alone. Used by ``nox -s bench`` and the corpus
tests.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
SKILL_SOURCES = ("anthropics-skills", "obra-superpowers")
PLUGIN_SOURCES = ("wshobson-agents",)
# The one plugin of wshobson/agents Claude Code refuses to install: its plugin.json lists
# the folder ./agents as agents (agents: Invalid input), an error for it alone
# (tests/test_refusals.py). The rates are of what the clients load: it is left out.
WSHOBSON_REFUSED = "plugins/pptx-deck-creation"
FUNCTION_SOURCES = (
    "bfcl-sample",
    "docker-mcp-registry",
    "github-mcp-server",
    "tooluniverse",
)
MANIFEST_SIZE = 200


@dataclass(frozen=True, slots=True)
class Rate:
    source: str
    kind: str  # "skills", "subagents", "commands" or "functions"
    total: int
    compiled: int

    @property
    def ratio(self) -> float:
        return self.compiled / self.total if self.total else 1.0


def recreate_stand_ins(root: Path) -> None:
    """Empty stand-ins for the files FILES.txt lists but the corpus left out (scripts...)."""
    for listing in root.rglob("FILES.txt"):
        for line in listing.read_text(encoding="utf-8").splitlines():
            name = line.split("\t", 1)[-1].strip()
            target = listing.parent / name
            if name and not target.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                target.touch()


def functions(source: str) -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(
        (CORPUS / "functions" / f"{source}.json").read_text(encoding="utf-8")
    )
    return data


def write_function_manifests(folder: Path, source: str) -> int:
    """The source's definitions as they are, 200 to a tool-manifest.yaml."""
    items = functions(source)
    manifests: list[list[dict[str, Any]]] = []
    for item in items:
        # A name a manifest already holds goes to the next one (BFCL samples one name
        # with different definitions), as whoever splits a catalogue would do.
        target = next(
            (
                m
                for m in manifests
                if len(m) < MANIFEST_SIZE and all(t["name"] != item["name"] for t in m)
            ),
            None,
        )
        if target is None:
            manifests.append(target := [])
        target.append(
            {
                "name": item["name"],
                "description": item.get("description") or "",
                "parameters": item.get("parameters", item.get("inputSchema")),
                "executor": {"type": "http", "url": "https://example.com/call"},
            }
        )
    for number, tools in enumerate(manifests, 1):
        target_dir = folder / f"{source}-{number}"
        target_dir.mkdir(parents=True)
        (target_dir / "tool-manifest.yaml").write_text(
            yaml.safe_dump({"tools": tools}, sort_keys=False, allow_unicode=True),
            encoding="utf-8",
        )
    return len(items)


def lay_out(project: Path) -> dict[tuple[str, str], int]:
    """Copy every source into ``project``; return how many inputs each holds."""
    totals: dict[tuple[str, str], int] = {}
    for source in SKILL_SOURCES + PLUGIN_SOURCES:
        base = "skills" if source in SKILL_SOURCES else "plugins"
        target = project / "corpus" / source
        shutil.copytree(CORPUS / base / source, target)
        if source == "wshobson-agents":
            shutil.rmtree(target / WSHOBSON_REFUSED)
        recreate_stand_ins(target)
        skills = [p.parent for p in target.rglob("SKILL.md")]
        totals[(source, "skills")] = len(skills)
        agents = [  # subagents: in an agents folder, not inside a skill folder
            p
            for p in target.rglob("*.md")
            if p.parent.name == "agents" and not any(s in p.parents for s in skills)
        ]
        if agents:
            totals[(source, "subagents")] = len(agents)
        commands = [
            p
            for p in target.rglob("*.md")
            if "commands" in p.relative_to(target).parts[:-1]
            and not any(s in p.parents for s in skills)
        ]
        if commands:
            totals[(source, "commands")] = len(commands)
    for source in FUNCTION_SOURCES:
        totals[(source, "functions")] = write_function_manifests(
            project / "corpus" / "functions", source
        )
    (project / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["corpus"]\n', encoding="utf-8"
    )
    return totals


def source_of(path: str) -> tuple[str, str] | None:
    """Which source and kind a compiled tool's source file belongs to."""
    parts = path.split("/")
    if len(parts) < 3 or parts[0] != "corpus":
        return None
    if parts[1] == "functions":
        return parts[2].rsplit("-", 1)[0], "functions"
    if parts[-1] == "SKILL.md":
        return parts[1], "skills"
    return parts[1], "commands" if "commands" in parts[:-1] else "subagents"


def build(project: Path) -> tuple[int, str]:
    from skillc import cli

    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = cli.main(["-C", str(project), "build", "--keep-going"])
    return status, err.getvalue()


def rates(project: Path) -> list[Rate]:
    """Lay the corpus out in ``project``, build it and count what compiled."""
    totals = lay_out(project)
    build(project)
    return count(project, totals)


def count(project: Path, totals: dict[tuple[str, str], int]) -> list[Rate]:
    report = json.loads(
        (project / "generated" / "report.json").read_text(encoding="utf-8")
    )
    compiled: dict[tuple[str, str], int] = {}
    for tool in report["tools"]:
        if tool.get("origin") == "script":
            continue  # a skill's scripts are counted with the skill
        key = source_of(tool["source"])
        if key is not None:
            compiled[key] = compiled.get(key, 0) + 1
    return [
        Rate(source, kind, total, compiled.get((source, kind), 0))
        for (source, kind), total in sorted(totals.items())
    ]


def main() -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        for rate in rates(Path(tmp)):
            print(
                f"{rate.source:22} {rate.kind:10} {rate.compiled:5}/{rate.total:<5} "
                f"{rate.ratio:7.2%}"
            )
        if len(sys.argv) > 1:
            shutil.copytree(tmp, sys.argv[1], dirs_exist_ok=True)


if __name__ == "__main__":
    main()
