"""What a rebuild rewrites: after one skill or one manifest tool changed, only the files
that depend on it. Its own module and the aggregates (index, search data, provider files,
docs, report, lock) may change; every other tool's module and every shared runtime module
stays the very file it was (same inode, same mtime), so importers' and mypy's caches stay
warm. Builds run in fresh processes; the writer's own log (-v) must name exactly the
files whose bytes changed."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES

AGGREGATES = {
    "_listing.py",  # the Level 1 lines
    "_index.py",
    "_search_index.py",
    "_search_vectors.py",
    "_skills.py",  # MCP skills: every skill file with its digest
    "report.json",
    "skillc.lock.json",
    "ai-tools.json",
    "CLAUDE.md",
    "AGENTS.md",
}


def _build(project: Path) -> list[str]:
    """A build in a fresh process; the files its writer says it wrote."""
    done = subprocess.run(
        [sys.executable, "-m", "skillc", "-C", str(project), "build", "-v"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    prefix = "wrote out/"
    return sorted(
        line[len(prefix) :]
        for line in done.stderr.splitlines()
        if line.startswith(prefix)
    )


def _snapshot(out: Path) -> dict[str, tuple[int, int, bytes]]:
    return {
        path.relative_to(out).as_posix(): (
            path.stat().st_ino,
            path.stat().st_mtime_ns,
            path.read_bytes(),
        )
        for path in sorted(out.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tools fixture built once, cold, in a fresh process; each case changes a copy
    (copytree keeps mtimes, not inodes: the rebuild hashes what its stat check cannot
    trust, as after a checkout, and must still rewrite only what changed)."""
    project = tmp_path_factory.mktemp("rewrites") / "tools"
    shutil.copytree(FIXTURES / "tools", project)
    _build(project)
    return project


@pytest.mark.parametrize(
    ("source", "old", "new", "own"),
    [
        (
            "manifests/pdf-extractor/SKILL.md",
            "\n",
            "\nOne more line of instructions.\n",
            "task/_pdf_extractor.py",
        ),
        (
            "manifests/pdf-extractor/SKILL.md",
            "Extract text",
            "Pull text",
            "task/_pdf_extractor.py",
        ),
        (
            "manifests/s3.tools.yaml",
            "Read an object from a bucket.",
            "Read one object from a bucket.",
            "s3/file/_read.py",
        ),
        (
            "manifests/s3.tools.yaml",
            "List the objects under a prefix.",
            "List the keys under a prefix.",
            "s3/file/_list.py",
        ),
    ],
    ids=["one skill", "one skill's description", "one manifest tool", "another tool"],
)
def test_a_change_rewrites_only_what_depends_on_it(
    built: Path, tmp_path: Path, source: str, old: str, new: str, own: str
) -> None:
    project = tmp_path / "tools"
    shutil.copytree(built, project, symlinks=True)
    out = project / "out"
    before = _snapshot(out)
    assert own in before
    path = project / source
    text = path.read_text(encoding="utf-8")
    if old == "\n":  # append to the body
        path.write_text(text + new, encoding="utf-8")
    else:
        assert old in text
        path.write_text(text.replace(old, new), encoding="utf-8")
    written = _build(project)
    after = _snapshot(out)
    assert after.keys() == before.keys()
    changed = sorted(p for p in after if after[p][2] != before[p][2])
    touched = sorted(p for p in after if after[p][:2] != before[p][:2])
    # The writer says what it wrote; it wrote exactly what changed, nothing else.
    assert written == changed == touched
    assert own in changed
    others = [
        p
        for p in changed
        if p != own and p not in AGGREGATES and not p.startswith("providers/")
    ]
    assert others == [], "rewritten besides the tool's module and the aggregates"
    # Nothing left to do: the next build writes nothing.
    assert _build(project) == []


def test_the_writer_returns_what_it_wrote(tmp_path: Path) -> None:
    from skillc import writer

    out = tmp_path / "out"
    files = {"a.py": b"A = 1\n", "sub/b.py": b"B = 1\n"}
    assert writer.write(out, files, writer.plan(out, files)) == ("a.py", "sub/b.py")
    # No lock owns them, so a second build may only write what is unchanged: nothing.
    again = writer.plan(out, files)
    assert again.unchanged == ("a.py", "sub/b.py")
    assert writer.write(out, files, again) == ()
    files["sub/b.py"] = b"B = 2\n"
    changed = writer.plan(out, files)
    assert changed.changed == ("sub/b.py",)
    assert writer.write(out, files, changed) == ("sub/b.py",)
