"""Manifests loaded over two cores (generator/pipeline/stages.py, ``_Loading._tools``):
the split halves the manifests by count, so they are ordered for halves of about the
same bytes. Real catalogues are a few large manifests beside many small ones; split in
path order, one core loaded nearly all the tools while the other idled."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from generator import cli
from generator.pipeline import parallel, stages

TOOL = """\
  - name: tool{number}
    description: Tool number {number}.
    parameters:
      type: object
      properties:
        text:
          type: string
    executor:
      type: http
      url: https://example.com/call
"""


def _write(project: Path, name: str, tools: int) -> None:
    folder = project / "tools" / name
    folder.mkdir(parents=True)
    text = f"namespace: {name}\ntools:\n" + "".join(
        TOOL.format(number=n) for n in range(tools)
    )
    (folder / "tool-manifest.yaml").write_text(text, encoding="utf-8")


def test_the_halves_hold_about_as_many_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "project"
    for number in range(5):  # large ones first in path order
        _write(project, f"big{number}", 40)
    for number in range(8):
        _write(project, f"small{number}", 1)
    (project / "pyproject.toml").write_text('[tool.skillc]\nsources = ["tools"]\n')
    order: list[Path] = []
    load = stages._Loading._load_tools

    def recorded(self: stages._Loading, item, *args):  # type: ignore[no-untyped-def]
        order.append(item.path)
        return load(self, item, *args)

    monkeypatch.setattr(stages._Loading, "_load_tools", recorded)
    monkeypatch.setattr(parallel, "_cores", lambda: 1)  # both halves here, in order
    with contextlib.redirect_stderr(io.StringIO()) as err:
        assert cli.main(["-C", str(project), "build", "--no-cache"]) == 0, err
    manifests = [p for p in order if p.is_relative_to(project)]
    assert len(manifests) == 13
    sizes = [p.stat().st_size for p in manifests]
    first, second = sum(sizes[: len(sizes) // 2]), sum(sizes[len(sizes) // 2 :])
    assert abs(first - second) <= max(sizes)
