"""The command lines behave: skillc's -q/-v, --error-format json, a short --check with
--diff for the rest and an annotation for stale output; python -m <package> that ends
quietly on a closed pipe, takes lists as repeated options, and help() that prints."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import FIXTURES, run_python, run_skillc


@pytest.fixture
def built(tools_project: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    status, err = run_skillc(capsys, "-C", str(tools_project), "build")
    assert status == 0, err
    return tools_project


def test_quiet_prints_errors_only_and_verbose_every_file(
    tools_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, err = run_skillc(capsys, "-C", str(tools_project), "build", "-v")
    assert status == 0
    assert "wrote out/file/_read.py" in err and "warning[shadowed]" in err
    (tools_project / "out" / "CLAUDE.md").unlink()
    status, err = run_skillc(capsys, "-C", str(tools_project), "build", "-q")
    assert status == 0 and err == ""


def test_json_error_format_is_one_object_a_line(
    tools_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, err = run_skillc(
        capsys, "-C", str(tools_project), "validate", "--error-format", "json"
    )
    items = [json.loads(line) for line in err.splitlines()]
    assert status == 0 and len(items) == 13
    assert items[-1] == {
        "path": "overrides/file.tools.yaml",
        "line": 4,
        "col": 11,
        "severity": "warning",
        "code": "shadowed",
        "message": "file.read is a built-in tool, which wins; this one is left out",
    }


def test_check_summarises_and_diff_shows_the_rest(
    built: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    module = built / "out" / "file" / "_read.py"
    module.write_text(module.read_text().replace("Read a text", "Read one text", 1))
    (built / "out" / "CLAUDE.md").unlink()
    args = ("-C", str(built), "build", "--check", "-q")
    status, err = run_skillc(capsys, *args)
    assert status == 1
    assert err.splitlines() == [
        "missing: out/CLAUDE.md (12 lines)",
        "changed: out/file/_read.py (+1 -1 lines)",
        "(skillc build --check --diff shows the changes line by line)",
        "skillc: out/ is stale; run: skillc build (1 missing, 1 changed)",
    ]
    status, err = run_skillc(capsys, *args, "--diff")
    assert "@@ " in err and "Read one text" in err
    status, err = run_skillc(capsys, *args, "--error-format", "github")
    assert (
        "::error file=out/file/_read.py,line=1,col=1,title=stale-output::"
        "changed (+1 -1 lines); run: skillc build"
    ) in err.splitlines()


def test_a_closed_pipe_ends_quietly(built: Path) -> None:
    shutil.move(built / "out", built / "kit")
    (built / "workspace" / "big.txt").write_text("line\n" * 150_000)
    result = subprocess.run(
        ["bash", "-c", "python -m kit call file.read --path big.txt | head -1"],
        cwd=built,
        env={**run_env(built)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.stdout == "line\n"
    assert result.stderr == ""


def run_env(cwd: Path) -> dict[str, str]:
    import os
    import sys

    path = str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"]
    return {**os.environ, "PYTHONPATH": str(cwd), "PATH": path}


def test_lists_from_the_shell_as_repeated_options_or_json(tmp_path: Path) -> None:
    project = tmp_path / "executors"
    shutil.copytree(FIXTURES / "executors", project)
    assert subprocess.run(
        ["skillc", "build", "-q"], cwd=project, env=run_env(project)
    ).returncode in (0, 1)
    show = ("-m", "runner", "call", "echoer.show", "--target", "x")
    repeated = run_python("", project, *show, "--tag", "a", "--tag", "b c")
    as_json = run_python("", project, *show, "--tag", '["a", "b c"]')
    assert repeated.returncode == 0, repeated.stdout + repeated.stderr
    assert json.loads(repeated.stdout) == ["--tag=a", "--tag=b c", "--", "x"]
    assert as_json.stdout == repeated.stdout


def test_help_prints_outside_the_prompt_and_returns(built: Path) -> None:
    shutil.move(built / "out", built / "kit")
    out = run_python(
        "import kit\n"
        "text = kit.help()\n"
        "spec = kit.file.read.help()\n"
        "assert isinstance(text, str) and spec.startswith('file.read')\n",
        built,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("kit: ")
    assert "file.read: tool 'read'" in out.stdout
