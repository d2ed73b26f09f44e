"""The write phase: skip unchanged files, clean only what skillc owns, check mode."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import run_skillc, write_skill
from generator import writer

OK = "---\nname: {name}\ndescription: Does {name}.\n---\nBody.\n"


def test_unchanged_files_keep_their_mtime(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(skills_project / "skills", "a", OK.format(name="a"))
    write_skill(skills_project / "skills", "b", OK.format(name="b"))
    assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    out = skills_project / "generated"
    old = {p: p.stat().st_mtime_ns for p in out.rglob("*.py")}
    for path in old:
        path.touch()
        old[path] = path.stat().st_mtime_ns
    write_skill(
        skills_project / "skills", "b", OK.format(name="b").replace("Body", "New body")
    )
    code, err = run_skillc(capsys, "-C", str(skills_project), "build")
    assert code == 0
    changed = {
        p.relative_to(out).as_posix() for p in old if p.stat().st_mtime_ns != old[p]
    }
    assert changed == {"task/_b.py"}
    # The module, report.json (Level 2 counts the body) and the lock (their hashes).
    assert "wrote 3 files" in err


def test_removed_skill_is_deleted_and_empty_folders_go(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(skills_project / "skills", "a", OK.format(name="a"))
    plugin = skills_project / "skills" / "p"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin" / "plugin.json").write_text('{"name": "p"}')
    write_skill(plugin / "skills", "b", OK.format(name="b"))
    assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    assert (skills_project / "generated" / "task" / "p" / "_b.py").is_file()
    import shutil

    shutil.rmtree(plugin)
    code, err = run_skillc(capsys, "-C", str(skills_project), "build")
    assert code == 0
    assert not (skills_project / "generated" / "task" / "p").exists()
    assert "2 removed" in err


def test_refuses_a_folder_skillc_did_not_make(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(skills_project / "skills", "a", OK.format(name="a"))
    (skills_project / "generated").mkdir()
    (skills_project / "generated" / "precious.txt").write_text("mine")
    code, err = run_skillc(capsys, "-C", str(skills_project), "build")
    assert code == 2
    assert "has files but no skillc.lock.json" in err
    assert (skills_project / "generated" / "precious.txt").read_text() == "mine"


def test_refuses_paths_outside_the_output_folder(tmp_path: Path) -> None:
    for bad in ("../escape.py", "/abs.py", "a/../../b.py"):
        with pytest.raises(writer.OutputError):
            writer.plan(tmp_path, {bad: ""})


def test_check_mode_reports_changed_missing_and_extra(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(skills_project / "skills", "a", OK.format(name="a"))
    assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    assert run_skillc(capsys, "-C", str(skills_project), "build", "--check")[0] == 0
    out = skills_project / "generated"
    (out / "task" / "_a.py").write_text(
        (out / "task" / "_a.py").read_text().replace("Body.", "Edited.")
    )
    (out / "CLAUDE.md").unlink()
    (out / "stray.py").write_text("x = 1\n")
    before = sorted(p.as_posix() for p in out.rglob("*"))
    code, err = run_skillc(capsys, "-C", str(skills_project), "build", "--check")
    assert code == 1
    assert "missing: generated/CLAUDE.md" in err
    assert "extra: generated/stray.py" in err
    assert "changed: generated/task/_a.py" in err
    assert '-_INSTRUCTIONS = "Edited."' in err and '+_INSTRUCTIONS = "Body."' in err
    assert "run: skillc build" in err
    assert (
        sorted(p.as_posix() for p in out.rglob("*")) == before
    )  # check writes nothing


def test_config_errors_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.skillc]\nsources = ["missing"]\n')
    code, err = run_skillc(capsys, "-C", str(tmp_path), "build")
    assert code == 2 and "source folder 'missing' does not exist" in err
    (tmp_path / "pyproject.toml").write_text('[tool.skillc]\nsurces = ["skills"]\n')
    code, err = run_skillc(capsys, "-C", str(tmp_path), "build")
    assert code == 2 and "unknown [tool.skillc] key(s): surces" in err
    (tmp_path / "pyproject.toml").write_text("[tool.skillc]\n")
    (tmp_path / "skills").mkdir()
    code, err = run_skillc(
        capsys, "-C", str(tmp_path), "build", "--source", "skills", "--out", "."
    )
    assert code == 2 and "must be a folder inside the project" in err


def test_source_flags_replace_configured_roots_in_order(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(skills_project / "skills", "a", OK.format(name="a"))
    write_skill(
        skills_project / "extra", "a", OK.format(name="a").replace("Body", "Extra body")
    )
    code, err = run_skillc(
        capsys,
        "-C",
        str(skills_project),
        "build",
        "--source",
        "skills",
        "--source",
        "extra",
    )
    assert code == 0
    assert "extra/a/SKILL.md:1:1: warning[override]: overrides skills/a/SKILL.md" in err
    assert "Extra body" in (skills_project / "generated" / "task" / "_a.py").read_text()


def test_dump_ir_and_package_name(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    write_skill(skills_project / "skills", "a", OK.format(name="a"))
    ir = skills_project / "ir.json"
    code, _ = run_skillc(
        capsys,
        "-C",
        str(skills_project),
        "build",
        "--dump-ir",
        str(ir),
        "--out",
        "agents_pkg",
        "--package",
        "mytools",
    )
    assert code == 0
    model = json.loads(ir.read_text())
    assert model["tools"][0]["qualname"] == "task.a"
    assert model["tools"][0]["definition"]["source"] == {
        "path": "skills/a/SKILL.md",
        "line": 1,
        "col": 1,
    }
    assert (
        "python -m mytools list"
        in (skills_project / "agents_pkg" / "CLAUDE.md").read_text()
    )
