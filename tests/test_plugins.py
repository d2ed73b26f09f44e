"""Claude Code plugins and marketplaces: component paths, entry-defined plugins, remote
entries, hooks and MCP servers (tests/fixtures/market), and a real 91-plugin marketplace
(../shared/corpus/plugins/wshobson-agents, skipped when absent)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import (
    FIXTURES,
    WSHOBSON_REFUSED,
    built_marketplace,
    run_mypy,
    run_python,
    run_skillc,
)


def _market(tmp_path: Path) -> Path:
    project = tmp_path / "market"
    shutil.copytree(FIXTURES / "market", project)
    return project


def _report(project: Path) -> dict[str, object]:
    data = json.loads(next(project.glob("*/report.json")).read_text())
    assert isinstance(data, dict)
    return data


def test_components_marketplace_and_remote(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _market(tmp_path)
    status, err = run_skillc(capsys, "-C", str(project), "build")
    assert status == 0, err
    report = _report(project)
    names = {t["name"]: t["source"] for t in report["tools"]}  # type: ignore[attr-defined, index]
    assert names == {
        # .claude/commands: a subfolder does not namespace the name
        "task.greet": ".claude/commands/greet.md",
        "task.component": ".claude/commands/frontend/component.md",
        # the strict: false entry at ./ is the whole plugin: its skills and commands
        "task.docs_kit.summarise": "market/shared-skills/summarise/SKILL.md",
        "task.docs_kit.proofread": "market/docs-commands/proofread.md",
        # plugin.json's paths: skills added, commands and agents replaced
        "task.ops_kit.triage": "market/plugins/ops-kit/more-skills/triage/SKILL.md",
        "task.ops_kit.status": "market/plugins/ops-kit/cmds/status.md",
        "task.ops_kit.migrate": "market/plugins/ops-kit/cmds/db/migrate.md",
        "task.ops_kit.deploy": "market/plugins/ops-kit/extra/deploy.md",
        # agents lists files (Claude Code refuses a folder): each named by its file
        "task.ops_kit.reviewer": "market/plugins/ops-kit/team/reviewer.md",
        "task.ops_kit.auditor": "market/plugins/ops-kit/team/security/auditor.md",
    }
    # ops-kit's .codex-plugin/plugin.json names the same plugin: read, nothing left out
    assert report["not_compiled"] == [
        {
            "kind": "plugin",
            "name": "remote-kit",
            "path": "market/.claude-plugin/marketplace.json",
            "reason": "remote source (github example/remote-kit): not fetched",
        },
        {
            "kind": "component",
            "name": "ops-kit",
            "path": "market/plugins/ops-kit/commands",
            "reason": 'replaced by plugin.json\'s "commands" (./cmds, ./extra/deploy.md): '
            "not compiled",
        },
    ]
    assert [h["event"] for h in report["hooks"]] == ["PreToolUse"]  # type: ignore[attr-defined, index]
    servers = [(s["plugin"], s["name"], s["transport"]) for s in report["mcp_servers"]]  # type: ignore[attr-defined, index]
    assert servers == [
        ("ops-kit", "metrics", "stdio"),
        ("ops-kit", "status-page", "http"),
    ]
    ai_tools = json.loads((project / "out" / "ai-tools.json").read_text())
    assert sorted(ai_tools["plugins"]["ops-kit"]) == ["hooks", "mcp_servers"]
    claude = (project / "out" / "CLAUDE.md").read_text()
    agents = (project / "out" / "AGENTS.md").read_text()
    assert "PreToolUse" in claude and "PreToolUse" not in agents  # Codex has no hooks
    assert "`ops-kit:metrics`" in claude and "`ops-kit:metrics`" in agents


def test_left_out_component_folders_are_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A default agents/ folder that plugin.json's "agents" replaces, and a listed path
    that does not exist, are in report.json and warned about: nothing dropped silently.
    """
    project = _market(tmp_path)
    plugin = project / "market" / "plugins" / "ops-kit"
    manifest = plugin / ".claude-plugin" / "plugin.json"
    data = json.loads(manifest.read_text())
    data["agents"] = ["./team/reviewer.md", "./gone.md"]
    manifest.write_text(json.dumps(data, indent=2))
    (plugin / "agents").mkdir()
    (plugin / "agents" / "left.md").write_text(
        "---\nname: left\ndescription: x\n---\nX\n"
    )
    status, err = run_skillc(capsys, "-C", str(project), "build")
    assert status == 0, err
    report = _report(project)
    left = {
        n["path"]: n["reason"]  # type: ignore[index]
        for n in report["not_compiled"]  # type: ignore[attr-defined]
        if n["name"] == "ops-kit"  # type: ignore[index]
    }
    assert left == {
        "market/plugins/ops-kit/agents": 'replaced by plugin.json\'s "agents" '
        "(./team/reviewer.md, ./gone.md): not compiled",
        "market/plugins/ops-kit/commands": 'replaced by plugin.json\'s "commands" '
        "(./cmds, ./extra/deploy.md): not compiled",
        "market/plugins/ops-kit/gone.md": 'listed in plugin.json\'s "agents": not found',
    }
    warned = [w for w in report["warnings"] if w["code"] == "component-not-compiled"]  # type: ignore[attr-defined, index]
    assert len(warned) == 3
    assert all(w["path"].endswith("ops-kit/.claude-plugin/plugin.json") for w in warned)
    assert "warning[component-not-compiled]" in err
    assert not any("left" in t["name"] for t in report["tools"])  # type: ignore[attr-defined, index]


def test_file_includes_are_marked_not_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A command's @path includes (after its arguments are substituted) are listed in
    the Invocation for a runner, outside code; skillc reads none of them."""
    project = _market(tmp_path)
    (project / ".claude" / "commands" / "compare.md").write_text(
        "---\ndescription: Compare two files\n---\n"
        "Compare @src/old.py with @$ARGUMENTS (and @../../etc/passwd). Mail a@b.com, ask "
        "@alice.\n`@in/span.py`\n```\n@in/fence.py\n```\n"
    )
    config = project / "pyproject.toml"
    config.write_text(config.read_text().replace('out = "out"', 'out = "tools"'))
    status, err = run_skillc(capsys, "-C", str(project), "build")
    assert status == 0, err
    called = run_python(
        "import tools, json; inv = tools.task.compare('src/new.py'); "
        "print(json.dumps([inv.file_includes, inv.to_dict()['file_includes']]))",
        project,
    )
    assert called.returncode == 0, called.stderr
    includes = ["src/old.py", "src/new.py", "../../etc/passwd"]
    assert json.loads(called.stdout) == [includes, includes]


def test_plugin_root_resolves_at_call_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """${CLAUDE_PLUGIN_ROOT} is the plugin's folder below the package's source root when
    the tool is called, never a path of the build; !`cmd` is marked, not run."""
    project = _market(tmp_path)
    config = project / "pyproject.toml"
    config.write_text(config.read_text().replace('out = "out"', 'out = "tools"'))
    status, err = run_skillc(capsys, "-C", str(project), "build")
    assert status == 0, err
    moved = tmp_path / "elsewhere"
    code = (
        "import os, sys, tools\n"
        "status = tools.task.ops_kit.status.prepare('web')\n"
        "print(status.instructions.splitlines()[0])\n"
        "print(status.shell_commands)\n"
        "reviewer = tools.task.ops_kit.reviewer.prepare('x')\n"
        "print(reviewer.instructions)\n"
        "print(status.claude)\n"
        "print(reviewer.claude.to_dict())\n"
        "print(tools.task.ops_kit.status.spec.help.splitlines()[-2])\n"
    )
    result = run_python(code, project)
    assert result.returncode == 0, result.stderr
    plugin = project / "market" / "plugins" / "ops-kit"
    assert result.stdout.splitlines() == [
        f"Run {plugin}/scripts/status.sh web and explain the output.",
        "('hostname',)",
        f"You review operational changes. Checklists live in {plugin}/checklists.",
        # Claude Code's fields reach the typed Invocation and the Level 2 help
        "ClaudeCode(context='fork', agent='Explore', effort='high', permission_mode=None, "
        "disallowed_tools=(), skills=(), color=None, user_invocable=False)",
        "{'context': None, 'agent': None, 'effort': None, 'permission_mode': 'plan', "
        "'disallowed_tools': ['Write', 'Edit'], 'skills': ['triage'], 'color': 'blue', "
        "'user_invocable': True}",
        "Claude Code: context: fork; agent: Explore; effort: high; user-invocable: false",
    ]
    env_moved = run_python(
        "import os; os.environ['SKILLC_SOURCE_ROOT'] = " + repr(str(moved)) + "\n"
        "import tools; print(tools.task.ops_kit.deploy.prepare('a b').instructions)",
        project,
    )
    assert env_moved.returncode == 0, env_moved.stderr
    for path in (project / "tools").rglob("*"):
        if path.is_file() and path.suffix != ".pyc":
            assert str(tmp_path) not in path.read_text(errors="replace"), path


def _expected_tools(marketplace: Path) -> set[tuple[str, str]]:
    """(kind, file) of every skill, subagent and command of every local plugin, counted
    from the files: a skill per SKILL.md, an agent per agents/*.md with frontmatter, a
    command per commands/**/*.md."""
    data = json.loads((marketplace / ".claude-plugin" / "marketplace.json").read_text())
    expected = set()
    for entry in data["plugins"]:
        if not isinstance(entry["source"], str):
            continue
        folder = marketplace / entry["source"]
        for skill in folder.rglob("SKILL.md"):
            expected.add(("skill", skill.relative_to(marketplace).as_posix()))
        for agent in (folder / "agents").rglob("*.md"):
            if agent.read_text().startswith("---"):
                expected.add(("agent", agent.relative_to(marketplace).as_posix()))
        for command in (folder / "commands").rglob("*.md"):
            expected.add(("command", command.relative_to(marketplace).as_posix()))
    return expected


def test_a_marketplace_repository_is_its_own_source(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`skillc build` at the root of a marketplace repository, with no configuration."""
    project = tmp_path / "repo"
    shutil.copytree(FIXTURES / "market" / "market", project)
    status, err = run_skillc(capsys, "-C", str(project), "build")
    assert status == 0, err
    tools = {t["name"] for t in _report(project)["tools"]}  # type: ignore[attr-defined, index]
    assert {"task.ops_kit.triage", "task.docs_kit.proofread"} <= tools


def test_a_source_that_holds_the_output_never_reads_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    skill = tmp_path / "skills" / "greet" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: greet\ndescription: Greet.\n---\nHello.\n")
    status, err = run_skillc(capsys, "-C", str(tmp_path), "build", "--source", ".")
    assert status == 0, err
    # A skill in the output folder would be compiled if the folder were read.
    planted = tmp_path / "generated" / "planted" / "SKILL.md"
    planted.parent.mkdir()
    planted.write_text("---\nname: planted\ndescription: Plant.\n---\nPlant.\n")
    status, err = run_skillc(
        capsys, "-C", str(tmp_path), "build", "--source", ".", "--force"
    )
    assert status == 0, err
    assert [t["name"] for t in _report(tmp_path)["tools"]] == ["task.greet"]  # type: ignore[attr-defined, index]


def test_wshobson_marketplace_compiles_every_plugin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = built_marketplace(tmp_path, capsys)
    wshobson = project / "mk"
    report = _report(project)
    built = {
        (
            "command" if "/commands/" in t["source"] else t["kind"],  # type: ignore[index]
            t["source"].removeprefix("mk/"),  # type: ignore[index]
        )
        for t in report["tools"]  # type: ignore[attr-defined]
        if t["kind"] != "tool"  # type: ignore[index]  # the skills' scripts, besides
    }
    expected = {
        (kind, path)
        for kind, path in _expected_tools(wshobson)
        if not path.startswith(WSHOBSON_REFUSED + "/")  # left out: see conftest
    }
    assert len(expected) > 400  # 176 skills, 201 subagents, 105 commands
    assert built == expected
    # Its 91 .codex-plugin manifests and its Codex marketplace are read (they name the
    # plugins .claude-plugin defines), its root's .cursor-plugin/plugin.json too (a
    # plugin of nothing); only Cursor's marketplace and a remote plugin not.
    left = [(n["kind"], n["path"], n["name"]) for n in report["not_compiled"]]  # type: ignore[attr-defined, index]
    assert left == [
        ("plugin", "mk/.claude-plugin/marketplace.json", "pensyve"),
        ("manifest", "mk/.cursor-plugin/marketplace.json", ""),
    ]
    assert isinstance(report["hooks"], list) and isinstance(report["mcp_servers"], list)
    listed = run_python("import market; print(len(market.list()))", project)
    assert listed.returncode == 0, listed.stderr
    assert int(listed.stdout) == len(report["tools"])  # type: ignore[arg-type]
    checked = run_mypy(project, "market")
    assert checked.returncode == 0, checked.stdout[-3000:]


def test_skill_shadows_a_command_of_its_name(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Claude Code: a skill wins a tie with a command; the command is in the report's
    shadowed list, with a warning at its file."""
    (skills_project / "skills" / "greet").mkdir()
    (skills_project / "skills" / "greet" / "SKILL.md").write_text(
        "---\nname: greet\ndescription: The skill.\n---\nHi\n"
    )
    (skills_project / "skills" / "commands").mkdir()
    (skills_project / "skills" / "commands" / "greet.md").write_text("Hello\n")
    status, err = run_skillc(capsys, "-C", str(skills_project), "build")
    assert status == 0, err
    report = _report(skills_project)
    assert report["overrides"] == []
    assert report["shadowed"] == [
        {
            "qualname": "task.greet",
            "kept": {"path": "skills/greet/SKILL.md", "line": 1, "col": 1},
            "shadowed": {"path": "skills/commands/greet.md", "line": 1, "col": 1},
        }
    ]
    assert "skills/commands/greet.md:1:1: warning[shadowed]" in err
    assert [t["source"] for t in report["tools"]] == ["skills/greet/SKILL.md"]  # type: ignore[attr-defined, index]
