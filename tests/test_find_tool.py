"""find_tool: the evaluation set's recall against a plain BM25 baseline, the command
lines, token budgets, ai-tools.json and the agent docs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import find_eval
from conftest import REPO, run_python, run_skillc


@pytest.fixture(scope="module")
def catalogues(tmp_path_factory: pytest.TempPathFactory) -> list[find_eval.Catalogue]:
    return find_eval.catalogues(tmp_path_factory.mktemp("catalogues"))


def test_recall_at_3_is_at_least_0_9_and_beats_plain_bm25(
    catalogues: list[find_eval.Catalogue],
) -> None:
    pairs = sum(len(c.pairs) for c in catalogues)
    assert pairs >= (60 if len(catalogues) == 2 else 20)
    ours = [find_eval.measure(find_eval.find_tool(c), c.pairs) for c in catalogues]
    base = [find_eval.measure(find_eval.bm25(c.model), c.pairs) for c in catalogues]

    def pooled(figures: list[tuple[float, float, float, float]], index: int) -> float:
        return sum(f[index] * len(c.pairs) for f, c in zip(figures, catalogues)) / pairs

    assert pooled(ours, 1) >= 0.9
    assert pooled(ours, 2) >= pooled(ours, 1)  # recall@10, beside recall@3
    assert pooled(ours, 3) > pooled(base, 3)  # MRR
    assert pooled(ours, 0) > pooled(base, 0)  # recall@1


def test_matches_have_relevance_in_order_and_a_reason(
    catalogues: list[find_eval.Catalogue],
) -> None:
    matches = catalogues[0].package.find_tool("read a file and show its lines", k=5)
    assert matches[0].name == "file.read"
    assert "name: read, file" in matches[0].reason
    relevances = [m.relevance for m in matches]
    assert relevances == sorted(relevances, reverse=True)
    assert all(0 <= r <= 1 for r in relevances)
    # Nothing fits: at best a faint semantic likeness, far below a real fit.
    assert all(m.relevance < 0.2 for m in catalogues[0].package.find_tool("zzzz qqqq"))


@pytest.mark.parametrize("k", [0, -1, 2.5, True])
def test_k_must_be_a_positive_integer(
    catalogues: list[find_eval.Catalogue], k: object
) -> None:
    """A k of 0 or below used to rank every tool (a negative slice, or argpartition
    counting from the end)."""
    with pytest.raises(ValueError, match="k must be a positive integer"):
        catalogues[0].package.find_tool("read a file", k=k)


def test_find_from_the_shell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "repo"
    project.mkdir()
    import shutil

    shutil.copytree(REPO / "skills", project / "skills")
    own = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    (project / "pyproject.toml").write_text(
        own.replace(
            "[tool.skillc]\n", '[tool.skillc]\ntoken-counter = "o200k_base"\n', 1
        ),
        encoding="utf-8",
    )
    status, err = run_skillc(capsys, "-C", str(project), "build")
    assert status == 0, err
    found = run_python(
        "", project, "-m", "generated", "find", "-k", "2", "insert", "rows"
    )
    assert found.returncode == 0, found.stderr
    assert found.stdout.splitlines()[0].split()[1] == "db.insert"
    skillc = subprocess.run(
        [
            sys.executable,
            "-m",
            "skillc",
            "-C",
            str(project),
            "find",
            "plan",
            "a",
            "feature",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert skillc.stdout.splitlines()[0].split()[1] == "task.planner"
    budget = subprocess.run(
        [sys.executable, "-m", "skillc", "-C", str(project), "budget"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert budget.stdout.splitlines()[0].split() == ["tool", "level", "1", "level", "2"]
    assert "providers/anthropic.json" in budget.stdout
    assert budget.stdout.rstrip().endswith("tokens counted with o200k_base")


def test_budgets_are_recorded_not_warned(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (skills_project / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["skills"]\ntoken-counter = "o200k_base"\n'
    )
    folder = skills_project / "skills" / "huge"
    folder.mkdir()
    (folder / "SKILL.md").write_text(
        "---\nname: huge\ndescription: A skill with a long spec.\n"
        f"argument-hint: {'word ' * 6000}\n---\nBody.\n"
    )
    status, err = run_skillc(capsys, "-C", str(skills_project), "build")
    assert status == 0, err
    # The counts are data; the limits a harness applies are skillc check's.
    assert "0 errors, 0 warnings" in err
    report = json.loads((skills_project / "generated" / "report.json").read_text())
    (entry,) = report["budgets"]["tools"]
    assert (
        entry["name"] == "task.huge" and entry["level1"] < 100 < 5000 < entry["level2"]
    )
    assert report["budgets"]["counter"] == "o200k_base"
    assert set(report["budgets"]["providers"]) >= {
        "providers/anthropic.json",
        "providers/mcp.json",
    }


def test_ai_tools_json_has_seed_004_shape_and_a_content_hash() -> None:
    aggregate = json.loads((REPO / "generated" / "ai-tools.json").read_text())
    assert set(aggregate) == {
        "$schema",
        "version",
        "content_hash",
        "generator",
        "tools",
        "skills",  # the skills with seed 000's metadata (code-reviewer's metadata.yaml)
    }
    assert sorted(aggregate["skills"]) == [
        "task.code_reviewer",
        "task.security_analyzer",
    ]
    assert aggregate["content_hash"].startswith("sha256:")
    command = aggregate["tools"]["skillc"]["commands"][0]
    assert command["id"] == "skillc:build" and command["cli_command"] == "skillc build"
    assert command["dangerous"] is False and command["triggers"]


def test_agent_docs_stay_minimal() -> None:
    for name in ("CLAUDE.md", "AGENTS.md"):
        # AGENTS.md ends with the agent frameworks' examples (test_adapters_docs.py).
        text = (REPO / "generated" / name).read_text().split("\nIn an agent framework")
        assert len(text[0].splitlines()) <= 14, name
