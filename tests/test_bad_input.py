"""Bad input that a case file cannot hold (tests/data/cases/ holds the others, run by
tests/test_cases.py): files of megabytes, work counted while it is done, symbolic
links, a build after a good one, what --keep-going writes. Each: a clear
``path:line:col: severity[code]`` diagnostic, never a traceback."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
import yaml

from conftest import run_skillc, tree, write_skill

OK = "---\nname: {name}\ndescription: Does a thing.\n---\nBody.\n"


def populate(root: Path, files: dict[str, str | bytes]) -> None:
    for rel, content in files.items():
        path = root / "skills" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")


def test_huge_skill_file_is_rejected_quickly(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(
        skills_project / "skills", "s", OK.format(name="s") + "x" * (10 * 1024 * 1024)
    )
    code, err = run_skillc(capsys, "-C", str(skills_project), "build")
    assert code == 1
    assert "skills/s/SKILL.md:1:1: error[file-too-large]: the file is 10,485," in err


def test_yaml_alias_bomb_is_rejected_quickly(
    skills_project: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 10):
        prev = chr(ord("a") + i - 1)
        levels.append(
            f"{chr(ord('a') + i)}: &{chr(ord('a') + i)} ["
            + ", ".join([f"*{prev}"] * 10)
            + "]"
        )
    text = "---\nname: s\ndescription: x\n" + "\n".join(levels) + "\n---\n"
    write_skill(skills_project / "skills", "s", text)
    # The work done, not the time taken: the bomb (10**10 nodes) is never built.
    built = 0
    construct = yaml.constructor.BaseConstructor.construct_object

    def counted(self: Any, node: Any, deep: bool = False) -> Any:
        nonlocal built
        built += 1
        if built > 10_000:
            raise RuntimeError("the alias bomb is being built")
        return construct(self, node, deep)

    monkeypatch.setattr(yaml.constructor.BaseConstructor, "construct_object", counted)
    code, err = run_skillc(capsys, "-C", str(skills_project), "build")
    assert code == 1
    assert "skills/s/SKILL.md:2:1: error[yaml-alias-bomb]" in err
    assert built < 100


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")
def test_symlink_loop_is_reported_not_followed(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(skills_project / "skills", "s", OK.format(name="s"))
    (skills_project / "skills" / "s" / "loop").symlink_to(
        skills_project / "skills", target_is_directory=True
    )
    code, err = run_skillc(capsys, "-C", str(skills_project), "build")
    assert code == 0, err
    assert "skills/s/loop:1:1: warning[symlink-loop]" in err


def test_error_leaves_previous_output_intact(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(skills_project / "skills", "s", OK.format(name="s"))
    assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    before = tree(skills_project / "generated")
    write_skill(skills_project / "skills", "t", "---\nname: t\nmetadata: 1\n---\n")
    write_skill(
        skills_project / "skills",
        "s",
        OK.format(name="s").replace("a thing", "another"),
    )
    code, err = run_skillc(capsys, "-C", str(skills_project), "build")
    assert code == 1
    assert "nothing written to generated/" in err
    assert tree(skills_project / "generated") == before


def test_keep_going_writes_valid_tools_and_reports_invalid(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(skills_project / "skills", "good", OK.format(name="good"))
    write_skill(skills_project / "skills", "bad", "---\nname: bad\nmetadata: 1\n---\n")
    code, _ = run_skillc(capsys, "-C", str(skills_project), "build", "--keep-going")
    assert code == 1
    report = (skills_project / "generated" / "report.json").read_text()
    assert '"path": "skills/bad/SKILL.md"' in report and '"invalid-field"' in report
    assert (skills_project / "generated" / "task" / "_good.py").is_file()
    assert not (skills_project / "generated" / "task" / "_bad.py").exists()
