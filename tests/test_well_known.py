"""``well-known-index = true``: ``.well-known/agent-skills/index.json`` in the output
folder, in the shape of the Agent Skills Discovery RFC 0.2.0 (its JSON Schema written
here from the RFC's text), its artifacts beside it with the digests the lock records,
byte for byte the same from two builds, off by default, and checked by --check."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import shutil
import zipfile
from pathlib import Path

import jsonschema

from skillc import cli
from test_mcp_skills import PROJECT, write_project

INDEX = ".well-known/agent-skills/index.json"
# The RFC's "Index Format", "Skill entry fields" and "Integrity and Verification".
RFC_SCHEMA = {
    "type": "object",
    "required": ["$schema", "skills"],
    "properties": {
        "$schema": {
            "const": "https://schemas.agentskills.io/discovery/0.2.0/schema.json"
        },
        "skills": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["name", "type", "description", "url", "digest"],
                "properties": {
                    "name": {
                        "type": "string",
                        "minLength": 1,
                        "maxLength": 64,
                        "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$",
                    },
                    "type": {"enum": ["skill-md", "archive"]},
                    "description": {
                        "type": "string",
                        "minLength": 1,
                        "maxLength": 1024,
                    },
                    "url": {"type": "string", "minLength": 1},
                    "digest": {"type": "string", "pattern": "^sha256:[0-9a-f]{64}$"},
                },
            },
        },
    },
}


def _build(project: Path, *flags: str) -> int:
    with (
        contextlib.redirect_stderr(io.StringIO()),
        contextlib.redirect_stdout(io.StringIO()),
    ):
        return cli.main(["-C", str(project), "build", *flags])


def _lock(out: Path) -> tuple[dict[str, str], dict[str, str]]:
    lock = json.loads((out / "skillc.lock.json").read_text())
    sources = {s["path"]: s["sha256"] for s in lock["sources"]}
    outputs = {o["path"]: o["sha256"] for o in lock["outputs"]}
    return sources, outputs


def test_the_index_has_the_rfcs_shape_and_the_locks_digests(tmp_path: Path) -> None:
    project = write_project(tmp_path / "project")
    assert _build(project) == 0
    out = project / "out"
    index = json.loads((out / INDEX).read_text(encoding="utf-8"))
    jsonschema.validate(index, RFC_SCHEMA)
    assert [(s["name"], s["type"]) for s in index["skills"]] == [
        ("git-workflow", "skill-md"),
        ("pdf-tools", "archive"),
    ]
    sources, outputs = _lock(out)
    base = (out / INDEX).parent
    for skill in index["skills"]:
        artifact = base / skill["url"]  # relative: resolved against the index's URL
        data = artifact.read_bytes()
        assert skill["digest"] == "sha256:" + hashlib.sha256(data).hexdigest()
        assert (
            skill["digest"]
            == "sha256:" + outputs[artifact.relative_to(project).as_posix()]
        )
    git = next(s for s in index["skills"] if s["name"] == "git-workflow")
    assert git["digest"] == "sha256:" + sources["skills/git-workflow/SKILL.md"]
    pdf = next(s for s in index["skills"] if s["name"] == "pdf-tools")
    with zipfile.ZipFile(base / pdf["url"]) as archive:
        names = archive.namelist()
        assert names[0] == "SKILL.md" and not any(".." in n for n in names)
        for name in names:  # each member is the source file the lock records
            member = hashlib.sha256(archive.read(name)).hexdigest()
            assert member == sources[f"skills/pdf-tools/{name}"]
    assert set(names) == {
        "SKILL.md",
        "assets/logo.png",
        "references/FORMS.md",
        "scripts/extract.py",
    }


def test_two_builds_write_the_same_bytes_and_check_covers_them(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    write_project(first)
    shutil.copytree(first, second)
    assert _build(first) == 0 and _build(second, "--no-cache") == 0
    folder = ".well-known/agent-skills"
    a = {
        p.relative_to(first): p.read_bytes()
        for p in (first / "out" / folder).rglob("*")
        if p.is_file()
    }
    b = {
        p.relative_to(second): p.read_bytes()
        for p in (second / "out" / folder).rglob("*")
        if p.is_file()
    }
    assert a == b and len(a) == 3

    assert _build(first, "--check") == 0
    (first / "skills/pdf-tools/references/FORMS.md").write_text("# Changed\n")
    assert _build(first, "--check") == 1  # the archive and the server's entry are stale
    (first / "skills/pdf-tools/references/FORMS.md").write_text(
        str(PROJECT["skills/pdf-tools/references/FORMS.md"])
    )
    (first / "out" / INDEX).write_text("{}\n")
    assert _build(first, "--check") == 1


def test_off_by_default(tmp_path: Path) -> None:
    project = write_project(tmp_path)
    config = project / "pyproject.toml"
    config.write_text(config.read_text().replace("well-known-index = true\n", ""))
    assert _build(project) == 0
    assert not (project / "out" / ".well-known").exists()
