"""A build with nothing to do trusts file-system stamps (generator.stamps) instead of
walking the source roots and hashing every input: every change that matters must still
be seen, racy ones included, and an untouched project is neither walked nor read."""

from __future__ import annotations

import os
import pickle
import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import FIXTURE_PROJECT, run_skillc, tree, write_skill
from generator import cache, discover, pipeline, stamps
from generator.diagnostics import Report
from generator.ir import Kind

OK = "---\nname: {name}\ndescription: Does {name}.\n---\nBody of {name}.\n"


def build(capsys: pytest.CaptureFixture[str], project: Path) -> str:
    code, err = run_skillc(capsys, "-C", str(project), "build")
    assert code == 0, err
    return err


def clean_build(capsys: pytest.CaptureFixture[str], project: Path) -> dict[str, bytes]:
    """The output a build without any cache writes for ``project`` as it is now."""
    clean = project.parent / "clean"
    shutil.rmtree(clean, ignore_errors=True)
    shutil.copytree(
        project, clean, ignore=shutil.ignore_patterns("generated", ".skillc-cache")
    )
    assert run_skillc(capsys, "-C", str(clean), "build", "--no-cache")[0] == 0
    return tree(clean / "generated")


@pytest.fixture
def trusting(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stamps trusted as soon as they are older than the build that took them, as on a
    project left alone for a few seconds: the fast path taken whenever it may be."""
    monkeypatch.setattr(stamps, "SETTLE_NS", 0)


@pytest.fixture
def skills(skills_project: Path) -> Path:
    for name in ("alpha", "beta", "gamma"):
        write_skill(skills_project / "skills", name, OK.format(name=name))
    (skills_project / "skills" / "beta" / "references" / "deep").mkdir(parents=True)
    (skills_project / "skills" / "beta" / "references" / "deep" / "a.md").write_text(
        "a"
    )
    return skills_project


def _same_size_edit(project: Path) -> None:
    path = project / "skills" / "alpha" / "SKILL.md"
    path.write_text(path.read_text().replace("Body", "Bodz"))


def _new_skill(project: Path) -> None:
    write_skill(project / "skills", "delta", OK.format(name="delta"))


def _removed_skill(project: Path) -> None:
    shutil.rmtree(project / "skills" / "gamma")


def _renamed_folder(project: Path) -> None:
    (project / "skills" / "gamma").rename(project / "skills" / "gamma-two")


def _deep_bundled_file(project: Path) -> None:
    (project / "skills" / "beta" / "references" / "deep" / "b.md").write_text("b")


def _new_metadata(project: Path) -> None:
    (project / "skills" / "alpha" / "metadata.yaml").write_text("version: 2.0.0\n")


def _new_subagent(project: Path) -> None:
    (project / "skills" / "agents").mkdir()
    (project / "skills" / "agents" / "helper.md").write_text(
        "---\nname: helper\ndescription: Helps.\n---\nHelp.\n"
    )


def _linked_skill(project: Path) -> None:
    elsewhere = project / "elsewhere" / "linked"
    write_skill(elsewhere.parent, "linked", OK.format(name="linked"))
    (project / "skills" / "linked").symlink_to(elsewhere, target_is_directory=True)


@pytest.mark.parametrize(
    "change",
    [
        _same_size_edit,
        _new_skill,
        _removed_skill,
        _renamed_folder,
        _deep_bundled_file,
        _new_metadata,
        _new_subagent,
        _linked_skill,
    ],
)
def test_every_change_is_seen_through_trusted_stamps(
    skills: Path,
    capsys: pytest.CaptureFixture[str],
    trusting: None,
    change: Callable[[Path], None],
) -> None:
    build(capsys, skills)
    change(skills)
    assert "up to date" not in build(capsys, skills)
    assert tree(skills / "generated") == clean_build(capsys, skills)
    assert "up to date" in build(capsys, skills)


@pytest.fixture
def built(skills: Path, capsys: pytest.CaptureFixture[str], trusting: None) -> Path:
    build(capsys, skills)
    return skills


def test_an_untouched_project_is_neither_walked_nor_read(
    built: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("a no-op walked the sources or read an input")

    monkeypatch.setattr(discover, "discover", forbidden)
    monkeypatch.setattr(stamps, "_hashed", forbidden)
    assert "up to date" in build(capsys, built)


def test_a_touched_input_is_hashed_once_then_trusted(
    built: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    os.utime(built / "skills" / "alpha" / "SKILL.md")  # same bytes, new stamp
    hashed: list[str] = []
    real = stamps._hashed

    def counting(path: str) -> tuple[stamps.FileStamp, bytes | None]:
        hashed.append(os.path.basename(os.path.dirname(path)))
        return real(path)

    monkeypatch.setattr(stamps, "_hashed", counting)
    assert "up to date" in build(capsys, built)
    assert hashed == ["alpha"]
    assert "up to date" in build(capsys, built)
    assert hashed == ["alpha"]  # its new stamp was recorded by the no-op


def test_an_edit_that_keeps_every_stamp_is_seen(
    skills: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a file system whose clock ticks coarsely (1 s on some, 2 s on FAT), a file or
    folder changed within the tick of the build that recorded it keeps every timestamp
    and, edited in place to the same size, its whole stamp. Here the clock is frozen at
    the test's start: only the racy rule (a stamp younger than its build is not trusted)
    can see such changes."""
    frozen = time.time_ns()

    def frozen_clock(stat: os.stat_result) -> stamps.Signature:
        return stat.st_size, frozen, frozen, stat.st_ino

    monkeypatch.setattr(stamps, "signature", frozen_clock)
    build(capsys, skills)
    _same_size_edit(skills)
    _deep_bundled_file(skills)
    assert "up to date" not in build(capsys, skills)
    assert tree(skills / "generated") == clean_build(capsys, skills)


def test_walks_that_read_more_than_their_folders_record_no_folder_stamps(
    skills: Path, tmp_path: Path
) -> None:
    def folders(project: Path) -> dict[str, tuple[int, int]] | None:
        roots = [
            project / source
            for source in ("skills", "plugins", "overrides")
            if (project / source).is_dir()
        ]
        found = discover.discover(roots, project, project / "out", Report())
        return found.folders

    plain = folders(skills)
    assert plain is not None and str(skills / "skills" / "beta") in plain
    shutil.copytree(FIXTURE_PROJECT, tmp_path / "plugins-project")
    assert folders(tmp_path / "plugins-project") is None  # plugin manifests
    _linked_skill(skills)
    assert folders(skills) is None  # a symbolic link's target may change


def test_skillc_reads_its_own_sources_once(
    skills: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache, "_own_stamps", lambda: "stamps-of-skillc")
    build(capsys, skills)
    fingerprint = cache.Cache(skills).fingerprint

    def forbidden() -> str:
        raise AssertionError("skillc's sources read again")

    monkeypatch.setattr(cache, "generator_fingerprint", forbidden)
    assert cache.Cache(skills).fingerprint == fingerprint
    assert "up to date" in build(capsys, skills)
    monkeypatch.setattr(cache, "_own_stamps", lambda: "skillc-edited")
    with pytest.raises(AssertionError, match="sources read again"):
        cache.Cache(skills)


def test_an_edited_input_is_built_without_walking(
    built: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Folders unchanged, one input's bytes changed: the last walk's findings are used,
    and what the keys need of them is the digest kept with them (not a pass over every
    item again)."""
    real, listed = discover.discover, pipeline._listed

    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("the sources were walked, or their items listed, again")

    path = built / "skills" / "alpha" / "SKILL.md"
    path.write_text(path.read_text().replace("Does alpha", "Does alpha twice"))
    monkeypatch.setattr(discover, "discover", forbidden)
    monkeypatch.setattr(pipeline, "_listed", forbidden)
    assert "up to date" not in build(capsys, built)
    monkeypatch.setattr(discover, "discover", real)
    monkeypatch.setattr(pipeline, "_listed", listed)
    assert tree(built / "generated") == clean_build(capsys, built)


def test_a_walk_kept_as_rows_comes_back_equal(built: Path) -> None:
    """A rebuild that reuses the last walk makes its items from rows of text (see
    ``discover.Row``): each comes back equal, plugin paths included."""
    found = discover.discover(
        [built / "skills"], built, built / "generated", Report()
    ).found
    in_plugin = discover.Found(
        Kind.AGENT, Path("/p/agents/a.md"), 1, Path("/p/.claude-plugin/plugin.json")
    )
    rows = [discover.row(item) for item in (*found, in_plugin)]
    data = pickle.dumps(rows, pickle.HIGHEST_PROTOCOL)
    assert b"PosixPath" not in data and b"WindowsPath" not in data
    assert [discover.from_row(r) for r in pickle.loads(data)] == [*found, in_plugin]
