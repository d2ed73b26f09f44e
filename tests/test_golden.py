"""The generated tree for tests/fixtures/project, byte for byte.

When a change to the output is intended: nox -s tests -- --update-goldens
"""

from __future__ import annotations

import difflib
import shutil
from pathlib import Path

import pytest

from conftest import FIXTURES, GOLDEN, run_skillc, tree

UPDATE_HINT = "if the change is intended, run: nox -s tests -- --update-goldens"


@pytest.mark.parametrize("name", ["project", "tools", "market"])
def test_fixture_project_matches_golden(
    name: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    update_goldens: bool,
) -> None:
    """``project``: skills, subagents, plugins; ``tools``: every kind of tool manifest,
    skill scripts and the built-in namespaces; ``market``: a marketplace (an entry-defined
    plugin, a plugin with custom component paths, hooks, MCP servers, a remote entry)
    and commands, flat and in subfolders."""
    project = tmp_path / name
    shutil.copytree(FIXTURES / name, project)
    status, err = run_skillc(capsys, "-C", str(project), "build")
    assert status == 0, err
    produced = tree(project / "out")
    expected_dir = GOLDEN / name
    if update_goldens:
        shutil.rmtree(expected_dir, ignore_errors=True)
        shutil.copytree(project / "out", expected_dir)
        return
    expected = tree(expected_dir)
    assert sorted(produced) == sorted(expected), UPDATE_HINT
    for path, content in expected.items():
        if produced[path] != content:
            diff = "\n".join(
                difflib.unified_diff(
                    content.decode().splitlines(),
                    produced[path].decode().splitlines(),
                    f"golden/{path}",
                    f"built/{path}",
                    lineterm="",
                )
            )
            pytest.fail(f"{path} differs from its golden file:\n{diff}\n{UPDATE_HINT}")


def test_golden_diagnostics(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The fixture's deviations, each reported once, in order."""
    status, err = run_skillc(capsys, "-C", str(project), "validate")
    assert status == 0
    assert err.splitlines() == [
        "overrides/shared-name/SKILL.md:1:1: warning[override]: overrides skills/shared-name/SKILL.md (a later source root wins)",
        "skills/agents/odd-name.md:2:7: warning[invalid-name]: subagent name 'o\\'brien\"\"\"-x\\\\y' is used as it is (lowercase letters, digits and hyphens)",
        "skills/greeter/metadata.yaml:6:14: warning[metadata-conflict]: 'description' differs from skills/greeter/SKILL.md; the SKILL.md value is used",
        "skillc: 0 errors, 3 warnings",
    ]
