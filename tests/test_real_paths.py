"""While loading, each folder's real path is worked out once (``frontmatter._real``):
the same answer as ``os.path.realpath`` through links to folders and files, inside
and outside the tree, and dangling ones."""

from __future__ import annotations

import os
from pathlib import Path

from generator.loaders import frontmatter


def test_real_paths_are_realpaths(tmp_path: Path) -> None:
    project, outside = tmp_path / "project", tmp_path / "outside"
    (project / "skills" / "a").mkdir(parents=True)
    (outside / "b").mkdir(parents=True)
    (outside / "b" / "SKILL.md").write_text("x")
    (project / "skills" / "a" / "SKILL.md").write_text("x")
    (project / "skills" / "linked").symlink_to(outside / "b")
    (project / "skills" / "inner").symlink_to(project / "skills" / "a")
    (project / "skills" / "a" / "file.md").symlink_to(outside / "b" / "SKILL.md")
    (project / "skills" / "gone").symlink_to(tmp_path / "missing")
    (tmp_path / "alias").symlink_to(project)
    paths = [
        os.path.join(str(root), *parts)
        for root in (project, tmp_path / "alias")
        for parts in [
            ("skills", "a", "SKILL.md"),
            ("skills", "a", "file.md"),
            ("skills", "linked", "SKILL.md"),
            ("skills", "inner", "SKILL.md"),
            ("skills", "gone", "SKILL.md"),
            ("skills", "nothing", "SKILL.md"),
            ("skills",),
        ]
    ]
    with frontmatter.folders_remembered():
        for _ in range(2):  # the second time from what was remembered
            for path in paths:
                assert frontmatter._real(path) == os.path.realpath(path), path
    assert frontmatter._real_folders is None
