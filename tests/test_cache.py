"""The build cache saves work and never changes output; it holds JSON only, and only
entries this user's skillc wrote are used."""

from __future__ import annotations

import dataclasses
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from conftest import run_skillc, tree, write_skill
from skillc import cache, pipeline

OK = "---\nname: {name}\ndescription: Does {name}.\n---\nBody of {name}.\n"


def build(capsys: pytest.CaptureFixture[str], project: Path, *extra: str) -> str:
    code, err = run_skillc(capsys, "-C", str(project), "build", *extra)
    assert code == 0, err
    return err


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
    shutil.copytree(
        skills_project,
        clean,
        ignore=shutil.ignore_patterns("generated", ".skillc-cache"),
    )
    build(capsys, clean, "--no-cache")
    assert tree(skills_project / "generated") == tree(clean / "generated")
    assert not (clean / ".skillc-cache").exists()


def test_no_op_rebuild_takes_the_fast_path(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(skills_project / "skills", "a", OK.format(name="a"))
    build(capsys, skills_project)
    assert "generated/ is up to date" in build(capsys, skills_project)
    assert (skills_project / ".skillc-cache" / ".gitignore").read_text().endswith("*\n")


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


def test_corrupt_cache_is_ignored(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(skills_project / "skills", "a", OK.format(name="a"))
    build(capsys, skills_project)
    memo = skills_project / ".skillc-cache" / "memo.jsonl"
    head, _, body = memo.read_text().partition("\n")
    memo.write_text(head + "\n" + body.replace('"', "'", 40) + "garbage\n")
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
    assert not (skills_project / ".skillc-cache").exists()


def test_unwritable_cache_does_not_fail_the_build(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(skills_project / "skills", "a", OK.format(name="a"))
    (skills_project / ".skillc-cache").write_text(
        "a file where the cache folder would go"
    )
    build(capsys, skills_project)
    assert (skills_project / "generated" / "task" / "_a.py").is_file()


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
    shutil.copytree(
        tools_project, clean, ignore=shutil.ignore_patterns("out", ".skillc-cache")
    )
    build(capsys, clean, "--no-cache")
    assert tree(tools_project / "out") == tree(clean / "out")
    assert (tools_project / "out" / "pdf_extractor" / "_ocr.py").is_file()
    assert "Fetch an object" in (tools_project / "out" / "_listing.py").read_text()


def test_an_entry_made_with_another_key_is_ignored_with_a_warning(
    skills_project: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Another user's (or a committed) memo: its MACs do not verify with this user's
    key, so nothing in it is used, and the build says so."""
    write_skill(skills_project / "skills", "a", OK.format(name="a"))
    build(capsys, skills_project)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path / "someone-else"))
        err = build(capsys, skills_project)
    assert "ignored .skillc-cache/memo.jsonl" in err and "up to date" not in err


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
    project: Path, tools_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The codec gives back what it was given: equal values of the same types (tuples
    stay tuples, read-only mappings stay read-only), for every loader result."""
    kept: list[Any] = []
    put = cache.Memo.put

    def recording(self: cache.Memo, key: str, value: object) -> None:
        kept.append(value)
        put(self, key, value)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cache.Memo, "put", recording)
        for folder in (project, tools_project):
            build(capsys, folder, "--keep-going")
    codec = cache.Codec(pipeline.CACHED)
    assert len(kept) > 20
    for value in kept:
        again = codec.decode(codec.encode(value))
        assert again == value and _types(again) == _types(value)


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


def test_the_codec_keeps_nothing_it_was_not_told_of() -> None:
    """Anything but plain data and the listed classes is refused when written, and a
    tagged object naming another class is refused when read: reading the cache never
    makes an object of a class it was not told of."""
    codec = cache.Codec(pipeline.CACHED)
    for value in (b"bytes", {1, 2}, Path("."), float("nan"), object()):
        with pytest.raises((TypeError, ValueError)):
            codec.encode(value)
    for text in (
        '{"\\u0000": "Popen", "v": {"args": ["true"]}}',
        '{"\\u0000": "Config", "v": {}}',
        '{"\\u0000": "tuple", "v": [], "extra": 1}',
    ):
        with pytest.raises(ValueError):
            codec.decode(text)


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
    memoised = pipeline._memoised

    def checked(
        memo: cache.Memo,
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
        patch.setattr(pipeline, "_memoised", checked)
        for folder in (project, tools_project):
            build(capsys, folder, "--keep-going")
    kinds = {"vector", "tokens", "typing"}
    assert kinds <= taken, taken


def test_an_entry_holding_a_line_separator_is_read_back(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """JSON keeps U+2028 as it is: the memo's lines are split at newlines only, so
    a rebuild after one change finds every entry (and warns about none)."""
    text = '---\nname: a\ndescription: "Does a.\u2028Then b."\n---\nBody.\n'
    write_skill(skills_project / "skills", "a", text)
    write_skill(skills_project / "skills", "b", OK.format(name="b"))
    build(capsys, skills_project)
    assert "\u2028" in (skills_project / ".skillc-cache" / "memo.jsonl").read_text()
    write_skill(skills_project / "skills", "b", OK.format(name="b") + "More.\n")
    err = build(capsys, skills_project)
    assert "ignored" not in err and "wrote " in err
