"""The same inputs give byte-identical output: from another working directory, under
another hash seed, and on a rebuild."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES, tree


def build(project: Path, cwd: Path, seed: str) -> None:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    subprocess.run(
        [sys.executable, "-m", "skillc", "-C", str(project), "build"],
        cwd=cwd,
        env=env,
        check=True,
        capture_output=True,
    )


@pytest.fixture(params=["project", "tools"])
def any_project(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """Each fixture: skills and plugins, and tool manifests with built-ins."""
    target = tmp_path / str(request.param)
    shutil.copytree(FIXTURES / str(request.param), target)
    return target


def test_two_builds_are_byte_identical(any_project: Path, tmp_path: Path) -> None:
    project = any_project
    build(project, project, "1")
    first = tree(project / "out")
    (project / "out" / "_index.py").unlink()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    build(project, elsewhere, "2")
    assert tree(project / "out") == first


def test_copy_of_project_in_another_place_builds_the_same(
    any_project: Path, tmp_path: Path
) -> None:
    project = any_project
    other = tmp_path / "deeper" / "copy"
    shutil.copytree(project, other)
    build(project, tmp_path, "3")
    build(other, tmp_path, "4")
    assert tree(project / "out") == tree(other / "out")


def test_output_holds_no_absolute_paths_or_times(any_project: Path) -> None:
    project = any_project
    build(project, project, "5")
    for path, content in tree(project / "out").items():
        text = content.decode()
        assert str(project) not in text, path
        assert str(Path.home()) not in text, path
