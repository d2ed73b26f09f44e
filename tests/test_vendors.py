"""Every client's layout of the open Agent Skills format (tests/fixtures/vendors,
written from each client's public docs): the skills folders found without
configuration, the precedence between copies of one skill, and Codex's
``agents/openai.yaml``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import FIXTURES, run_skillc


def _built(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: str
) -> tuple[Path, str]:
    """The fixture built in a copy, and what the build printed."""
    project = tmp_path / "vendors"
    shutil.copytree(FIXTURES / "vendors", project)
    status, err = run_skillc(capsys, "-C", str(project), "build", *args)
    assert status == 0, err
    return project, err


def _report(project: Path) -> dict[str, object]:
    data = json.loads((project / "generated" / "report.json").read_text())
    assert isinstance(data, dict)
    return data


def test_every_clients_skills_folder_is_a_default_source(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project, _ = _built(tmp_path, capsys)
    tools = {t["name"]: t["source"] for t in _report(project)["tools"]}  # type: ignore[attr-defined, index]
    assert tools == {
        "task.api_auditor": ".gemini/skills/api-auditor/SKILL.md",
        "task.git_release": ".opencode/skills/git-release/SKILL.md",
        "task.lint": ".codex/skills/lint/SKILL.md",
        "task.review": ".claude/skills/review/SKILL.md",
    }


@pytest.mark.parametrize("sources", [(), (".",), (".claude/skills", ".agents/skills")])
def test_claude_code_copy_of_a_skill_shadows_the_agents_copy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], sources: tuple[str, ...]
) -> None:
    """Whatever the source roots (the defaults, the root alone, or a configured order
    that puts .claude/skills lowest), Claude Code's copy wins and the other is in the
    report's shadowed list, with a warning at its file."""
    args = [arg for source in sources for arg in ("--source", source)]
    project, err = _built(tmp_path, capsys, *args)
    report = _report(project)
    shadowed = [
        (s["qualname"], s["kept"]["path"], s["shadowed"]["path"])  # type: ignore[index]
        for s in report["shadowed"]  # type: ignore[attr-defined]
    ]
    assert shadowed == [
        (
            "task.review",
            ".claude/skills/review/SKILL.md",
            ".agents/skills/review/SKILL.md",
        )
    ]
    assert report["overrides"] == []
    assert ".agents/skills/review/SKILL.md:1:1: warning[shadowed]" in err
    listing = (project / "generated" / "_listing.py").read_text()
    assert "Claude Code's copy" in listing and "the shared copy" not in listing
