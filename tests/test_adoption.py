"""What a team needs to adopt skillc: a licence, published manifest schemas, `skillc init`,
a pre-commit hook that works in a fresh repository, and output other formatters keep."""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import jsonschema
import pytest
import yaml

from conftest import FIXTURES, REPO, write_skill
from skillc import cli

BIN = Path(sys.executable).parent


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return {**env, "PATH": str(BIN) + os.pathsep + env.get("PATH", ""), **extra}


def _run(
    args: list[str], cwd: Path, timeout: int = 300, **env: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args,
        cwd=cwd,
        env=_env(**env),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def test_licence_file_and_metadata() -> None:
    assert (REPO / "LICENSE").read_text().startswith("MIT License\n")
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]


def test_manifest_schemas_have_stable_ids_and_are_printed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder = REPO / "generator" / "schemas"
    names = sorted(p.name.removesuffix(".schema.json") for p in folder.glob("*.json"))
    assert names == ["ai-tool", "skillc-settings", "tool-manifest", "tools"]
    for name in names:
        text = (folder / f"{name}.schema.json").read_text()
        schema = json.loads(text)
        assert schema["$id"] == f"urn:skillc:schema:{name}:v1"
        jsonschema.Draft202012Validator.check_schema(schema)
        capsys.readouterr()
        assert cli.main(["schema", name]) == 0
        assert capsys.readouterr().out == text
    # A manifest that names its schema for editors still loads: the comment is a comment.
    manifest = FIXTURES / "tools" / "manifests" / "s3.tools.yaml"
    data = yaml.safe_load(
        "# yaml-language-server: $schema=../.schemas/tools.schema.json\n"
        + manifest.read_text()
    )
    tools_schema = json.loads((folder / "tools.schema.json").read_text())
    jsonschema.Draft202012Validator(tools_schema).validate(data)


def test_init_fits_a_claude_code_repository(tmp_path: Path) -> None:
    write_skill(
        tmp_path / ".claude" / "skills",
        "hello",
        "---\nname: hello\ndescription: Say hello.\n---\nSay hello to $ARGUMENTS.\n",
    )
    assert _run(["skillc", "init"], tmp_path).returncode == 0
    config = tomllib.loads((tmp_path / "pyproject.toml").read_text())["tool"]["skillc"]
    assert config == {"sources": [".claude/skills"], "out": "generated"}
    text = (tmp_path / "pyproject.toml").read_text()
    assert "# builtins = " in text and "# regenerate = " in text  # commented choices
    noxfile = (tmp_path / "noxfile.py").read_text()
    sessions = [
        node.name
        for node in ast.parse(noxfile).body
        if isinstance(node, ast.FunctionDef)
    ]
    assert sessions == ["generate"]
    build = _run(["skillc", "build"], tmp_path)
    assert build.returncode == 0, build.stderr
    listed = _run([sys.executable, "-m", "generated", "list"], tmp_path)
    assert listed.stdout.startswith("task.hello: Say hello.")
    again = _run(["skillc", "init"], tmp_path)
    assert again.returncode == 0 and "already has [tool.skillc]" in again.stdout
    assert (tmp_path / "noxfile.py").read_text() == noxfile


def test_init_keeps_what_is_there(tmp_path: Path) -> None:
    write_skill(
        tmp_path / "skills", "a", "---\nname: a\ndescription: A skill.\n---\nDo A.\n"
    )
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\nversion = "1"\n')
    own = 'import nox\n\n\n@nox.session\ndef generate(session):\n    session.run("make")\n'
    (tmp_path / "noxfile.py").write_text(own)
    assert _run(["skillc", "init"], tmp_path).returncode == 0
    data = tomllib.loads((tmp_path / "pyproject.toml").read_text())
    assert data["project"]["name"] == "x"
    assert data["tool"]["skillc"]["sources"] == ["skills"]
    noxfile = (tmp_path / "noxfile.py").read_text()
    assert noxfile.startswith(own) and "def skills(session" in noxfile


def _git(cwd: Path, *args: str) -> None:
    result = _run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args], cwd
    )
    assert result.returncode == 0, result.stderr


def test_pre_commit_hook_fails_on_stale_output(tmp_path: Path) -> None:
    """skillc's own .pre-commit-hooks.yaml, installed by pre-commit from a git repository
    holding this checkout, in a repository of skills (pip reaches PyPI through the
    configured index; nothing else is fetched)."""
    if shutil.which("pre-commit", path=str(BIN)) is None and not os.environ.get("CI"):
        pytest.skip("pre-commit is not installed (nox -s tests installs it)")
    hook_repo = tmp_path / "skillc"
    shutil.copytree(
        REPO,
        hook_repo,
        ignore=shutil.ignore_patterns(
            ".git",
            ".nox",
            "generated",
            "tests",
            "*.egg-info",
            "__pycache__",
            ".*cache*",
        ),
    )
    _git(hook_repo, "init", "-q")
    _git(hook_repo, "add", "-A")
    _git(hook_repo, "commit", "-q", "-m", "skillc")
    rev = _run(["git", "rev-parse", "HEAD"], hook_repo).stdout.strip()

    repo = tmp_path / "repo"
    shutil.copytree(FIXTURES / "project", repo)
    assert _run(["skillc", "build"], repo).returncode == 0
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {hook_repo}\n    rev: {rev}\n"
        "    hooks: [{id: skillc-check}]\n"
    )
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    home = str(tmp_path / "pre-commit-home")
    fresh = _run(["pre-commit", "run", "--all-files"], repo, 900, PRE_COMMIT_HOME=home)
    assert fresh.returncode == 0, fresh.stdout + fresh.stderr
    assert "skillc output is up to date" in fresh.stdout

    skill = repo / "skills" / "greeter" / "SKILL.md"
    skill.write_text(skill.read_text().replace("Greets", "Welcomes", 1))
    stale = _run(["pre-commit", "run", "--all-files"], repo, 300, PRE_COMMIT_HOME=home)
    assert stale.returncode == 1
    assert "out/ is stale; run: skillc build" in stale.stdout


@pytest.mark.parametrize("fixture", ["project", "tools", "executors"])
def test_output_is_stable_under_ruff_format(fixture: str, tmp_path: Path) -> None:
    if shutil.which("ruff", path=str(BIN)) is None and not os.environ.get("CI"):
        pytest.skip("ruff is not installed (nox -s tests installs it)")
    project = tmp_path / fixture
    shutil.copytree(FIXTURES / fixture, project)
    assert _run(["skillc", "build"], project).returncode in (0, 1)
    out = tomllib.loads((project / "pyproject.toml").read_text())["tool"]["skillc"]
    result = _run(
        ["ruff", "format", "--check", "--diff", "--no-cache", out["out"]], project
    )
    assert result.returncode == 0, result.stdout + result.stderr
