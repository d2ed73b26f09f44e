"""CLAUDE.md and AGENTS.md tell the truth in a repository that is not this one: output
nested inside a package (``src/app/agent_tools``), no noxfile, skills in ``.claude/``.
Every command the docs give is run, from the repository root, and must succeed."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import write_skill

TOOLS = textwrap.dedent("""\
    namespace: notes
    description: Notes kept in the repository.
    tools:
      - name: echo
        description: Print a text back, to check that tools run.
        input_schema:
          type: object
          properties: {text: {type: string, description: The text.}}
          required: [text]
        executor: {type: cli, command: "python3 -c 'import sys; print(sys.argv[1])'", positional: [text]}
    """)
# What an agent would fill in for each placeholder.
PLACEHOLDERS = {
    "<what you want to do>": "print a text back",
    "<arguments>": "release 1.2",
    "'<text>'": "hello",  # a placeholder the docs quote, so the shell takes it as is
    "<text>": "hello",
}


@pytest.fixture
def nested_repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / "src" / "app").mkdir(parents=True)
    (repo / "src" / "app" / "__init__.py").write_text("")
    (repo / "pyproject.toml").write_text(
        '[project]\nname = "app"\nversion = "0"\n\n'
        '[tool.skillc]\nsources = [".claude", "skills"]\nout = "src/app/agent_tools"\n'
    )
    write_skill(
        repo / "skills",
        "release-notes",
        "---\nname: release-notes\ndescription: Draft release notes for a version.\n---\n"
        "Write the notes for $ARGUMENTS.\n",
    )
    write_skill(
        repo / ".claude" / "skills",
        "native-only",
        "---\nname: native-only\ndescription: A skill Claude Code loads itself.\n---\nHi.\n",
    )
    (repo / "skills" / "notes.tools.yaml").write_text(TOOLS)
    return repo


def _env() -> dict[str, str]:
    """A shell whose PATH has this Python (and skillc beside it), nothing imported."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    bin_dir = str(Path(sys.executable).parent)
    env["PATH"] = bin_dir + os.pathsep + env.get("PATH", "")
    return env


def _commands(doc: str) -> list[str]:
    """Every command in the doc: the code spans that start like one."""
    spans = re.findall(r"`([^`]+)`", doc)
    return [s for s in spans if re.match(r"(PYTHONPATH=\S+ )?python |skillc ", s)]


def test_every_command_in_the_agent_docs_works(nested_repo: Path) -> None:
    build = subprocess.run(
        ["skillc", "build"],
        cwd=nested_repo,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert build.returncode == 0, build.stderr
    out = nested_repo / "src" / "app" / "agent_tools"
    claude = (out / "CLAUDE.md").read_text()
    agents = (out / "AGENTS.md").read_text()
    # AGENTS.md ends with the agent frameworks' examples (tests/test_adapters_docs.py).
    assert "agent framework" not in claude and "In an agent framework" in agents
    for doc in (claude, agents):
        assert len(doc.split("\nIn an agent framework")[0].strip().splitlines()) <= 14
        assert "nox" not in doc and "python -m agent_tools" not in doc
        bullets = [line for line in doc.splitlines() if line.startswith("- ")]
        assert "find" in bullets[0]  # the first thing an agent is told to use
    # Claude Code has the .claude/ skill natively; Codex does not read .claude/.
    assert "native_only" not in claude and "not listed here" in claude
    ran = set()
    for doc in (claude, agents):
        for command in _commands(doc):
            for placeholder, value in PLACEHOLDERS.items():
                command = command.replace(placeholder, repr(value))
            assert "<" not in command, command
            result = subprocess.run(
                ["bash", "-c", command],
                cwd=nested_repo,
                env=_env(),
                capture_output=True,
                text=True,
                timeout=300,
            )
            assert result.returncode == 0, (command, result.stderr)
            ran.add(command)
    assert any("PYTHONPATH=src python -m app.agent_tools find" in c for c in ran)
    assert any("call notes.echo --text 'hello'" in c for c in ran)
    assert any(c.startswith("skillc build") for c in ran)
    assert len(ran) >= 6, ran


def test_the_regeneration_command_comes_from_config(nested_repo: Path) -> None:
    with (nested_repo / "pyproject.toml").open("a") as config:
        config.write('regenerate = "make tools"\n')
    build = subprocess.run(
        ["skillc", "build"], cwd=nested_repo, env=_env(), capture_output=True, text=True
    )
    assert build.returncode == 0, build.stderr
    doc = (nested_repo / "src/app/agent_tools/CLAUDE.md").read_text()
    assert doc.rstrip().endswith("run `make tools`.")
