"""The write phase: skip unchanged files, clean only what skillc owns, check mode."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from conftest import run_skillc, tree, write_skill
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
    assert "generated/precious.txt (not made by skillc)" in err
    assert (skills_project / "generated" / "precious.txt").read_text() == "mine"


def test_refuses_paths_outside_the_output_folder(tmp_path: Path) -> None:
    for bad in ("../escape.py", "/abs.py", "a/../../b.py"):
        with pytest.raises(writer.OutputError):
            writer.plan(tmp_path, {bad: ""}, {})


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


# The spare: the swapped-out tree kept in the build cache, brought up to date by the
# next build instead of staging the whole tree afresh (see writer's docstring).


def spare_of(project: Path) -> Path:
    return project / ".skillc-cache" / writer.SPARE


def count_steps(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Counts each call that links or removes a file or folder: one per file, were the
    tree staged afresh (and its old one deleted)."""
    calls: Counter[str] = Counter()
    for name in ("link", "unlink", "rmdir"):

        def counted(
            *args: Any, _real: Any = getattr(os, name), _name: str = name, **kwargs: Any
        ) -> Any:
            calls[_name] += 1
            return _real(*args, **kwargs)

        monkeypatch.setattr(os, name, counted)
    return calls


def rebuilt_afresh(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> dict[str, bytes]:
    """The output tree as a build with neither output nor cache makes it."""
    before = tree(project / "generated")
    shutil.rmtree(project / "generated")
    assert run_skillc(capsys, "-C", str(project), "build", "--no-cache")[0] == 0
    return before


def test_a_one_change_rebuild_touches_only_what_changed(
    skills_project: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A one-skill rebuild of 150 files links and removes a handful of entries, not one
    per unchanged file; unchanged files keep their inode and mtime, and the
    output's caches stay."""
    skills = skills_project / "skills"
    for number in range(120):
        write_skill(skills, f"s{number}", OK.format(name=f"s{number}"))
    assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    out = skills_project / "generated"
    assert len(tree(out)) > 120
    (out / "task" / "__pycache__").mkdir()
    (out / "task" / "__pycache__" / "kept.pyc").write_bytes(b"pyc")
    (out / ".mypy_cache").mkdir()
    before = (out / "task" / "_s9.py").stat()
    calls = count_steps(monkeypatch)
    # The same skill again, then another one: the spare is two builds old.
    for round, name in enumerate(["s1", "s1", "s2", "s1", "s3"]):
        write_skill(skills, name, OK.format(name=name).replace("Body", f"Body {round}"))
        calls.clear()
        code, err = run_skillc(capsys, "-C", str(skills_project), "build")
        assert code == 0, err
        if round > 0:  # the first rebuild has no spare yet
            assert sum(calls.values()) <= 8, calls
            assert spare_of(skills_project).is_dir()
    after = (out / "task" / "_s9.py").stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert (out / "task" / "__pycache__" / "kept.pyc").read_bytes() == b"pyc"
    assert (out / ".mypy_cache").is_dir()
    monkeypatch.undo()
    assert rebuilt_afresh(skills_project, capsys) == tree(out)


@pytest.fixture
def with_spare(skills_project: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """Skills a, b and c built, then a changed and rebuilt: the cache holds a spare."""
    for name in "abc":
        write_skill(skills_project / "skills", name, OK.format(name=name))
    assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    write_skill(skills_project / "skills", "a", OK.format(name="a") + "More.\n")
    assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    assert (spare_of(skills_project) / "task" / "_b.py").is_file()
    return skills_project


def test_a_spare_tampered_with_is_never_trusted(
    with_spare: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project, spare, out = with_spare, spare_of(with_spare), with_spare / "generated"
    elsewhere = project / "elsewhere"
    elsewhere.mkdir()
    # A file replaced (another inode, other bytes) at the path of an unchanged output.
    (spare / "task" / "_b.py").unlink()
    (spare / "task" / "_b.py").write_text("tampered = True\n")
    # A symbolic link where the new tree has a folder, and one where it has a file.
    shutil.rmtree(spare / "providers")
    (spare / "providers").symlink_to(elsewhere, target_is_directory=True)
    (spare / "CLAUDE.md").unlink()
    (spare / "CLAUDE.md").symlink_to(elsewhere / "CLAUDE.md")
    # Stale caches, and entries the new tree does not have.
    (spare / "task" / "__pycache__").mkdir()
    (spare / "task" / "__pycache__" / "stale.pyc").write_bytes(b"stale")
    (spare / ".mypy_cache").mkdir()
    (spare / "extra.txt").write_text("extra")
    (spare / "junk" / "deep").mkdir(parents=True)
    # The output's own file replaced by a copy (as git checkout does): same bytes, but
    # no longer the spare's inode, so the spare's file must not stand for it.
    module = out / "task" / "_c.py"
    copy = module.read_bytes()
    module.unlink()
    module.write_bytes(copy)
    checked_out = module.stat().st_ino
    write_skill(project / "skills", "a", OK.format(name="a") + "Again.\n")
    assert run_skillc(capsys, "-C", str(project), "build")[0] == 0
    assert list(elsewhere.iterdir()) == []
    assert not (out / "task" / "__pycache__").exists()
    assert not (out / ".mypy_cache").exists()
    assert module.stat().st_ino == checked_out
    assert spare.is_dir()  # the tree just swapped out
    assert rebuilt_afresh(project, capsys) == tree(out)


class SameInodes:
    """``os.scandir``'s listing, with one inode number for every entry (as FUSE without
    use_ino gives): the writer must not rely on a listing's inode numbers."""

    def __init__(self, listing: Any) -> None:
        self.listing = listing

    def __enter__(self) -> SameInodes:
        return self

    def __exit__(self, *exc: object) -> None:
        self.listing.close()

    def __iter__(self) -> SameInodes:
        return self

    def __next__(self) -> SameInode:
        return SameInode(next(self.listing))

    def close(self) -> None:
        self.listing.close()


class SameInode:
    def __init__(self, entry: os.DirEntry[str]) -> None:
        self.entry = entry

    def __getattr__(self, name: str) -> Any:
        return getattr(self.entry, name)

    def inode(self) -> int:
        return 0xFFFFFFFF


def test_a_listing_without_true_inodes_is_not_believed(
    with_spare: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    project, spare = with_spare, spare_of(with_spare)
    (spare / "task" / "_b.py").unlink()
    (spare / "task" / "_b.py").write_text("tampered = True\n")
    real = os.scandir
    monkeypatch.setattr(os, "scandir", lambda *args: SameInodes(real(*args)))
    write_skill(project / "skills", "a", OK.format(name="a") + "Again.\n")
    code, err = run_skillc(capsys, "-C", str(project), "build")
    assert code == 0, err
    monkeypatch.undo()
    assert rebuilt_afresh(project, capsys) == tree(project / "generated")


def test_a_spare_that_is_a_link_is_not_followed(
    with_spare: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project, spare = with_spare, spare_of(with_spare)
    elsewhere = project / "elsewhere"
    spare.rename(elsewhere)
    spare.symlink_to(elsewhere, target_is_directory=True)
    kept = tree(elsewhere)
    write_skill(project / "skills", "b", OK.format(name="b") + "More.\n")
    assert run_skillc(capsys, "-C", str(project), "build")[0] == 0
    assert tree(elsewhere) == kept
    assert rebuilt_afresh(project, capsys) == tree(project / "generated")


def test_a_cache_on_another_file_system_deletes_the_old_tree(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The old tree cannot be renamed into a cache on another device: it is deleted;
    and a spare found there is left alone."""
    other = Path("/dev/shm")
    if not other.is_dir() or other.stat().st_dev == skills_project.stat().st_dev:
        pytest.skip("no second file system to put the cache on")
    project, spare = skills_project, spare_of(skills_project)
    with tempfile.TemporaryDirectory(dir=other) as cache:
        (project / ".skillc-cache").symlink_to(cache, target_is_directory=True)
        for name in "ab":
            write_skill(project / "skills", name, OK.format(name=name))
        assert run_skillc(capsys, "-C", str(project), "build")[0] == 0
        for round in range(2):
            if round:
                shutil.copytree(project / "generated", spare)
            planted = tree(spare)
            write_skill(
                project / "skills", "a", OK.format(name="a") + f"Round {round}.\n"
            )
            assert run_skillc(capsys, "-C", str(project), "build")[0] == 0
            assert sorted(p.name for p in project.iterdir()) == [
                ".skillc-cache",
                "generated",
                "pyproject.toml",
                "skills",
            ]
            assert tree(spare) == planted
        assert rebuilt_afresh(project, capsys) == tree(project / "generated")


def test_without_the_cache_the_old_tree_is_deleted(
    with_spare: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--no-cache neither takes nor leaves a spare; a cache folder that is gone is
    made again, and the next build keeps a spare in it."""
    project, spare = with_spare, spare_of(with_spare)
    kept = tree(spare)
    write_skill(project / "skills", "b", OK.format(name="b") + "More.\n")
    assert run_skillc(capsys, "-C", str(project), "build", "--no-cache")[0] == 0
    assert tree(spare) == kept
    assert [p.name for p in project.iterdir() if p.name.startswith(".generated")] == []
    shutil.rmtree(project / ".skillc-cache")
    for round in range(2):
        write_skill(project / "skills", "c", OK.format(name="c") + f"Round {round}.\n")
        assert run_skillc(capsys, "-C", str(project), "build")[0] == 0
    assert spare.is_dir()
    assert rebuilt_afresh(project, capsys) == tree(project / "generated")


def test_discovery_never_walks_into_the_spare(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The project itself as the source root: a skill inside the spare (which the cache
    folder holds) is not found."""
    project = skills_project
    (project / "pyproject.toml").write_text('[tool.skillc]\nsources = ["."]\n')
    write_skill(project / "skills", "a", OK.format(name="a"))
    for round in range(2):
        write_skill(project / "skills", "a", OK.format(name="a") + f"Round {round}.\n")
        assert run_skillc(capsys, "-C", str(project), "build")[0] == 0
    write_skill(spare_of(project), "planted", OK.format(name="planted"))
    write_skill(project / "skills", "a", OK.format(name="a") + "Again.\n")
    code, err = run_skillc(capsys, "-C", str(project), "build")
    assert code == 0 and "skillc: 1 tool;" in err, err
    assert (
        "planted" not in err
        and not (project / "generated" / "task" / "_planted.py").exists()
    )
