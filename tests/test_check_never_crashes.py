"""``skillc check`` never tracebacks (issue 41, findings 3 and 5): the outputs it
compares are bytes (a skill's archive is not text), the output folder may hold what a
pull request or a user put there (a FIFO, a link to /dev/zero), and the baseline lock
is what a pull request controls. Each case in a fresh process: exit 1 with a located
error, or 0, never 3."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from conftest import run_skillc
from fresh_cli import clean, skillc

SKILL = "---\nname: pdf\ndescription: Reads PDF files.\n---\nRead it.\n"
TOOLS = """namespace: t
tools:
  - name: run
    description: Runs.
    input_schema:
      type: object
      properties: {a: {type: string, minLength: 1}}
    executor: {type: python, function: 'os:getcwd'}
"""
LOCK = "generated/skillc.lock.json"


def _project(root: Path, well_known: bool) -> Path:
    (root / "skills" / "pdf").mkdir(parents=True)
    (root / "skills" / "pdf" / "SKILL.md").write_text(SKILL)
    (root / "skills" / "pdf" / "forms.md").write_text("How to fill forms.\n")
    (root / "skills" / "t.tools.yaml").write_text(TOOLS)
    flag = "well-known-index = true\n" if well_known else ""
    (root / "pyproject.toml").write_text(f'[tool.skillc]\nsources = ["skills"]\n{flag}')
    done = skillc(root, "build")
    assert done.returncode == 0, done.stderr
    return root


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[bool, Path]:
    """Built projects, by whether the well-known index is on (a baseline's case must
    not fail on old code for the archive's reason)."""
    root = tmp_path_factory.mktemp("check")
    return {flag: _project(root / str(flag), flag) for flag in (True, False)}


@pytest.fixture
def project(built: dict[bool, Path], tmp_path: Path) -> Path:
    return Path(shutil.copytree(built[True], tmp_path / "project", symlinks=True))


@pytest.fixture
def plain(built: dict[bool, Path], tmp_path: Path) -> Path:
    return Path(shutil.copytree(built[False], tmp_path / "project", symlinks=True))


def test_check_reads_a_skill_archive_as_bytes(project: Path) -> None:
    """Finding 3: with the well-known index on, a skill with a file beside its SKILL.md
    is a .zip among the outputs; check compared it as text and crashed."""
    done = skillc(project, "check")
    assert done.returncode == 0 and clean(done), done.stderr
    (project / "skills" / "pdf" / "forms.md").write_text("Fill them in.\n")
    done = skillc(project, "check", "--diff")
    assert done.returncode == 1 and clean(done), done.stderr
    archive = "generated/.well-known/agent-skills/pdf.zip"
    assert f"changed: {archive} (" in done.stderr
    assert " bytes -> " in done.stderr.split(f"changed: {archive} (")[1].split("\n")[0]
    assert f"Binary files a/{archive} and b/{archive} differ" in done.stderr


def test_an_output_that_is_no_regular_file_is_never_read(project: Path) -> None:
    """A FIFO would hang the comparison, a link to /dev/zero fill its memory."""
    out = project / "generated"
    for name in ("bom.json", "report.json", "CLAUDE.md"):
        (out / name).unlink()
    os.mkfifo(out / "bom.json")
    (out / "report.json").symlink_to("/dev/zero")
    (out / "CLAUDE.md").mkdir()
    (out / "CLAUDE.md" / "x").write_text("x")
    for command in (["check", "--diff"], ["build", "--check", "--diff"]):
        done = skillc(project, *command, timeout=60)
        assert done.returncode == 1 and clean(done), done.stderr
        for name in ("bom.json", "report.json", "CLAUDE.md"):
            assert f"generated/{name}" in done.stderr


def _interfaces(project: Path, edit: Any) -> None:
    lock = json.loads((project / LOCK).read_text())
    lock["interfaces"] = edit(lock["interfaces"])
    text = json.dumps(lock)
    deep = '{"properties": {"a": ' * 3_000 + "{}" + "}}" * 3_000
    text = text.replace('"DEEP"', deep).replace('"DIGITS"', "1" * 5_000)
    (project / LOCK).write_text(text)


def _deep(interfaces: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A schema nested 3,000 deep (json.dumps cannot write it, nor an integer of 5,000
    digits: each is put in as text)."""
    return [dict(interfaces[0], input="DEEP"), *interfaces[1:]]


def _entry(**change: Any) -> Any:
    """The tool t.run's interface, changed."""

    def edit(interfaces: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [dict(i, **change) if i["tool"] == "t.run" else i for i in interfaces]

    return edit


A = {"type": "object", "properties": {"a": {"type": "string", "minLength": "1"}}}
# (case, how the baseline's interfaces are changed, what the error says)
HOSTILE: list[tuple[str, Any, str]] = [
    ("interfaces-a-string", lambda _: "t.run", "/interfaces is not a list"),
    ("interfaces-of-numbers", lambda _: [1, 2], "/interfaces/0 is not an object"),
    ("tool-an-object", lambda i: [{"tool": {}}, *i], "/interfaces/0/tool is not a"),
    ("properties-a-list", _entry(input={"properties": [1]}), "properties is not an"),
    ("type-a-number", _entry(input={"type": 5}), "/input/type is neither"),
    ("required-of-objects", _entry(input={"required": [{}]}), "/input/required is"),
    ("bound-a-string", _entry(input=A), "properties/a/minLength is not a number"),
    ("nested-3000-deep", _deep, "nested more than 128 levels deep"),
    ("description-a-list", _entry(description=["x"]), "/description is not a string"),
    ("previous-a-string", _entry(previous="t.old"), "/previous is not a list of"),
    ("integer-of-5000-digits", _entry(version="DIGITS"), "invalid JSON: Exceeds"),
]


@pytest.mark.parametrize(
    ("edit", "said"), [case[1:] for case in HOSTILE], ids=[case[0] for case in HOSTILE]
)
def test_a_hostile_baseline_lock_is_a_located_error(
    plain: Path, edit: Any, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Finding 5: what the breaking check compares is validated first (in this
    process, the command line's own entry point: each case, a fresh process, would
    take seconds; the deepest case runs in one below)."""
    _interfaces(plain, edit)
    status, err = run_skillc(capsys, "-C", str(plain), "check", "--skip", "listing")
    assert status == 1 and "Traceback" not in err, err
    assert f"{LOCK}:1:" in err and "error[baseline-invalid]" in err
    assert said in err


def test_a_baseline_nested_3000_deep_is_a_located_error(plain: Path) -> None:
    """json and the comparison recursed into it: RecursionError, exit 3."""
    _interfaces(plain, _deep)
    done = skillc(plain, "check", "--skip", "listing")
    assert done.returncode == 1 and clean(done), done.stderr
    assert f"{LOCK}:1:" in done.stderr and "error[baseline-invalid]" in done.stderr
    assert "nested more than 128 levels deep" in done.stderr


def test_a_hostile_lock_at_a_git_ref_is_a_located_error(plain: Path) -> None:
    """The same for --against REF, read with git: a pull request's base can hold it."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    _interfaces(plain, _entry(input={"type": 5}))

    def git(*args: str) -> None:
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
            cwd=plain,
            check=True,
            capture_output=True,
        )

    git("init", "-q")
    git("add", "-A")
    git("commit", "-q", "-m", "base")
    done = skillc(plain, "check", "--skip", "listing", "--against", "HEAD")
    assert done.returncode == 1 and clean(done), done.stderr
    assert f"{LOCK}:1:1: error[baseline-invalid]: the lock at HEAD" in done.stderr


def test_an_integer_json_cannot_hold_is_a_located_error(tmp_path: Path) -> None:
    """A manifest's integer of more digits than Python converts: json.loads raised a
    plain ValueError out of the plugin's discovery, a traceback for build and check."""
    root = tmp_path / "project"
    plugin = root / "plugins" / "kit"
    (plugin / ".claude-plugin").mkdir(parents=True)
    number = "1" * 5_000
    (plugin / ".claude-plugin" / "plugin.json").write_text(
        f'{{"name": "kit", "n": {number}}}'
    )
    (plugin / "skills" / "pdf").mkdir(parents=True)
    (plugin / "skills" / "pdf" / "SKILL.md").write_text(SKILL)
    (root / "pyproject.toml").write_text('[tool.skillc]\nsources = ["plugins"]\n')
    for command in (["build"], ["check"]):
        done = skillc(root, *command)
        assert done.returncode == 1 and clean(done), done.stderr
        assert (
            "plugins/kit/.claude-plugin/plugin.json:1:22: error[json-syntax]: "
            "invalid JSON: an integer of 5,000 digits" in done.stderr
        )
