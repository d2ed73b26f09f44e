"""skillc check with inputs in error (issue 42): without keep-going no check runs, and
it says so (before: "checks": {} and no word); with keep-going every check runs over
what compiles, the output a keep-going build writes, and the inputs in error are named
as not checked, on stderr and under "unchecked" in --report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_skillc, write_skill


def _project(skills_project: Path) -> Path:
    skills = skills_project / "skills"
    write_skill(
        skills,
        "good",
        "---\nname: good\ndescription: Runs.\nallowed-tools: Bash\n---\n",
    )
    write_skill(skills, "bad", "---\nname: bad\ndescription: [unclosed\n---\n")
    return skills_project


def test_no_check_runs_without_keep_going_and_it_says_so(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _project(skills_project)
    assert run_skillc(capsys, "-C", str(project), "build", "--keep-going")[0] == 1
    report = project.parent / "check.json"
    status, err = run_skillc(
        capsys, "-C", str(project), "check", "--report", str(report)
    )
    assert status == 1
    assert "skillc: no check ran, for the errors of skills/bad/SKILL.md" in err
    assert "allowed-tools-wildcard" not in err
    found = json.loads(report.read_text())
    assert (found["checks"], found["unchecked"]) == ({}, ["skills/bad/SKILL.md"])


@pytest.mark.parametrize("how", ["--keep-going", "keep-going = true"])
def test_keep_going_checks_what_compiles(
    skills_project: Path, capsys: pytest.CaptureFixture[str], how: str
) -> None:
    project = _project(skills_project)
    assert run_skillc(capsys, "-C", str(project), "build", "--keep-going")[0] == 1
    flags = [how] if how.startswith("--") else []
    if not flags:
        config = project / "pyproject.toml"
        config.write_text(config.read_text() + "keep-going = true\n")
    report = project.parent / "check.json"
    status, err = run_skillc(
        capsys, "-C", str(project), "check", *flags, "--report", str(report)
    )
    assert status == 1  # the input in error
    assert "skillc: not checked, for their errors: skills/bad/SKILL.md" in err
    assert "warning[allowed-tools-wildcard]" in err  # the scan ran over good
    assert "is up to date" in err  # the output a keep-going build writes
    found = json.loads(report.read_text())
    assert found["unchecked"] == ["skills/bad/SKILL.md"]
    assert {"listing", "breaking", "overlap", "scan"} <= set(found["checks"])
