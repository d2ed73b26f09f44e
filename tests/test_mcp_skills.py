"""The MCP server's Agent Skills as the MCP Skills extension (SEP-2640, Final) serves
them, driven by the official SDK's client session sending the extension's requests
(no Python client of the extension runs on Python 3.11: fast-agent-mcp needs 3.12),
over stdio and over streamable HTTP on 127.0.0.1: the capability, ``skills/list``,
``skills/get``, and every file read back with the digest and size its entry gives,
which are the lock's for that source and the sha256 of the bytes read."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from skillc import cli

if not os.environ.get("CI"):  # CI installs it (noxfile.PROVIDER_SDKS): never skip there
    pytest.importorskip("mcp")
from mcp import types  # noqa: E402
from mcp.shared.exceptions import MCPError  # noqa: E402
from pydantic import TypeAdapter  # noqa: E402

from test_hostile_inputs import place  # noqa: E402
from test_mcp_server import _drive, _free_port, _http_server, _stdio  # noqa: E402

EXTENSION = "io.modelcontextprotocol/skills"
RAW = TypeAdapter(dict[str, Any])
PDF_SKILL = """\
---
name: pdf-tools
description: Extract text from PDF files. Use when working with PDFs.
license: Apache-2.0
allowed-tools: Bash(touch:*) Read
metadata:
  version: "2.1.0"
---

# PDF tools

!`touch PWNED`

See [the forms](references/FORMS.md) and run `scripts/extract.py`.
"""
# A project of five skills, written from the specification's own examples: one that
# is its SKILL.md alone, one with references, a script and a binary asset, one whose
# name breaks the naming rules and one whose frontmatter JSON cannot hold (each a tool
# and a prompt, not a published skill), and one models are not offered.
PROJECT = {
    "pyproject.toml": '[tool.skillc]\nsources = ["skills"]\nout = "out"\n'
    'package = "kit"\nwell-known-index = true\n',
    "skills/pdf-tools/SKILL.md": PDF_SKILL,
    "skills/pdf-tools/references/FORMS.md": "# Forms\n\nFill them in.\n",
    "skills/pdf-tools/scripts/extract.py": 'print("extract")\n',
    "skills/pdf-tools/assets/logo.png": b"\x89PNG\r\n\x1a\n\xff\xfe\x00binary",
    "skills/git-workflow/SKILL.md": "---\nname: git-workflow\ndescription: Follow "
    "team Git conventions for branching and commits.\n---\n\nBranch from `main`.\n",
    "skills/Bad_Name/SKILL.md": "---\nname: Bad_Name\ndescription: Tolerated by "
    "Claude Code.\n---\n\nBody.\n",
    "skills/odd-values/SKILL.md": "---\nname: odd-values\ndescription: A value JSON "
    "cannot hold.\nicon: !!binary aGVsbG8=\n---\n\nBody.\n",
    "skills/by-hand/SKILL.md": "---\nname: by-hand\ndescription: Run by a person."
    "\ndisable-model-invocation: true\n---\n\nBody.\n",
}
SERVED = {"skill://git-workflow/SKILL.md", "skill://pdf-tools/SKILL.md"}


def write_project(root: Path) -> Path:
    place(root, PROJECT)
    return root


def build(root: Path) -> str:
    with contextlib.redirect_stderr(io.StringIO()) as err:
        assert cli.main(["-C", str(root), "build"]) == 0, err.getvalue()
    return err.getvalue()


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = write_project(tmp_path_factory.mktemp("skills") / "project")
    build(project)
    (project / "out").rename(project / "kit")
    return project


def _lock(project: Path) -> dict[str, str]:
    lock = json.loads((project / "kit" / "skillc.lock.json").read_text())
    return {source["path"]: source["sha256"] for source in lock["sources"]}


async def _request(client: Any, method: str, **params: Any) -> dict[str, Any]:
    request = types.Request[dict[str, Any], str](method=method, params=params)
    result: dict[str, Any] = await client.session.send_request(request, RAW)
    return result


async def _check_skills(client: Any, project: Path) -> None:
    """What a host does: list, get, read every file and verify it."""
    assert client.protocol_version == "2026-07-28"
    capabilities = client.server_capabilities
    assert capabilities.extensions[EXTENSION] == {}
    assert capabilities.resources is not None  # the extension requires it

    listed = await _request(client, "skills/list")
    assert listed["resultType"] == "complete"
    assert listed["ttlMs"] > 0 and listed["cacheScope"] in ("public", "private")
    entries = {entry["uri"]: entry for entry in listed["skills"]}
    assert set(entries) == SERVED  # not Bad_Name, not the one models are not offered

    lock = _lock(project)
    for uri, entry in entries.items():
        folder = "skills/" + uri.removeprefix("skill://").rpartition("/")[0]
        text = (project / folder / "SKILL.md").read_text(encoding="utf-8")
        assert entry["frontmatter"] == yaml.safe_load(text.split("---\n")[1])
        got = await _request(client, "skills/get", uri=uri)
        assert got["skill"] == entry and got["resultType"] == "complete"
        assert got["ttlMs"] > 0 and "cacheScope" in got
        assert entry["resources"][0]["uri"] == uri
        for resource in entry["resources"]:
            read = await client.read_resource(resource["uri"])
            (content,) = read.contents
            data = (
                content.text.encode("utf-8")
                if hasattr(content, "text")
                else base64.b64decode(content.blob)
            )
            path = folder + resource["uri"][len(uri) - len("SKILL.md") - 1 :]
            assert resource["digest"] == "sha256:" + lock[path]
            assert resource["digest"] == "sha256:" + hashlib.sha256(data).hexdigest()
            assert resource["size"] == len(data) == (project / path).stat().st_size

    pdf = entries["skill://pdf-tools/SKILL.md"]
    assert [r["uri"] for r in pdf["resources"]] == [
        "skill://pdf-tools/SKILL.md",
        "skill://pdf-tools/assets/logo.png",
        "skill://pdf-tools/references/FORMS.md",
        "skill://pdf-tools/scripts/extract.py",
    ]
    assert pdf["frontmatter"]["allowed-tools"] == "Bash(touch:*) Read"

    with pytest.raises(MCPError) as unknown:
        await _request(client, "skills/get", uri="skill://acme/refunds/SKILL.md")
    assert unknown.value.error.code == types.INVALID_PARAMS
    with pytest.raises(MCPError) as unlisted:
        await client.read_resource("skill://pdf-tools/../../pyproject.toml")
    assert unlisted.value.error.code == types.INVALID_PARAMS

    # Clients without the extension still have the skills as prompts.
    prompts = {prompt.name for prompt in (await client.list_prompts()).prompts}
    assert {"task.pdf-tools", "task.git-workflow"} <= prompts


def test_stdio_lists_gets_and_reads_skills_with_the_locks_digests(kit: Path) -> None:
    async def session(client: Any) -> None:
        await _check_skills(client, kit)
        # Serving a skill runs nothing of it: neither its !`cmd` line nor a tool its
        # allowed-tools names, whatever the host reads or gets.
        await client.get_prompt("task.pdf-tools", {"arguments": "a.pdf"})

    _drive(_stdio(kit), "auto", session)
    assert not list(kit.rglob("PWNED"))


def test_streamable_http_serves_the_same_skills(kit: Path) -> None:
    port = _free_port()
    with _http_server(kit, port):
        _drive(
            f"http://127.0.0.1:{port}/mcp",
            "auto",
            lambda client: _check_skills(client, kit),
        )
    assert not list(kit.rglob("PWNED"))


def test_a_file_changed_since_the_build_is_refused(tmp_path: Path) -> None:
    project = tmp_path / "project"
    shutil.copytree(write_project(tmp_path / "source"), project)
    build(project)
    (project / "out").rename(project / "kit")
    (project / "skills/pdf-tools/references/FORMS.md").write_text("# Changed\n")

    async def session(client: Any) -> None:
        with pytest.raises(MCPError, match="changed since the package was built"):
            await client.read_resource("skill://pdf-tools/references/FORMS.md")
        assert (await client.read_resource("skill://git-workflow/SKILL.md")).contents

    _drive(_stdio(project), "auto", session)
    (project / "kit").rename(project / "out")
    check = subprocess.run(
        [sys.executable, "-m", "skillc", "-C", str(project), "build", "--check"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])},
    )
    assert check.returncode == 1 and "_skills.py" in check.stdout + check.stderr


def test_a_profiles_server_serves_the_skills_of_its_tools(tmp_path: Path) -> None:
    project = write_project(tmp_path)
    with (project / "pyproject.toml").open("a") as config:
        config.write(
            '[tool.skillc.profiles.git]\nprovider = "mcp"\n'
            'include = ["task.git_workflow"]\n'
        )
    build(project)
    (project / "out").rename(project / "kit")

    async def session(client: Any) -> None:
        listed = await _request(client, "skills/list")
        assert [s["uri"] for s in listed["skills"]] == ["skill://git-workflow/SKILL.md"]
        with pytest.raises(MCPError) as other:
            await client.read_resource("skill://pdf-tools/SKILL.md")
        assert other.value.error.code == types.INVALID_PARAMS

    _drive(_stdio(project, "--profile", "git"), "auto", session)


def test_a_skill_that_cannot_be_published_says_why(tmp_path: Path) -> None:
    said = build(write_project(tmp_path))
    assert "warning[skill-not-published]: task.bad_name" in said
    assert "'Bad_Name' breaks the Agent Skills naming rules" in said
    assert "task.odd_values is a tool and a prompt, but its files are not" in said
    assert "its frontmatter holds what JSON cannot (bytes)" in said


def test_a_link_out_of_the_project_is_never_published(tmp_path: Path) -> None:
    """A contributor's symbolic link to a file of the machine (a secret) makes its
    skill unpublished: neither the server nor the well-known archives hold its bytes."""
    secret = tmp_path / "credentials"
    secret.write_text("TOKEN=hunter2-do-not-leak\n")
    project = write_project(tmp_path / "project")
    (project / "skills/git-workflow/creds.txt").symlink_to(secret)
    said = build(project)
    assert "task.git_workflow is a tool and a prompt, but its files are not" in said
    assert "creds.txt is a symbolic link to a place outside the project" in said
    out = project / "out"
    for path in out.rglob("*"):
        assert not path.is_file() or b"hunter2" not in path.read_bytes(), path
    assert "skill://git-workflow/" not in (out / "_skills.py").read_text()
    index = json.loads((out / ".well-known/agent-skills/index.json").read_text())
    assert [skill["name"] for skill in index["skills"]] == ["pdf-tools"]
