"""A no-op rebuild skips the walk and reads no input when every folder the last build's
walk listed, every folder and link in them, and every input still has the stat it had
(``digests.unchanged``, git's index rule). It must never skip a rebuild that is needed:
each change below is made after a no-op that did skip the walk, and the rebuild must
write what a clean build writes."""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import run_python, run_skillc, tree, write_skill
from skillc import digests, discover
from skillc.filestat import stat_of

OK = "---\nname: {name}\ndescription: Does {name}.\n---\nBody of {name}.\n"


def _age() -> None:
    """Let the clock pass the stats just made: a stat from the build's last few ms is
    not trusted (``digests.RACY_NS``), and that build would walk again."""
    time.sleep(3 * digests.RACY_NS / 1e9)


def _build(capsys: pytest.CaptureFixture[str], project: Path, *extra: str) -> str:
    code, err = run_skillc(capsys, "-C", str(project), "build", *extra)
    assert code == 0, err
    return err


@pytest.fixture
def walks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many times a discovery walked the sources."""
    counted: list[int] = []
    walk = discover.discover

    def counting(*args: object, **kwargs: object) -> discover.Discovery:
        counted.append(1)
        return walk(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(discover, "discover", counting)
    return counted


@pytest.fixture
def built(
    skills_project: Path,
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
) -> Path:
    """Skills a and b (b with a docs/ folder), a plugin's skill whose hidden
    .claude-plugin/ holds no manifest yet, and a linked folder outside the sources."""
    skills = skills_project / "skills"
    for name in ("a", "b"):
        write_skill(skills, name, OK.format(name=name))
    (skills / "b" / "docs").mkdir()
    (skills / "b" / "docs" / "notes.md").write_text("notes")
    write_skill(skills / "p" / "skills", "x", OK.format(name="x"))
    (skills / "p" / ".claude-plugin").mkdir()
    (skills / "p" / ".claude-plugin" / "README.txt").write_text("soon a plugin")
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    write_skill(elsewhere, "one", OK.format(name="one"))
    (skills / "linked").symlink_to(elsewhere)
    _age()
    _build(capsys, skills_project)
    return skills_project


def _edit_keeping_size_and_mtime(project: Path) -> None:
    path = project / "skills" / "a" / "SKILL.md"
    before = path.stat()
    path.write_text(OK.format(name="a").replace("Does a.", "Does A!"))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_size == before.st_size


def _add_a_skill(project: Path) -> None:
    write_skill(project / "skills", "c", OK.format(name="c"))


def _remove_a_skill(project: Path) -> None:
    shutil.rmtree(project / "skills" / "b")


def _rename_a_skill(project: Path) -> None:
    (project / "skills" / "b").rename(project / "skills" / "b2")


def _add_a_file_in_a_skill_subfolder(project: Path) -> None:
    (project / "skills" / "b" / "docs" / "more.md").write_text("more")


def _add_a_manifest_in_a_hidden_folder(project: Path) -> None:
    manifest = project / "skills" / "p" / ".claude-plugin" / "plugin.json"
    manifest.write_text('{"name": "p", "description": "A plugin."}')


def _add_a_skill_behind_a_link(project: Path) -> None:
    target = (project / "skills" / "linked").resolve()
    write_skill(target, "two", OK.format(name="two"))


def _change_a_setting(project: Path) -> None:
    pyproject = project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + 'regenerate = "make skills"\n')


def _delete_an_output(project: Path) -> None:
    (project / "generated" / "task" / "_a.py").unlink()


CHANGES: list[Callable[[Path], None]] = [
    _edit_keeping_size_and_mtime,
    _add_a_skill,
    _remove_a_skill,
    _rename_a_skill,
    _add_a_file_in_a_skill_subfolder,
    _add_a_manifest_in_a_hidden_folder,
    _add_a_skill_behind_a_link,
    _change_a_setting,
    _delete_an_output,
]


@pytest.mark.parametrize("change", CHANGES, ids=lambda change: change.__name__[1:])
def test_a_change_after_a_no_op_that_skipped_the_walk_is_built(
    built: Path,
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
    walks: list[int],
    change: Callable[[Path], None],
) -> None:
    assert "generated/ is up to date" in _build(capsys, built)
    assert walks == []  # the shortcut was taken
    before = tree(built / "generated")
    change(built)
    err = _build(capsys, built)
    assert "up to date" not in err and walks == [1]
    if change is not _delete_an_output:  # each change of an input shows in the output
        assert tree(built / "generated") != before
    clean = tmp_path_factory.mktemp("clean") / "project"
    shutil.copytree(
        built,
        clean,
        symlinks=True,
        ignore=shutil.ignore_patterns("generated"),
    )
    _build(capsys, clean, "--no-cache")
    assert tree(built / "generated") == tree(clean / "generated")


def test_a_touched_folder_is_walked_once_and_its_stat_kept(
    built: Path, capsys: pytest.CaptureFixture[str], walks: list[int]
) -> None:
    """A folder whose entries changed and changed back (a file made and removed) is
    walked; nothing changed, so the build is a no-op that keeps the new stats."""
    (built / "skills" / "a" / "scratch.txt").write_text("x")
    (built / "skills" / "a" / "scratch.txt").unlink()
    _age()
    assert "up to date" in _build(capsys, built) and walks == [1]
    assert "up to date" in _build(capsys, built) and walks == [1]


NO_OP = """
import json, sys
opened = []
def audit(event, args):
    if event in ("open", "os.scandir") and "/skills" in str(args[0]):
        opened.append(str(args[0]))
sys.addaudithook(audit)
from skillc import cli
status = cli.main(["-C", sys.argv[1], "build"])
print(json.dumps({"status": status, "opened": opened, "modules": sorted(sys.modules)}))
"""


def test_a_no_op_lists_no_source_folder_and_opens_no_input(built: Path) -> None:
    """In a fresh process: no source folder listed, no input opened, no plugin
    manifest read (neither discovery's plugins nor the plugin loader imported)."""
    done = run_python(NO_OP, built, str(built))
    assert done.returncode == 0, done.stderr
    assert "generated/ is up to date" in done.stderr
    result = json.loads(done.stdout)
    assert result["status"] == 0 and result["opened"] == []
    modules = set(result["modules"])
    assert not modules & {"skillc.discover_plugins", "skillc.loaders.plugin"}


def test_a_stat_from_the_racy_window_is_not_trusted(tmp_path: Path) -> None:
    """A stat as kept vouches for its file only when it is older than the build that
    took it, by more than a clock tick: a later edit in that tick would not show."""
    path = tmp_path / "a.md"
    path.write_text("a")
    seen = {str(path): stat_of(str(path))}
    newest = max(path.stat().st_mtime_ns, path.stat().st_ctime_ns)
    began = newest + digests.RACY_NS
    assert digests.unchanged(seen, began + 1)
    assert not digests.unchanged(seen, began)
    assert not digests.unchanged({str(tmp_path / "gone"): [0, 0, 0, 0]}, began + 1)
    assert digests.unchanged({str(tmp_path / "gone"): None}, began + 1)
