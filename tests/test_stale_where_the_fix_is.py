"""A stale output folder points at the input that changed (issue 44): after one edited
description, ``check`` annotated every rewritten output file (18 of them) and not the
edited source, under a "0 errors" summary."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_skillc, write_skill

SKILL = "---\nname: {name}\ndescription: {text}\n---\nDo it.\n"


def _built(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("alpha", "beta"):
        write_skill(
            project / "skills", name, SKILL.format(name=name, text=f"{name} things.")
        )
    assert run_skillc(capsys, "-C", str(project), "build")[0] == 0


def _annotations(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("::error ")]


@pytest.mark.parametrize(
    "command", [["check", "--skip", "listing"], ["build", "--check"]]
)
def test_an_edited_description_is_one_error_at_its_source(
    skills_project: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    _built(skills_project, capsys)
    write_skill(
        skills_project / "skills", "beta", SKILL.format(name="beta", text="Other.")
    )
    args = ["-C", str(skills_project), *command, "--error-format", "github"]
    status, err = run_skillc(capsys, *args)
    assert status == 1
    [annotation] = _annotations(err)
    assert annotation.startswith(
        "::error file=skills/beta/SKILL.md,line=1,col=1,title=stale-output::"
        "changed since generated/ was built ("
    ), err
    assert annotation.endswith("); run: skillc build")
    assert "file=generated/" not in err
    assert err.splitlines()[-1].endswith("1 error, 0 warnings"), err
    # In text, the files are listed below the error at the source.
    status, err = run_skillc(capsys, "-C", str(skills_project), *command)
    assert "skills/beta/SKILL.md:1:1: error[stale-output]: changed since" in err
    assert "changed: generated/task/_beta.py (" in err


def test_a_new_skill_and_a_changed_setting_are_named(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _built(skills_project, capsys)
    write_skill(
        skills_project / "skills", "gamma", SKILL.format(name="gamma", text="G.")
    )
    pyproject = skills_project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + "provider-name-limit = 40\n")
    args = ["-C", str(skills_project), "build", "--check", "--error-format", "json"]
    status, err = run_skillc(capsys, *args)
    found = {(d["path"], d["message"].split(" since ")[0]) for d in _json(err)}
    assert status == 1 and found == {
        ("skills/gamma/SKILL.md", "new"),
        ("pyproject.toml", "[tool.skillc] provider-name-limit changed"),
    }


def test_output_edited_by_hand_is_annotated_and_counted(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No input changed: the output files are where the difference is, and each
    annotation is counted as the error it is."""
    _built(skills_project, capsys)
    module = skills_project / "generated" / "task" / "_beta.py"
    module.write_text(module.read_text() + "# edited\n")
    (skillc_md := skills_project / "generated" / "CLAUDE.md").unlink()
    args = ["-C", str(skills_project), "check", "--skip", "listing"]
    status, err = run_skillc(capsys, *args, "--error-format", "github")
    assert status == 1
    assert {a.split(",")[0] for a in _annotations(err)} == {
        "::error file=generated/task/_beta.py",
        f"::error file=generated/{skillc_md.name}",
    }
    assert err.splitlines()[-1].endswith("2 errors, 0 warnings"), err


def test_sarif_points_at_the_source(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _built(skills_project, capsys)
    write_skill(
        skills_project / "skills", "alpha", SKILL.format(name="alpha", text="A.")
    )
    sarif = skills_project.parent / "out.sarif"
    args = ["-C", str(skills_project), "check", "--skip", "listing"]
    assert run_skillc(capsys, *args, "--sarif", str(sarif))[0] == 1
    results = json.loads(sarif.read_text())["runs"][0]["results"]
    uris = [
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in results
        if r["ruleId"] == "stale-output"
    ]
    assert uris == ["skills/alpha/SKILL.md"]


def _json(err: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in err.splitlines() if line.startswith("{")]
