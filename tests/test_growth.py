"""A one-change rebuild costs the no-op plus what changed (issue 17): beyond stat-ing
every listed folder, input and output (which the no-op does too, since nothing on disk
is trusted), it must not go over every item of the project. Proved by counting the work
done, not by timing it: a rebuild that splices one changed skill into a project of many
must make no Found of the others, and take each output file's stat once."""

from __future__ import annotations

import os
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from conftest import run_skillc, tree, write_skill
from generator import discover, stamps, writer

OK = "---\nname: {name}\ndescription: Does {name}.\n---\nBody of {name}.\n"
SKILLS = 40
SPLICED = "spliced the changed tools into the last build"


@pytest.fixture
def many(
    skills_project: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> Path:
    """A project of SKILLS skills, built twice (so the cache holds a spare), with its
    stamps trusted at once (as on a project left alone for a few seconds)."""
    monkeypatch.setattr(stamps, "SETTLE_NS", 0)
    for number in range(SKILLS):
        write_skill(skills_project / "skills", f"s{number}", OK.format(name=number))
    for text in ("first", "then"):
        edit(skills_project, text)
        assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    return skills_project


def edit(project: Path, text: str) -> None:
    """A change of one skill's body: the same folders, one input's bytes."""
    path = project / "skills" / "s7" / "SKILL.md"
    path.write_text(OK.format(name=7) + f"{text}\n")


def rebuild(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run_skillc(capsys, "-C", str(project), "build", "-v")
    assert code == 0, err
    assert SPLICED in err


def test_a_one_change_rebuild_makes_no_found_item_of_the_others(
    many: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """The last walk is reused as stored rows: only the changed skill's item (and its
    Paths) is made again, not one per skill."""
    made: list[Path] = []
    real = discover.Found.__init__

    def counted(self: discover.Found, *args: Any, **kwargs: Any) -> None:
        real(self, *args, **kwargs)
        made.append(self.path)

    monkeypatch.setattr(discover.Found, "__init__", counted)
    edit(many, "second")
    rebuild(many, capsys)
    assert [path.parent.name for path in made] == ["s7"]
    monkeypatch.undo()
    assert tree(many / "generated") == afresh(
        many, capsys, tmp_path_factory.mktemp("clean")
    )


class Counting:
    """``os.scandir``'s listing, counting each entry's ``stat`` by path."""

    def __init__(self, listing: Any, calls: Counter[str]) -> None:
        self.listing, self.calls = listing, calls

    def __enter__(self) -> Counting:
        return self

    def __exit__(self, *exc: object) -> None:
        self.listing.close()

    def __iter__(self) -> Counting:
        return self

    def __next__(self) -> Entry:
        return Entry(next(self.listing), self.calls)


class Entry:
    def __init__(self, entry: os.DirEntry[str], calls: Counter[str]) -> None:
        self.entry, self.calls = entry, calls

    def __getattr__(self, name: str) -> Any:
        return getattr(self.entry, name)

    def stat(self, **kwargs: Any) -> os.stat_result:
        self.calls[self.entry.path] += 1
        return self.entry.stat(**kwargs)


def test_each_unchanged_output_is_stated_once(
    many: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """The check that the output is as the last build wrote it stats every output file;
    the writer compares each spare file with what that found, instead of stat-ing the
    output's file again (the spare's own file is still stat-ed: nothing in it is
    trusted)."""
    out = os.fspath(many / "generated") + os.sep
    calls: Counter[str] = Counter()
    for name in ("stat", "lstat"):

        def counted(
            path: Any, *args: Any, _real: Any = getattr(os, name), **kwargs: Any
        ) -> Any:
            calls[os.fspath(path)] += 1
            return _real(path, *args, **kwargs)

        monkeypatch.setattr(os, name, counted)
    real_scandir = os.scandir
    monkeypatch.setattr(os, "scandir", lambda *a: Counting(real_scandir(*a), calls))
    written: list[str] = []
    real_write = writer.write

    def write(*args: Any, **kwargs: Any) -> tuple[str, ...]:
        written.extend(real_write(*args, **kwargs))
        return tuple(written)

    monkeypatch.setattr(writer, "write", write)
    edit(many, "second")
    rebuild(many, capsys)
    monkeypatch.undo()
    unchanged = [p for p in tree(many / "generated") if p not in written]
    assert len(unchanged) > SKILLS
    assert {p: calls[out + p] for p in unchanged} == dict.fromkeys(unchanged, 1)
    spare = os.fspath(many / "generated").rsplit(os.sep, 1)
    staged = f"{spare[0]}{os.sep}.{spare[1]}.skillc-new{os.sep}"
    assert {p: calls[staged + p] for p in unchanged} == dict.fromkeys(unchanged, 1)
    assert tree(many / "generated") == afresh(
        many, capsys, tmp_path_factory.mktemp("clean")
    )


def afresh(
    project: Path, capsys: pytest.CaptureFixture[str], beside: Path
) -> dict[str, bytes]:
    """The output a build with neither output nor cache writes for ``project`` (copied
    into ``beside``)."""
    clean = beside / "clean"
    shutil.copytree(
        project, clean, ignore=shutil.ignore_patterns("generated", ".skillc-cache")
    )
    assert run_skillc(capsys, "-C", str(clean), "build", "--no-cache")[0] == 0
    return tree(clean / "generated")
