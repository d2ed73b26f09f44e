"""What the discovery walk costs, counted rather than timed (issue 17: a cold build of
20,000 skills near its floor): each folder's listing is sorted once."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import write_skill
from generator.diagnostics import Report

SKILLS = 30


def _write_skills(project: Path, count: int = SKILLS) -> None:
    for number in range(count):
        write_skill(
            project / "skills",
            f"skill-{number}",
            f"---\nname: skill-{number}\ndescription: Does {number}.\n"
            "allowed-tools: Read Grep\n---\nBody.\n",
        )


def _counting(calls: list[Any], function: Callable[..., Any]) -> Callable[..., Any]:
    def run(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return function(*args, **kwargs)

    return run


def test_the_walk_sorts_each_folders_listing_once(
    skills_project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One sort per folder (its entries; a skill's bundled files once more), one
    ``stat`` and one listing: the old walk sorted each skill folder's names three more
    times."""
    from generator import discover

    _write_skills(skills_project)
    sorts: list[Any] = []
    stats: list[Any] = []
    listings: list[Any] = []
    monkeypatch.setattr(discover, "sorted", _counting(sorts, sorted), raising=False)
    monkeypatch.setattr(os, "stat", _counting(stats, os.stat))
    monkeypatch.setattr(os, "scandir", _counting(listings, os.scandir))
    found = discover.discover(
        [skills_project / "skills"],
        skills_project,
        skills_project / "generated",
        Report(),
    )
    assert len(found.found) == SKILLS
    folders = SKILLS + 1  # and skills/ itself
    assert found.folders is not None and len(found.folders) == folders
    assert sorted(os.fspath(args[0]) for args in listings) == sorted(found.folders)
    stated = [os.fspath(args[0]) for args in stats]
    assert sorted(path for path in stated if path in found.folders) == sorted(
        found.folders
    )
    # each folder's entries, each skill's files, the inputs and what was not compiled
    assert len(sorts) <= folders + SKILLS + 2
