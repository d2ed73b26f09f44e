"""skillc check's listings as clients install a project (issue 44): a catalogue of
skill folders one skill at a time, a marketplace one plugin at a time, a project's own
.claude/ as a whole; each harness at its default model's window (named), the
unknown-window fallback only when asked; each install's share of each budget as a
figure, in --report and in the text output."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conftest import checked, run_skillc, shared_corpus, write_skill

QUICK = ("--skip", "breaking", "--skip", "overlap", "--skip", "scan")


def _skill(root: Path, name: str, size: int) -> None:
    words = ("word " * (size // 5)).strip()
    write_skill(root, name, f"---\nname: {name}\ndescription: {words}\n---\nDo it.\n")


def _built(capsys: pytest.CaptureFixture[str], project: Path) -> None:
    status, err = run_skillc(capsys, "-C", str(project), "build")
    assert status == 0, err


def _dropped(err: str) -> list[str]:
    return [line for line in err.splitlines() if "error[listing-dropped]" in line]


def _installs(found: dict[str, Any], harness: str) -> dict[str, dict[str, Any]]:
    [result] = [r for r in found["listing"] if r["harness"] == harness]
    return {i["id"]: i for i in result["installs"]}


def test_a_catalogue_of_skill_folders_is_budgeted_per_skill(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """40 skill folders outside every client's layout (a catalogue, as
    ComposioHQ/awesome-claude-skills' 865) are installed one by one: none is dropped
    at the default windows. All at once (installed = "all") they would be: 40 lines of
    about 420 characters are twice Claude Code's 8,000."""
    for i in range(40):
        _skill(skills_project / "skills", f"skill-{i:02}", 400)
    _built(capsys, skills_project)
    status, err, found = checked(capsys, skills_project, *QUICK)
    assert status == 0 and not _dropped(err), err[-2000:]
    claude = _installs(found, "claude-code")
    assert sorted(claude) == ["project"] + [f"skill:skill-{i:02}" for i in range(40)]
    assert claude["project"]["entries"] == 0
    assert all(claude[f"skill:skill-{i:02}"]["entries"] == 1 for i in range(40))
    status, err, found = checked(capsys, skills_project, *QUICK, "--installed", "all")
    assert status == 1
    assert len(_dropped(err)) > 20
    assert "claude-code at 200k (Sonnet 4.5's window) with every skill" in err
    assert list(_installs(found, "claude-code")) == ["all"]
    # The setting says so as the flag does.
    pyproject = skills_project / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text() + '\n[tool.skillc.check]\ninstalled = "all"\n'
    )
    status, err, _ = checked(capsys, skills_project, *QUICK)
    assert status == 1 and _dropped(err)
    pyproject.write_text(pyproject.read_text().replace('"all"', '"some"'))
    status, err = run_skillc(capsys, "-C", str(skills_project), "check")
    assert status == 2 and "installed must be one of each, all" in err


def _plugin(root: Path, name: str, skills: int, size: int) -> dict[str, str]:
    folder = root / "plugins" / name
    (folder / ".claude-plugin").mkdir(parents=True)
    (folder / ".claude-plugin" / "plugin.json").write_text(
        json.dumps({"name": name, "description": f"The {name} plugin."})
    )
    for i in range(skills):
        _skill(folder / "skills", f"{name}-{i}", size)
    return {"name": name, "source": f"./plugins/{name}"}


def test_a_marketplace_is_budgeted_per_plugin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two plugins of four 1,500-character skills: each fits Claude Code's 8,000
    characters alone (about 6,100), both together would not; each plugin's share is a
    figure."""
    market = tmp_path / "mk"
    plugins = [_plugin(market, name, 4, 1500) for name in ("alpha", "beta")]
    (market / ".claude-plugin").mkdir(parents=True)
    (market / ".claude-plugin" / "marketplace.json").write_text(
        json.dumps({"name": "mk", "owner": {"name": "me"}, "plugins": plugins})
    )
    (tmp_path / "pyproject.toml").write_text('[tool.skillc]\nsources = ["mk"]\n')
    _built(capsys, tmp_path)
    status, err, found = checked(capsys, tmp_path, *QUICK, "--budget", "claude-code")
    assert status == 0 and not _dropped(err), err[-2000:]
    claude = _installs(found, "claude-code")
    assert sorted(claude) == ["plugin:alpha", "plugin:beta", "project"]
    for name in ("alpha", "beta"):
        figures = claude[f"plugin:{name}"]
        assert figures["entries"] == 4 and figures["dropped"] == 0
        assert 0.7 < figures["share"] < 0.8  # about 6,100 of 8,000 characters
    status, err, _ = checked(
        capsys, tmp_path, *QUICK, "--budget", "claude-code", "--installed", "all"
    )
    assert status == 1 and _dropped(err)


def test_a_project_s_own_claude_folder_is_listed_as_a_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Skills in .claude/skills come with the project, all at once: six of 1,500
    characters are over Claude Code's 8,000, and the last is dropped, as it would be
    in the project itself."""
    for name in "abcdef":
        _skill(tmp_path / ".claude" / "skills", name, 1500)
    (tmp_path / "pyproject.toml").write_text('[tool.skillc]\nsources = [".claude"]\n')
    _built(capsys, tmp_path)
    status, err, found = checked(capsys, tmp_path, *QUICK, "--budget", "claude-code")
    assert status == 1
    [dropped] = _dropped(err)
    assert dropped.startswith(".claude/skills/f/SKILL.md")
    assert "claude-code at 200k (Sonnet 4.5's window) drops task.f's" in dropped
    assert list(_installs(found, "claude-code")) == ["project"]


def test_each_harness_defaults_to_its_default_model_s_window(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Claude Code at 200k (Sonnet 4.5), Codex at 272k (gpt-5.2-codex: 5,440 tokens),
    each named in what is said; Codex's 8,000-character fallback for a window it does
    not know only when asked (codex:unknown)."""
    _skill(skills_project / "skills", "long", 1600)
    _built(capsys, skills_project)
    status, err, found = checked(capsys, skills_project, *QUICK)
    claude, codex = found["listing"]
    assert (claude["context"], claude["model"], claude["budget"]) == (
        200_000,
        "Sonnet 4.5",
        {"limit": 8000, "unit": "chars"},
    )
    assert (codex["context"], codex["model"], codex["budget"]) == (
        272_000,
        "gpt-5.2-codex",
        {"limit": 5440, "unit": "tokens"},
    )
    assert (
        "claude-code at 200k (Sonnet 4.5's window) with skill long installed shows 1,536"
        in err
    )
    assert (
        "codex at 272k (gpt-5.2-codex's window) with skill long installed leaves" in err
    )
    status, err, found = checked(
        capsys, skills_project, *QUICK, "--budget", "codex:unknown"
    )
    [codex] = found["listing"]
    assert (codex["context"], codex["context_from"], codex["model"]) == (
        None,
        "unknown",
        None,
    )
    assert codex["budget"] == {"limit": 8000, "unit": "chars"}
    assert "codex (model's window unknown: its fallback budget)" in err
    status, err = run_skillc(
        capsys, "-C", str(skills_project), "check", "--budget", "claude-code:unknown"
    )
    assert status == 2 and "no budget for an unknown window" in err


def test_each_install_s_share_of_each_budget_is_a_figure(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--report gives each entry's and each install's cost (its line, in the budget's
    unit) and share; the text output the largest shares, and every one with -v."""
    for name, size in (("big", 800), ("mid", 400), ("small", 100), ("tiny", 20)):
        _skill(skills_project / "skills", name, size)
    _built(capsys, skills_project)
    status, err, found = checked(capsys, skills_project, *QUICK)
    assert status == 0, err
    claude = found["listing"][0]
    by_tool = {e["tool"]: e for e in claude["entries"]}
    big = by_tool["task.big"]
    # Claude Code's line: "- big: <description>" and its newline, in characters.
    assert big["cost"] == len("- big: ") + big["chars"] + 1
    assert big["share"] == round(big["cost"] / 8000, 4)
    assert big["install"] == "skill:big"
    installs = _installs(found, "claude-code")
    assert installs["skill:big"]["cost"] == big["cost"]
    assert installs["skill:big"]["share"] == big["share"]
    codex = found["listing"][1]
    assert {e["tool"]: e["cost"] for e in codex["entries"]}["task.big"] > 0
    lines = [line for line in err.splitlines() if "shares:" in line]
    assert len(lines) == 2
    assert lines[0].startswith(
        "skillc: claude-code at 200k (Sonnet 4.5's window): a budget of 8,000 chars; "
        f"shares: skill big {big['share']:.1%}, skill mid"
    )
    assert "1 more with -v" in lines[0]
    _, err = run_skillc(capsys, "-C", str(skills_project), "check", "-v", *QUICK)
    every = [line for line in err.splitlines() if "shares:" in line][0]
    assert "skill tiny" in every and "more with -v" not in every


def test_real_catalogues_fit_one_skill_at_a_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """anthropics/skills and obra/superpowers (../shared/corpus) as one catalogue of
    26 skill folders: installed one by one, neither Claude Code nor Codex at its
    default model's window drops or shortens a description for want of budget: what
    is left is the one skill Codex refuses whatever its budget
    (claude-api's description is over 1,024 characters). All at once they take 81%
    of Claude Code's 8,000 characters (at 100k, some are dropped) and 93% of Codex's
    unknown-window fallback (simulated only when asked)."""
    import shutil

    project = tmp_path / "project"
    for name in ("anthropics-skills", "obra-superpowers"):
        shutil.copytree(shared_corpus("skills", name), project / "catalogue" / name)
    (project / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["catalogue"]\nkeep-going = true\n'
    )
    run_skillc(capsys, "-C", str(project), "build")
    status, err, found = checked(capsys, project, *QUICK)
    codes = [line for line in err.splitlines() if "[listing-" in line]
    [refused] = codes
    assert refused.startswith("catalogue/anthropics-skills/claude-api/SKILL.md")
    assert "Codex refused it: description is 1,068 characters" in refused
    assert len(_installs(found, "claude-code")) == 1 + 26
    _, err, found = checked(
        capsys, project, *QUICK, "--budget", "codex:unknown", "--installed", "all"
    )
    assert (
        "codex (model's window unknown: its fallback budget): a budget of 8,000" in err
    )
    assert _installs(found, "codex")["all"]["share"] > 0.9  # all 26: 93% of it
    _, err, found = checked(
        capsys, project, *QUICK, "--budget", "claude-code", "--installed", "all"
    )
    assert not _dropped(err)
    assert 0.8 < _installs(found, "claude-code")["all"]["share"] < 0.82
    _, err, _ = checked(
        capsys, project, *QUICK, "--budget", "claude-code:100k", "--installed", "all"
    )
    assert _dropped(err)
