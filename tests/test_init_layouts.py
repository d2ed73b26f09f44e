"""``skillc init`` on the four shapes of repository issue 46 met, each reproduced
small: what init chooses, what it says, and what the build then compiles and lists
as not compiled, with the reason.

1. a marketplace that also ships other clients' copies, one of them with links to
   nothing;
2. a catalogue of components beside a small ``.claude/``;
3. a catalogue whose skills sit in dot folders (``skills/.curated``);
4. same-named skills nested two levels down in one plugin."""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

import pytest

from conftest import run_skillc
from skillc import init


def skill(name: str) -> str:
    return f"---\nname: {name}\ndescription: Does {name}.\n---\nDo it.\n"


def agent(name: str) -> str:
    return f"---\nname: {name}\ndescription: Does {name}.\n---\nYou do {name}.\n"


def layout(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def initialised(
    root: Path, capsys: pytest.CaptureFixture[str], *catalogues: str
) -> tuple[list[str], list[str]]:
    """init's sources and the lines of its summary."""
    assert init.main(root, catalogues) == 0
    said = capsys.readouterr().out.splitlines()
    table = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["skillc"]
    return table["sources"], said


def built(
    root: Path, capsys: pytest.CaptureFixture[str], *flags: str
) -> tuple[int, str, dict[str, object]]:
    status, err = run_skillc(capsys, "-C", str(root), "build", *flags)
    path = root / "generated" / "report.json"
    report = json.loads(path.read_text()) if path.exists() else {}
    return status, err, report


def tools(report: dict[str, object]) -> list[str]:
    return [tool["name"] for tool in report["tools"]]  # type: ignore[attr-defined, index]


def left(report: dict[str, object]) -> dict[str, str]:
    return {e["path"]: e["reason"] for e in report["not_compiled"]}  # type: ignore[attr-defined, index]


def test_a_marketplace_with_client_mirrors_and_links_to_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: sources = [".codex/skills", ".gemini/skills", ".claude/commands",
    "agents"]: the marketplace (what Claude Code users install) was not compiled, and
    the broken Gemini CLI mirror stopped the build with nothing written."""
    market = {"name": "mk", "owner": {"name": "o"}, "plugins": []}
    for name in ("alpha", "beta"):
        market["plugins"].append({"name": name, "source": f"./plugins/{name}"})  # type: ignore[attr-defined]
    layout(
        tmp_path,
        {
            ".claude-plugin/marketplace.json": json.dumps(market),
            "plugins/alpha/.claude-plugin/plugin.json": '{"name": "alpha"}',
            "plugins/beta/.claude-plugin/plugin.json": '{"name": "beta"}',
            "plugins/alpha/skills/pdf/SKILL.md": skill("pdf"),
            "plugins/beta/skills/docx/SKILL.md": skill("docx"),
            ".codex/skills/pdf/SKILL.md": skill("pdf"),
            ".claude/commands/ship.md": "Ship it.\n",
            "agents/reviewer.md": agent("reviewer"),
        },
    )
    (tmp_path / ".gemini" / "skills").mkdir(parents=True)
    for name in ("pdf", "docx"):  # the targets moved
        os.symlink(f"../../skills/{name}", tmp_path / ".gemini" / "skills" / name)
    sources, said = initialised(tmp_path, capsys)
    assert sources == ["."]
    assert "  plugins/ (plugins): 2 skills" in said
    assert "  .gemini/skills/ (Gemini CLI): 2 link(s) to nothing" in said
    assert any(
        line.startswith("  defects the build stops on: .gemini/skills/ (2)")
        and "keep-going = true builds the rest" in line
        for line in said
    )
    status, err, _ = built(tmp_path, capsys)
    assert status == 1
    assert ".gemini/skills/docx:1:1: error[file-unreadable]" in err
    assert "a skill in Gemini CLI's layout (.gemini/skills/)" in err
    status, err, report = built(tmp_path, capsys, "--keep-going")
    assert tools(report) == [
        "task.alpha.pdf",
        "task.beta.docx",
        "task.pdf",
        "task.reviewer",
        "task.ship",
    ]


def test_a_component_catalogue_beside_a_small_claude_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: init chose .claude/agents and .claude/commands and said nothing about
    the definitions in components/."""
    files = {
        ".claude/agents/helper.md": agent("helper"),
        ".claude/commands/ship.md": "Ship it.\n",
    }
    for i in range(3):
        files[f"components/skills/cat{i}/s{i}/SKILL.md"] = skill(f"s{i}")
        files[f"components/agents/cat{i}/a{i}.md"] = agent(f"a{i}")
        files[f"components/commands/cat{i}/c{i}.md"] = f"Do {i}.\n"
    layout(tmp_path, files)
    sources, said = initialised(tmp_path, capsys)
    assert sources == [".claude/agents", ".claude/commands"]
    assert "  components/: 3 skills, 3 subagents, 3 commands" in said
    assert (
        "  components/: 3 skills, 3 subagents, 3 commands: a catalogue of installable "
        "definitions, outside every client's layout: not compiled; skillc init "
        '--catalogue components compiles each as installed (or add "components" to '
        "sources)"
    ) in said
    status, err, report = built(tmp_path, capsys, "-v")
    assert status == 0 and tools(report) == ["task.helper", "task.ship"]
    assert left(report) == {
        "components": 'outside every source: add "components" (or a folder in it) '
        "to sources to compile them as installed, each by the rules of the client "
        "whose layout holds it"
    }
    assert (
        "components:1:1: info[not-compiled]: 3 skills, 3 subagents, 3 commands" in err
    )


def test_a_catalogue_in_dot_folders(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: 0 tools and one empty-source warning, no word on the skills."""
    layout(
        tmp_path,
        {
            "skills/.curated/pdf/SKILL.md": skill("pdf"),
            "skills/.curated/docx/SKILL.md": skill("docx"),
            "skills/.system/installer/SKILL.md": skill("installer"),
        },
    )
    sources, said = initialised(tmp_path, capsys)
    assert sources == ["skills"]
    assert (
        "  not compiled: 3 in skills/.curated/, skills/.system/: a catalogue's dot "
        "folders, which no client reads there: skillc init --catalogue skills "
        "compiles each as installed"
    ) in said
    status, err, report = built(tmp_path, capsys)
    assert status == 0 and tools(report) == []
    assert "info[not-compiled]: 1 note not shown" in err and "1 note\n" in err
    assert sorted(left(report)) == [
        "skills/.curated/docx/SKILL.md",
        "skills/.curated/pdf/SKILL.md",
        "skills/.system/installer/SKILL.md",
    ]
    assert (
        "in the dot folder .curated/ of a catalogue"
        in left(report)["skills/.curated/pdf/SKILL.md"]
    )
    # Compiled as installed, when asked for.
    for name in ("pyproject.toml", "noxfile.py", ".gitignore"):
        (tmp_path / name).unlink()
    sources, _ = initialised(tmp_path, capsys, "skills")
    assert sources == ["skills/.curated", "skills/.system"]
    status, err, report = built(tmp_path, capsys)
    assert tools(report) == ["task.docx", "task.installer", "task.pdf"]
    assert left(report) == {}


def test_same_named_skills_nested_in_one_plugin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: duplicate-name errors for web and linux stopped the marketplace; Claude
    Code loads neither copy (one level below skills/), so there is no clash."""
    market = {
        "name": "m",
        "owner": {"name": "o"},
        "plugins": [{"name": "zoom", "source": "./zoom"}],
    }
    layout(
        tmp_path,
        {
            ".claude-plugin/marketplace.json": json.dumps(market),
            "zoom/.claude-plugin/plugin.json": '{"name": "zoom"}',
            "zoom/skills/contact-center/web/SKILL.md": skill("web"),
            "zoom/skills/meeting-sdk/web/SKILL.md": skill("web"),
            "zoom/skills/contact-center/linux/SKILL.md": skill("linux"),
            "zoom/skills/meeting-sdk/linux/SKILL.md": skill("linux"),
            "zoom/skills/zoom-apps/SKILL.md": skill("zoom-apps"),
        },
    )
    sources, said = initialised(tmp_path, capsys)
    assert sources == ["."]
    assert (
        "  not compiled: 4 in zoom/skills/contact-center/, zoom/skills/meeting-sdk/: "
        "at a depth no client followed reads (Claude Code reads exactly 1 folder "
        "below it)"
    ) in said
    status, err, report = built(tmp_path, capsys)
    assert status == 0, err
    assert "duplicate-name" not in err
    assert tools(report) == ["task.zoom.zoom_apps"]
    assert sorted(left(report)) == [
        "zoom/skills/contact-center/linux/SKILL.md",
        "zoom/skills/contact-center/web/SKILL.md",
        "zoom/skills/meeting-sdk/linux/SKILL.md",
        "zoom/skills/meeting-sdk/web/SKILL.md",
    ]


def test_the_catalogue_option_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    layout(tmp_path, {"pack/.curated/pdf/SKILL.md": skill("pdf")})
    status, _ = run_skillc(capsys, "-C", str(tmp_path), "init", "--catalogue", "pack")
    assert status == 0
    table = tomllib.loads((tmp_path / "pyproject.toml").read_text())["tool"]["skillc"]
    assert table["sources"] == ["pack/.curated"]
