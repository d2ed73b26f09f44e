"""The build cache saves work and never changes output. It lives in the user's cache
folder, never in the project (a pickle runs code when read, and a pull request can
commit files to the project), and only files this skillc made there are read."""

from __future__ import annotations

import dataclasses
import os
import pickle
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from conftest import CACHE, run_skillc, tree, write_skill
from skillc import __version__, cache, pipeline, stages

OK = "---\nname: {name}\ndescription: Does {name}.\n---\nBody of {name}.\n"


def build(capsys: pytest.CaptureFixture[str], project: Path, *extra: str) -> str:
    code, err = run_skillc(capsys, "-C", str(project), "build", *extra)
    assert code == 0, err
    return err


def files(project: Path) -> list[Path]:
    """The project's cache files: the last build's witness and the memo."""
    return list(cache.Cache.of(project.resolve(), ()).files.values())


def test_cached_rebuilds_equal_clean_builds(
    skills_project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("a", "b", "c"):
        write_skill(skills_project / "skills", name, OK.format(name=name))
    build(capsys, skills_project)
    write_skill(
        skills_project / "skills",
        "b",
        OK.format(name="b").replace("Body", "Changed body"),
    )
    (skills_project / "skills" / "c" / "metadata.yaml").write_text("version: 3.1.0\n")
    shutil.rmtree(skills_project / "skills" / "a")
    write_skill(skills_project / "skills", "d", OK.format(name="d"))
    build(capsys, skills_project)
    clean = tmp_path / "clean"
    shutil.copytree(skills_project, clean, ignore=shutil.ignore_patterns("generated"))
    build(capsys, clean, "--no-cache")
    assert tree(skills_project / "generated") == tree(clean / "generated")
    assert not any(path.exists() for path in files(clean))


def test_no_op_rebuild_takes_the_fast_path(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The cache is in the user's cache folder, one folder per skillc version;
    nothing of it is in the project."""
    write_skill(skills_project / "skills", "a", OK.format(name="a"))
    build(capsys, skills_project)
    assert "generated/ is up to date" in build(capsys, skills_project)
    assert all(path.parent == CACHE / __version__ for path in files(skills_project))
    assert all(path.is_file() for path in files(skills_project))
    assert sorted(path.name for path in skills_project.iterdir()) == [
        "generated",
        "pyproject.toml",
        "skills",
    ]


def test_hand_edited_output_is_kept_until_forced(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(skills_project / "skills", "a", OK.format(name="a"))
    build(capsys, skills_project)
    module = skills_project / "generated" / "task" / "_a.py"
    original = module.read_text()
    module.write_text(original + "# edited\n")
    code, err = run_skillc(capsys, "-C", str(skills_project), "build")
    assert code == 2 and "generated/task/_a.py (edited since skillc wrote it)" in err
    assert module.read_text() == original + "# edited\n"
    assert "wrote 1 file to" in build(capsys, skills_project, "--force")
    assert module.read_text() == original
    (skills_project / "generated" / "extra.txt").write_text("stray")
    assert "1 removed" in build(capsys, skills_project, "--force")
    assert not (skills_project / "generated" / "extra.txt").exists()


def test_new_bundled_file_is_picked_up(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(skills_project / "skills", "a", OK.format(name="a"))
    build(capsys, skills_project)
    (skills_project / "skills" / "a" / "notes.md").write_text("notes")
    build(capsys, skills_project)
    assert '"notes.md"' in (skills_project / "generated" / "task" / "_a.py").read_text()


def test_new_bundled_file_is_picked_up(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(skills_project / "skills", "a", OK.format(name="a"))
    build(capsys, skills_project)
    (skills_project / "skills" / "a" / "notes.md").write_text("notes")
    build(capsys, skills_project)
    assert '"notes.md"' in (skills_project / "generated" / "task" / "_a.py").read_text()


@pytest.mark.parametrize("damage", ["garbage", "truncated", "other-salt"])
def test_a_damaged_cache_is_ignored(
    skills_project: Path, capsys: pytest.CaptureFixture[str], damage: str
) -> None:
    """A cache file that does not unpickle, or that another skillc made (another
    salt), is not used: the build is one without a cache, and replaces it."""
    write_skill(skills_project / "skills", "a", OK.format(name="a"))
    build(capsys, skills_project)
    for path in files(skills_project):
        data = path.read_bytes()
        if damage == "garbage":
            path.write_bytes(b"garbage" + data)
        elif damage == "truncated":
            path.write_bytes(data[: len(data) // 2])
        else:
            salt = pickle.loads(data)[0].encode()
            path.write_bytes(data.replace(salt, salt[::-1]))
    assert "up to date" not in build(capsys, skills_project)
    assert "up to date" in build(capsys, skills_project)
    write_skill(
        skills_project / "skills", "a", OK.format(name="a").replace("Body", "New")
    )
    build(capsys, skills_project)
    assert "New of a" in (skills_project / "generated" / "task" / "_a.py").read_text()


def test_warnings_are_repeated_on_the_fast_path(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(
        skills_project / "skills",
        "a",
        "---\nname: a\ndescription: d\nversion: 1\n---\n",
    )
    first = build(capsys, skills_project)
    second = build(capsys, skills_project)
    assert "warning[non-spec-key]" in first and "warning[non-spec-key]" in second
    assert "up to date" in second


def test_check_mode_writes_no_cache(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(skills_project / "skills", "a", OK.format(name="a"))
    code, _ = run_skillc(capsys, "-C", str(skills_project), "build", "--check")
    assert code == 1  # nothing built yet: stale
    assert not any(path.exists() for path in files(skills_project))


def test_unwritable_cache_does_not_fail_the_build(
    skills_project: Path,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    write_skill(skills_project / "skills", "a", OK.format(name="a"))
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache folder would go")
    monkeypatch.setenv("SKILLC_CACHE_DIR", str(blocked))
    build(capsys, skills_project)
    assert (skills_project / "generated" / "task" / "_a.py").is_file()
    assert "up to date" not in build(capsys, skills_project)  # nothing was kept


def test_cached_rebuilds_of_tool_manifests_equal_clean_builds(
    tools_project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build(capsys, tools_project)
    s3 = tools_project / "manifests" / "s3.tools.yaml"
    s3.write_text(s3.read_text().replace("Read an object", "Fetch an object"))
    scripts = tools_project / "manifests" / "pdf-extractor" / "scripts"
    (scripts / "ocr.py").write_text("print('ocr')\n")
    (scripts / "convert.sh").unlink()
    (tools_project / "overrides" / "file.tools.yaml").unlink()
    build(capsys, tools_project)
    clean = tmp_path / "clean"
    shutil.copytree(tools_project, clean, ignore=shutil.ignore_patterns("out"))
    build(capsys, clean, "--no-cache")
    assert tree(tools_project / "out") == tree(clean / "out")
    assert (tools_project / "out" / "pdf_extractor" / "_ocr.py").is_file()
    assert "Fetch an object" in (tools_project / "out" / "_listing.py").read_text()


class _Planted:
    """Unpickled, it creates the file ``marker``: what a pull request could commit."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[Path]]:
        return Path.touch, (self.marker,)


def test_nothing_is_read_from_a_cache_folder_inside_the_project(
    skills_project: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """A cache folder in the project (SKILLC_CACHE_DIR or XDG_CACHE_HOME pointing
    there, as a CI job might) is where a pull request can commit pickles: pickles
    planted where the cache would be, with the salt it would have, are neither read
    nor replaced, and the build says why. Nor is .skillc-cache/, where earlier
    versions kept the cache, read."""
    write_skill(skills_project / "skills", "a", OK.format(name="a"))
    marker = tmp_path / "code-ran"
    old = skills_project / ".skillc-cache"
    old.mkdir()
    (old / "memo.jsonl").write_bytes(pickle.dumps(_Planted(marker)))
    monkeypatch.setenv("SKILLC_CACHE_DIR", str(skills_project / ".cache"))
    monkeypatch.setattr(cache, "fingerprint", lambda *arguments: "the salt")
    where = skills_project / ".cache" / __version__
    planted = pickle.dumps(("the salt", _Planted(marker)))
    where.mkdir(parents=True)
    for path in cache.Cache(
        where / cache.name(skills_project.resolve())
    ).files.values():
        path.write_bytes(planted)  # where the cache would be, were it not inside
    before = {path: path.read_bytes() for path in where.iterdir()}
    for _ in range(2):
        err = build(capsys, skills_project)
        assert "the cache folder" in err and "inside the project" in err, err
        assert "up to date" not in err
    assert not marker.exists()
    assert {path: path.read_bytes() for path in where.iterdir()} == before


def test_a_cache_file_of_another_user_is_not_read(
    skills_project: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In a cache folder shared with others (SKILLC_CACHE_DIR=/tmp/...), a file that
    another user owns is not unpickled."""
    write_skill(skills_project / "skills", "a", OK.format(name="a"))
    build(capsys, skills_project)
    assert "up to date" in build(capsys, skills_project)
    owner = os.stat(files(skills_project)[0]).st_uid
    unpickled: list[object] = []
    load = pickle.load
    monkeypatch.setattr(pickle, "load", lambda *a: unpickled.append(a) or load(*a))
    assert "up to date" in build(capsys, skills_project) and unpickled
    unpickled.clear()
    monkeypatch.setattr(os, "getuid", lambda: owner + 1)
    assert "up to date" not in build(capsys, skills_project)
    assert unpickled == []


def test_other_versions_of_the_dependencies_start_afresh(
    skills_project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    """What black, jsonschema-rs, datamodel-code-generator... write reaches the output: a
    memo made with other versions of them is not used (and not warned about)."""
    write_skill(skills_project / "skills", "a", OK.format(name="a"))
    build(capsys, skills_project)
    assert "up to date" in build(capsys, skills_project)
    found = cache.versions(pipeline.DEPENDENCIES)
    assert found["black"] and found["jsonschema-rs"] and found["PyYAML"]
    other = {**found, "black": found["black"] + ".1"}
    monkeypatch.setattr(cache, "versions", lambda names: other)
    err = build(capsys, skills_project)
    assert "up to date" not in err and "ignored" not in err


def test_every_loader_result_of_the_fixtures_is_kept_exactly(
    project: Path,
    tools_project: Path,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    """The cache gives back what it was given: equal values of the same types (tuples
    stay tuples, read-only mappings stay read-only), for every loader result."""
    kept: list[Any] = []
    put = cache.Cache.put

    def recording(self: cache.Cache, key: str, value: object) -> None:
        kept.append(value)
        put(self, key, value)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cache.Cache, "put", recording)
        for folder in (project, tools_project):
            build(capsys, folder, "--keep-going")
    assert len(kept) > 20
    assert "mappingproxy" in repr([_types(value) for value in kept])
    saved = cache.Cache(tmp_path / "memo", "salt")
    for number, value in enumerate(kept):
        saved.put(str(number), value)
    saved.save()
    again = cache.Cache(tmp_path / "memo", "salt")
    for number, value in enumerate(kept):
        found = again.get(str(number))
        assert found == value and _types(found) == _types(value)


def _types(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return type(value), [_types(item) for item in value]
    if isinstance(value, Mapping):
        return type(value), {k: _types(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value):
        return type(value), [
            _types(getattr(value, f.name)) for f in dataclasses.fields(value)
        ]
    return type(value)


def test_every_memoised_part_equals_a_fresh_one(
    project: Path, tools_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What a rebuild takes from the memo (each tool's vector, exact token counts,
    typings) equals what making it again gives, after edits that change some tools and
    leave the others to the memo. (An estimated count is made again, not kept.)"""
    settings = project / "pyproject.toml"
    exact = '[tool.skillc]\ntoken-counter = "o200k_base"\n'
    settings.write_text(settings.read_text().replace("[tool.skillc]\n", exact, 1))
    taken: set[str] = set()
    memoised = stages._memoised

    def checked(
        memo: cache.Cache,
        kind: str,
        make: Any,
        by: Any = lambda *arguments: arguments,
    ) -> Any:
        made = memoised(memo, kind, make, by)

        def compared(*arguments: Any) -> Any:
            if memo.get(cache.key(kind, *by(*arguments))) is not None:
                taken.add(kind.partition(":")[0])
            value = made(*arguments)
            assert value == make(*arguments), kind
            return value

        return compared

    edits = {
        project
        / "skills"
        / "greeter"
        / "SKILL.md": ("Greets someone", "Welcomes someone"),
        tools_project / "manifests" / "s3.tools.yaml": ("Read an object", "Fetch one"),
    }
    for folder in (project, tools_project):
        build(capsys, folder, "--keep-going")
    for path, (old, new) in edits.items():
        assert old in path.read_text()
        path.write_text(path.read_text().replace(old, new, 1))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(stages, "_memoised", checked)
        for folder in (project, tools_project):
            build(capsys, folder, "--keep-going")
    kinds = {"vector", "tokens", "typing", "module"}
    assert kinds <= taken, taken


def test_one_change_renders_its_tools_module_alone(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each tool's module is kept by its view: editing one skill renders that skill's
    module, not every one (the whole package was rendered again on each change)."""
    from skillc.emitters import python_package

    build(capsys, project)
    rendered: list[str] = []
    original = python_package.tool_module

    def counted(tool: Any, layout: Any = None) -> str:
        rendered.append(tool.qualname)
        return original(tool, layout) if layout else original(tool)

    monkeypatch.setattr(python_package, "tool_module", counted)
    greeter = project / "skills" / "greeter" / "SKILL.md"
    greeter.write_text(greeter.read_text().replace("Greets someone", "Welcomes one"))
    build(capsys, project)
    assert rendered == ["task.greeter"]
    module = project / "out" / "task" / "_greeter.py"  # the fixture's output folder
    assert "Welcomes one" in module.read_text()
