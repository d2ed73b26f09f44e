"""``harness-packages``: each client's own package, below the output folder's
``packages/<client>/``, from tests/fixtures/packages (two skills, one too long a name
for Codex once namespaced; a subagent Gemini CLI refuses; a command; a manifest
tool). The exact tree of each package (tests/golden/packages), what each leaves out
and says so, the lock's digest of every file (the zips' too), a round trip through
skillc, the packages as two linters that are not skillc read them (skillsaw, agnix),
and the MCP server started from the entry a package declares."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from conftest import GOLDEN, built_fixture, match_golden, run_skillc, tree

PACKAGES = "kit/packages"
LINTED = ("claude-code", "agent-plugins", "cursor", "codex", "gemini-cli", "opencode")
PLUGIN = "task.notes_kit."  # the fixture's plugin's namespace
LONG = "release-notes-writer-for-every-package-of-the-monorepo-at-once"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The fixture built once, with what the build printed."""
    project = tmp_path_factory.mktemp("packages") / "project"
    return project, built_fixture("packages", project, "-v")  # every warning


def test_each_package_matches_its_golden_tree(
    built: tuple[Path, str], update_goldens: bool
) -> None:
    match_golden(tree(built[0] / PACKAGES), GOLDEN / "packages", update_goldens)


def test_what_a_client_cannot_load_is_left_out_with_a_warning(
    built: tuple[Path, str],
) -> None:
    """One located warning an item, naming each client's package and why."""
    said = [line for line in built[1].splitlines() if "package-left-out" in line]
    assert said == [
        "plugins/notes-kit/commands/action-items.md:1:1: warning[package-left-out]: task.notes_kit.action_items is left out of packages/codex/ (Codex packages hold no commands); packages/agent-plugins/ (Agent Plugins packages hold no commands)",
        "skills/.claude/agents/explainer.md:1:1: warning[package-left-out]: task.explainer is left out of packages/codex/ (Codex packages hold no agents); packages/agent-plugins/ (Agent Plugins packages hold no agents)",
        "skills/.claude/agents/reviewer.md:1:1: warning[package-left-out]: task.reviewer is left out of packages/codex/ (Codex packages hold no agents); packages/gemini-cli/ (Gemini CLI refused it: its frontmatter has keys it does not allow (color)); packages/agent-plugins/ (Agent Plugins packages hold no agents)",
        "skills/.claude/agents/scout.md:1:1: warning[package-left-out]: task.scout is left out of packages/codex/ (Codex packages hold no agents); packages/gemini-cli/ (Gemini CLI refuses it: its tools are Claude Code's, and Gemini CLI's subagents name tools of their own (agentLoader.ts@5411f11:97-108; tool-names.ts@5411f11:303)); packages/agent-plugins/ (Agent Plugins packages hold no agents)",
        "skills/.claude/commands/changelog.md:1:1: warning[package-left-out]: task.changelog is left out of packages/codex/ (Codex packages hold no commands); packages/agent-plugins/ (Agent Plugins packages hold no commands)",
        "skills/.claude/commands/commit-message.md:1:1: warning[package-left-out]: task.commit_message is left out of packages/codex/ (Codex packages hold no commands); packages/agent-plugins/ (Agent Plugins packages hold no commands)",
        "skills/.claude/commands/rename.md:1:1: warning[package-left-out]: task.rename is left out of packages/codex/ (Codex packages hold no commands); packages/gemini-cli/ (it takes positional arguments ($0), which Gemini CLI does not number as Claude Code does); packages/agent-plugins/ (Agent Plugins packages hold no commands); packages/opencode/ (it takes positional arguments ($0), which OpenCode does not number as Claude Code does)",
        "skills/deploy/SKILL.md:1:1: warning[package-left-out]: task.deploy is left out of every package in packages/ (only a person may invoke it (disable-model-invocation), and skillc packages the skills models are offered)",
        "skills/release-notes-writer-for-every-package-of-the-monorepo-at-once/SKILL.md:1:1: warning[package-left-out]: task.release_notes_writer_for_every_package_of_the_monorepo_at_once is left out of packages/codex/ (Codex refused it: qualified-name is 66 characters, over 64)",
    ]
    # A model Claude Code names is left out of the subagent where the client names
    # models its own way.
    changed = [line for line in built[1].splitlines() if "package-changed" in line]
    assert changed == [
        "skills/.claude/agents/explainer.md:1:1: warning[package-changed]: task.explainer is written into packages/gemini-cli/ without its model 'sonnet': Gemini CLI names models its own way (agentLoader.ts@5411f11:546-547, 610-611) and runs a subagent without one on the session's model; packages/opencode/ without its model 'sonnet': OpenCode names models its own way (a provider/model id: anomalyco/opencode packages/core/src/v1/config/agent.ts@24e0290:7-44) and runs a subagent without one on the session's model"
    ]


def test_the_lock_records_every_package_file_and_check_finds_a_stale_one(
    built: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "project"
    shutil.copytree(built[0], project)
    lock = json.loads((project / "kit/skillc.lock.json").read_text())
    recorded = {entry["path"]: entry["sha256"] for entry in lock["outputs"]}
    files = tree(project / PACKAGES)
    for path, data in files.items():
        assert recorded[f"{PACKAGES}/{path}"] == hashlib.sha256(data).hexdigest()
    # One top-level folder a bundle, the skill's name: SKILL.md first, fixed times.
    with zipfile.ZipFile(project / PACKAGES / "openai-skills/greeter.zip") as archive:
        names = archive.namelist()
        times = {info.date_time for info in archive.infolist()}
    assert names == ["greeter/SKILL.md", "greeter/references/style.md"]
    assert times == {(1980, 1, 1, 0, 0, 0)}
    (project / "skills/greeter/references/style.md").write_text("Cold.\n")
    status, err = run_skillc(capsys, "-C", str(project), "build", "--check")
    assert status != 0
    assert "skills/greeter/references/style.md" in err and "stale-output" in err


def _tasks(project: Path) -> dict[str, dict[str, Any]]:
    """The skills, subagents and commands of a build, as its lock's interfaces
    record them (name, kind, description, input schema), by name."""
    lock = json.loads((project / "kit" / "skillc.lock.json").read_text())
    return {
        entry["tool"]: {k: v for k, v in entry.items() if k != "source"}
        for entry in lock["interfaces"]
        if entry["kind"] != "tool"
    }


SKILLS = ("task.greeter", f"task.{LONG.replace('-', '_')}", f"{PLUGIN}summarize")
# What each package holds of the source, and where skillc finds its plugins.
HELD = {
    "claude-code": (None, '"package"'),  # all but the skill for people alone
    "cursor": (None, '"package"'),
    "codex": (
        SKILLS[::2],
        '"package"',
    ),  # skills, but one name too long once namespaced
    "agent-plugins": (SKILLS, '"package/kit", "package/notes-kit"'),
    "gemini-cli": ((*SKILLS, "task.explainer"), '"package/kit", "package/notes-kit"'),
}


@pytest.mark.parametrize("client", sorted(HELD))
def test_a_written_package_compiles_back_to_the_same_tools(
    client: str,
    built: tuple[Path, str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """skillc reading a written package gives the source's names, kinds,
    descriptions and schemas of what the package holds."""
    source = _tasks(built[0])
    del source["task.deploy"]  # a person's alone: in no package
    held, sources = HELD[client]
    if held is not None:
        source = {name: source[name] for name in held}
    again = tmp_path / "again"
    shutil.copytree(built[0] / PACKAGES / client, again / "package")
    (again / "pyproject.toml").write_text(
        f'[tool.skillc]\nsources = [{sources}]\nout = "kit"\n'
    )
    status, err = run_skillc(capsys, "-C", str(again), "build")
    assert status == 0, err

    # The build's own in the plugin named after the package, as its clients name
    # them (kit:greeter); a source plugin's in a plugin of its name.
    def placed(name: str) -> str:
        return name if PLUGIN in name else name.replace("task.", "task.kit.", 1)

    back = _tasks(again)
    assert sorted(back) == sorted(map(placed, source))
    for name, entry in source.items():
        assert back[placed(name)] | {"tool": name} == entry


def _lint(command: list[str], folder: Path) -> dict[str, Any]:
    done = subprocess.run(
        [*command, str(folder), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_skillsaw_finds_no_error_in_any_package(
    built: tuple[Path, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """In this process: its import is most of a run's time (3 s a run as a
    command, 5 s for the six here)."""
    skillsaw = pytest.importorskip("skillsaw.cli")  # the tests' tool (noxfile)
    for client in LINTED:
        folder = str(built[0] / PACKAGES / client)
        monkeypatch.setattr(
            sys, "argv", ["skillsaw", "lint", folder, "--format", "json"]
        )
        capsys.readouterr()
        with contextlib.suppress(SystemExit):  # exit status 1 on errors: read below
            skillsaw.main()
        found = json.loads(capsys.readouterr().out)
        errors = [v for v in found["violations"] if v["severity"] == "error"]
        assert found["summary"]["errors"] == 0 and not errors, (client, errors)


def test_agnix_finds_no_error_in_any_package(built: tuple[Path, str]) -> None:
    agnix = shutil.which("agnix", path=os.path.dirname(sys.executable))
    if agnix is None:
        pytest.skip("agnix (PyPI agnix==0.59.3, the tests' tool) is not installed")
    for client in LINTED:
        found = _lint([agnix], built[0] / PACKAGES / client)
        errors = [d for d in found["diagnostics"] if d.get("level") == "error"]
        assert found["summary"]["errors"] == 0 and not errors, (client, errors)


@pytest.mark.parametrize(
    ("client", "config", "root"),
    [
        ("claude-code", "kit/.mcp.json", "${CLAUDE_PLUGIN_ROOT}"),
        ("agent-plugins", "kit/mcp.json", "${PLUGIN_ROOT}"),
        ("gemini-cli", "kit/gemini-extension.json", "${extensionPath}"),
    ],
)
def test_the_declared_mcp_server_serves_the_manifest_tools(
    client: str, config: str, root: str, built: tuple[Path, str]
) -> None:
    """The server a package declares, started as its client starts it (the
    placeholder for the plugin's folder expanded), called through the official MCP
    client: the manifest tool answers."""
    if not os.environ.get("CI"):  # CI installs it (noxfile.PROVIDER_SDKS)
        pytest.importorskip("mcp")
    import anyio
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    declared = built[0] / PACKAGES / client / config
    servers = json.loads(declared.read_text())["mcpServers"]
    ((name, entry),) = servers.items()
    assert name == "kit" and entry["args"][:3] == ["-m", "kit", "mcp"]
    folder = str(declared.parent)
    env = {
        key: value.replace(root, folder) for key, value in entry.get("env", {}).items()
    }
    # "python" as the client finds it: this interpreter's, first on the PATH.
    path = os.pathsep.join([os.path.dirname(sys.executable), os.environ["PATH"]])
    command = shutil.which(entry["command"], path=path)
    assert command is not None
    server = StdioServerParameters(
        command=command,
        args=entry["args"],
        env={"PATH": path, "PYTHONDONTWRITEBYTECODE": "1", **env},
        cwd=str(built[0].parent),  # not the project: the entry alone finds the package
    )

    async def session() -> None:
        with anyio.fail_after(60):
            async with Client(server) as client:
                tools = {t.name for t in (await client.list_tools()).tools}
                assert "units.length.convert" in tools
                result = await client.call_tool(
                    "units.length.convert", {"value": 1, "from": "km", "to": ["m"]}
                )
                assert result.is_error is False, result.content
                assert result.structured_content == {"m": 1000}

    anyio.run(session)


def test_a_subagent_linked_from_elsewhere_is_left_out_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A package holds a file read inside its own folder, as the build hashed it:
    a link to another folder of the project is left out of every package, said."""
    agents = tmp_path / "skills" / ".claude" / "agents"
    agents.mkdir(parents=True)
    (tmp_path / "shared.md").write_text(
        "---\nname: linked\ndescription: Shared from elsewhere. Use anywhere.\n---\n\n"
        "Do it.\n"
    )
    (agents / "linked.md").symlink_to(tmp_path / "shared.md")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["skills"]\nharness-packages = ["claude-code"]\n'
    )
    status, err = run_skillc(capsys, "-C", str(tmp_path), "build")
    assert status == 0, err
    assert (
        "skills/.claude/agents/linked.md:1:1: warning[package-left-out]: task.linked is "
        "left out of every package in packages/ (its file is not read into a package: "
        "skills/.claude/agents/linked.md now leads to shared.md, out of its folder)"
    ) in err.splitlines()
    assert not (tmp_path / "generated/packages/claude-code/generated/agents").exists()
