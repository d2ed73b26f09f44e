"""``skillc init`` never writes through a symbolic link (issue 41, finding 10): a
pyproject.toml, noxfile.py or .gitignore that is a link names a file outside the
project (a dotfiles folder, a file several checkouts share), which init must not
change, and replacing the link by a file of its own would silently undo that sharing.
So the link is left as it is, init says what to add to it (exit 1), and writes the
other files. The same for anything else that is not a regular file (a FIFO would hang
the read)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from fresh_cli import clean, skillc

SKILL = "---\nname: a\ndescription: Does a.\n---\nDo a.\n"
FILES = {
    "pyproject.toml": "[project]\nname = 'x'\n",
    "noxfile.py": "import nox\n",
    ".gitignore": "*.log\n",
}
# What init says to add, by the file refused.
ADD = {
    "pyproject.toml": "[tool.skillc]",
    "noxfile.py": 'session.run("skillc", "build", *session.posargs)',
    ".gitignore": "__pycache__/",
}


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "skills" / "a").mkdir(parents=True)
    (root / "skills" / "a" / "SKILL.md").write_text(SKILL)
    return root


@pytest.mark.parametrize("name", FILES)
def test_init_leaves_a_linked_file_and_its_target_alone(
    tmp_path: Path, name: str
) -> None:
    root = _project(tmp_path)
    shared = tmp_path / "shared" / name
    shared.parent.mkdir()
    shared.write_text(FILES[name])
    (root / name).symlink_to(os.path.relpath(shared, root))
    done = skillc(root, "init", timeout=60)
    assert done.returncode == 1 and clean(done), done.stderr
    assert shared.read_text() == FILES[name]  # outside the project: unchanged
    assert (root / name).is_symlink()
    said = f"skillc: {name} is a symbolic link to ../shared/{name}: not changed"
    assert said in done.stderr and ADD[name] in done.stderr
    for other in set(FILES) - {name}:  # the rest is written
        assert (root / other).is_file() and not (root / other).is_symlink()
        assert ("skillc" in (root / other).read_text()) is True


def test_init_never_reads_a_fifo(tmp_path: Path) -> None:
    root = _project(tmp_path)
    os.mkfifo(root / ".gitignore")
    done = skillc(root, "init", timeout=60)  # the old read waited for a writer
    assert done.returncode == 1 and clean(done), done.stderr
    assert "skillc: .gitignore is not a regular file: not changed" in done.stderr
    assert "[tool.skillc]" in (root / "pyproject.toml").read_text()


def test_init_keeps_a_file_mode(tmp_path: Path) -> None:
    """A file is written whole beside itself and renamed over its name: its mode is
    the one it had."""
    root = _project(tmp_path)
    (root / "noxfile.py").write_text("import nox\n")
    (root / "noxfile.py").chmod(0o640)
    done = skillc(root, "init", timeout=60)
    assert done.returncode == 0 and clean(done), done.stderr
    assert (root / "noxfile.py").stat().st_mode & 0o777 == 0o640
    assert not [p.name for p in root.iterdir() if p.name.endswith(".skillc-init")]
