"""A skill's files leave the project (the MCP server's skills, the well-known archives)
only when each resolves inside its own skill folder (issue 41, finding 1): a link to
``../../.env``, ``.git/config``, another skill's file, or a folder link to the
project's root is a located error naming the link and its target, and that skill's
files are published nowhere, while the rest of the build goes on (``--keep-going``
writes it). Links that stay inside the folder, and a skill folder that is itself a
link, publish as before."""

from __future__ import annotations

import hashlib
import os
import zipfile
from pathlib import Path

import pytest

from conftest import tree
from fresh_cli import clean, skillc

SECRET = "TOKEN=hunter2-never-published"
INDEX = "generated/.well-known/agent-skills"


def _skill(folder: Path, name: str) -> None:
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        f"---\nname: {name}\ndescription: Works with {name} files.\n---\nDo it.\n"
    )
    (folder / "forms.md").write_text("How to fill forms.\n")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    _skill(root / "skills" / "pdf", "pdf")
    _skill(root / "skills" / "other", "other")
    (root / ".env").write_text(f"{SECRET}\n")
    (root / ".git").mkdir()
    (root / ".git" / "config").write_text(f"[remote]\n\turl = {SECRET}\n")
    (root / "notes.txt").write_text(f"{SECRET}\n")
    (root / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["skills"]\nwell-known-index = true\n'
    )
    return root


# (case, link below skills/pdf/, its target, what the error names)
ESCAPES = [
    ("dotenv", "env.txt", "../../.env", ".env"),
    ("git-config", "config.txt", "../../.git/config", ".git/config"),
    ("project-file", "notes.txt", "../../notes.txt", "notes.txt"),
    ("other-skill", "theirs.md", "../other/forms.md", "skills/other/forms.md"),
    ("root-folder", "root", "../..", "the project's root"),
]


@pytest.mark.parametrize(
    ("link", "target", "named"),
    [case[1:] for case in ESCAPES],
    ids=[case[0] for case in ESCAPES],
)
def test_a_link_out_of_its_skill_folder_is_never_published(
    project: Path, link: str, target: str, named: str
) -> None:
    (project / "skills" / "pdf" / link).symlink_to(target)
    done = skillc(project, "build")
    assert done.returncode == 1 and clean(done), done.stderr
    said = f"skills/pdf/{link}:1:1: error[symlink-escapes-skill]: a symbolic link to {named},"
    assert said in done.stderr
    assert not (project / "generated").exists()  # an error: nothing written
    done = skillc(project, "build", "--keep-going")
    assert done.returncode == 1 and said in done.stderr, done.stderr
    out = tree(project / "generated")
    assert not [path for path, data in out.items() if b"hunter2" in data]
    assert "skill://pdf/" not in out["_skills.py"].decode()
    assert "skill://other/" in out["_skills.py"].decode()  # the rest goes on
    assert f"{INDEX[len('generated/'):]}/pdf.zip" not in out
    assert "task/_pdf.py" in out  # still a tool and a prompt


def test_links_that_stay_inside_the_skill_folder_are_published(project: Path) -> None:
    """A link to a file of its own folder, and a skill folder that is a link to a
    folder of the project: each file resolves inside the skill's (real) folder."""
    pdf = project / "skills" / "pdf"
    (pdf / "alias.md").symlink_to("forms.md")
    shared = project / "shared" / "docx"
    _skill(shared, "docx")
    (project / "skills" / "docx").symlink_to(
        os.path.relpath(shared, project / "skills")
    )
    done = skillc(project, "build")
    assert done.returncode == 0 and clean(done), done.stderr
    with zipfile.ZipFile(project / INDEX / "pdf.zip") as archive:
        assert archive.read("alias.md") == b"How to fill forms.\n"
    with zipfile.ZipFile(project / INDEX / "docx.zip") as archive:
        assert sorted(archive.namelist()) == ["SKILL.md", "forms.md"]


def test_an_archive_reads_only_the_regular_file_it_hashed(project: Path) -> None:
    """What the archive reader reads: never a FIFO (it would wait for a writer), never
    past the size hashed, never bytes of another digest."""
    from skillc.emitters import confined

    folder = confined.Folder(os.fspath(project.resolve()), "skills/pdf")
    data = (project / "skills" / "pdf" / "forms.md").read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    assert folder.read("forms.md", digest, len(data)) == data
    os.mkfifo(project / "skills" / "pdf" / "pipe")
    for path, size in (("pipe", 0), ("forms.md", len(data) - 1)):
        with pytest.raises(OSError, match="changed during the build"):
            folder.read(path, digest, size)
    (project / "skills" / "pdf" / "up").symlink_to("../../.env")
    with pytest.raises(OSError, match="leads to .env, out of its folder"):
        folder.read("up", digest, len(data))
