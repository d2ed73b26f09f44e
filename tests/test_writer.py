"""The write phase: skip unchanged files, clean only what skillc owns, check mode."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import run_skillc, tree, write_skill
from skillc import writer

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
    assert changed == {"task/_b.py", "_skills.py"}
    # The module, the MCP server's skill entries (the SKILL.md's digest and size),
    # report.json (Level 2 counts the body) and the lock (their hashes).
    assert "wrote 4 files" in err


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
    assert "generated/precious.txt (not made by skillc)" in err
    assert (skills_project / "generated" / "precious.txt").read_text() == "mine"


def test_refuses_paths_outside_the_output_folder(tmp_path: Path) -> None:
    for bad in ("../escape.py", "/abs.py", "a/../../b.py"):
        with pytest.raises(writer.OutputError):
            writer.plan(tmp_path, {bad: b""})


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
    code, err = run_skillc(
        capsys, "-C", str(skills_project), "build", "--check", "--diff"
    )
    assert code == 1
    assert "missing: generated/CLAUDE.md" in err
    assert "extra: generated/stray.py (not made by skillc)" in err
    assert "changed: generated/task/_a.py (edited since skillc wrote it)" in err
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
    assert code == 2 and "choose a folder inside the project" in err


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


@pytest.fixture
def built_a(skills_project: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A project with one skill, built."""
    write_skill(skills_project / "skills", "a", OK.format(name="a"))
    assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    return skills_project


def test_a_lock_skillc_did_not_write_owns_nothing(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(skills_project / "skills", "a", OK.format(name="a"))
    out = skills_project / "generated"
    out.mkdir()
    (out / "skillc.lock.json").write_text("{}")
    (out / "notes.txt").write_text("mine")
    code, err = run_skillc(capsys, "-C", str(skills_project), "build")
    assert code == 2
    assert "generated/notes.txt (not made by skillc)" in err
    assert "generated/skillc.lock.json (not made by skillc)" in err
    assert tree(out) == {"skillc.lock.json": b"{}", "notes.txt": b"mine"}


def test_a_user_file_in_the_output_stops_the_build_until_forced(
    built_a: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    skills_project = built_a
    out = skills_project / "generated"
    (out / "task" / "notes.txt").write_text("mine")
    before = tree(out)
    code, err = run_skillc(capsys, "-C", str(skills_project), "build", "--force")
    assert code == 0  # --force: discarded, said in the summary
    assert "1 removed" in err and "notes.txt" not in tree(out)
    (out / "task" / "notes.txt").write_text("mine")
    write_skill(skills_project / "skills", "a", OK.format(name="a") + "More.\n")
    code, err = run_skillc(capsys, "-C", str(skills_project), "build")
    assert code == 2 and "generated/task/notes.txt (not made by skillc)" in err
    assert tree(out) == before
    pyproject = skills_project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + "discard-unowned-files = true\n")
    assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    assert "task/notes.txt" not in tree(out)


def test_writes_never_follow_a_symlink_out_of_the_output(
    built_a: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    skills_project = built_a
    out = skills_project / "generated"
    elsewhere = skills_project / "elsewhere"
    elsewhere.mkdir()
    import shutil

    shutil.rmtree(out / "task")
    (out / "task").symlink_to(elsewhere, target_is_directory=True)
    write_skill(skills_project / "skills", "b", OK.format(name="b"))
    code, err = run_skillc(capsys, "-C", str(skills_project), "build")
    assert code == 2 and "generated/task (a symbolic link)" in err
    assert list(elsewhere.iterdir()) == []
    assert run_skillc(capsys, "-C", str(skills_project), "build", "--force")[0] == 0
    assert list(elsewhere.iterdir()) == []
    assert (out / "task" / "_b.py").is_file() and not (out / "task").is_symlink()


@pytest.mark.parametrize(
    "out", ["/", "~", "..", "../elsewhere", ".", "skills", "skills/inner", "sub/../.."]
)
def test_out_must_be_a_folder_inside_the_project(
    skills_project: Path, capsys: pytest.CaptureFixture[str], out: str
) -> None:
    write_skill(skills_project / "skills", "a", OK.format(name="a"))
    target = str(Path(out).expanduser()) if out == "~" else out
    code, err = run_skillc(
        capsys, "-C", str(skills_project), "build", "--out", target, "--package", "p"
    )
    assert code == 2 and "output folder" in err, err


def test_out_outside_the_project_needs_the_config_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "project"
    write_skill(project / "skills", "a", OK.format(name="a"))
    (project / "pyproject.toml").write_text('[tool.skillc]\nout = "../out"\n')
    code, err = run_skillc(capsys, "-C", str(project), "build")
    assert code == 2 and "outside the project folder" in err
    (project / "pyproject.toml").write_text(
        '[tool.skillc]\nout = "../out"\nout-outside-project = true\n'
    )
    assert run_skillc(capsys, "-C", str(project), "build")[0] == 0
    assert (tmp_path / "out" / "skillc.lock.json").is_file()


@pytest.mark.parametrize("name", ["json", "typing", "re", "regex", "class"])
def test_package_names_that_shadow_a_module_are_refused(
    skills_project: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    write_skill(skills_project / "skills", "a", OK.format(name="a"))
    code, err = run_skillc(
        capsys, "-C", str(skills_project), "build", "--package", name
    )
    assert code == 2 and f"package name {name!r}" in err
    assert not (skills_project / "generated").exists()


def test_dump_ir_cannot_overwrite_output(
    built_a: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    skills_project = built_a
    before = tree(skills_project / "generated")
    target = skills_project / "generated" / "task" / "_a.py"
    code, err = run_skillc(
        capsys, "-C", str(skills_project), "build", "--dump-ir", str(target)
    )
    assert code == 2 and "--dump-ir" in err
    assert tree(skills_project / "generated") == before


def test_an_out_folder_below_missing_folders_is_created(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(skills_project / "skills", "a", OK.format(name="a"))
    code, err = run_skillc(
        capsys, "-C", str(skills_project), "build", "--out", "build/deep/gen"
    )
    assert code == 0, err
    assert (skills_project / "build" / "deep" / "gen" / "task" / "_a.py").is_file()


def rebuilt_afresh(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> dict[str, bytes]:
    """The output tree as a build with neither output nor cache makes it."""
    before = tree(project / "generated")
    shutil.rmtree(project / "generated")
    assert run_skillc(capsys, "-C", str(project), "build", "--no-cache")[0] == 0
    return before


def test_a_one_change_rebuild_touches_only_what_changed(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Unchanged files of a one-skill rebuild keep their inode and mtime (they are
    linked into the new tree), the output's caches stay, and no old tree is left."""
    skills = skills_project / "skills"
    for number in range(12):
        write_skill(skills, f"s{number}", OK.format(name=f"s{number}"))
    assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    out = skills_project / "generated"
    (out / "task" / "__pycache__").mkdir()
    (out / "task" / "__pycache__" / "kept.pyc").write_bytes(b"pyc")
    (out / ".mypy_cache").mkdir()
    before = (out / "task" / "_s9.py").stat()
    for round, name in enumerate(["s1", "s1", "s2"]):
        write_skill(skills, name, OK.format(name=name).replace("Body", f"Body {round}"))
        code, err = run_skillc(capsys, "-C", str(skills_project), "build")
        assert code == 0, err
    after = (out / "task" / "_s9.py").stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert (out / "task" / "__pycache__" / "kept.pyc").read_bytes() == b"pyc"
    assert (out / ".mypy_cache").is_dir()
    left = [p.name for p in skills_project.iterdir() if p.name.startswith(".gen")]
    assert left == []
    assert rebuilt_afresh(skills_project, capsys) == tree(out)
