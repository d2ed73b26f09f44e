"""What the discovery walk and the loading of skills cost, counted rather than timed
(issue 17: a cold build of 20,000 skills near its floor): each folder's listing is
sorted once, loading looks at no link the walk already ruled out, a skill's definition
is made once, and names and tool lists already in their final form are not worked over
character by character."""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import run_skillc, write_skill
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


def _while_loading(
    monkeypatch: pytest.MonkeyPatch, loaded: list[Any] | None = None
) -> list[bool]:
    """A flag that is set while the build loads its skills, subagents and commands
    (which go to ``loaded``)."""
    from generator.pipeline import stages

    inside: list[bool] = []
    markdown = stages._Loading.markdown

    def loading(self: Any, items: Any) -> Any:
        inside.append(True)
        try:
            done = markdown(self, items)
        finally:
            inside.pop()
        if loaded is not None:
            loaded.extend(done)
        return done

    monkeypatch.setattr(stages._Loading, "markdown", loading)
    return inside


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


def test_loading_skills_looks_at_no_link_the_walk_ruled_out(
    skills_project: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The walk listed every skill folder and met no symbolic link: loading takes each
    file's real path from that, where the old loading ``lstat``-ed each SKILL.md and
    its folder again (the project's own folders are still looked at, once)."""
    _write_skills(skills_project)
    inside = _while_loading(monkeypatch)
    looks: list[Any] = []
    lstat = os.lstat

    def counting(path: Any, *args: Any, **kwargs: Any) -> Any:
        if inside:
            looks.append(path)
        return lstat(path, *args, **kwargs)

    monkeypatch.setattr(os, "lstat", counting)
    code, err = run_skillc(capsys, "-C", str(skills_project), "build")
    assert code == 0, err
    assert f"{SKILLS} tools" in err
    root = os.path.join(skills_project, "skills", "")
    assert [path for path in looks if os.fspath(path).startswith(root)] == []
    # the source root and the folders above it, once each
    assert len(looks) <= len(skills_project.parts) + 1


def test_a_link_the_walk_met_is_still_looked_at(
    skills_project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A SKILL.md that links outside the project still gets its warning: a walk that
    meets a link vouches for no folder."""
    _write_skills(skills_project, 3)
    outside = tmp_path.parent / f"{tmp_path.name}-outside"
    outside.mkdir()
    target = outside / "SKILL.md"
    target.write_text("---\nname: linked\ndescription: Linked.\n---\nBody.\n")
    (skills_project / "skills" / "linked").mkdir()
    (skills_project / "skills" / "linked" / "SKILL.md").symlink_to(target)
    code, err = run_skillc(capsys, "-C", str(skills_project), "build")
    assert code == 0, err
    assert "skills/linked/SKILL.md:1:1: warning[symlink-outside-project]" in err


def test_a_loaded_skill_is_made_once(
    skills_project: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Its digest is set on the definition the loader made, which nothing else holds
    yet: the old loading copied every definition to set it."""
    from generator.ir import Definition

    _write_skills(skills_project)
    loaded: list[Any] = []
    inside = _while_loading(monkeypatch, loaded)
    made: list[Any] = []
    init = Definition.__init__

    def counting(self: Any, *args: Any, **kwargs: Any) -> None:
        if inside:
            made.append(args)
        init(self, *args, **kwargs)

    monkeypatch.setattr(Definition, "__init__", counting)
    code, err = run_skillc(capsys, "-C", str(skills_project), "build")
    assert code == 0, err
    assert len(made) == SKILLS
    assert len(loaded) == SKILLS
    assert all(len(definition.digest) == 64 for definition in loaded)


def test_names_in_their_final_form_are_not_normalised_again(
    skills_project: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A folder and frontmatter name that already keep the spec's rule are their own
    skill name; the old loading normalised both of every skill (NFKC and two regular
    expressions). Any other name still is, with its warning."""
    from generator.loaders import skill

    _write_skills(skills_project)
    write_skill(
        skills_project / "skills",
        "PDF_Tools",
        "---\nname: PDF Tools\ndescription: Pdf.\n---\nBody.\n",
    )
    normalised: list[Any] = []
    monkeypatch.setattr(skill, "skill_name", _counting(normalised, skill.skill_name))
    code, err = run_skillc(capsys, "-C", str(skills_project), "build")
    assert code == 0, err
    assert normalised == [("PDF_Tools",), ("PDF Tools",)]
    assert "folder name 'PDF_Tools' is read as 'pdf-tools'" in err


def _names(seed: int) -> Iterator[str]:
    alphabet = "abz09-_ .A\u00c9\u2160\ufb01\t-"
    rng = random.Random(seed)
    for _ in range(3000):
        yield "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 8)))


def test_a_name_is_its_own_skill_name_only_when_normalising_keeps_it() -> None:
    from generator.loaders import skill
    from generator.names import skill_name

    names = [*_names(17), "skill-1", "a--b", "-a", "a-", "A", "\u2160"]
    for name in names:
        assert skill._normalised(name) == skill_name(name), name


def test_a_tool_list_without_parentheses_is_split_without_a_scan(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without ``(`` no separator is nested, so the list is split as a whole (the old
    split looked at each character, twice); with one, as before."""
    from generator.loaders import fields

    scans: list[Any] = []
    scan = fields._has_top_level_comma
    monkeypatch.setattr(fields, "_has_top_level_comma", _counting(scans, scan))
    assert fields.split_tool_list("Read Grep") == ("Read", "Grep")
    assert fields.split_tool_list(" Read,  Grep ,") == ("Read", "Grep")
    assert scans == []
    assert fields.split_tool_list("Bash(git add:*), Read") == (
        "Bash(git add:*)",
        "Read",
    )
    assert len(scans) == 1


def test_a_tool_list_splits_alike_with_and_without_parentheses() -> None:
    """The whole-list split agrees with the one that looks at each character: the
    same list with a last item ``()`` appended goes through the latter."""
    from generator.loaders.fields import split_tool_list

    rng = random.Random(5)
    alphabet = "ab ,\t\u3000\u00a0\x1c)\n"
    for _ in range(5000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        longer = text + ("," if "," in text else " ") + "()"
        assert split_tool_list(longer)[:-1] == split_tool_list(text), repr(text)
