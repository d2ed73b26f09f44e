"""What a cold build (no output folder, no cache) costs in file-system work, counted
rather than timed: each input is read once."""

from __future__ import annotations

import builtins
import collections
import io
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from conftest import FIXTURE_PROJECT, run_skillc


def test_each_input_is_opened_once_per_cold_build(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hashing a skill's SKILL.md and metadata.yaml and loading them use the same bytes:
    each is read once (the old code read both twice)."""
    project = tmp_path / "project"
    shutil.copytree(FIXTURE_PROJECT, project)
    opened: collections.Counter[str] = collections.Counter()
    real_open = io.open

    def counting(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if isinstance(file, (str, os.PathLike)) and "r" in mode:
            path = os.path.realpath(file)
            if path.startswith(str(project.resolve()) + os.sep):
                opened[os.path.relpath(path, project.resolve())] += 1
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr(io, "open", counting)
    monkeypatch.setattr(builtins, "open", counting)
    code, err = run_skillc(capsys, "-C", str(project), "build")
    assert code == 0, err
    skills = [
        path
        for path in opened
        if os.path.basename(path) in ("SKILL.md", "metadata.yaml")
        and not path.startswith(("generated", ".skillc-cache"))
    ]
    assert len(skills) >= 4, opened  # the fixture's skills, one with metadata.yaml
    assert {path: opened[path] for path in skills if opened[path] > 1} == {}
