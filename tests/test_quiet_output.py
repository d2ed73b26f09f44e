"""What ``skillc build`` prints on a real repository (issue 31): errors in full, each
warning code's first few and a count, colour and a progress line on a terminal only,
plurals that read right, a stale check that says what is stale, suggestions for
typos, the right YAML hint for each mistake, and command-line paths that are the
shell's."""

from __future__ import annotations

import io
import json
import os
import pty
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import run_skillc, write_skill
from skillc import cli_report

UNKNOWN_KEY = "---\nname: s{n}\ndescription: Skill {n}.\nrequires: rube\n---\nDo {n}.\n"


def many_warnings(root: Path, count: int) -> Path:
    for n in range(count):
        write_skill(root / "skills", f"s{n}", UNKNOWN_KEY.format(n=n))
    return root


def test_warnings_of_one_code_are_counted_past_the_first_few(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    many_warnings(skills_project, 6)
    for n in range(5):  # errors are always listed in full
        write_skill(skills_project / "skills", f"bad{n}", "---\ndescription: 'x\n---\n")
    status, err = run_skillc(capsys, "-C", str(skills_project), "build")
    lines = err.splitlines()
    assert status == 1
    assert sum(" error[yaml-syntax]" in line for line in lines) == 5
    assert sum(" warning[unknown-key]" in line for line in lines) == 3
    assert (
        "warning[unknown-key]: 6 in all, 3 not shown (a key that neither the spec "
        "nor Claude Code defines)" in lines
    )
    assert lines[-2:] == [
        "(skillc build -v, or --error-format json, lists every warning)",
        "skillc: nothing written to generated/; 5 errors, 6 warnings",
    ]
    status, err = run_skillc(capsys, "-C", str(skills_project), "build", "-v")
    assert sum(" warning[unknown-key]" in line for line in err.splitlines()) == 6
    args = ("-C", str(skills_project), "build", "--error-format", "json")
    status, err = run_skillc(capsys, *args)
    codes = [json.loads(line)["code"] for line in err.splitlines()]
    assert codes.count("unknown-key") == 6 and codes.count("yaml-syntax") == 5


def test_a_few_warnings_are_listed_as_they_are(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    many_warnings(skills_project, 3)
    status, err = run_skillc(capsys, "-C", str(skills_project), "build")
    assert status == 0
    assert [line.split(": ", 1)[1] for line in err.splitlines()[:-1]] == [
        "warning[unknown-key]: unknown frontmatter key 'requires'; it is kept but not used"
    ] * 3
    assert err.splitlines()[-1].startswith("skillc: 3 tools; wrote ")
    assert err.splitlines()[-1].endswith("; 0 errors, 3 warnings")


def built_one(project: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """A project of one skill, built; what the build printed."""
    write_skill(project / "skills", "one", "---\nname: one\ndescription: O.\n---\nO.\n")
    return run_skillc(capsys, "-C", str(project), "build")[1]


def test_plurals_read_right(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    last = built_one(skills_project, capsys).splitlines()[-1]
    assert last.startswith("skillc: 1 tool; wrote ") and "files" in last
    assert last.endswith("; 0 errors, 0 warnings")
    assert [cli_report.counted(n, "file") for n in (0, 1, 2, 1500)] == [
        "0 files",
        "1 file",
        "2 files",
        "1,500 files",
    ]


def test_a_stale_check_says_what_is_stale_and_no_zero_errors(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    built_one(skills_project, capsys)
    (skills_project / "generated" / "CLAUDE.md").unlink()
    module = skills_project / "generated" / "task" / "_one.py"
    module.write_text(module.read_text() + "# edited\n")
    status, err = run_skillc(capsys, "-C", str(skills_project), "build", "--check")
    assert status == 1
    assert err.splitlines()[-1] == (
        "skillc: generated/ is stale; run: skillc build (1 missing, 1 changed)"
    )
    assert "0 errors" not in err


def _terminal_build(project: Path, **env: str) -> str:
    """skillc build with its stderr on a pseudo-terminal; what it printed there."""
    leader, follower = pty.openpty()
    environment = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    environment.update(env)
    process = subprocess.Popen(
        [sys.executable, "-m", "skillc", "-C", str(project), "build", "--no-cache"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=follower,
        env=environment,
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closed: the process is done
            break
        if not chunk:
            break
        chunks.append(chunk)
    process.wait(timeout=120)
    os.close(leader)
    return b"".join(chunks).decode()


def test_colour_on_a_terminal_only_and_never_with_no_color(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    many_warnings(skills_project, 1)
    assert "\x1b[33mwarning[unknown-key]\x1b[0m" in _terminal_build(skills_project)
    assert "\x1b[" not in _terminal_build(skills_project, NO_COLOR="1")
    status, err = run_skillc(capsys, "-C", str(skills_project), "build", "--no-cache")
    assert "warning[unknown-key]" in err and "\x1b[" not in err


def test_a_progress_line_shows_on_a_terminal_and_is_cleared(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stream = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stream)
    monkeypatch.setenv("TERM", "xterm")
    for no_color, cleared in (("", "\r\x1b[K"), ("1", " " * 20 + "\r")):
        monkeypatch.setenv("NO_COLOR", no_color)
        stream.seek(0)
        stream.truncate(0)
        with cli_report.progress(cli_report.Output(terminal=True), after=0.01) as shown:
            for _ in range(500):  # at most 5 s for the first tick
                if shown.shown:
                    break
                time.sleep(0.01)
        text = stream.getvalue()
        assert text.startswith("\rskillc: building... ") and text.endswith(cleared)
        assert no_color == "" or "\x1b[" not in text
    stream.truncate(0)
    with cli_report.progress(cli_report.Output(terminal=False), after=0.01) as shown:
        time.sleep(0.05)
    assert stream.getvalue() == "" and not shown.shown


def test_relative_command_line_paths_are_the_shells(tmp_path: Path) -> None:
    """From a subfolder of a project, --source and --out are relative to it."""
    (tmp_path / "pyproject.toml").write_text('[tool.skillc]\nsources = ["skills"]\n')
    write_skill(
        tmp_path / "skills", "top", "---\nname: top\ndescription: T.\n---\nT.\n"
    )
    sub = tmp_path / "sub"
    write_skill(sub / "skills", "inner", "---\nname: inner\ndescription: I.\n---\nI.\n")
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "skillc",
            "build",
            "--source",
            "skills",
            "--out",
            "gen",
        ],
        cwd=sub,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads((sub / "gen" / "report.json").read_text())
    assert [t["name"] for t in report["tools"]] == ["task.inner"]
    lock = json.loads((sub / "gen" / "skillc.lock.json").read_text())
    assert lock["config"]["sources"] == ["sub/skills"]  # recorded project-relative
    assert not (tmp_path / "gen").exists()
