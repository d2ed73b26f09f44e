"""A one-change rebuild costs the no-op plus what changed (issue 17): beyond stat-ing
every listed folder, input and output (which the no-op does too, since nothing on disk
is trusted), it must not go over every item of the project. Proved by counting the work
done, not by timing it: a rebuild that splices one changed skill into a project of many
must make no Found of the others, and take each output file's stat once."""

from __future__ import annotations

import os
import pickle
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from conftest import run_skillc, tree, write_skill
from generator import cache, discover, stamps, writer

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


def test_a_one_change_rebuild_stores_the_state_as_its_changes(
    many: Path,
    capsys: pytest.CaptureFixture[str],
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """The whole state (every output's and input's stamp) is not written again for a
    few changed entries: only the changes since it, which read back as the state the
    build stored. A lost or broken changes file leaves an older state, which the next
    build finds out of date (never trusted for the output it no longer describes)."""
    folder = many / cache.CACHE_DIR
    whole, since = folder / "state.pickle", folder / "state-since.pickle"
    before = whole.stat()
    for text in ("second", "third"):
        edit(many, text)
        rebuild(many, capsys)
        after = whole.stat()
        assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
        assert since.stat().st_size < before.st_size // 10
        read = cache.Cache(many).state
        assert read.key and read.stamps is not None
        assert sorted(read.outputs) == sorted(tree(many / "generated"))
        assert "up to date" in run_skillc(capsys, "-C", str(many), "build")[1]
    for lost in (since.unlink, lambda: since.write_bytes(b"not a pickle")):
        edit(many, f"lost {lost}")
        rebuild(many, capsys)
        lost()
        assert "up to date" not in run_skillc(capsys, "-C", str(many), "build")[1]
        beside = tmp_path_factory.mktemp("clean")
        assert tree(many / "generated") == afresh(many, capsys, beside)


def test_a_rebuild_reads_shards_of_a_few_entries_at_any_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A memo made with many entries has more shards, so that reading one entry (as
    a one-change rebuild does) unpickles a few others, not a share of the project."""
    path = tmp_path / "memo.sqlite"
    memo = cache.Memo(path, "x")
    keys = [cache.content_key(number) for number in range(20_000)]
    for key in keys:
        memo.put(key, key[:8])
    memo.save()
    loaded: list[int] = []
    real = pickle.loads

    def counted(data: bytes) -> Any:
        value = real(data)
        loaded.append(len(value))
        return value

    partial = cache.Memo(path, "x", partial=True)
    monkeypatch.setattr(pickle, "loads", counted)
    assert partial.get(keys[1234]) == keys[1234][:8]
    monkeypatch.undo()
    assert loaded and max(loaded) <= 16  # 256 shards held 80 entries each
    again = cache.Memo(path, "x")  # and a full build still finds every entry
    assert all(again.get(key) == key[:8] for key in keys)


def largest(value: object, depth: int = 4) -> int:
    """The most entries any dict, list, tuple or set in ``value`` holds (looking
    ``depth`` levels into containers and objects)."""
    if isinstance(value, (dict, list, tuple, set, frozenset)):
        inner = value.values() if isinstance(value, dict) else value
        below = [largest(item, depth - 1) for item in inner] if depth else []
        return max([len(value), *below])
    fields = getattr(value, "__dict__", None)
    if fields is None and hasattr(value, "__slots__"):
        fields = {name: getattr(value, name, None) for name in value.__slots__}
    return largest(list(fields.values()), depth - 1) if fields and depth else 0


class Unpickled:
    """The largest container unpickled, the whole state aside (every output's and
    input's stamp: the no-op reads it too)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.most = 0
        real_load, real_loads = pickle.load, pickle.loads

        def load(handle: Any, **kwargs: Any) -> Any:
            value = real_load(handle, **kwargs)
            if not handle.name.endswith(os.sep + "state.pickle"):
                self.most = max(self.most, largest(value))
            return value

        def loads(data: bytes, **kwargs: Any) -> Any:
            value = real_loads(data, **kwargs)
            self.most = max(self.most, largest(value))
            return value

        monkeypatch.setattr(pickle, "load", load)
        monkeypatch.setattr(pickle, "loads", loads)


def test_a_one_change_rebuild_unpickles_nothing_of_every_item(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The delta's base, the last walk and the memo are read by the entries of the
    changed skill: nothing unpickled holds an entry per skill (what is kept of the
    walk holds a pickle per 16), and four times the skills unpickle no more."""
    monkeypatch.setattr(stamps, "SETTLE_NS", 0)
    most = []
    for size in (45, 180):
        project = tmp_path / str(size)
        for number in range(size):
            write_skill(project / "skills", f"s{number}", OK.format(name=number))
        (project / "pyproject.toml").write_text('[tool.skillc]\nsources = ["skills"]\n')
        for text in ("first", "then"):
            edit(project, text)
            assert run_skillc(capsys, "-C", str(project), "build")[0] == 0
        edit(project, "second")
        with monkeypatch.context() as patched:
            counted = Unpickled(patched)
            rebuild(project, capsys)
        most.append(counted.most)
    assert 0 < most[1] <= most[0] < 45, most
