"""Issue 41, findings 1, 8 and 9, as the MCP server meets them: a skill file changed
after the build into a symbolic link (to another project file, to ``/dev/zero``), a
FIFO, a huge sparse file, or reached through a folder that became a link out of the
skill, is refused without blocking and without reading more than the size the build
recorded; 40 reads of a 6 MiB file at once do not take the server's memory to a
gigabyte; and the server exits when its input ends, even with a read stuck. Each runs
``python -m kit mcp`` over stdio, a fresh process, driven with raw JSON-RPC lines."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from security_kit import canary  # noqa: F401 - fixture
from skillc import cli

PATIENCE = 60  # a hang guard: a request unanswered this long never will be
BIG = 6 * 1024 * 1024
NOTE = "A note to read.\n"
HELLO = {
    "protocolVersion": "2025-11-25",
    "capabilities": {},
    "clientInfo": {"name": "t", "version": "0"},
}
# The server, with every file read stuck for good (a disk that hangs).
STUCK = """
import threading, sys
import kit._mcp as mcp, kit._mcp_skills as skills, kit._mcp_stdio as stdio
skills.read = lambda uri: threading.Event().wait() or {}
stdio.GRACE = 1.0
sys.exit(mcp.main(None, False, None))
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project whose skill ``docs`` has a note, a big text and a folder ``refs``."""
    project = tmp_path_factory.mktemp("skill-files") / "project"
    folder = project / "skills" / "docs"
    (folder / "refs").mkdir(parents=True)
    (project / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["skills"]\nout = "kit"\npackage = "kit"\n'
    )
    (folder / "SKILL.md").write_text(
        "---\nname: docs\ndescription: Documents to read. Use when asked about "
        "them.\n---\n\nRead refs/note.md.\n"
    )
    (folder / "refs" / "note.md").write_text(NOTE)
    (folder / "big.txt").write_text(("x" * 99 + "\n") * (BIG // 100))
    (project / ".env").write_text("TOKEN=not-for-the-model\n")
    assert cli.main(["-C", str(project), "build"]) == 0
    return project


@pytest.fixture
def project(built: Path, tmp_path: Path) -> Path:
    """A copy of the built project, for one test to change."""
    copy = tmp_path / "project"
    shutil.copytree(built, copy, symlinks=True)
    return copy


class Server:
    """``python -m kit mcp`` (or ``code``) over stdio, one JSON-RPC message a line."""

    def __init__(self, project: Path, code: str | None = None) -> None:
        command = ["-c", code] if code else ["-m", "kit", "mcp"]
        self.process = subprocess.Popen(
            [sys.executable, *command],
            cwd=project,
            env={**os.environ, "PYTHONPATH": str(project)},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.send(0, "initialize", HELLO)
        assert self.answer(0)["result"]["serverInfo"]["name"] == "kit"

    def send(self, ident: int, method: str, params: dict[str, Any]) -> None:
        message = {"jsonrpc": "2.0", "id": ident, "method": method, "params": params}
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def answer(self, ident: int) -> dict[str, Any]:
        """The next line, which must answer ``ident`` (a thread keeps it bounded)."""
        assert self.process.stdout is not None
        line = _within(self.process.stdout.readline, PATIENCE)
        assert line, f"the server ended before answering {ident}"
        message: dict[str, Any] = json.loads(line)
        assert message["id"] == ident
        return message

    def read(self, ident: int, uri: str) -> dict[str, Any]:
        self.send(ident, "resources/read", {"uri": uri})
        return self.answer(ident)

    def peak(self) -> int:
        """The server's peak resident memory, in bytes."""
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        line = next(line for line in status.splitlines() if line.startswith("VmHWM"))
        return int(line.split()[1]) * 1024

    def ended(self) -> bool:
        """Whether the server exits once its input ends (within ``PATIENCE``)."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            self.process.wait(PATIENCE)
        except subprocess.TimeoutExpired:
            self.process.kill()  # the test's own server, by its handle
            self.process.wait()
            return False
        return True


def _within(read: Any, seconds: float) -> Any:
    import threading

    box: list[Any] = []
    thread = threading.Thread(target=lambda: box.append(read()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert box, "no answer in time"
    return box[0]


@pytest.fixture
def server(project: Path) -> Iterator[Server]:
    running = Server(project)
    try:
        yield running
    finally:
        if running.process.poll() is None:
            running.ended()


def _refused(answer: dict[str, Any]) -> str:
    assert "result" not in answer, answer
    message: str = answer["error"]["message"]
    assert "/" + "project" not in message  # no path of this machine
    return message


NOTE_URI = "skill://docs/refs/note.md"


def test_an_unchanged_file_is_served(server: Server) -> None:
    assert server.read(1, NOTE_URI)["result"]["contents"][0]["text"] == NOTE


@pytest.mark.parametrize("target", ["../../../.env", "/dev/zero", "note-copy.md"])
def test_a_file_replaced_by_a_link_is_served_only_inside_its_skill(
    project: Path, target: str
) -> None:
    note = project / "skills" / "docs" / "refs" / "note.md"
    (note.parent / "note-copy.md").write_text(NOTE)  # the same bytes, in the skill
    note.unlink()
    note.symlink_to(target)
    server = Server(project)
    answer = server.read(1, NOTE_URI)
    if target == "note-copy.md":  # its real path is in the skill: the build's bytes
        assert answer["result"]["contents"][0]["text"] == NOTE
    else:
        assert "not-for-the-model" not in _refused(answer)
    assert server.peak() < 200 * 1024 * 1024  # /dev/zero was not read
    assert server.ended()


def test_a_fifo_is_refused_without_blocking(project: Path) -> None:
    note = project / "skills" / "docs" / "refs" / "note.md"
    note.unlink()
    os.mkfifo(note)
    server = Server(project)
    assert "not a regular file" in _refused(server.read(1, NOTE_URI))
    assert server.read(2, "skill://docs/SKILL.md")["result"]  # still answering
    assert server.ended()


def test_a_folder_replaced_by_a_link_out_of_the_skill_is_refused(
    project: Path,
) -> None:
    refs = project / "skills" / "docs" / "refs"
    elsewhere = project / "elsewhere"
    shutil.move(refs, elsewhere)  # the very same file, now outside the skill
    refs.symlink_to(elsewhere)
    server = Server(project)
    assert "out of its skill's folder" in _refused(server.read(1, NOTE_URI))
    assert server.ended()


def test_a_file_grown_huge_is_read_no_further_than_its_size(project: Path) -> None:
    note = project / "skills" / "docs" / "refs" / "note.md"
    with note.open("r+b") as handle:
        handle.truncate(8 * 1024**3)  # sparse: 8 GiB of zeros on no disk
    server = Server(project)
    assert "changed since" in _refused(server.read(1, NOTE_URI))
    assert server.peak() < 200 * 1024 * 1024
    assert server.ended()


def test_forty_reads_of_a_big_file_at_once_stay_bounded(server: Server) -> None:
    for ident in range(1, 41):
        server.send(ident, "resources/read", {"uri": "skill://docs/big.txt"})
    assert server.process.stdout is not None
    lengths = set()
    for _ in range(40):  # each the whole file (not parsed: 600 MB of JSON)
        line = _within(server.process.stdout.readline, PATIENCE)
        assert b'"result"' in line[:200] and line.endswith(b'"}]}}\n'), line[:200]
        lengths.add(len(line) - len(line.split(b'"id":', 1)[1].split(b",", 1)[0]))
    assert len(lengths) == 1 and lengths.pop() > BIG
    assert server.peak() < 250 * 1024 * 1024  # unbounded: about 1 GB


def test_the_server_exits_when_its_input_ends_with_a_read_stuck(
    project: Path,
) -> None:
    server = Server(project, STUCK)
    server.send(1, "resources/read", {"uri": NOTE_URI})
    time.sleep(0.5)  # the read has started, and is stuck
    assert server.ended()
