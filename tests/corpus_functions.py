"""The real tool definitions of ../shared/corpus/functions, put into tool manifests as
they are (for the corpus tests, and for the find_tool evaluation in the bench)."""

from __future__ import annotations

import collections
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from skillc.names import identifier

FUNCTIONS = (
    Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "functions"
)
SOURCES = ("bfcl-sample", "github-mcp-server")
# Every catalogue of the folder: the held-out find_tool evaluation uses them all.
ALL_SOURCES = (*SOURCES, "docker-mcp-registry", "tooluniverse")


def definitions(
    sources: tuple[str, ...] = SOURCES,
) -> dict[str, list[dict[str, Any]]]:
    return {
        source: json.loads((FUNCTIONS / f"{source}.json").read_text(encoding="utf-8"))
        for source in sources
    }


def _identifier(name: str) -> str:
    return ".".join(identifier(part) for part in name.split("."))


def write_manifests(
    skills: Path,
    sources: tuple[str, ...] = SOURCES,
    apart: Callable[[str], str] = _identifier,
) -> dict[str, str]:
    """One manifest per source and round: names that repeat (by default, or differ
    only in case or style, which the package then tells apart as ``_2``) go to the
    next round's namespace; ``apart=str`` splits only names written alike. Returns
    each definition's dotted name in the package (with the default ``apart``), keyed
    by source and index."""
    placed: dict[str, str] = {}
    for source, items in definitions(sources).items():
        rounds: dict[int, list[dict[str, Any]]] = collections.defaultdict(list)
        seen: collections.Counter[str] = collections.Counter()
        for index, item in enumerate(items):
            key = _identifier(item["name"])
            round_ = seen[apart(item["name"])]
            seen[apart(item["name"])] += 1
            namespace = source.split("-")[0] + (str(round_) if round_ else "")
            placed[f"{source}:{index}"] = f"{namespace}.{key}"
            rounds[round_].append(item)
        for round_, group in rounds.items():
            namespace = source.split("-")[0] + (str(round_) if round_ else "")
            tools = [
                {
                    "name": item["name"],
                    "description": item.get("description") or "(no description)",
                    "parameters": item.get("parameters", item.get("inputSchema")),
                    "executor": {"type": "http", "url": "https://example.com/call"},
                }
                for item in group
            ]
            folder = skills / namespace
            folder.mkdir(parents=True)
            (folder / "tool-manifest.yaml").write_text(
                yaml.safe_dump(
                    {"namespace": namespace, "tools": tools}, sort_keys=False
                ),
                encoding="utf-8",
            )
    return placed
