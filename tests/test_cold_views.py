"""What a cold build does per tool from the model to the output, counted rather than
timed: each tool and each view is made once (never copied to set a field), what all
views share is worked out once, the provider files take each tool's line as it is, and
the find_tool index is joined by another process while this one joins the rest."""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import run_skillc, tree
from test_cold_build import _write_skills
from generator.emitters import lock_report, provider_files, profiles, search_index
from generator.emitters.providers import anthropic
from generator.ir import Tool
from generator.pipeline import parallel
from generator.views import Layout, ToolView, pylit


def _counted(
    monkeypatch: pytest.MonkeyPatch, owner: Any, name: str
) -> list[tuple[Any, ...]]:
    """The arguments of each call of ``owner.name`` from now on."""
    calls: list[tuple[Any, ...]] = []
    original: Callable[..., Any] = getattr(owner, name)

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, counting)
    return calls


def _build(capsys: pytest.CaptureFixture[str], project: Path) -> int:
    """A cold build of ``project`` in this process; how many tools it has."""
    code, err = run_skillc(capsys, "-C", str(project), "build")
    assert code == 0, err
    found = re.search(r"(\d+) tools", err)
    assert found is not None, err
    return int(found.group(1))


@pytest.mark.parametrize("fixture", ["project", "tools_project"])
def test_each_tool_and_view_is_made_once(
    fixture: str,
    request: pytest.FixtureRequest,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Resolution gives a tool its aliases and provider names before making it, and a
    view is completed with its fragments in place: the old code copied every tool twice
    and every view once (``dataclasses.replace``), a tenth of the views' work."""
    project = request.getfixturevalue(fixture)
    monkeypatch.setattr(parallel, "MIN_ITEMS", 1 << 30)  # every view made here
    tools = _counted(monkeypatch, Tool, "__init__")
    views = _counted(monkeypatch, ToolView, "__init__")
    count = _build(capsys, project)
    assert count > 5
    assert (len(tools), len(views)) == (count, count)


def test_what_every_view_shares_is_shown_once(
    skills_project: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A view's memo key holds the layout and the build's settings: shown (``repr``)
    once per build, not once per tool as before."""
    _write_skills(skills_project, 40)
    shown = _counted(monkeypatch, Layout, "__repr__")
    assert _build(capsys, skills_project) == 40
    assert len(shown) <= 2


def test_provider_files_take_each_tools_line_as_it_is(
    project: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without always-loaded tools, profiles or conflicts, joining the provider files
    asks no tool which of its lines to take, and no built-in profile which tools it
    sees to check conflicts (the old code did both, for every tool and file)."""
    lines = _counted(monkeypatch, provider_files, "_line")
    seen = _counted(monkeypatch, profiles, "check_conflicts")
    assert _build(capsys, project) > 5
    assert (lines, seen) == ([], [])
    # The files are still joined as they were: one line per tool offered to models.
    anthropic_file = json.loads((project / "out/providers/anthropic.json").read_text())
    names = json.loads((project / "out/providers/names.json").read_text())
    assert [t["name"] for t in anthropic_file] == [
        names["to_provider"][qualname]["anthropic"] for qualname in names["to_provider"]
    ]


def test_encoders_used_per_tool_skip_the_cycle_check() -> None:
    """JSON made of the model has no cycles; checking for them costs more than encoding
    a tool's small entry (about ten per tool, for the provider files)."""
    for encoder in (provider_files._ENCODER, anthropic._ENCODER, lock_report._ENCODER):
        assert not encoder.check_circular


@pytest.mark.skipif(parallel._cores() < 2, reason="one core: everything runs here")
def test_the_index_is_joined_by_another_process_with_many_tools(
    skills_project: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """With many tools, ``_search_index.py`` and ``_search_vectors.py`` are joined by a
    forked process while this one joins the package, agent docs and provider files
    (the old code joined them here, one after the other); the bytes are the same."""
    _write_skills(skills_project, 12)
    _build(capsys, skills_project)
    alone = tree(skills_project / "generated")
    record = tmp_path / "pids"
    original = search_index.emit

    def emit(*args: Any) -> dict[str, str]:
        with record.open("a") as pids:
            pids.write(f"{os.getpid()}\n")
        return original(*args)

    monkeypatch.setattr(search_index, "emit", emit)
    monkeypatch.setattr(parallel, "MIN_ITEMS", 10)
    for folder in ("generated", ".skillc-cache"):
        shutil.rmtree(skills_project / folder)
    _build(capsys, skills_project)
    assert record.read_text().split() != [str(os.getpid())]
    assert len(record.read_text().split()) == 1
    assert tree(skills_project / "generated") == alone


def test_a_long_text_is_not_quoted_whole_only_to_be_measured(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A module's help and instructions are longer than a line: ``pyassign`` writes
    them a line at a time without first quoting the whole text to see whether it fits
    (the old code did, twice per task tool)."""
    text = "".join(
        f"Step {n}: check the change and say what you find.\n" for n in range(9)
    )
    expected = pylit.pyassign("_HELP", text)
    quoted = _counted(monkeypatch, pylit, "pystr")
    assert pylit.pyassign("_HELP", text) == expected
    assert quoted == []
    assert pylit.pyassign("_HELP", "short") == '_HELP = "short"'
