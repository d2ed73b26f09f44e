"""``python -m guarded mcp`` driven over stdio with raw JSON-RPC lines, as a hostile
client may write them (the SDK's own client would refuse to send some): every request
gets an answer under its id, and the server keeps answering the next one."""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from security_kit import canary, guarded, workspace  # noqa: F401 - fixtures

pytest.importorskip("mcp")
PATIENCE = 60  # a hang guard: a request that gets no answer never gets one


class Wire:
    """A server process and its stdio, one JSON-RPC message a line."""

    def __init__(self, project: Path) -> None:
        env = {**os.environ, "PYTHONPATH": str(project), "PYTHONDONTWRITEBYTECODE": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "guarded", "mcp"],
            cwd=project,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.buffer = b""
        self.ask(
            0,
            "initialize",
            {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "hostile", "version": "0"},
            },
        )
        self.send('{"jsonrpc": "2.0", "method": "notifications/initialized"}')

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line.encode("utf-8", "surrogatepass") + b"\n")
        self.process.stdin.flush()

    def ask(self, ident: int, method: str, params: Any = None) -> dict[str, Any]:
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": ident, "method": method}
        if params is not None:
            message["params"] = params
        self.send(json.dumps(message))
        return self.answer(ident)

    def answer(self, ident: int) -> dict[str, Any]:
        """The answer to request ``ident`` (notifications and others skipped)."""
        assert self.process.stdout is not None
        stdout = self.process.stdout.fileno()
        until = time.monotonic() + PATIENCE
        with selectors.DefaultSelector() as selector:
            selector.register(stdout, selectors.EVENT_READ)
            while True:
                line, _, rest = self.buffer.partition(b"\n")
                if _:
                    self.buffer = rest
                    message = json.loads(line)
                    if message.get("id") == ident:
                        return dict(message)
                    continue
                left = until - time.monotonic()
                assert left > 0, f"no answer to request {ident}"
                if selector.select(left):
                    chunk = os.read(stdout, 1 << 16)
                    assert chunk, f"the server ended before answering {ident}"
                    self.buffer += chunk

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()  # the test's own server, by its handle
            self.process.wait()


@pytest.fixture
def wire(guarded: Any) -> Iterator[Wire]:
    server = Wire(Path(guarded.__file__).parent.parent)
    try:
        yield server
    finally:
        server.close()


def _alive(wire: Wire, ident: int) -> None:
    assert wire.ask(ident, "ping") == {"jsonrpc": "2.0", "id": ident, "result": {}}


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_a_request_nested_any_depth_gets_an_answer(wire: Wire, depth: int) -> None:
    deep = "[" * depth + "]" * depth
    wire.send(
        '{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": '
        f'{{"name": "file.read", "arguments": {{"path": {deep}}}}}}}'
    )
    answer = wire.answer(7)
    assert answer["result"]["isError"] is True
    assert "nested deeper" in answer["result"]["content"][0]["text"]
    _alive(wire, 8)


def test_a_file_name_that_is_not_utf8_is_sent_encodable(
    guarded: Any, wire: Wire
) -> None:
    name = os.fsencode(workspace(guarded)) + b"/odd-\xff.txt"
    os.close(os.open(name, os.O_CREAT | os.O_WRONLY, 0o644))
    try:
        answer = wire.ask(3, "tools/call", {"name": "file.dir", "arguments": {}})
    finally:
        os.unlink(name)
    assert answer["result"]["isError"] is False
    listed = json.loads(answer["result"]["content"][0]["text"])
    assert "odd-\\xff.txt" in listed and "hello.txt" in listed
    _alive(wire, 4)


def test_a_long_prompt_does_not_hold_the_other_requests(wire: Wire) -> None:
    # Splitting three megabytes of arguments took shlex minutes, on the event loop.
    words = "a" * 3_000_000 + " b"
    params = {"name": "task.echo", "arguments": {"arguments": words}}
    wire.send(
        json.dumps(
            {"jsonrpc": "2.0", "id": 5, "method": "prompts/get", "params": params}
        )
    )
    _alive(wire, 6)
    answer = wire.answer(5)
    text = answer["result"]["messages"][0]["content"]["text"]
    assert text.startswith("Repeat these words: aaa") and text.endswith(" b")
