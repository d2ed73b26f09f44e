"""The rename rule of skillc check's breaking changes (generator/checks/renames.py),
measured: precision and recall on labelled pairs of two real histories
(tests/data/renames.json), and the pairs it would wrongly call renames among the
distinct tools of the real catalogues of ../shared/corpus."""

from __future__ import annotations

import itertools
import json
from collections import defaultdict
from typing import Any

from conftest import TESTS, shared_corpus
from skillc.checks import breaking, renames

LABELLED = TESTS / "data" / "renames.json"


def _entry(name: str, description: str) -> dict[str, Any]:
    # The same interface for every tool: the rule may not lean on it (issue 44).
    return {"tool": name, "kind": "tool", "description": description, "input": {}}


def test_precision_and_recall_on_real_histories() -> None:
    """Each step's gone and added tools matched as a breaking check matches them; the
    pairs it calls renames against the pairs read by hand."""
    data = json.loads(LABELLED.read_text(encoding="utf-8"))
    text = data["descriptions"]
    steps: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for pair in data["pairs"]:
        steps[pair["step"]].append(pair)
    truth, found = set(), set()
    for step, pairs in steps.items():
        before = {p["old"]: _entry(p["old"], text[p["old_description"]]) for p in pairs}
        after = {p["new"]: _entry(p["new"], text[p["new_description"]]) for p in pairs}
        truth |= {(step, p["old"], p["new"]) for p in pairs if p["rename"]}
        matched = renames.match(sorted(before), sorted(after), before, after)
        found |= {(step, old, new) for old, (new, _) in matched.items()}
    right = len(found & truth)
    precision, recall = right / len(found), right / len(truth)
    print(
        f"renames: precision {precision:.2f}, recall {recall:.2f} ({len(truth)} true)"
    )
    assert len(truth) == 36 and len(data["pairs"]) == 154
    assert precision == 1.0 and recall >= 0.95, sorted(found ^ truth)


def test_the_issues_renames_are_removals_and_additions() -> None:
    """anthropics/skills 4e6907a3: script tools removed and others added, all taking
    the same args: 4 of 4 were reported renamed, to unrelated tools."""
    old = [
        _entry("pptx.inventory", "Extract structured text content from PowerPoint."),
        _entry("pptx.rearrange", "Rearrange PowerPoint slides based on a sequence."),
        _entry("pdf.check_bounding_boxes_test", "Tests for check_bounding_boxes."),
    ]
    new = [
        _entry("docx.comment", "Add comments to DOCX documents."),
        _entry("docx.accept_changes", "Accept all tracked changes in a DOCX file."),
        _entry("pdf.extract_form_structure", "Extract form structure from a PDF."),
    ]
    kinds = {c.kind for c in breaking.compare(old, new)}
    assert kinds == {"tool-removed", "tool-added"}


def test_few_distinct_tools_of_a_real_catalogue_look_renamed() -> None:
    """Every pair of two distinct tools of one MCP server in ../shared/corpus, as if one
    were removed and the other added: how many the rule calls a rename (the hard
    negatives: get_code_scanning_alert and get_secret_scanning_alert,
    get_drug_names_by_X and get_X_by_drug_name)."""
    folder = shared_corpus("functions")
    pairs = wrong = 0
    seen = []
    for name in ("github-mcp-server", "docker-mcp-registry", "tooluniverse"):
        by_server: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for tool in json.loads((folder / f"{name}.json").read_text(encoding="utf-8")):
            by_server[tool.get("source", "")].append(tool)
        for tools in by_server.values():
            for a, b in itertools.combinations(tools, 2):
                pairs += 1
                old = _entry(a["name"], a.get("description") or "")
                new = _entry(b["name"], b.get("description") or "")
                if renames.alike(old, new):
                    wrong += 1
                    seen.append((a["name"], b["name"]))
    print(f"renames among distinct tools: {wrong} of {pairs:,} pairs: {seen}")
    assert pairs > 30_000 and wrong <= 2, seen
