"""An agent that follows CLAUDE.md and AGENTS.md literally, and a host that calls the
package's tools (issue 31): the subagent's task reaches its output, task tools check
their arguments, a skill's scripts run where the docs say and its helper modules are
not tools, and every command the docs give runs as written."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import run_python
from skillc import __version__, cli

AGENT = """\
---
name: api-designer
description: Designs HTTP APIs, resource by resource.
tools: Read
---
You design HTTP APIs. Name every resource and its methods.
"""
SKILL = """\
---
description: Summarise a data file for the team.
tags: [report]
---
Summarise the file the user names.
"""
MANIFEST = """\
tools:
  - name: aaa_first
    description: Comes first by name; its option has no example.
    input_schema: {type: object, properties: {where: {type: string}}, required: [where]}
    executor: {type: script, entry: scripts/greet.py, args_template: ["{where}"]}
  - name: greet
    description: Greet someone by name.
    input_schema:
      type: object
      properties: {who: {type: string, examples: [Ada Lovelace]}}
      required: [who]
    executor: {type: script, entry: scripts/greet.py, args_template: ["{who}"]}
"""
REPORT = '''\
"""Count the lines of a data file."""
import os
import sys


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as handle:
        print(os.getcwd(), sum(1 for _ in handle))


if __name__ == "__main__":
    main()
'''
GREET = 'import sys\nprint("hello", sys.argv[1])\n'
UTILS = '''\
"""Shared helpers of the report scripts."""
import json

LIMIT = 10


def load(path):
    return json.loads(open(path).read())
'''
SETUP = "#!/bin/bash\n\n# Exit on error\nset -e\necho ready\n"
LISTING = "---\ndescription: List the open tickets\n---\nList the tickets.\n"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("agent") / "repo"
    files = {
        ".claude/agents/api-designer.md": AGENT,
        ".claude/commands/list.md": LISTING,
        "skills/data-report/SKILL.md": SKILL,
        "skills/data-report/tool-manifest.yaml": MANIFEST,
        "skills/data-report/scripts/report.py": REPORT,
        "skills/data-report/scripts/greet.py": GREET,
        "skills/data-report/scripts/utils.py": UTILS,
        "skills/data-report/scripts/setup.sh": SETUP,
        "data/in.txt": "a\nb\nc\n",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    with contextlib.redirect_stderr(io.StringIO()) as err:
        assert cli.main(["-C", str(root), "build"]) == 0, err.getvalue()
    (root / "build.log").write_text(err.getvalue(), encoding="utf-8")
    return root


def shell(project: Path, command: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run(
        command,
        shell=True,
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_subagents_task_reaches_the_output(project: Path) -> None:
    result = shell(
        project,
        'python -m generated call task.api_designer "design a REST API for todo items"',
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.rstrip().endswith(
        "Name every resource and its methods.\n\nTASK: design a REST API for todo items"
    )
    answer = run_python(
        "import json, generated\n"
        "call = {'id': '1', 'name': 'task__api-designer', 'input': {'prompt': 'a todo API'}}\n"
        "print(json.dumps(generated.dispatch('anthropic', call)))",
        project,
    )
    assert json.loads(answer.stdout)["content"].endswith("TASK: a todo API")


def dispatched(project: Path, name: str, arguments: Any) -> dict[str, Any]:
    code = (
        "import json, sys, generated\n"
        "call = {'name': sys.argv[1], 'arguments': json.loads(sys.argv[2])}\n"
        "print(json.dumps(generated.dispatch('mcp', call)))"
    )
    result = run_python(code, project, name, json.dumps(arguments))
    assert result.returncode == 0, result.stderr
    answer: dict[str, Any] = json.loads(result.stdout)
    return answer


@pytest.mark.parametrize(
    ("name", "arguments", "said"),
    [
        (
            "task.data-report",
            {"arguments": {"x": 1}},
            "invalid-arguments: arguments: expected string, got object",
        ),
        (
            "task.data-report",
            {"bogus": 1},
            "invalid-arguments: bogus: unknown argument",
        ),
        ("task.api-designer", {}, "invalid-arguments: prompt: "),
        ("task.api-designer", {"prompt": ["a"]}, "invalid-arguments: prompt: "),
    ],
)
def test_task_tools_check_their_arguments_as_callable_tools_do(
    project: Path, name: str, arguments: Any, said: str
) -> None:
    answer = dispatched(project, name, arguments)
    assert answer["isError"] is True
    assert answer["content"][0]["text"].startswith(said)
    assert "TypeError" not in answer["content"][0]["text"]


def test_a_valid_task_call_still_runs(project: Path) -> None:
    answer = dispatched(project, "task.data-report", {"arguments": "sales.csv"})
    assert answer["isError"] is False
    assert "ARGUMENTS: sales.csv" in answer["content"][0]["text"]


def test_find_tool_gives_provider_names_of_hyphenated_tools(project: Path) -> None:
    result = run_python(
        "import json, generated\n"
        "found = {m.name: m.providers for m in generated.find_tool('design an api', k=20)}\n"
        "print(json.dumps(found['task.api_designer']))",
        project,
    )
    assert json.loads(result.stdout) == {
        "anthropic": "task__api-designer",
        "openai": "task__api-designer",
        "bedrock": "task__api-designer",
        "gemini": "task.api-designer",
        "mcp": "task.api-designer",
    }, result.stderr


def test_a_command_named_list_is_said_and_filtering_stays_at_hand(
    project: Path,
) -> None:
    log = (project / "build.log").read_text()
    assert (
        ".claude/commands/list.md:1:1: warning[reserved-name]: task.list takes the "
        "place of the task namespace's list(); filter its tools with the package's "
        "tools(namespace='task', tag=...)" in log
    )
    result = run_python(
        "import generated\n"
        "print(generated.task.list.spec.summary)\n"
        "print([e.name for e in generated.tools(namespace='task', tag='report')])",
        project,
    )
    assert result.stdout.splitlines() == [
        "List the open tickets",
        "['task.data_report']",
    ], result.stderr


def test_a_skills_scripts_run_in_the_repository_root(project: Path) -> None:
    """As CLAUDE.md says, and as Claude Code runs them: a path relative to the root."""
    result = shell(
        project, "python -m generated call data_report.report --args data/in.txt"
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.split() == [str(project.resolve()), "3"]
    claude = (project / "generated" / "CLAUDE.md").read_text()
    assert "A skill's scripts run in the repository root" in claude


def test_helper_modules_are_not_tools_and_comments_on_code_describe_nothing(
    project: Path,
) -> None:
    report = json.loads((project / "generated" / "report.json").read_text())
    tools = {t["name"]: t for t in report["tools"]}
    assert "data_report.utils" not in tools
    assert {"data_report.report", "data_report.setup"} <= set(tools)
    listed = run_python("import generated; generated.data_report.help()", project)
    assert "Exit on error" not in listed.stdout
    assert "setup: Run the scripts/setup.sh script of the data-report skill." in (
        listed.stdout
    )


@pytest.mark.parametrize("doc", ["CLAUDE.md", "AGENTS.md"])
def test_every_command_the_agent_docs_give_runs_as_written(
    project: Path, doc: str
) -> None:
    text = (project / "generated" / doc).read_text()
    commands = re.findall(r"`(python -m generated [^`]+)`", text)
    assert len(commands) >= 5, text
    assert "python -m generated call data_report.greet --who 'Ada Lovelace'" in commands
    for command in commands:
        result = shell(project, command)
        assert result.returncode == 0, (command, result.stdout, result.stderr)
    greeted = shell(
        project, "python -m generated call data_report.greet --who 'Ada Lovelace'"
    )
    assert greeted.stdout.strip() == "hello Ada Lovelace"


def test_the_mcp_server_gives_its_version_and_a_subagents_task(project: Path) -> None:
    if not os.environ.get("CI"):
        pytest.importorskip("mcp")
    import anyio
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    env = {**os.environ, "PYTHONPATH": str(project), "PYTHONDONTWRITEBYTECODE": "1"}
    server = StdioServerParameters(
        command=sys.executable, args=["-m", "generated", "mcp"], cwd=project, env=env
    )
    seen: dict[str, Any] = {}

    async def run() -> None:
        with anyio.fail_after(60):
            async with Client(server, mode="legacy") as client:
                seen["version"] = client.server_info.version
                prompt = await client.get_prompt(
                    "task.api-designer", {"prompt": "a todo API"}
                )
                seen["text"] = prompt.messages[0].content.text

    anyio.run(run)
    assert seen["version"] == __version__
    assert seen["text"].endswith("methods.\n\nTASK: a todo API")


def test_a_package_copied_elsewhere_finds_no_lock_and_says_unknown(
    project: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "generated"
    shutil.copytree(project / "generated", copy)
    (copy / "skillc.lock.json").unlink()
    result = run_python("import generated._mcp as m; print(m.version())", tmp_path)
    assert result.stdout.strip() == "unknown", result.stderr
