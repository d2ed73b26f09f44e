"""Each item in its client's own format (``harness-packages``): Claude Code's commands
as Gemini CLI's TOML commands and OpenCode's markdown commands, its subagents as
OpenCode's, and Codex's ``agents/openai.yaml`` within the skill-creator's window.
Read back by each client's rules (skillc compiles neither TOML commands nor
OpenCode's agents): the same names and descriptions as the source, Claude Code's
syntax in the client's, and what cannot be expressed left out, said."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import built_fixture, run_skillc
from skillc.emitters.packages import codex, gemini_cli, opencode
from skillc.emitters.packages.common import LeftOut, Member
from skillc.ir import Position

PACKAGES = "kit/packages"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tests/fixtures/packages built once: its packages folder."""
    project = tmp_path_factory.mktemp("formats") / "project"
    built_fixture("packages", project)
    lock = json.loads((project / "kit/skillc.lock.json").read_text())
    _SOURCE.update({e["tool"]: e["description"] for e in lock["interfaces"]})
    return project / PACKAGES


_SOURCE: dict[str, str] = {}  # each task's description in the source, by tool


def _task(name: str, namespace: str) -> str:
    """The source's tool of a command as the client names it (kit:changelog,
    notes-kit/action-items; the build's own plugin is named kit in Gemini CLI)."""
    plugin, _, stem = name.rpartition(namespace)
    space = "" if plugin in ("", "kit") else plugin.replace("-", "_") + "."
    return f"task.{space}{stem.replace('-', '_')}"


def _frontmatter(path: Path) -> tuple[dict[str, Any], str]:
    _, head, body = path.read_text().split("---\n", 2)
    return yaml.safe_load(head), body


def test_gemini_cli_commands_are_the_toml_files_it_loads(built: Path) -> None:
    """Named by their path below commands/ (folders joined by ':'), each a TOML
    table of prompt and description, Claude Code's syntax in Gemini CLI's."""
    loaded = {}
    for extension in ("kit", "notes-kit"):
        folder = built / "gemini-cli" / extension / "commands"
        for path in sorted(folder.rglob("*.toml")):
            name = ":".join(path.relative_to(folder).with_suffix("").parts)
            loaded[name] = tomllib.loads(path.read_text())
    assert sorted(loaded) == [
        "kit:changelog",
        "kit:commit-message",
        "notes-kit:action-items",
    ]
    for name, command in loaded.items():
        assert set(command) == {"description", "prompt"}
        assert command["description"] == _SOURCE[_task(name, ":")]
    assert loaded["kit:changelog"]["prompt"] == (
        'Add "{{args}}" under the Unreleased heading of CHANGELOG.md.\n'
    )
    assert loaded["kit:commit-message"]["prompt"] == (
        "Write a commit message for ticket {{args}} from the staged changes:\n\n"
        "!{git diff --staged --stat}\n"
    )


def test_opencode_holds_subagents_and_commands_in_its_format(built: Path) -> None:
    """Each named by its file, with the source's description; a subagent's tools
    list as a permission that denies all but those tools, its colour left out."""
    root = built / "opencode/.opencode"
    agents = {p.stem: _frontmatter(p) for p in (root / "agents").glob("*.md")}
    assert sorted(agents) == ["explainer", "reviewer", "scout"]
    for name, (head, body) in agents.items():
        assert head["description"] == _SOURCE[f"task.{name}"]
        assert head["mode"] == "subagent" and body.strip()
    assert "permission" not in agents["explainer"][0]
    assert list(agents["scout"][0]["permission"].items()) == [
        ("*", "deny"),
        ("read", "allow"),
        ("grep", "allow"),
    ]
    assert set(agents["reviewer"][0]) == {"description", "mode"}
    commands = {
        path.relative_to(root / "commands")
        .with_suffix("")
        .as_posix(): _frontmatter(path)
        for path in (root / "commands").rglob("*.md")
    }
    assert sorted(commands) == [
        "changelog",
        "commit-message",
        "notes-kit/action-items",
    ]
    for name, (head, body) in commands.items():
        assert head == {"description": _SOURCE[_task(name, "/")]}
    assert "!`git diff --staged --stat`" in commands["commit-message"][1]
    server = json.loads((built / "opencode/opencode.json").read_text())["mcp"]["kit"]
    assert server == {
        "type": "local",
        "command": ["python", "-m", "kit", "mcp"],
        "enabled": True,
    }


def test_opencode_skills_compile_back_to_the_same_names_and_descriptions(
    built: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """skillc reads .opencode/skills as OpenCode does: every skill the package
    holds, with the source's description (its subagents and commands, OpenCode's
    own format, skillc does not compile: the test above reads them)."""
    shutil.copytree(built / "opencode", tmp_path / "package")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["package"]\nout = "again"\n'
    )
    status, err = run_skillc(capsys, "-C", str(tmp_path), "build")
    assert status == 0, err
    lock = json.loads((tmp_path / "again/skillc.lock.json").read_text())
    back = {e["tool"]: e["description"] for e in lock["interfaces"]}
    names = (
        "greeter",
        "release_notes_writer_for_every_package_of_the_monorepo_at_once",
    )
    expected = {f"task.{name}": _SOURCE[f"task.{name}"] for name in names}
    expected["task.summarize"] = _SOURCE["task.notes_kit.summarize"]
    assert back == expected


def _command(text: str, name: str = "cmd", **frontmatter: Any) -> Member:
    data = b"---\ndescription: d\n---\n\n" + text.encode()
    where = Position("c.md", 1, 1)
    return Member(
        "command", name, "d", "task.cmd", where, frontmatter, (("c.md", data),)
    )


@pytest.mark.parametrize(
    ("text", "frontmatter", "name", "why"),
    [
        ("Rename $0 to $1.", {}, "cmd", "positional arguments ($0)"),
        ("Show $ARGUMENTS[1].", {}, "cmd", "positional arguments ($ARGUMENTS[1])"),
        (
            "Do it.",
            {"context": "fork", "agent": "Explore"},
            "cmd",
            "its agent, context",
        ),
        ("Do it.", {"model": "opus"}, "cmd", "no equivalent of its model"),
        (
            "Run ${CLAUDE_PLUGIN_ROOT}/x.",
            {},
            "cmd",
            "no value for ${CLAUDE_PLUGIN_ROOT}",
        ),
        ("```!\ngit status\n```\n", {}, "cmd", "no ```! block"),
        ("Log: !`git log $ARGUMENTS`", {}, "cmd", "one quoted word"),
        ("Parse: !`jq '{a'`", {}, "cmd", "unbalanced braces"),
        ("Use {{args}} here.", {}, "cmd", "Gemini CLI's own {{args}}"),
        ("Do it.", {}, "a b", "would name it 'a_b'"),
        ("Do it.", {"user-invocable": False}, "cmd", "its user-invocable"),
    ],
)
def test_a_command_gemini_cli_cannot_express_is_refused_with_why(
    text: str, frontmatter: dict[str, Any], name: str, why: str
) -> None:
    assert why in gemini_cli.prompt(_command(text, name, **frontmatter))[1]


def test_gemini_cli_keeps_what_it_need_not_translate() -> None:
    """Pre-approved tools, a hint, a key Claude Code ignores, an @mention, a path
    in code, inherit."""
    member = _command(
        "Mail @team about `@src/a.py` and @src/b.py.\n",
        **{"allowed-tools": "Read", "argument-hint": "<x>", "model": "inherit"},
        tags=["mail"],
    )
    assert gemini_cli.prompt(member) == (
        "Mail @team about `@src/a.py` and @{src/b.py}.\n",
        "",
    )


@pytest.mark.parametrize(
    "text",
    [
        "Cost: 240 hours at $150/hour, $1,500 a month, $5.0M raised.\n",
        "Run it:\n\n```bash\nVERSION=$1\n```\n",
        "Print `awk '{print $1}'` for $ARGUMENTS.\n",
    ],
)
def test_a_sum_or_a_shell_s_dollar_is_no_positional_argument(text: str) -> None:
    """Written as they are (Gemini CLI's {{args}} apart): not left out."""
    prompt, why = gemini_cli.prompt(_command(text))
    assert why == "" and prompt == text.replace("$ARGUMENTS", "{{args}}")
    assert opencode._refusal(_command(text)) == ""


@pytest.mark.parametrize("text", ["Say '''hi'''.\n", "Tab\tand bell \x07.\n", "é\n"])
def test_a_prompt_toml_cannot_hold_literally_is_escaped(text: str) -> None:
    written = gemini_cli._toml('say "hi" \\ now', text)
    assert tomllib.loads(written.decode()) == {
        "description": 'say "hi" \\ now',
        "prompt": text,
    }


@pytest.mark.parametrize(
    ("tools", "why"),
    [
        ("Read, Bash(git:*)", "no tool for Bash(git:*)"),
        ("Read, TeamCreate", "no tool for TeamCreate"),
        ([], "its tools list is empty"),
        (7, "not a list of tool names"),
    ],
)
def test_opencode_leaves_out_a_subagent_whose_tools_it_has_not(
    tools: object, why: str
) -> None:
    member = Member(
        "agent", "a", "d", "task.a", Position("a.md", 1, 1), {"tools": tools}, ()
    )
    assert why in opencode._refusal(member)


@pytest.mark.parametrize("model", ["opus", "inherit", None])
def test_gemini_cli_writes_a_subagent_without_a_model_of_claude_code(
    model: str | None,
) -> None:
    """Gemini CLI would run it on a Gemini model named "opus": it is written without
    it, and runs on the session's model, with a warning; "inherit" is kept."""
    head = {"name": "a", "description": "d"} | ({"model": model} if model else {})
    text = "---\n" + yaml.safe_dump(head, sort_keys=False) + "---\n\nDo it.\n"
    member = Member(
        "agent",
        "a",
        "d",
        "task.a",
        Position("a.md", 1, 1),
        head,
        (("a.md", text.encode()),),
    )
    left = LeftOut()
    written = gemini_cli._agent(member, left)
    assert gemini_cli._refusal(member) == ""
    if model == "opus":
        assert yaml.safe_load(written.decode().split("---\n")[1]) == {
            "name": "a",
            "description": "d",
        }
        assert written.decode().endswith("---\n\nDo it.\n")
        ((_member, (said,)),) = left.changed.values()
        assert said.startswith("packages/gemini-cli/ without its model 'opus'")
    else:
        assert written == text.encode() and not left.changed


@pytest.mark.parametrize(
    ("head", "why"),
    [
        ({"model": "sonnet"}, ""),  # written without it (package-changed)
        ({"maxTurns": 5, "isolation": "worktree"}, "its isolation, maxTurns"),
        ({"model": "inherit", "color": "green", "tags": ["x"]}, ""),
    ],
)
def test_opencode_leaves_out_a_subagent_run_as_it_cannot(
    head: dict[str, Any], why: str
) -> None:
    member = Member("agent", "a", "d", "task.a", Position("a.md", 1, 1), head, ())
    said = opencode._refusal(member)
    assert why in said and bool(said) == bool(why)


@pytest.mark.parametrize(
    ("description", "short"),
    [
        (
            "Greets someone by name in the house style. Warmly.",
            "Greets someone by name in the house style.",
        ),
        ("Greets. Someone, by name, warmly.", "Greets. Someone, by name, warmly."),
        ("Greets.", None),
        (
            "Greets someone by name in the house style of the team, warmly and "
            "briefly.",
            "Greets someone by name in the house style of the team, warmly…",
        ),
    ],
)
def test_codex_short_description_is_25_to_64_characters_or_none(
    description: str, short: str | None
) -> None:
    member = Member("skill", "greeter", description, "t", Position("s", 1, 1), {}, ())
    written = codex.openai_yaml(member).decode()
    assert '  display_name: "Greeter"' in written.splitlines()
    interface = yaml.safe_load(written)["interface"]
    assert interface.get("short_description") == short
    if short is not None:
        assert 25 <= len(short) <= 64


def test_a_source_plugins_version_is_its_packages_and_none_is_made_up(
    built: Path,
) -> None:
    """notes-kit's plugin.json says 1.2.0; the build's own plugin has none, and
    Gemini CLI, which requires one, gets 0.1.0."""
    manifests = {
        "claude-code": "{}/.claude-plugin/plugin.json",
        "codex": "{}/.codex-plugin/plugin.json",
        "cursor": "{}/.cursor-plugin/plugin.json",
        "agent-plugins": "{}/plugin.json",
        "gemini-cli": "{}/gemini-extension.json",
    }
    for client, manifest in manifests.items():
        for plugin, version in (("notes-kit", "1.2.0"), ("kit", None)):
            data = json.loads((built / client / manifest.format(plugin)).read_text())
            expected = (
                "0.1.0" if client == "gemini-cli" and version is None else version
            )
            assert data.get("version") == expected, (client, plugin)


def test_opencode_names_a_subagent_as_claude_code_does() -> None:
    """By its frontmatter name (the file's need not match), in its plugin's
    folder; a command by its file."""
    where = Position("a.md", 1, 1)
    head = {"name": "notes-architect", "description": "d"}
    agent = Member("agent", "architect", "d", "t", where, head, (), "notes-kit")
    command = Member("command", "plan", "d", "t", where, head, (), "notes-kit")
    assert opencode._placed(agent).name == "notes-kit/notes-architect"
    assert opencode._placed(command).name == "notes-kit/plan"
    own = Member("agent", "architect", "d", "t", where, {"name": "Bad Name"}, ())
    assert opencode._placed(own).name == "architect"
