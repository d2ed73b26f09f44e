"""``python -m <package> mcp`` over stdio reads and writes its wire on the event loop
when the wire is a pipe (as clients start it): no worker thread per line or per write,
which made a call cost 1.5 times the CPU of a lean server on the SDK. To a regular
file the SDK's threaded writes still serve it."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from conftest import FIXTURES
from skillc import cli

if not os.environ.get("CI"):  # CI installs it (noxfile.PROVIDER_SDKS): never skip there
    pytest.importorskip("mcp")

HELLO = {"protocolVersion": "2025-11-25", "capabilities": {}}
HELLO["clientInfo"] = {"name": "test", "version": "1"}


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = tmp_path_factory.mktemp("stdio") / "tools"
    shutil.copytree(FIXTURES / "tools", project)
    with contextlib.redirect_stderr(io.StringIO()) as err:
        assert cli.main(["-C", str(project), "build"]) == 0, err.getvalue()
    (project / "out").rename(project / "kit")
    return project


def _lines(*requests: tuple[int, str, dict[str, Any]]) -> bytes:
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": HELLO},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
    ]
    for ident, method, params in requests:
        messages.append(
            {"jsonrpc": "2.0", "id": ident, "method": method, "params": params}
        )
    return b"".join(json.dumps(m).encode() + b"\n" for m in messages)


def _server(kit: Path, stdin: Any) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(kit), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.Popen(
        [sys.executable, "-m", "kit", "mcp"],
        cwd=kit,
        env=env,
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def _answer(process: subprocess.Popen[bytes], ident: int) -> dict[str, Any]:
    assert process.stdout is not None
    while True:
        line = process.stdout.readline()
        assert line, process.stderr.read() if process.stderr else b""
        message: dict[str, Any] = json.loads(line)
        if message.get("id") == ident:
            return message


def test_over_a_pipe_the_wire_takes_no_worker_thread(kit: Path) -> None:
    process = _server(kit, subprocess.PIPE)
    assert process.stdin is not None
    try:
        process.stdin.write(_lines((2, "tools/list", {}), (3, "ping", {})))
        process.stdin.flush()
        assert _answer(process, 2)["result"]["tools"]
        assert _answer(process, 3)["result"] == {}
        # The SDK's transport reads each line in a worker thread, kept alive for
        # the next: here the process has only its main thread.
        threads = os.listdir(f"/proc/{process.pid}/task")
        assert len(threads) == 1, threads
        call = {"name": "file.read", "arguments": {"path": "hello.txt"}}
        process.stdin.write(
            json.dumps(
                {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": call}
            ).encode()
            + b"\n"
        )
        process.stdin.flush()
        result = _answer(process, 5)["result"]
        assert result["structuredContent"] == {"result": "hello\n"}
        process.stdin.close()
        assert process.wait(60) == 0
    finally:
        process.kill()
        process.wait()


def test_to_a_file_the_sdks_threaded_writes_serve(kit: Path, tmp_path: Path) -> None:
    out = tmp_path / "answers.jsonl"
    env = {**os.environ, "PYTHONPATH": str(kit), "PYTHONDONTWRITEBYTECODE": "1"}
    call = {"name": "file.read", "arguments": {"path": "hello.txt"}}
    with out.open("wb") as stdout:
        process = subprocess.Popen(
            [sys.executable, "-m", "kit", "mcp"],
            cwd=kit,
            env=env,
            stdin=subprocess.PIPE,
            stdout=stdout,
            stderr=subprocess.DEVNULL,
        )
        assert process.stdin is not None
        try:
            process.stdin.write(_lines((2, "tools/call", call)))
            process.stdin.flush()
            for _ in range(1200):  # the answer, or two minutes
                if b'"id":2' in out.read_bytes():
                    break
                time.sleep(0.1)
            process.stdin.close()
            process.wait(60)
        finally:
            process.kill()
            process.wait()
    answers = [json.loads(line) for line in out.read_bytes().splitlines()]
    result = next(a["result"] for a in answers if a.get("id") == 2)
    assert result["structuredContent"] == {"result": "hello\n"}
