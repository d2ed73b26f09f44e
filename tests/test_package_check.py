"""``skillc check`` over the written packages (harness-packages): each read back from
disk as its client loads it. An untouched package gives no finding; a package edited
by hand (a written SKILL.md whose YAML breaks, a name that no longer matches its
folder, a manifest field of the wrong type, a marketplace field Cursor's closed schema
lacks, an extension without its version, a bundle of two top-level folders) gives
exactly one located ``package-refused`` error an edit, the others still checked."""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pytest
from conftest import built_fixture, run_skillc

PACKAGES = "kit/packages"
CODE = "package-refused"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tests/fixtures/packages built once (every package), never edited."""
    project = tmp_path_factory.mktemp("package-check") / "project"
    built_fixture("packages", project)
    return project


def _refused(err: str) -> list[str]:
    return sorted(line for line in err.splitlines() if f"error[{CODE}]" in line)


def _check(
    capsys: pytest.CaptureFixture[str], project: Path, report: Path
) -> tuple[int, list[str], list[dict[str, object]]]:
    status, err = run_skillc(
        capsys,
        "-C",
        str(project),
        "check",
        "--skip",
        "listing",
        "--report",
        str(report),
    )
    found = json.loads(report.read_text())["checks"]["packages"]
    return status, _refused(err), found


def test_an_untouched_package_gives_no_finding(
    built: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, refused, found = _check(capsys, built, tmp_path / "report.json")
    assert (status, refused, found) == (0, [], [])


def _json_edit(path: Path, edit: dict[str, object], drop: str = "") -> None:
    data = json.loads(path.read_text())
    data.update(edit)
    data.pop(drop, None)
    path.write_text(json.dumps(data, indent=2) + "\n")


def _two_folders(path: Path) -> None:
    """The bundle rewritten with a second top-level folder."""
    with zipfile.ZipFile(path) as archive:
        members = [(i.filename, archive.read(i)) for i in archive.infolist()]
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in [*members, ("extra/notes.md", b"More.\n")]:
            archive.writestr(name, data)


def test_each_edit_is_refused_at_its_file_and_the_others_still_checked(
    built: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "project"
    shutil.copytree(built, project)
    out = project / PACKAGES
    skill = out / "claude-code/kit/skills/greeter/SKILL.md"
    skill.write_text(skill.read_text().replace("description: ", "description: [", 1))
    renamed = out / "agent-plugins/kit/skills/greeter/SKILL.md"
    renamed.write_text(renamed.read_text().replace("name: greeter", "name: welcomer"))
    _json_edit(out / "cursor/kit/.cursor-plugin/plugin.json", {"description": 5})
    _json_edit(out / "cursor/.cursor-plugin/marketplace.json", {"version": "1.0.0"})
    _json_edit(out / "gemini-cli/notes-kit/gemini-extension.json", {}, drop="version")
    _two_folders(out / "openai-skills/greeter.zip")

    status, refused, found = _check(capsys, project, tmp_path / "report.json")
    assert status == 1
    at = {line.split(": error", 1)[0] for line in refused}
    assert at == {
        f"{PACKAGES}/claude-code/kit/skills/greeter/SKILL.md:4:1",
        f"{PACKAGES}/agent-plugins/kit/skills/greeter/SKILL.md:1:1",
        f"{PACKAGES}/cursor/kit/.cursor-plugin/plugin.json:3:3",
        f"{PACKAGES}/cursor/.cursor-plugin/marketplace.json:21:3",
        f"{PACKAGES}/gemini-cli/notes-kit/gemini-extension.json:1:1",
        f"{PACKAGES}/openai-skills/greeter.zip:1:1",
    }, refused
    said = "\n".join(refused)
    assert "agent-plugins: Agent Plugins skipped it: its name 'welcomer' is not" in said
    assert "spec/1.0.0.md@bd38355 §7.1" in said  # the rule's source
    assert "cursor: 'version' is not a field of a Cursor marketplace" in said
    assert "gemini-cli: the extension needs a version" in said
    assert "holds 2 top-level entries (extra, greeter), not one folder" in said
    # The zip's bytes are no longer the lock's either; the other bundle is untouched.
    assert "its sha256" in said and "anthropic-skills" not in said
    assert {f["client"] for f in found} == {
        "claude-code",
        "agent-plugins",
        "cursor",
        "gemini-cli",
        "openai-skills",
    }


def test_skip_leaves_the_packages_unchecked(
    built: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "project"
    shutil.copytree(built, project)
    _json_edit(
        project / PACKAGES / "gemini-cli/kit/gemini-extension.json", {"name": "a.b"}
    )
    status, err = run_skillc(
        capsys, "-C", str(project), "check", "--skip", "listing", "--skip", "packages"
    )
    assert CODE not in err
    status, err = run_skillc(capsys, "-C", str(project), "check", "--skip", "listing")
    assert status == 1
    assert _refused(err) == [
        f"{PACKAGES}/gemini-cli/kit/gemini-extension.json:2:3: error[{CODE}]: "
        "gemini-cli: name 'a.b': only letters, digits and dashes (google-gemini/"
        "gemini-cli packages/cli/src/config/extension-manager.ts@5411f11)"
    ]
