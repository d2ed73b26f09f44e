"""Every client's layout of the open Agent Skills format (tests/fixtures/vendors,
written from each client's public docs): the skills folders found without
configuration, the precedence between copies of one skill, and Codex's
``agents/openai.yaml``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import FIXTURES, run_python, run_skillc


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


def test_each_clients_plugin_layout_and_what_is_not_compiled(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """tests/fixtures/vendor-plugins: a Codex marketplace (.agents/plugins) listing a
    Codex plugin (.codex-plugin) and a remote one, an Agent Plugins 1.0 plugin (root
    plugin.json with $schema, mcp.json), a Gemini CLI extension, and a Claude Code
    plugin holding every component skillc does not compile."""
    project = tmp_path / "plugins"
    shutil.copytree(FIXTURES / "vendor-plugins", project)
    status, err = run_skillc(capsys, "-C", str(project), "build")
    assert status == 0, err
    report = _report(project)
    tools = {t["name"]: t["source"] for t in report["tools"]}  # type: ignore[attr-defined, index]
    assert tools == {
        "task.claude_kit.explain": "plugins/claude-kit/skills/explain/SKILL.md",
        "task.codex_kit.triage": "plugins/codex-kit/skills/triage/SKILL.md",
        "task.gemini_kit.deploy": "plugins/gemini-kit/skills/deploy/SKILL.md",
        "task.open_kit.summarize": "plugins/open-kit/skills/summarize/SKILL.md",
    }
    servers = [
        (s["plugin"], s["name"], s["transport"], s["source"])  # type: ignore[index]
        for s in report["mcp_servers"]  # type: ignore[attr-defined]
    ]
    assert servers == [
        ("codex-kit", "tracker", "stdio", "plugins/codex-kit/.mcp.json"),
        ("gemini-kit", "cloud", "stdio", "plugins/gemini-kit/gemini-extension.json"),
        ("open-kit", "deploy-api", "streamable-http", "plugins/open-kit/mcp.json"),
        ("open-kit", "validator", "stdio", "plugins/open-kit/mcp.json"),
    ]
    claude = "plugins/claude-kit/"
    left = {
        (n["kind"], n["path"], n["name"])  # type: ignore[index]
        for n in report["not_compiled"]  # type: ignore[attr-defined]
    }
    assert left == {
        ("plugin", ".agents/plugins/marketplace.json", "hosted-kit"),
        ("lsp-servers", claude + ".claude-plugin/plugin.json", "claude-kit"),
        ("user-config", claude + ".claude-plugin/plugin.json", "claude-kit"),
        ("dependencies", claude + ".claude-plugin/plugin.json", "claude-kit"),
        ("themes", claude + ".claude-plugin/plugin.json", "claude-kit"),
        ("bin", claude + "bin", "claude-kit"),
        ("monitors", claude + "monitors/monitors.json", "claude-kit"),
        ("output-styles", claude + "output-styles", "claude-kit"),
        ("settings", claude + "settings.json", "claude-kit"),
        ("apps", "plugins/codex-kit/.codex-plugin/plugin.json", "codex-kit"),
        ("commands", "plugins/gemini-kit/commands", "gemini-kit"),
        ("context", "plugins/gemini-kit/gemini-extension.json", "gemini-kit"),
        ("exclude-tools", "plugins/gemini-kit/gemini-extension.json", "gemini-kit"),
        ("settings", "plugins/gemini-kit/gemini-extension.json", "gemini-kit"),
        ("client-folder", "plugins/open-kit/com.example.client", "open-kit"),
        ("extensions", "plugins/open-kit/plugin.json", "open-kit"),
    }
    reasons = [n["reason"] for n in report["not_compiled"]]  # type: ignore[attr-defined, index]
    assert all(r.endswith(("; not compiled", ": not fetched")) for r in reasons)
    assert "warning[component-not-compiled]" in err
    bodies = run_python(
        "import generated\n"
        "print(generated.task.open_kit.summarize().instructions)\n"
        "print(generated.task.gemini_kit.deploy().instructions)\n",
        project,
    )
    assert bodies.returncode == 0, bodies.stderr
    assert "${" not in bodies.stdout
    assert str(project / "plugins" / "open-kit" / "templates") in bodies.stdout
    assert str(project / "plugins" / "gemini-kit" / "scripts") in bodies.stdout


def test_codex_openai_yaml_reaches_the_invocation_and_help(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """.codex/skills/lint/agents/openai.yaml: its interface and dependencies are the
    Invocation's typed ``codex`` and its Level 2; allow_implicit_invocation: false keeps
    the skill out of the provider files, as disable-model-invocation: true does."""
    project, _ = _built(tmp_path, capsys)
    shown = run_python(
        "import generated\n"
        "inv = generated.task.lint('src')\n"
        "print(repr(inv.codex))\n"
        "generated.task.lint.help()\n",
        project,
    )
    assert shown.returncode == 0, shown.stderr
    assert (
        "Codex(display_name='Lint', short_description='Run the linters, explain "
        "findings', default_prompt='Use $lint to check the files I changed.', "
        "brand_color='#3B82F6', icon_small='./assets/small.png', icon_large=None, "
        "tool_dependencies=('mcp:github',), allow_implicit_invocation=False)"
    ) in shown.stdout
    assert "Codex: allow_implicit_invocation: false;" in shown.stdout
    anthropic = json.loads((project / "generated/providers/anthropic.json").read_text())
    names = [tool["name"] for tool in anthropic]
    assert "task__lint" not in names and "task__review" in names


def test_a_users_own_skills_folder_is_read_only_when_configured(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """~/.codex/skills (here beside the project) is no default source; listed in
    sources, it is read as Codex reads a .codex/skills folder: Codex lists both copies
    of a skill (deduplicated by path, loader.rs@c9d127c:174-191) and its .codex/skills
    root before .agents/skills (:231-311), so that copy is the tool, though listed
    later."""
    home = tmp_path / "home" / ".codex" / "skills" / "git-release"
    home.mkdir(parents=True)
    (home / "SKILL.md").write_text(
        "---\nname: git-release\ndescription: The user's copy.\n---\nRelease.\n"
    )
    (home.parent / "mine").mkdir()
    (home.parent / "mine" / "SKILL.md").write_text(
        "---\nname: mine\ndescription: Only in the user's folder.\n---\nMine.\n"
    )
    project, _ = _built(tmp_path, capsys)
    assert "task.mine" not in {t["name"] for t in _report(project)["tools"]}  # type: ignore[attr-defined, index]
    shutil.copytree(home, project / ".agents" / "skills" / "git-release")
    status, err = run_skillc(
        capsys,
        "-C",
        str(project),
        "build",
        *("--source", ".agents/skills", "--source", "../home/.codex/skills"),
    )
    assert status == 0, err
    report = _report(project)
    tools = {t["name"]: t["source"] for t in report["tools"]}  # type: ignore[attr-defined, index]
    assert tools["task.mine"] == "../home/.codex/skills/mine/SKILL.md"
    assert tools["task.git_release"] == "../home/.codex/skills/git-release/SKILL.md"
    shadowed = [(s["kept"]["path"], s["shadowed"]["path"]) for s in report["shadowed"]]  # type: ignore[attr-defined, index]
    assert shadowed == [
        (
            "../home/.codex/skills/git-release/SKILL.md",
            ".agents/skills/git-release/SKILL.md",
        )
    ]
    assert report["overrides"] == []


def test_a_second_manifest_naming_another_plugin_is_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folder's Claude Code manifest defines its plugin; a Codex manifest beside it
    that names another plugin is not read, and listed; a Codex marketplace that is
    not at a source root is listed as not read."""
    project = tmp_path / "plugins"
    shutil.copytree(FIXTURES / "vendor-plugins", project)
    kit = project / "plugins" / "claude-kit"
    (kit / ".codex-plugin").mkdir()
    (kit / ".codex-plugin" / "plugin.json").write_text('{"name": "other-kit"}')
    nested = project / "plugins" / ".agents" / "plugins"
    nested.mkdir(parents=True)
    (nested / "marketplace.json").write_text('{"name": "x", "plugins": []}')
    status, err = run_skillc(capsys, "-C", str(project), "build")
    assert status == 0, err
    report = _report(project)
    left = {
        (n["kind"], n["path"], n["name"])  # type: ignore[index]
        for n in report["not_compiled"]  # type: ignore[attr-defined]
        if n["kind"] == "manifest"  # type: ignore[index]
    }
    assert left == {
        ("manifest", "plugins/claude-kit/.codex-plugin/plugin.json", "other-kit"),
        ("manifest", "plugins/.agents/plugins", ""),
    }
    names = {t["name"] for t in report["tools"]}  # type: ignore[attr-defined, index]
    assert "task.claude_kit.explain" in names
    assert not any(name.startswith("task.other_kit") for name in names)


def test_codex_marketplace_beside_claude_codes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """tests/fixtures/market with a Codex marketplace too: a folder both list is
    compiled once, as Claude Code's entry defines it; a Codex entry whose folder has
    no manifest defines its plugin; two Claude Code entries on one folder stay two."""
    project = tmp_path / "market"
    shutil.copytree(FIXTURES / "market", project)
    root = project / "market"
    claude = root / ".claude-plugin" / "marketplace.json"
    market = json.loads(claude.read_text())
    market["plugins"].append(
        {"name": "notes-kit", "source": "./", "strict": False, "skills": ["./notes"]}
    )
    claude.write_text(json.dumps(market))
    (root / "notes" / "jot").mkdir(parents=True)
    (root / "notes" / "jot" / "SKILL.md").write_text(
        "---\nname: jot\ndescription: Jot a note.\n---\nJot.\n"
    )
    (root / "codex-only" / "skills" / "hello").mkdir(parents=True)
    (root / "codex-only" / "skills" / "hello" / "SKILL.md").write_text(
        "---\nname: hello\ndescription: Say hello.\n---\nHello.\n"
    )
    (root / ".agents" / "plugins").mkdir(parents=True)
    (root / ".agents" / "plugins" / "marketplace.json").write_text(
        json.dumps(
            {
                "name": "demo-market",
                "plugins": [
                    {"name": "docs-kit", "source": {"source": "local", "path": "./"}},
                    {
                        "name": "tools-kit",
                        "source": {"source": "local", "path": "./codex-only"},
                        "policy": {"installation": "AVAILABLE"},
                    },
                ],
            }
        )
    )
    status, err = run_skillc(capsys, "-C", str(project), "build")
    assert status == 0, err
    report = json.loads((project / "out" / "report.json").read_text())
    names = {t["name"] for t in report["tools"]}
    assert {
        "task.docs_kit.summarise",
        "task.docs_kit.proofread",
        "task.notes_kit.jot",
        "task.tools_kit.hello",
    } <= names
    assert not any(name.startswith("task.demo_market") for name in names)


def test_the_plugin_formats_in_their_order_of_precedence() -> None:
    """The first manifest a folder holds defines its plugin: Claude Code's, then
    Codex's, then Cursor's, then an Agent Plugins one, then a Gemini CLI extension."""
    from skillc import discover_plugins

    assert discover_plugins.PLUGIN_MANIFESTS == (
        ".claude-plugin/plugin.json",
        ".codex-plugin/plugin.json",
        ".cursor-plugin/plugin.json",
        "plugin.json",
        "gemini-extension.json",
    )
