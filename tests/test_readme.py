"""Every fenced block of README.md is run or checked as written, against this
repository's skills/ built in a fresh copy of the project (with the README's
``[tool.skillc.profiles.*]`` block, which ``mcp --profile desk`` needs):

- python: run in a fresh process; an expression statement whose call returns an empty
  list fails (an example that finds nothing), and one followed by a comment that reads
  like a Python value (``# [Match(...), ...]``, ``...`` for any text) must print so;
- sh: each command run in the project, exit 0 (a command of the package must print
  something; an MCP server over stdio must answer);
- toml, yaml, json: parsed and given to what reads them (skillc, ruff and isort,
  pre-commit, Claude Code's ``.mcp.json`` server command, a GitHub workflow's steps).

What cannot run as written (a placeholder URL, the network, a server on a fixed port,
nginx) is listed in ``NOT_RUN`` with the reason. A block no check knows fails: a new
example needs one.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from conftest import REPO, SKILLC_PATH
from test_agent_docs import _env
from test_cases import matches

README = REPO / "README.md"
# Commands and values of the README that are not run, and why.
NOT_RUN = {
    "pip install nox && nox -s generate": "installs from the network; CI runs the session",
    "pip install nox && nox -s tests": "the test suite itself; CI runs it",
    'pip install "skillc @ git+<url>"': "<url> stands for skillc's git URL",
    "python -m generated mcp --http --port 8000": "serves HTTP on a fixed port until "
    "stopped (test_mcp_server.py serves it on a free port)",
    "python -m generated mcp --http --workers 4": "the same",
    "python -m generated mcp --http --stateless": "the same",
    "nginx": "a reverse proxy's configuration: no nginx runs in the tests",
    "encoders": "downloads hundreds of MB of encoders and their runtimes "
    "(test_encoder_fetch.py runs the fetch on small wheels); the options are checked",
    "adapters": "run by test_adapters_docs.py, each framework with its offline model",
    "pre-commit": "<skillc's git URL> and <tag or commit> stand for this repository's",
    "github check": "${{ github.base_ref }} is a GitHub Actions expression and "
    "--against a git remote's branch; the options are checked",
}


@dataclass(frozen=True)
class Block:
    line: int  # of its opening fence
    lang: str
    text: str

    @property
    def first(self) -> str:
        return self.text.splitlines()[0] if self.text else ""


def readme_blocks() -> list[Block]:
    lines = README.read_text(encoding="utf-8").splitlines(keepends=True)
    found, at = [], None
    for number, line in enumerate(lines, 1):
        fence = re.fullmatch(r"```(\S*)\n", line)
        if fence and at is None:
            at, lang, body = number, fence[1], []
        elif line == "```\n" and at is not None:
            found.append(Block(at, lang, "".join(body)))
            at = None
        elif at is not None:
            body.append(line)
    return found


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This repository's skills/, README.md and pyproject.toml (with the README's
    profiles) in a fresh folder, built in a fresh process."""
    project = tmp_path_factory.mktemp("readme") / "repo"
    shutil.copytree(REPO / "skills", project / "skills")
    shutil.copy(README, project)
    profiles = next(b for b in readme_blocks() if "profiles.support" in b.first)
    config = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    (project / "pyproject.toml").write_text(f"{config}\n{profiles.text}")
    done = shell("python -m skillc build", project)
    assert done.returncode == 0, done.stderr
    return project


def shell(
    command: str, cwd: Path, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", command],
        cwd=cwd,
        env={**_env(), "PYTHONDONTWRITEBYTECODE": "1"},
        input=stdin or "",
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def commands(block: Block) -> list[str]:
    """A shell block's commands: its lines but comments (a trailing one the shell
    drops itself)."""
    return [line for line in block.text.splitlines() if line and line[0] != "#"]


# --- python ---------------------------------------------------------------------------

# Runs a block statement by statement: for each expression statement, whether it is
# a call that returned an empty list, and the value the README shows below it or in
# its comment (when one reads like a Python value) beside its repr.
DRIVER = r"""
import ast, json, sys

source, prelude, after, out = sys.argv[1:5]
lines = source.splitlines()
space = {"__name__": "__readme__"}
exec(prelude, space)
VALUE = tuple("[{('\"0123456789-")


def shown(node):
    line = lines[node.end_lineno - 1]
    comment = line.partition("  # ")[2]
    if comment.startswith(VALUE):
        return comment
    below = []
    for text in lines[node.end_lineno:]:
        if not text.startswith("#"):
            break
        below.append(text.lstrip("#").strip())
    text = " ".join(below)
    return text if text.startswith(VALUE) else None


said = []
for node in ast.parse(source).body:
    if isinstance(node, ast.Expr):
        value = eval(compile(ast.Expression(node.value), "<readme>", "eval"), space)
        empty = isinstance(node.value, ast.Call) and value in ([], ())
        said.append({"line": node.lineno, "empty": empty, "shown": shown(node),
                     "repr": repr(value)})
    else:
        exec(compile(ast.Module([node], []), "<readme>", "exec"), space)
exec(after, space)
with open(out, "w") as handle:
    json.dump(said, handle)
"""


def run_block(block: Block, project: Path, prelude: str = "", after: str = "") -> None:
    out = project.parent / f"said-{block.line}.json"
    path = os.pathsep.join([str(project), *SKILLC_PATH])
    done = subprocess.run(
        [sys.executable, "-c", DRIVER, block.text, prelude, after, str(out)],
        cwd=project,
        env={**os.environ, "PYTHONPATH": path, "PYTHONDONTWRITEBYTECODE": "1"},
        stdin=subprocess.DEVNULL,  # input() ends at once, as at a closed prompt
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    for said in json.loads(out.read_text()):
        where = f"README.md:{block.line + said['line']}"
        assert not said["empty"], f"{where}: the call found nothing"
        if said["shown"] is not None:
            assert matches(said["shown"], said["repr"]), (where, said["repr"])


ANTHROPIC_ANSWER = """
import anthropic.types
response = anthropic.types.Message.model_validate({
    "id": "msg_1", "type": "message", "role": "assistant", "model": "claude",
    "content": [{"type": "tool_use", "id": "toolu_1", "name": "file__read",
                 "input": {"path": "README.md"}}],
    "stop_reason": "tool_use", "stop_sequence": None,
    "usage": {"input_tokens": 1, "output_tokens": 1},
})
"""


def dispatch_loop(block: Block, project: Path) -> None:
    """Given what the Messages API answers (the SDK's own objects, made offline)."""
    pytest.importorskip("anthropic", reason="nox -s tests installs the Anthropic SDK")
    after = 'assert results[0]["type"] == "tool_result", results\n'
    after += 'assert not results[0]["is_error"], results\n'
    run_block(block, project, ANTHROPIC_ANSWER, after)


def nox_session(block: Block, project: Path) -> None:
    """The session, with a nox that records what it installs and runs each command."""
    installed: list[str] = []

    class Session:
        posargs: list[str] = []

        def install(self, *what: str) -> None:
            installed.extend(what)

        def run(self, *command: str) -> None:
            done = shell(" ".join(command), project)
            assert done.returncode == 0, (command, done.stderr)

    stub: dict[str, Any] = {
        "nox": type("nox", (), {"session": staticmethod(lambda f: f)})
    }
    exec(block.text, stub)
    stub["generate"](Session())
    assert installed == ["skillc @ git+<url>"], installed  # NOT_RUN: <url>


def adapters(block: Block, project: Path) -> None:
    assert block.first in {
        "# OpenAI Agents SDK",
        "# PydanticAI",
        "# LangChain",
        "# Claude Agent SDK",
    }, NOT_RUN["adapters"]


# --- sh -------------------------------------------------------------------------------

INITIALIZE = (
    '{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion":'
    ' "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}\n'
    '{"jsonrpc": "2.0", "id": 2, "method": "tools/list"}\n'
)


def run_commands(block: Block, project: Path) -> None:
    for command in commands(block):
        if command.split("  #")[0].strip() in NOT_RUN:
            continue
        mcp = " mcp" in command
        done = shell(command, project, INITIALIZE if mcp else None)
        assert done.returncode == 0, (command, done.stdout, done.stderr)
        if mcp:  # a server over stdio: it answers, then ends with its input
            answers = [json.loads(line) for line in done.stdout.splitlines()]
            assert [a["id"] for a in answers if "result" in a] == [1, 2], done.stdout
            assert answers[1]["result"]["tools"]
        elif " generated " in command or command.startswith("skillc find"):
            assert done.stdout.strip(), command


def schema_file(block: Block, project: Path) -> None:
    run_commands(block, project)
    schema = json.loads((project / ".schemas" / "tools.schema.json").read_text())
    assert schema["$id"] == "urn:skillc:schema:tools:v1"


def not_run(reason: str) -> Callable[[Block, Path], None]:
    def check(block: Block, project: Path) -> None:
        assert reason in NOT_RUN

    return check


def options_known(block: Block, project: Path) -> None:
    """A synopsis or a command that cannot run: each --option is one its command takes
    (a line naming no command goes on with the one above)."""
    names: list[str] = []
    for line in block.text.splitlines():
        command = re.search(r"skillc (?:\[-C DIR\] )?([a-z]+)", line)
        if command:
            names = [command[1]]
        elif line.strip().startswith("options of"):
            names = re.findall(r"build|validate|check", line.partition(":")[0])
        elif "skillc.embed.fetch" in line:
            names = ["fetch"]
        for name in names:
            run = {"fetch": "python -m skillc.embed.fetch"}.get(name, f"skillc {name}")
            helped = shell(f"{run} --help", project)
            assert helped.returncode == 0, helped.stderr
            for option in re.findall(r"(?<![\w-])--[a-z][a-z-]*", line):
                assert option in helped.stdout, (line, option)


def encoders(block: Block, project: Path) -> None:
    options_known(block, project)  # NOT_RUN["encoders"]


def hub_download(block: Block, project: Path) -> None:
    """The hub's download command of an encoder: its model id and commit are the ones
    skillc pins (encoders.py), which the build's error gives too."""
    from skillc.embed import encoders as known

    said = re.findall(r"download (\S+) \\?\s*--revision ([0-9a-f]{40})", block.text)
    assert said and all(
        f"{repo}@{commit}" in {e.hub for e in known.ENCODERS.values()}
        for repo, commit in said
    ), said


# --- toml, yaml, json, markdown ---------------------------------------------------------


def configure(block: Block, project: Path) -> None:
    """The key block as a project's [tool.skillc] (its values are examples)."""
    copy = project.parent / "configured"
    shutil.copytree(REPO / "skills", copy / "skills")
    (copy / "pyproject.toml").write_text(block.text)
    done = shell("skillc build", copy)
    assert done.returncode == 0, done.stderr


def profiles(block: Block, project: Path) -> None:
    """The fixture built with it: the profile's own provider files."""
    assert block.text in (project / "pyproject.toml").read_text()
    providers = project / "generated" / "providers"
    assert (providers / "support" / "openai-chat.json").is_file()
    assert (providers / "desk" / "mcp.json").is_file()


def check_table(block: Block, project: Path) -> None:
    """skillc check with it in place of this repository's [tool.skillc.check]."""
    copy = project.parent / "checked"
    shutil.copytree(project, copy, ignore=shutil.ignore_patterns(".skillc-cache"))
    config = (copy / "pyproject.toml").read_text()
    start = config.index("[tool.skillc.check]")
    end = config.index("\n[", start + 1)
    (copy / "pyproject.toml").write_text(config[:start] + block.text + config[end:])
    done = shell("skillc check", copy)
    assert done.returncode == 0, done.stderr


def formatters(block: Block, project: Path) -> None:
    """ruff and isort leave the output folder alone with it, and not without it."""
    tools = ("ruff", "isort")
    for tool in tools:
        pytest.importorskip(tool, reason=f"nox -s tests installs {tool}")
    folder = project.parent / "formatters"
    (folder / "generated").mkdir(parents=True)
    (folder / "generated" / "mod.py").write_text("import sys, os\n")
    runs = {
        "ruff": "python -m ruff check --no-cache .",
        "isort": "python -m isort --check-only .",
    }
    for config in ("", block.text):
        (folder / "pyproject.toml").write_text(config)
        for tool in tools:
            code = shell(runs[tool], folder).returncode
            assert (code == 0) == bool(config), (tool, config)


def ci_steps(block: Block, project: Path) -> None:
    for step in yaml.safe_load(block.text):
        if step["run"] not in NOT_RUN:
            done = shell(step["run"], project)
            assert done.returncode == 0, (step, done.stderr)


def pre_commit(block: Block, project: Path) -> None:
    (entry,) = yaml.safe_load(block.text)
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    assert {h["id"] for h in entry["hooks"]} <= {h["id"] for h in hooks}
    assert entry["repo"].startswith("<"), NOT_RUN["pre-commit"]


def schema_comment(block: Block, project: Path) -> None:
    """A manifest's first lines: the schema file the sh block above writes, as seen
    from a manifest one folder down (skills/), and a namespace that schema accepts."""
    jsonschema = pytest.importorskip("jsonschema")
    path = re.search(r"\$schema=(\S+)", block.first)
    assert path is not None
    written = project / ".schemas" / "tools.schema.json"
    assert (project / "skills" / path[1]).resolve() == written.resolve()
    schema = json.loads(shell("skillc schema tools", project).stdout)
    value = yaml.safe_load(block.text)["namespace"]
    jsonschema.validate(value, schema["properties"]["namespace"])


def units_manifest(block: Block, project: Path) -> None:
    """The README shows this repository's manifest, which the build compiles."""
    assert block.text == (REPO / "skills" / "units.tools.yaml").read_text()


def mcp_json(block: Block, project: Path) -> None:
    """Claude Code's .mcp.json: each server's command, run from the repository root."""
    for server in json.loads(block.text)["mcpServers"].values():
        command = " ".join([server["command"], *server["args"]])
        done = shell(command, project, INITIALIZE)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout.splitlines()[0])["result"]["serverInfo"]


def claude_import(block: Block, project: Path) -> None:
    """An @-import of the committed CLAUDE.md, from the repository root."""
    assert block.text.startswith("@")
    assert (REPO / block.text.strip()[1:]).read_text().startswith("# Tools in ")


def nox_sessions(block: Block, project: Path) -> None:
    """Not run (NOT_RUN); each session it names is one of noxfile.py."""
    tree = ast.parse((REPO / "noxfile.py").read_text())
    sessions = {f.name for f in tree.body if isinstance(f, ast.FunctionDef)}
    for command in commands(block):
        assert command.split("  #")[0].strip() in NOT_RUN
        (name,) = re.findall(r"nox -s (\w+)", command)
        assert name in sessions, name


def github_check(block: Block, project: Path) -> None:
    run, upload = yaml.safe_load(block.text)
    sarif = re.search(r"--sarif (\S+)", run["run"])
    assert sarif is not None and upload["with"]["sarif_file"] == sarif[1]
    options_known(Block(block.line, "", run["run"]), project)  # NOT_RUN["github check"]


# Each block by its language and first line.
CHECKS: dict[tuple[str, str], Callable[[Block, Path], None]] = {
    ("sh", "pip install nox && nox -s generate"): nox_sessions,
    ("toml", "[tool.skillc]"): configure,
    ("python", "@nox.session"): nox_session,
    ("yaml", '- run: pip install "skillc @ git+<url>"'): ci_steps,
    ("yaml", "- repo: <skillc's git URL>"): pre_commit,
    ("toml", "[tool.ruff]"): formatters,
    ("python", "import generated"): run_block,
    ("sh", "python -m generated list"): run_commands,
    ("sh", "python -m generated mcp"): run_commands,
    ("nginx", "location /mcp {"): not_run("nginx"),
    ("json", "{"): mcp_json,
    ("python", "# OpenAI Agents SDK"): adapters,
    ("python", "# PydanticAI"): adapters,
    ("python", "# LangChain"): adapters,
    ("python", "# Claude Agent SDK"): adapters,
    ("sh", "mkdir -p .schemas"): schema_file,
    ("yaml", "# yaml-language-server:"): schema_comment,
    ("yaml", "namespace: units.length"): units_manifest,
    ("sh", "python -m generated call file.grep"): run_commands,
    ("toml", "[tool.skillc.profiles.support]"): profiles,
    ("sh", "python -m generated find"): run_commands,
    ("sh", "pip install 'skillc[torch]'"): encoders,
    ("sh", "pip install 'skillc[export]'"): encoders,
    ("sh", "huggingface-cli download"): hub_download,
    ("markdown", "@generated/CLAUDE.md"): claude_import,
    ("", "skillc [-C DIR] build"): options_known,
    ("toml", "[tool.skillc.check]"): check_table,
    ("yaml", "- run: skillc check --against"): github_check,
}
# Blocks that start alike, told apart by what follows.
SPECIFIC = {
    "import generated\nresults = []": dispatch_loop,
}


def check_of(block: Block) -> Callable[[Block, Path], None]:
    for start, check in SPECIFIC.items():
        if block.text.replace("\n\n", "\n").startswith(start):
            return check
    found = [
        check
        for (lang, first), check in CHECKS.items()
        if lang == block.lang and block.first.startswith(first)
    ]
    assert len(found) == 1, f"README.md:{block.line}: no check knows this block"
    return found[0]


def _params() -> list[Any]:
    params = []
    for block in readme_blocks():
        params.append(pytest.param(block, id=f"line{block.line}"))
    return params


@pytest.mark.parametrize("block", _params())
def test_readme_block(block: Block, built: Path) -> None:
    check_of(block)(block, built)


def test_every_block_has_its_check() -> None:
    """Each check is used: a block the README lost is a check to remove."""
    used = {check_of(block) for block in readme_blocks()}
    assert used == set(CHECKS.values()) | set(SPECIFIC.values())
