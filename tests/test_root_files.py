"""``harness-root-files``: the marketplace each client reads at a repository's root
when a user installs from its git URL, written at the project root and pointing into
the written packages (tests/fixtures/packages; goldens in tests/golden/root-files).
Owned through the lock like the output folder: recorded with digests, stale for
``skillc build --check`` when missing or edited, a file skillc did not write there
never overwritten (an error at it, nothing written), removed once its client is left
out of the setting."""

from __future__ import annotations

import contextlib
import hashlib
import json
import shutil
from pathlib import Path

import pytest

from conftest import FIXTURES, GOLDEN, match_golden, run_skillc

ROOT_FILES = (
    ".agents/plugins/marketplace.json",
    ".claude-plugin/marketplace.json",
    ".cursor-plugin/marketplace.json",
)
EXPECTED = GOLDEN / "root-files"


@pytest.fixture
def project(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """tests/fixtures/packages, built."""
    folder = tmp_path / "project"
    shutil.copytree(FIXTURES / "packages", folder)
    status, err = run_skillc(capsys, "-C", str(folder), "build")
    assert status == 0, err
    assert "3 files at the project root updated" in err
    return folder


def _root_files(folder: Path) -> dict[str, bytes]:
    return {path: (folder / path).read_bytes() for path in ROOT_FILES}


def test_the_root_files_match_their_goldens_and_the_lock_records_them(
    project: Path, update_goldens: bool
) -> None:
    produced = _root_files(project)
    match_golden(produced, EXPECTED, update_goldens)
    lock = json.loads((project / "kit/skillc.lock.json").read_text())
    assert lock["root-files"] == [
        {"path": path, "sha256": hashlib.sha256(data).hexdigest()}
        for path, data in sorted(produced.items())
    ]
    # Each plugin the root marketplace lists is a folder of the written package.
    claude = json.loads(produced[".claude-plugin/marketplace.json"])
    for entry in claude["plugins"]:
        assert (project / entry["source"] / ".claude-plugin/plugin.json").is_file()
    codex = json.loads(produced[".agents/plugins/marketplace.json"])
    for entry in codex["plugins"]:
        assert (
            project / entry["source"]["path"] / ".codex-plugin/plugin.json"
        ).is_file()


def test_a_missing_root_file_is_stale_and_rebuilt(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    written = (project / ROOT_FILES[1]).read_bytes()
    (project / ROOT_FILES[1]).unlink()
    status, err = run_skillc(capsys, "-C", str(project), "build", "--check")
    assert status == 1
    assert f"missing: {ROOT_FILES[1]}" in err.splitlines()
    assert "is stale; run: skillc build (1 at the project root)" in err
    status, err = run_skillc(capsys, "-C", str(project), "check", "--skip", "listing")
    assert status == 1 and f"missing: {ROOT_FILES[1]}" in err.splitlines()
    # The build with nothing else to do notices it, and writes it again.
    status, err = run_skillc(capsys, "-C", str(project), "build")
    assert status == 0 and "1 file at the project root updated" in err
    assert (project / ROOT_FILES[1]).read_bytes() == written
    assert run_skillc(capsys, "-C", str(project), "build", "--check")[0] == 0


def test_an_edited_root_file_is_never_overwritten(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = b'{"name": "mine", "plugins": []}\n'
    (project / ROOT_FILES[2]).write_bytes(mine)
    lock = (project / "kit/skillc.lock.json").read_bytes()
    status, err = run_skillc(capsys, "-C", str(project), "build", "--check")
    assert status == 1
    assert f"changed: {ROOT_FILES[2]} (edited since skillc wrote it)" in err
    status, err = run_skillc(capsys, "-C", str(project), "build")
    assert status == 1
    assert (
        f"{ROOT_FILES[2]}:1:1: error[root-file-not-owned]: edited since skillc wrote "
        "it: harness-root-files would replace or remove it"
    ) in err
    assert (project / ROOT_FILES[2]).read_bytes() == mine
    assert (project / "kit/skillc.lock.json").read_bytes() == lock


def test_a_users_own_file_at_that_path_stops_the_first_build(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "project"
    shutil.copytree(FIXTURES / "packages", folder)
    mine = folder / ROOT_FILES[1]
    mine.parent.mkdir(parents=True)
    mine.write_text('{"name": "mine", "owner": {"name": "me"}, "plugins": []}\n')
    status, err = run_skillc(capsys, "-C", str(folder), "build")
    assert status == 1
    assert (
        f"{ROOT_FILES[1]}:1:1: error[root-file-not-owned]: not written by skillc"
    ) in err
    assert not (folder / "kit").exists() and not (folder / ROOT_FILES[0]).exists()
    assert json.loads(mine.read_text())["name"] == "mine"


def test_a_file_where_a_root_files_folder_would_be_stops_the_build(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file named .claude-plugin: writing the marketplace would trip over it after
    the output folder was written; it is found first, and nothing is written."""
    folder = tmp_path / "project"
    shutil.copytree(FIXTURES / "packages", folder)
    (folder / ".claude-plugin").write_text("mine\n")
    status, err = run_skillc(capsys, "-C", str(folder), "build")
    assert status == 1 and "Traceback" not in err
    assert (
        f"{ROOT_FILES[1]}:1:1: error[root-file-not-owned]: its folder .claude-plugin "
        "is a file"
    ) in err
    assert not (folder / "kit").exists() and not (folder / ROOT_FILES[0]).exists()
    assert (folder / ".claude-plugin").read_text() == "mine\n"


def test_a_client_left_out_of_the_setting_has_its_file_removed(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = project / "pyproject.toml"
    text = settings.read_text().replace(
        '["claude-code", "codex", "cursor"]', '["claude-code"]'
    )
    settings.write_text(text)
    status, err = run_skillc(capsys, "-C", str(project), "build")
    assert status == 0, err
    assert "2 files at the project root updated" in err
    assert [p for p in ROOT_FILES if (project / p).exists()] == [ROOT_FILES[1]]


def test_skillsaw_reads_the_root_marketplaces_without_error(
    project: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A repository of the root files and the packages they point into, as a user
    installing from its git URL gets it, linted by a consumer that is not skillc (its
    marketplace rules resolve each local source)."""
    skillsaw = pytest.importorskip("skillsaw.cli")  # the tests' tool (noxfile)
    repository = tmp_path / "repository"
    for path in ROOT_FILES:
        (repository / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(project / path, repository / path)
    for client in ("claude-code", "codex", "cursor"):
        shutil.copytree(
            project / "kit/packages" / client, repository / "kit/packages" / client
        )
    monkeypatch.setattr(
        "sys.argv", ["skillsaw", "lint", str(repository), "--format", "json"]
    )
    capsys.readouterr()
    with contextlib.suppress(SystemExit):  # exit status 1 on errors: read below
        skillsaw.main()
    found = json.loads(capsys.readouterr().out)
    errors = [v for v in found["violations"] if v["severity"] == "error"]
    assert found["summary"]["errors"] == 0 and not errors, errors
