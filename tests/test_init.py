"""``skillc init`` where it runs (issue 31): the layouts public repositories use, a nox
session that installs skillc as the README does, and the ignore files of a checkout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from conftest import run_skillc, write_skill
from skillc import init

SKILL = "---\ndescription: Does one thing.\n---\nDo it.\n"


def layout(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def configured(root: Path) -> dict[str, object]:
    table: dict[str, object] = tomllib.loads((root / "pyproject.toml").read_text())[
        "tool"
    ]["skillc"]
    return table


MARKET = json.dumps(
    {"name": "m", "owner": {"name": "o"}, "plugins": [{"name": "p", "source": "./p"}]}
)


@pytest.mark.parametrize(
    ("files", "sources"),
    [
        # a marketplace root: the root, as a build without configuration takes it
        (
            {
                ".claude-plugin/marketplace.json": MARKET,
                "p/.claude-plugin/plugin.json": '{"name": "p"}',
                "p/skills/one/SKILL.md": SKILL,
            },
            ["."],
        ),
        # skill folders at the root, and in a group folder one level down
        ({"alpha/SKILL.md": SKILL, "group/beta/SKILL.md": SKILL}, ["."]),
        ({"group/beta/SKILL.md": SKILL}, ["."]),
        # Claude Code's folders and the shared one, as a build finds them (lowest first)
        (
            {
                ".claude/skills/a/SKILL.md": SKILL,
                ".claude/commands/c.md": "Run c.\n",
                ".agents/skills/b/SKILL.md": SKILL,
            },
            [".agents/skills", ".claude/skills", ".claude/commands"],
        ),
        (
            {
                "skills/a/SKILL.md": SKILL,
                "agents/x.md": "---\nname: x\ndescription: X.\n---\nDo x.\n",
            },
            ["skills", "agents"],
        ),
    ],
    ids=["marketplace", "root-skills", "grouped-skills", "claude-and-agents", "plain"],
)
def test_init_finds_the_sources_and_the_build_works(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    files: dict[str, str],
    sources: list[str],
) -> None:
    layout(tmp_path, files)
    assert init.main(tmp_path) == 0
    assert configured(tmp_path)["sources"] == sources
    status, err = run_skillc(capsys, "-C", str(tmp_path), "build")
    assert status == 0, err


def test_init_without_sources_writes_none_that_breaks_the_build(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    init.main(tmp_path)
    assert "sources" not in configured(tmp_path)
    assert (
        '# sources = ["skills"]  # none found'
        in (tmp_path / "pyproject.toml").read_text()
    )
    status, err = run_skillc(capsys, "-C", str(tmp_path), "build")
    assert status == 2 and "no source folder" in err  # the default's own message


def test_the_nox_session_installs_the_skillc_that_ran(tmp_path: Path) -> None:
    """Not ``session.install("skillc")``: skillc is not on an index. The test's skillc
    is an editable checkout, which the session names by its relative path."""
    write_skill(tmp_path / "skills", "a", SKILL)
    init.main(tmp_path)
    noxfile = (tmp_path / "noxfile.py").read_text()
    wanted, _ = init.requirement(tmp_path)
    assert wanted != "skillc"
    assert f"session.install({wanted!r})" in noxfile
    checkout = (tmp_path / wanted).resolve()
    assert (checkout / "pyproject.toml").is_file()
    assert 'name = "skillc"' in (checkout / "pyproject.toml").read_text()


def test_a_git_install_is_named_by_its_url_and_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Installed:
        version = "0.1.0"

        def read_text(self, name: str) -> str:
            return json.dumps(
                {
                    "url": "https://example.com/skillc.git",
                    "vcs_info": {"vcs": "git", "commit_id": "abc123"},
                }
            )

    monkeypatch.setattr(init.metadata, "distribution", lambda name: Installed())
    assert init.requirement(tmp_path)[0] == (
        "skillc @ git+https://example.com/skillc.git@abc123"
    )


def test_init_writes_or_extends_gitignore(tmp_path: Path) -> None:
    """Python's bytecode, which importing the output writes in it; no cache folder
    (the build cache is in the user's cache folder)."""
    given = {"kept": "dist/\n__pycache__/\n", "extended": "dist/\n", "fresh": None}
    for name, text in given.items():
        write_skill(tmp_path / name / "skills", "a", SKILL)
        if text is not None:
            (tmp_path / name / ".gitignore").write_text(text)
        init.main(tmp_path / name)
    found = {name: (tmp_path / name / ".gitignore").read_text() for name in given}
    assert found == {
        "kept": "dist/\n__pycache__/\n",
        "extended": "dist/\n\n# skillc: Python's bytecode\n__pycache__/\n",
        "fresh": "# skillc: Python's bytecode\n__pycache__/\n",
    }


def test_git_status_stays_clean_after_a_build_and_an_import(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without any .gitignore of the project's: the output folder ignores what Python
    writes into it, and the cache folder itself."""
    write_skill(tmp_path / "skills", "a", SKILL)
    assert run_skillc(capsys, "-C", str(tmp_path), "build")[0] == 0

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            check=True,
        ).stdout

    git("init", "-q")
    git("add", "-A")
    git("commit", "-qm", "built")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(  # Python writes bytecode into the package it imports
        [sys.executable, "-c", "import generated.task; generated.task.a.help()"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        check=True,
    )
    assert list((tmp_path / "generated").rglob("__pycache__"))
    assert git("status", "--porcelain") == ""
    assert (
        (tmp_path / "generated" / ".gitignore")
        .read_text()
        .endswith("__pycache__/\n.mypy_cache/\n")
    )
