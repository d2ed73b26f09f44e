"""CLAUDE.md and AGENTS.md tell the truth: every command they give runs as written, from
the repository root, in a fresh process, and succeeds. In a repository that is not this
one (output nested inside a package, ``src/app/agent_tools``, no noxfile, skills in
``.claude/``), in this repository's own, and (tests/test_real_repos.py) in each corpus
of ../shared/corpus as a user meets it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import REPO, run_skillc, write_skill

TOOLS = textwrap.dedent("""\
    namespace: notes
    description: Notes kept in the repository.
    tools:
      - name: echo
        description: Print a text back, to check that tools run.
        input_schema:
          type: object
          properties: {text: {type: string, description: The text., examples: [hello]}}
          required: [text]
        executor: {type: cli, command: "python3 -c 'import sys; print(sys.argv[1])'", positional: [text]}
    """)


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


def run_the_docs(out: Path, root: Path) -> set[str]:
    """Run every command of ``out``'s CLAUDE.md and AGENTS.md as written, each once,
    from ``root`` in a fresh shell; each must exit 0. Returns the commands."""
    ran = set()
    for doc in ("CLAUDE.md", "AGENTS.md"):
        for command in _commands((out / doc).read_text(encoding="utf-8")):
            if command in ran:
                continue
            result = subprocess.run(
                ["bash", "-c", command],
                cwd=root,
                env=_env(),
                capture_output=True,
                text=True,
                timeout=300,
            )
            assert result.returncode == 0, (doc, command, result.stderr)
            ran.add(command)
    return ran


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
    ran = run_the_docs(out, nested_repo)
    assert any("PYTHONPATH=src python -m app.agent_tools find" in c for c in ran)
    assert any(c.endswith("call notes.echo --text hello") for c in ran)
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


# Tools no call example may show: one that needs the network, a dangerous one, one whose
# required value has no example (a placeholder), and a skill's script, whose arguments
# nobody declared.
UNSHOWN = textwrap.dedent("""\
    namespace: ops
    tools:
      - name: fetch
        description: Fetch the status page.
        input_schema: {type: object}
        executor: {type: http, url: "https://example.com/status"}
      - name: wipe
        description: Wipe the cache.
        dangerous: true
        input_schema: {type: object}
        executor: {type: cli, command: "true"}
      - name: echo
        description: Print a text back.
        input_schema: {type: object, properties: {text: {type: string}}, required: [text]}
        executor: {type: cli, command: echo, positional: [text]}
    """)
SHOWN = """\
  - name: shout
    description: Print a text back, loudly.
    input_schema:
      type: object
      properties: {text: {type: string, examples: [hi]}}
      required: [text]
    executor: {type: cli, command: echo, positional: [text]}
"""


def test_the_call_shown_runs_as_written_or_none_is(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    skills = skills_project / "skills"
    (skills / "ops.tools.yaml").write_text(UNSHOWN)
    write_skill(skills, "tidy", "---\nname: tidy\ndescription: Tidy up.\n---\nTidy.\n")
    (skills / "tidy" / "scripts").mkdir()
    (skills / "tidy" / "scripts" / "tidy.py").write_text(
        'import sys\n\nif __name__ == "__main__":\n    sys.exit(len(sys.argv) < 2)\n'
    )
    out = skills_project / "generated"
    assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    for doc in ("CLAUDE.md", "AGENTS.md"):
        assert "Call a tool" not in (out / doc).read_text(), doc
    with (skills / "ops.tools.yaml").open("a") as manifest:
        manifest.write(SHOWN)
    assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    for doc in ("CLAUDE.md", "AGENTS.md"):
        assert (
            "- Call a tool: `python -m generated call ops.shout --text hi` prints"
            in (out / doc).read_text()
        ), doc
    assert "python -m generated call ops.shout --text hi" in run_the_docs(
        out, skills_project
    )


def test_this_repositorys_agent_docs_run_as_written(tmp_path: Path) -> None:
    """skills/ built as this repository builds it, in a fresh process."""
    project = tmp_path / "repo"
    shutil.copytree(REPO / "skills", project / "skills")
    shutil.copy(REPO / "pyproject.toml", project)
    build = subprocess.run(
        [sys.executable, "-m", "skillc", "build"],
        cwd=project,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert build.returncode == 0, build.stderr
    ran = run_the_docs(project / "generated", project)
    assert any("call units.length.convert --value 1 --from mi" in c for c in ran)
    assert "python -m generated call task.code_reviewer" in ran
